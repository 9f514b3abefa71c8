package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const staleNotice = `Claude Code integration is out of date\. Open Settings, Agents to update it\.`

// staleClaude installs the Claude Code integration in the world's home
// and turns its hooks back to version 3, as an older tuios wrote them,
// and writes a stand-in `claude` (a script by that name) to run in a pane.
func staleClaude(t *testing.T, w *world) (settings, claude string) {
	t.Helper()
	home := filepath.Join(w.dir, "home")
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	w.ok("integration", "install", "claude-code")
	settings = filepath.Join(home, ".claude", "settings.json")
	downgrade(t, settings)
	if s := w.ok("integration", "status", "claude-code"); !strings.Contains(s, "out of date") {
		t.Fatalf("integration status after the downgrade:\n%s", s)
	}
	bin := filepath.Join(w.dir, "bin")
	os.MkdirAll(bin, 0o700)
	claude = filepath.Join(bin, "claude")
	if err := os.WriteFile(claude, []byte("#!/bin/sh\necho 'stand-in claude'\nwhile :; do sleep 600; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return settings, claude
}

// downgrade rewrites every hook of tuios's in the settings file to an
// older integration version.
func downgrade(t *testing.T, settings string) {
	t.Helper()
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	old := regexp.MustCompile(`--integration \d+`).ReplaceAll(b, []byte("--integration 3"))
	if string(old) == string(b) {
		t.Fatalf("no hook to downgrade in %s:\n%s", settings, b)
	}
	if err := os.WriteFile(settings, old, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The seed's notice: a pane runs Claude Code, whose integration an older
// tuios installed; the dock says so once; esc clears it for this run
// only, so it is back at the next attach; the Agents tab (prefix A)
// updates it, and the hooks are current and keep the program they ran.
func TestAttachIntegrationNoticeAndAgentsTabUpdate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	settings, claude := staleClaude(t, w)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--", claude)

	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", staleNotice)
	w.keys("c", "Escape")
	w.waitGone("c", staleNotice)
	w.never("c", staleNotice, 500*time.Millisecond) // once per run: the next layouts do not bring it back

	w.detach("c")
	w.tmuxRun("kill-session", "-t", "c")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", staleNotice) // esc was for that run only

	before, _ := os.ReadFile(settings)
	w.keys("c", "C-b", "A")
	w.waitFor("c", `Settings . Agents`)
	w.waitFor("c", `Claude Code\s+(yes|no)\s+out of date`)
	w.keys("c", "Enter")
	w.waitFor("c", `Update\s+replaces the older install`)
	w.waitFor("c", `changes `+regexp.QuoteMeta(settings))
	w.waitFor("c", `Uninstall\s+removes what tuios wrote`)
	w.keys("c", "Enter")
	w.waitFor("c", `Claude Code: integration updated in`)
	w.waitFor("c", `Claude Code\s+(yes|no)\s+installed`)
	if s := w.screen("c"); regexp.MustCompile(staleNotice).MatchString(s) {
		t.Errorf("the notice stayed after the update:\n%s", s)
	}
	if s := w.ok("integration", "status", "claude-code"); !regexp.MustCompile(`claude-code\s+installed`).MatchString(s) {
		t.Errorf("integration status after the tab's update:\n%s", s)
	}
	after, _ := os.ReadFile(settings)
	prog := regexp.MustCompile(`"command": "(\S+) agent-hook claude-code`)
	if a, b := prog.FindSubmatch(after), prog.FindSubmatch(before); a == nil || b == nil || string(a[1]) != string(b[1]) {
		t.Errorf("the update changed the program the hooks run:\nbefore %s\nafter %s", before, after)
	}
	w.keys("c", "Escape")
	w.waitGone("c", `Settings . Agents`)
	w.detach("c")
}

// A click on the notice's right end dismisses it for good: it stays away
// at the next attach, and comes back once the state changes (here, the
// integration is uninstalled, then not installed where it could be).
func TestAttachIntegrationNoticeDismissedForGood(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	_, claude := staleClaude(t, w)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--", claude)

	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", staleNotice)
	// A click on the last cell of the dock (row 30, column 120 of the
	// 120×30 terminal), as SGR mouse reports.
	w.keys("c", "-l", "\x1b[<0;120;30M\x1b[<0;120;30m")
	w.waitGone("c", staleNotice)
	var kept map[string]string
	b, err := os.ReadFile(filepath.Join(w.dir, "home", ".local", "state", "tuios", "notices.json"))
	if err != nil || json.Unmarshal(b, &kept) != nil || !strings.HasPrefix(kept["claude-code"], "out of date|") {
		t.Fatalf("the dismissal was not kept: %v %s", err, b)
	}
	w.detach("c")
	w.tmuxRun("kill-session", "-t", "c")

	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:agent`)
	w.never("c", staleNotice, time.Second)
	w.detach("c")
	w.tmuxRun("kill-session", "-t", "c")

	w.ok("integration", "uninstall", "claude-code")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `Claude Code integration is not installed\. Open Settings, Agents to install it\.`)
	w.detach("c")
}

// Mail to the person reaches the dock at once even while an integration
// notice is up (seed 002: "the dock says who wrote"); once the person has
// read it, the notice is back.
func TestAttachMailNewsShowsOverIntegrationNotice(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	_, claude := staleClaude(t, w)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "agent", "--", claude)

	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", staleNotice)
	w.ok("send-agent-message", "-s", "s", "-w", "human", "--from", "tester", "--subject", "live q", "pick A or B")
	w.waitFor("c", `Agents · 1 mail`)
	w.waitFor("c", `mail from tester: live q \(prefix M reads it\)`)
	if s := w.screen("c"); regexp.MustCompile(staleNotice).MatchString(s) {
		t.Fatalf("the notice is on the dock beside the mail news:\n%s", s)
	}

	w.keys("c", "C-b", "M")
	w.waitFor("c", `Mail \(1\)`)
	w.keys("c", "Enter")
	w.waitFor("c", `Mail from tester: live q`)
	w.waitGone("c", `Agents · 1 mail`)
	w.waitFor("c", staleNotice) // read: the notice is back
	w.detach("c")
}

// The palette (prefix :) narrows its actions as the person types, and
// enter runs the one selected: "Mail: open inbox" opens the Inbox on its
// Mail heading, and "Agents: settings" opens the Agents tab.
func TestAttachPaletteRunsActions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\]`)
	w.seeAgent("c", "s") // the palette lists the agents' actions once an agent has been seen

	w.keys("c", "C-b", ":")
	w.waitFor("c", `Command palette`)
	w.waitFor("c", `Window: new`)
	w.keys("c", "-l", "mail inb")
	w.waitFor("c", `> mail inb_`)
	w.waitGone("c", `Window: new`)
	w.keys("c", "Enter")
	w.waitGone("c", `Command palette`)
	w.waitFor("c", `Mail`)
	w.keys("c", "q")

	w.keys("c", "C-b", ":")
	w.waitFor("c", `Command palette`)
	w.keys("c", "-l", "agents set")
	w.waitFor("c", `Agents: settings`)
	w.keys("c", "Enter")
	w.waitFor("c", `Settings . Agents`)
	w.waitFor("c", `Codex\s+(yes|no)\s+`)
	w.keys("c", "Escape")
	w.waitGone("c", `Settings . Agents`)

	// esc closes the palette and types nothing into the pane.
	w.keys("c", "C-b", ":")
	w.waitFor("c", `Command palette`)
	w.keys("c", "-l", "zz")
	w.waitFor("c", `no action matches`)
	w.keys("c", "Escape")
	w.waitGone("c", `Command palette`)
	w.keys("c", "echo palette$((40+2))", "Enter")
	s := w.waitFor("c", `palette42`)
	if strings.Contains(s, "zzecho") {
		t.Errorf("the palette's text reached the pane:\n%s", s)
	}
	w.detach("c")
}
