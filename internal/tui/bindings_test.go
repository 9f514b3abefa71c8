package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/vt"
)

// The table itself: no mode gives one key two meanings, every row says
// what it does, and every rebindable action is a default binding.
func TestKeyTableIsConsistent(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	defaults := DefaultBindings()
	for _, b := range keyTable() {
		if b.does == "" {
			t.Errorf("%s says nothing", b.action)
		}
		if !slices.ContainsFunc(keyModes, func(m struct{ mode, title string }) bool { return m.mode == b.mode }) {
			t.Errorf("%s: mode %q has no heading", b.action, b.mode)
		}
		for _, k := range b.keys {
			if !validKeyName(k) {
				t.Errorf("%s: default key %q is not a key name", b.action, k)
			}
			if other, dup := seen[b.mode+" "+k]; dup {
				t.Errorf("%s and %s both have %q in %s mode", other, b.action, k, b.mode)
			}
			seen[b.mode+" "+k] = b.action
		}
		if _, ok := defaults[b.action]; ok == b.fixed {
			t.Errorf("%s: fixed %v, yet a default binding %v", b.action, b.fixed, ok)
		}
	}
}

// Every view made from the table follows a rebinding: the help, the
// dock's hint, the palette, attach --help and the key itself.
func TestRebindingReachesEveryView(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{Prefix: "ctrl+a", Bindings: map[string]string{ActZoom: "Z", ActDetach: "x", "copy.page-up": "u"}})

	// The prefix's hint names the new key and the real prefix.
	m.Update(key("ctrl+a"))
	dock := plain(m)[19]
	if !strings.Contains(dock, "ctrl+a:") || !strings.Contains(dock, `c new  % " split`) || !strings.Contains(dock, "Z zoom") || !strings.HasSuffix(strings.TrimRight(dock, " "), "? help") || ansi.StringWidth(dock) != 104 {
		t.Errorf("hint after the prefix: %q", dock)
	}
	m.width = 160 // a wider dock holds more of them
	if dock := plain(m)[19]; !strings.Contains(dock, "x detach  b rail  ? help") {
		t.Errorf("hint at 160 columns: %q", dock)
	}
	m.width = 104
	if !hasAttrs(m, 19, "Z zoom", vt.AttrBold) || hasAttrs(m, 19, "zoom", vt.AttrBold) {
		t.Errorf("the hint's keys are not bold: %q", strings.Split(m.Render(), "\n")[19])
	}
	// Z zooms; z is nobody's now.
	m.Update(key("Z"))
	if c := fc.last(t, "run-command"); c.params["command"] != "ToggleZoom" {
		t.Errorf("prefix Z ran %+v", c)
	}
	n := len(fc.calls)
	m.Update(key("ctrl+a"))
	m.Update(key("z"))
	if len(fc.calls) != n {
		t.Errorf("prefix z still does something: %+v", fc.calls[n:])
	}

	// The help lists Z for zoom, x for detach, close-window without a
	// key (x was taken from it), and the copy mode's u.
	help := strings.Join(stripAll(m.helpLines(100)), "\n")
	for _, want := range []string{
		"Window mode: after the prefix, ctrl+a",
		"Z               zoom the focused window",
		"x               detach (the windows keep running)",
		"—               close the focused window",
		"u               a page up",
		"ctrl+a          type the prefix key into the window",
		"[keybindings.copy] page-up",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	if out := KeysHelp(Options{Prefix: "ctrl+a", Bindings: map[string]string{ActZoom: "Z"}}); !strings.Contains(out, "Z               zoom the focused window") || strings.Contains(out, "\x1b") {
		t.Errorf("KeysHelp:\n%s", out)
	}

	// The palette: Window: zoom with Z, Window: close with no key that
	// still closes, and a workspace per digit.
	es := m.paletteEntries()
	find := func(name string) paletteEntry {
		for _, e := range es {
			if e.name == name {
				return e
			}
		}
		t.Fatalf("no palette entry %q in %+v", name, es)
		return paletteEntry{}
	}
	if e := find("Window: zoom"); e.key != "Z" {
		t.Errorf("zoom's palette key %q", e.key)
	}
	if e := find("Window: close"); e.key != "" {
		t.Errorf("close's palette key %q", e.key)
	}
	find("Window: close").run(m)
	if m.confirmClose != "w1" {
		t.Errorf("the palette's close did not ask: %q", m.confirmClose)
	}
	m.confirmClose = ""
	find("Workspace: 7").run(m)
	if c := fc.last(t, "select-workspace"); c.params["workspace"] != 7 {
		t.Errorf("Workspace: 7 ran %+v", c)
	}
	for _, name := range []string{"Window: split side by side", "Window: split stacked", "Help: every key", "Sessions: show or hide the rail", "Window: paste", "Session: detach"} {
		find(name)
	}
}

