package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// settingsModel is a test model whose config file is a scratch one.
func settingsModel(t *testing.T, opt Options) (*Model, *fakeCalls, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	opt.ConfigPath = path
	m, fc, _ := newTest(t, opt)
	m.width = 160
	return m, fc, path
}

// addHostForm opens Add a host from the palette's action and fills it.
func addHostForm(t *testing.T, m *Model, name, addr string) {
	t.Helper()
	m.runAction(ActAddHost, "")
	if p := m.agentsUI.page; p == nil || p.tab != tabHosts || p.form == nil {
		t.Fatalf("Add a host did not open its form: %+v", m.agentsUI.page)
	}
	typeText(m, name)
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	typeText(m, addr)
}

// Add a host writes the host, then applies it only when nothing else
// waits; the daemon's refusal (a client inside a pane) leaves it saved
// and waiting, and the dock says so.
func TestSettingsAddHostAppliesWhenNothingElseWaits(t *testing.T) {
	t.Parallel()
	m, fc, path := settingsModel(t, Options{})
	addHostForm(t, m, "build", "me@buildbox:2222")
	m.Update(key("enter"))
	if m.agentsUI.page.form != nil {
		t.Fatalf("the form stayed open: %q", m.agentsUI.page.form.err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "[hosts.build]") || !strings.Contains(string(b), `addr = "me@buildbox:2222"`) {
		t.Fatalf("the file:\n%s", b)
	}
	c := fc.last(t, "pane-grants")
	if c.tag != "settings:pending:build" {
		t.Fatalf("pane-grants tag %q", c.tag)
	}
	m.Update(reply(c.tag, map[string]any{"pending": []string{"host build added or changed"}}))
	a := fc.last(t, "apply-config")
	m.Update(reply(a.tag, map[string]any{"added": []string{"build"}, "path": path}))
	if !strings.Contains(m.dock, "host build added and applied: dialling build") {
		t.Errorf("dock after apply: %q", m.dock)
	}
	m.Update(reply(a.tag, map[string]any{"added": []string{}, "path": "/elsewhere/config.toml"}))
	if !strings.Contains(m.dock, "but the daemon reads /elsewhere/config.toml") {
		t.Errorf("dock when the daemon reads another file: %q", m.dock)
	}

	// The daemon refuses a caller inside a pane: the host waits.
	m.Update(replyMsg{tag: a.tag, verb: "apply-config", err: proto.Errorf(proto.CodeForbidden, "apply-config … may not")})
	if !strings.Contains(m.dock, "host build is saved; it waits for tuios config apply") {
		t.Errorf("dock after a refusal: %q", m.dock)
	}
}

// When something else waits for tuios config apply (a pane widened the
// file), adding a host does not apply it with the host: the dock names
// what waits.
func TestSettingsAddHostLeavesOtherChangesWaiting(t *testing.T) {
	t.Parallel()
	m, fc, _ := settingsModel(t, Options{})
	addHostForm(t, m, "lab", "lab.example.com")
	m.Update(key("enter"))
	c := fc.last(t, "pane-grants")
	n := countCalls(fc, "apply-config")
	m.Update(reply(c.tag, map[string]any{"pending": []string{"host lab added or changed", "[agents.permissions] strict (read) to open (admin)"}}))
	if countCalls(fc, "apply-config") != n {
		t.Fatalf("applied although a wider permission waits")
	}
	if !strings.Contains(m.dock, "host lab is saved, not applied: other changes wait too ([agents.permissions] strict (read) to open (admin))") {
		t.Errorf("dock: %q", m.dock)
	}
}

// Bad input keeps the form open with the reason, the cursor on the field
// at fault, and writes nothing; a paste goes into the field, never the
// pane.
func TestSettingsAddHostRefusesBadInput(t *testing.T) {
	t.Parallel()
	m, fc, path := settingsModel(t, Options{})
	os.WriteFile(path, []byte("# mine\n[hosts.build]\naddr = \"me@buildbox\"\n"), 0o600)
	before, _ := os.ReadFile(path)
	for _, c := range []struct{ name, addr, want string }{
		{"", "me@x", "give the host a name"},
		{"x", "", "give the address ssh would use"},
		{"a/b", "me@x", `"a/b" is not a host name`},
		{"local", "me@x", "the name local is reserved"},
		{"ok", "-oProxyCommand=sh", "starts with '-'"},
		{"ok", "me@x y", "not an ssh destination"},
		{"build", "other@x", "a host named build is there already (me@buildbox)"},
	} {
		addHostForm(t, m, c.name, c.addr)
		n := len(fc.calls)
		m.Update(key("enter"))
		f := m.agentsUI.page.form
		if f == nil || !strings.Contains(f.err, c.want) {
			t.Errorf("%q %q: form %+v, want %q", c.name, c.addr, f, c.want)
			continue
		}
		if !strings.Contains(screenText(m), f.err[:min(len(f.err), 40)]) {
			t.Errorf("the reason is not drawn:\n%s", screenText(m))
		}
		if len(fc.calls) != n {
			t.Errorf("%q %q: calls %+v", c.name, c.addr, fc.calls[n:])
		}
		m.Update(key("esc"))
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("refused input changed the file:\n%s", after)
	}

	addHostForm(t, m, "p", "")
	n := len(fc.calls)
	m.Update(tea.PasteMsg{Content: "me@\x1b[31mhost\n"})
	if got := m.agentsUI.page.form.value(1); strings.TrimSpace(got) != "me@host" {
		t.Errorf("pasted field %q", got)
	}
	if countCalls(fc, "send-text") != 0 || len(fc.calls) != n {
		t.Errorf("the paste reached a pane: %+v", fc.calls[n:])
	}
}

// The Alerts tab flips a switch and steps a choice with set-config, the
// daemon's verb; a refused typed value keeps its line open with the
// daemon's reason.
func TestSettingsAlertsSetThroughTheDaemon(t *testing.T) {
	t.Parallel()
	m, fc, _ := settingsModel(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key(","))
	c := fc.last(t, "list-options")
	if c.params["prefix"] != alertsPrefix || c.tag != "settings:alerts" {
		t.Fatalf("list-options %+v", c)
	}
	m.Update(reply(c.tag, map[string]any{"path": "/cfg.toml", "options": []map[string]any{
		{"key": "notifications.agent.sound", "type": "bool", "value": false, "description": "play a sound"},
		{"key": "notifications.agent.sound_mode", "type": "enum", "value": "both", "accepted": []string{"audio", "bell", "both"}},
		{"key": "notifications.agent.settle_seconds", "type": "number", "value": 2.0},
	}}))
	s := screenText(m)
	if !strings.Contains(s, "Settings › Alerts") || !strings.Contains(s, "[Alerts]") || !regexp.MustCompile(`sound\s+false\s+play a sound`).MatchString(s) {
		t.Fatalf("the tab:\n%s", s)
	}
	m.Update(key("enter"))
	if c := fc.last(t, "set-config"); c.params["key"] != "notifications.agent.sound" || c.params["value"] != true {
		t.Errorf("enter on sound: %+v", c)
	}
	// A click on a row acts as enter on it.
	for y, row := range plain(m) {
		if strings.Contains(row, "sound_mode") {
			m.noticeMouse(mouseAt(40, y), mouseClick)
		}
	}
	if c := fc.last(t, "set-config"); c.params["key"] != "notifications.agent.sound_mode" || c.params["value"] != "audio" || m.agentsUI.page.alerts.at != 1 {
		t.Errorf("a click on sound_mode: %+v", c)
	}
	m.agentsUI.page.alerts.at = 0
	m.Update(key("j"))
	m.Update(key("enter"))
	if c := fc.last(t, "set-config"); c.params["value"] != "audio" {
		t.Errorf("enter on sound_mode both: %+v (want the first choice again)", c)
	}
	m.Update(key("j"))
	m.Update(key("enter"))
	if f := m.agentsUI.page.form; f == nil || f.value(0) != "2" {
		t.Fatalf("enter on a number: form %+v", f)
	}
	m.Update(key("ctrl+u"))
	typeText(m, "x")
	m.Update(key("enter"))
	c = fc.last(t, "set-config")
	if c.params["value"] != "x" {
		t.Errorf("typed value %+v", c)
	}
	m.Update(replyMsg{tag: c.tag, verb: "set-config", err: proto.Errorf(proto.CodeInvalidParams, `notifications.agent.settle_seconds: "x" is not a number from 0 to 3600`)})
	if f := m.agentsUI.page.form; f == nil || !strings.Contains(f.err, `"x" is not a number`) {
		t.Fatalf("a refused value: form %+v", f)
	}
	m.Update(reply(c.tag, map[string]any{"key": "notifications.agent.settle_seconds", "value": 5.0, "previous": 2.0, "changed": true, "path": "/cfg.toml", "applies": "at once"}))
	if m.agentsUI.page.form != nil || !strings.Contains(m.dock, "notifications.agent.settle_seconds = 5 (was 2), in /cfg.toml") {
		t.Errorf("after the daemon took it: form %+v, dock %q", m.agentsUI.page.form, m.dock)
	}
}

// Tabs switch with tab, shift+tab, right and left, wrapping round; esc
// closes the page; prefix , opens it again on the tab it showed last;
// a rebound key of the page acts.
func TestSettingsTabs(t *testing.T) {
	t.Parallel()
	m, _, _ := settingsModel(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key(","))
	tab := func() string { return m.agentsUI.page.tab }
	if tab() != tabAlerts {
		t.Fatalf("first open: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if tab() != tabHosts {
		t.Fatalf("tab: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if tab() != tabAgents || m.agentsUI.tab == nil {
		t.Fatalf("right from the last tab: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if tab() != tabHosts || m.agentsUI.tab != nil {
		t.Fatalf("left: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	if tab() != tabAlerts {
		t.Fatalf("shift+tab: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if tab() != tabHosts {
		t.Fatalf("right: %s", tab())
	}
	// A click on a tab's name in the bar shows it.
	bar := plain(m)[0]
	m.noticeMouse(mouseAt(ansi.StringWidth(bar[:strings.Index(bar, " Alerts ")])+2, 0), mouseClick) // on the A
	if tab() != tabAlerts {
		t.Fatalf("a click on Alerts in %q: %s", bar, tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	m.Update(key("esc"))
	if m.agentsUI.page != nil {
		t.Fatal("esc did not close the page")
	}
	m.Update(key("ctrl+b"))
	m.Update(key(","))
	if tab() != tabHosts {
		t.Errorf("reopened on %s, not the tab shown last", tab())
	}
	m.Update(key("esc"))
	m.Update(key("ctrl+b"))
	m.Update(key("A"))
	if tab() != tabAgents || m.agentsUI.tab == nil {
		t.Errorf("prefix A: %s", tab())
	}

	m, _, _ = settingsModel(t, Options{Bindings: map[string]string{"settings.next-tab": "n"}})
	m.openSettings("")
	m.Update(key("n"))
	if tab() != tabHosts {
		t.Errorf("n, next-tab rebound: %s", tab())
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if tab() != tabHosts {
		t.Errorf("tab still switches after next-tab was rebound to n: %s", tab())
	}
	if !strings.Contains(plain(m)[18], "n next tab") {
		t.Errorf("the key line does not follow the rebinding: %q", plain(m)[18])
	}
}

// A session on another machine: no Agents tab, and Alerts and Hosts say
// they are this machine's, asking the daemon nothing.
func TestSettingsOnAnotherHost(t *testing.T) {
	t.Parallel()
	m, fc, _ := settingsModel(t, Options{})
	m.link.host = "far"
	n := len(fc.calls)
	m.Update(key("ctrl+b"))
	m.Update(key(","))
	s := screenText(m)
	if strings.Contains(plain(m)[0], "Agents") || !strings.Contains(s, "the session is on far") {
		t.Errorf("the page on a host:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if s := screenText(m); !strings.Contains(s, "Settings › Hosts") || !strings.Contains(s, "the session is on far") {
		t.Errorf("Hosts on a host:\n%s", s)
	}
	m.Update(key("a"))
	if m.agentsUI.page.form != nil || len(fc.calls) != n {
		t.Errorf("Add a host on a host: form %+v, calls %+v", m.agentsUI.page.form, fc.calls[n:])
	}
}

// A program is not the person: a chord handed over by the daemon does not
// open the settings page, and none acts while the page is open.
func TestSettingsNotFromAProgram(t *testing.T) {
	t.Parallel()
	m, fc, _ := settingsModel(t, Options{})
	m.Update(proto.AttachKeys{Keys: []string{"C-b", ","}})
	if m.agentsUI.page != nil || !strings.Contains(m.dock, "only you can open it") {
		t.Fatalf("a chord for ,: page %v, dock %q", m.agentsUI.page, m.dock)
	}
	m.openSettings(tabHosts)
	n := len(fc.calls)
	m.Update(proto.AttachKeys{Keys: []string{"C-b", "c"}})
	if len(fc.calls) != n || !strings.Contains(m.dock, "while you had something open: not run") {
		t.Errorf("a chord while the page is open: calls %+v, dock %q", fc.calls[n:], m.dock)
	}
}

// FuzzSettingsReplies: whatever the daemon answers to the page's calls
// (another machine's text may be in a host's reason), the page takes it
// and draws it without panicking, every row its width.
func FuzzSettingsReplies(f *testing.F) {
	f.Add([]byte(`{"options":[{"key":"notifications.agent.sound","type":"bool","value":true}]}`), "alerts")
	f.Add([]byte(`{"hosts":[{"name":"b\u001b[31m","addr":"x","status":"up","reason":"\u202e"}]}`), "hosts")
	f.Add([]byte(`{"pending":["x"]}`), "pending:b")
	f.Add([]byte(`{"added":["b"],"refused":[{"host":"b","reason":"no"}]}`), "apply:b")
	f.Add([]byte(`{"key":1,"value":[1,2],"previous":{"a":1},"changed":true}`), "set")
	f.Fuzz(func(t *testing.T, raw []byte, tag string) {
		m, _, _ := settingsModel(t, Options{})
		m.openSettings(tabAlerts)
		m.Update(replyMsg{tag: "settings:" + tag, raw: raw})
		m.showSettingsTab(tabHosts)
		m.Update(replyMsg{tag: "settings:" + tag, raw: raw})
		for _, k := range []string{"j", "enter", "G", "enter"} {
			m.Update(key(k))
		}
		for i, row := range plain(m) {
			if w := ansi.StringWidth(row); w != m.width {
				t.Fatalf("row %d is %d wide, not %d: %q", i, w, m.width, row)
			}
		}
	})
}
