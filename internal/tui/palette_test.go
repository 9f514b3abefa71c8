package tui

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/integration"
)

func mouseAt(x, y int) tea.Mouse { return tea.Mouse{X: x, Y: y, Button: tea.MouseLeft} }

func TestPaletteMatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, filter string
		want         bool
	}{
		{"Mail: open inbox", "", true},
		{"Mail: open inbox", "mail", true},
		{"Mail: open inbox", "MAIL INB", true},
		{"Mail: open inbox", "inbox mail", true}, // words in any order
		{"Mail: open inbox", "mail z", false},
		{"Review: focused pane", "rev foc", true},
		{"Review: focused pane", "focusedpane", false},
		{"Agents: settings", "  agents   ", true},
	} {
		if got := paletteMatch(c.name, c.filter); got != c.want {
			t.Errorf("paletteMatch(%q, %q) = %v, want %v", c.name, c.filter, got, c.want)
		}
	}
}

// type types text into the model, a key a rune.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(key(string(r)))
	}
}

// The palette filters as the person types, draws the matches over the
// top of the area, and enter runs the selected one.
func TestPaletteFiltersAndRuns(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	env := scratchHome(t)
	m.agentsUI.env = &env

	m.Update(key("ctrl+b"))
	m.Update(key(":"))
	if m.agentsUI.palette == nil {
		t.Fatal("prefix : did not open the palette")
	}
	s := screenText(m)
	for _, want := range []string{"Command palette", "Mail: open inbox", "Inbox: open", "Review: focused pane", "Window: new"} {
		if !strings.Contains(s, want) {
			t.Errorf("the open palette lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "win ne")
	s = screenText(m)
	if !strings.Contains(s, "> win ne_") || !strings.Contains(s, "Window: new  (ctrl+b c)") || strings.Contains(s, "Mail: open inbox") {
		t.Fatalf("filtered on \"win ne\":\n%s", s)
	}
	n := len(fc.calls)
	m.Update(key("enter"))
	if m.agentsUI.palette != nil || len(fc.calls) == n || fc.calls[len(fc.calls)-1].verb != "new-window" {
		t.Fatalf("enter on Window: new: palette %v, calls %+v", m.agentsUI.palette, fc.calls[n:])
	}

	m.Update(key("ctrl+b"))
	m.Update(key(":"))
	typeText(m, "mail open")
	m.Update(key("enter"))
	if m.inbox == nil || m.inbox.only != "Mail" {
		t.Fatalf("Mail: open inbox did not open the Inbox on Mail: %+v", m.inbox)
	}
	m.inbox = nil

	// Moving down selects the next match; backspace widens the filter.
	m.Update(key("ctrl+b"))
	m.Update(key(":"))
	typeText(m, "inboxx")
	if !strings.Contains(screenText(m), "no action matches") {
		t.Errorf("a filter matching nothing:\n%s", screenText(m))
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	if ms := m.agentsUI.palette.matches(); len(ms) < 2 || ms[m.agentsUI.palette.at].name != "Inbox: open" {
		t.Fatalf("down after \"inbox\": %+v at %d", ms, m.agentsUI.palette.at)
	}
	m.Update(key("esc"))
	if m.agentsUI.palette != nil || m.inbox != nil {
		t.Errorf("esc ran something or left the palette open")
	}
}

// With a harness that has run here but has no integration, the palette
// offers to install it, and the install is the CLI's.
func TestPaletteInstallsIntegration(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	env := scratchHome(t, ".claude")
	m.agentsUI.env = &env
	m.Update(key("ctrl+b"))
	m.Update(key(":"))
	typeText(m, "agents")
	s := screenText(m)
	if !strings.Contains(s, "Agents: settings") || !strings.Contains(s, "Agents: install Claude Code integration") {
		t.Fatalf("the agents actions:\n%s", s)
	}
	typeText(m, " install claude")
	m.Update(key("enter"))
	h, _ := integration.Lookup("claude-code")
	if st := integration.StatusOf(h, env); st.State != integration.StateInstalled {
		t.Fatalf("after the palette's install: %+v; dock %q", st, m.dock)
	}
	if !strings.Contains(m.dock, "Claude Code: integration installed in "+h.File(env)) {
		t.Errorf("dock: %q", m.dock)
	}
	if b, _ := os.ReadFile(h.File(env)); !strings.Contains(string(b), "agent-hook claude-code") {
		t.Errorf("the settings file:\n%s", b)
	}
}

// The palette's keys are rebindable like every prefix action.
func TestPaletteRebound(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Bindings: map[string]string{ActPalette: "P"}})
	m.Update(key("ctrl+b"))
	m.Update(key("P"))
	if m.agentsUI.palette == nil {
		t.Fatal("the rebound key did not open the palette")
	}
}

// A paste while the palette is open narrows it and never reaches the
// pane under it; the terminal's cursor is not left in that pane.
func TestPalettePasteAndCursor(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	m.Update(key("ctrl+b"))
	m.Update(key(":"))
	n := len(fc.calls)
	m.Update(tea.PasteMsg{Content: "review\n"})
	if len(fc.calls) != n {
		t.Errorf("the paste reached the daemon: %+v", fc.calls[n:])
	}
	if ms := m.agentsUI.palette.matches(); len(ms) != 1 || ms[0].name != "Review: focused pane" {
		t.Errorf("matches after pasting \"review\": %+v", ms)
	}
	if c := m.cursor(); c != nil {
		t.Errorf("the cursor stayed in the pane: %+v", c)
	}
}