// The palette lists every window action the table names for it.
func TestPaletteListsEveryTableAction(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	names := map[string]bool{}
	for _, e := range m.paletteEntries() {
		names[e.name] = true
	}
	for _, b := range keyTable() {
		if b.mode != ModeWindow || b.palette == "" || b.action == ActAgents {
			continue
		}
		name := strings.ReplaceAll(b.palette, "%s", "1")
		if !names[name] {
			t.Errorf("the palette lacks %q", name)
		}
	}
}

// Until the daemon has seen an agent, the hint after the prefix, the
// help and the palette leave the Inbox, the mail and the Agents tab out;
// their keys work all the same. Once seen, the palette finds them all by
// "agent".
func TestAgentKeysHiddenUntilAnAgentIsSeen(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.layout.Agents, m.layout.AgentsSeen = nil, false
	m.width = 200 // room for every hinted key
	m.Update(key("ctrl+b"))
	if dock := plain(m)[19]; strings.Contains(dock, "inbox") || !strings.Contains(dock, "c new") || !strings.Contains(dock, "? help") {
		t.Errorf("hint after the prefix, no agent seen: %q", dock)
	}
	m.Update(key("i"))
	if m.inbox == nil {
		t.Error("prefix i did not open the Inbox before an agent was seen")
	}
	fc.last(t, "list-attention")
	m.inbox = nil
	help := strings.Join(stripAll(m.helpLines(120)), "\n")
	for _, hidden := range []string{"Inbox: prefix i", "the Inbox: everything waiting for you", "the newest finished turn", "Agents tab", "an agent row: mark"} {
		if strings.Contains(help, hidden) {
			t.Errorf("help shows %q before an agent was seen:\n%s", hidden, help)
		}
	}
	if !strings.Contains(help, "Review: prefix v") || !strings.Contains(help, "copy mode: scroll back") {
		t.Errorf("help lost what is not about agents:\n%s", help)
	}
	names := func() []string {
		p := &palette{entries: m.paletteEntries(), text: []rune("agent")}
		var out []string
		for _, e := range p.matches() {
			out = append(out, e.name)
		}
		return out
	}
	if got := names(); len(got) != 0 {
		t.Errorf("palette \"agent\" before an agent was seen: %q", got)
	}

	m.layout.AgentsSeen = true
	m.Update(key("ctrl+b"))
	if dock := plain(m)[19]; !strings.Contains(dock, "i inbox") {
		t.Errorf("hint after the prefix, an agent seen: %q", dock)
	}
	m.Update(key("esc"))
	if help := strings.Join(stripAll(m.helpLines(120)), "\n"); !strings.Contains(help, "Inbox: prefix i") || !strings.Contains(help, "the Inbox: everything waiting for you") {
		t.Errorf("help, an agent seen:\n%s", help)
	}
	got := names()
	for _, want := range []string{"Inbox: open", "Inbox: oldest needing you", "Mail: newest finished turn", "Mail: open inbox", "Agents: settings"} {
		if !slices.Contains(got, want) {
			t.Errorf("palette \"agent\" lacks %q: %q", want, got)
		}
	}
}

func TestCheckBindings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prefix string
		b      map[string]string
		want   string // "" is no error
	}{
		{"", map[string]string{ActZoom: "Z", "copy.page-up": "u", "review.send": "ctrl+s", "rail.go": "l"}, ""},
		{"ctrl+a", map[string]string{ActDetach: "ctrl+b"}, ""},
		{"", map[string]string{"zoomm": "z"}, `[keybindings] has no action "zoomm"`},
		{"", map[string]string{"inbox.fly": "f"}, `[keybindings.inbox] has no action "fly"`},
		{"", map[string]string{ActWorkspace: "w"}, `[keybindings] has no action "workspace"`},
		{"", map[string]string{ActZoom: "ctlr+z"}, `[keybindings] zoom: "ctlr+z" is not a key`},
		{"", map[string]string{ActZoom: "Z", ActDetach: "Z"}, `detach and zoom are both bound to "Z"`},
		{"", map[string]string{"copy.up": "K", "copy.down": "K"}, `[keybindings.copy] down and up are both bound to "K"`},
		{"", map[string]string{ActZoom: "K", "copy.up": "K"}, ""}, // two modes
		{"", map[string]string{ActZoom: "ctrl+b"}, `zoom: "ctrl+b" is the prefix key`},
		{"", map[string]string{"copy.page-up": "ctrl+b"}, `[keybindings.copy] page-up: "ctrl+b" is the prefix key`},
		{"ctrl+", nil, `prefix: "ctrl+" is not a key`},
	} {
		err := checkBindings(c.prefix, c.b)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("checkBindings(%q, %v) = %v, want %q", c.prefix, c.b, err, c.want)
		}
	}
}

func TestValidKeyName(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"a", "G", "%", `"`, "?", "é", "ctrl+b", "alt+x", "ctrl+alt+x", "shift+tab", "pgup", "f12", "space", "esc"} {
		if !validKeyName(k) {
			t.Errorf("%q refused", k)
		}
	}
	for _, k := range []string{"", " ", "ctrl+", "ctrl+bb", "pageup", "f13", "\x01", "ab"} {
		if validKeyName(k) {
			t.Errorf("%q taken", k)
		}
	}
}

func TestKeysText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"1 2 3 4 5 6 7 8 9": "1-9", "1 2 3": "1-3", "1 3 5": "1 3 5", "k up": "k up", "": "—"} {
		if got := keysText(strings.Fields(in)); got != want {
			t.Errorf("keysText(%q) = %q, want %q", in, got, want)
		}
	}
}

// Configure reads every key table of the file and refuses one it does
// not have; the file wins over nothing, the options over the file.
func TestConfigureKeyTables(t *testing.T) {
	t.Parallel()
	f := load(t, "[keybindings]\nzoom = \"Z\"\n[keybindings.copy]\npage-up = \"u\"\n[keybindings.review]\nsend = \"ctrl+s\"\n[keybindings.rail]\ngo = \"l\"\n[ui]\nrail = \"off\"\n")
	opt := Options{Bindings: map[string]string{ActZoom: "Y"}}
	if err := opt.Configure(f); err != nil {
		t.Fatal(err)
	}
	if opt.Bindings[ActZoom] != "Y" || opt.Bindings["copy.page-up"] != "u" || opt.Bindings["review.send"] != "ctrl+s" || opt.Bindings["rail.go"] != "l" || !opt.RailOff {
		t.Errorf("configured %+v", opt)
	}
	for text, want := range map[string]string{
		"[keybindings.cpy]\nup = \"k\"\n":                       "[keybindings.cpy]: no such key table",
		"[keybindings]\nzoom = \"d\"\ndetach = \"d\"\n":         `detach and zoom are both bound to "d"`,
		"[keybindings.copy]\nup = \"control+k\"\n":              `[keybindings.copy] up: "control+k" is not a key`,
		"[keybindings]\nprefix = \"ctrl+a\"\nzoom = \"ctrl+a\"": "is the prefix key",
	} {
		f := load(t, text)
		err := (&Options{}).Configure(f)
		var ce *config.Error
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), f.Path) {
			t.Errorf("%q: %v, want %q", text, err, want)
		} else if !asConfigError(err, &ce) {
			t.Errorf("%q: not a config error: %T", text, err)
		}
	}
}

func asConfigError(err error, ce **config.Error) bool {
	e, ok := err.(*config.Error)
	*ce = e
	return ok
}

func stripAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return out
}

// A rebound copy-mode key and review key act; the old ones do not.
func TestReboundModeKeysAct(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bindings: map[string]string{"copy.exit": "x"}})
	m.Update(key("ctrl+b"))
	m.Update(key("["))
	m.Render()
	m.Update(reply("scrollback", map[string]any{"content": "a\nb\nc"}))
	m.Update(key("q"))
	if m.scroll == nil {
		t.Fatal("q left copy mode after exit was rebound to x")
	}
	m.Update(key("x"))
	if m.scroll != nil {
		t.Fatal("x did not leave copy mode")
	}
}

// FuzzBindings: a key name and an action from the config file never
// panic; a binding checkBindings accepts runs its action from that key.
func FuzzBindings(f *testing.F) {
	for _, c := range [][3]string{{"ctrl+b", "zoom", "Z"}, {"ctrl+a", "copy.up", "K"}, {"", "inbox.dismiss", "x"}, {"ctrl+", "zoom", "\xff"}, {"", "review.send", "shift+alt+ctrl+f12"}, {"", "workspace", "1"}} {
		f.Add(c[0], c[1], c[2])
	}
	f.Fuzz(func(t *testing.T, prefix, action, k string) {
		if checkBindings(prefix, map[string]string{action: k}) != nil {
			return
		}
		km := newKeymap(prefix, map[string]string{action: k})
		mode := ModeWindow
		for _, b := range keyTable() {
			if b.action == action {
				mode = b.mode
			}
		}
		if got := km.in(mode, k); got != action {
			t.Fatalf("%q bound to %q runs %q", k, action, got)
		}
	})
}
