package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// alerts compares the layout's agents with the last ones and raises one
// alert for the panes that entered an alert state out of sight: the
// focused pane of the session on screen is in sight (unless
// Options.AlertFocused). The first layout
// only sets the baseline: nothing changed yet.
func (m *Model) alerts(l proto.AttachLayout) tea.Cmd {
	now := make(map[string]string, len(l.Agents))
	var hits []proto.AttachAgent
	for _, a := range l.Agents {
		now[a.Window] = a.State
		if !m.seenFirst || m.lastState[a.Window] == a.State {
			continue
		}
		m.unsettle(a.Window) // changed within the settle time
		if !m.opt.Alert.alerts(a.State) {
			continue
		}
		if !m.opt.AlertFocused && a.Window == l.Focused && (a.Session == "" || a.Session == m.session) {
			continue
		}
		hits = append(hits, a)
	}
	m.lastState, m.seenFirst = now, true
	if len(hits) == 0 || m.opt.AgentsOff || l.AgentsOff {
		return nil
	}
	return m.settleAlerts(hits) // alert_rules.go
}

// ring sends the outer terminal a bell and an OSC 9 notification, and
// plays the audio cue, as the options allow (alert_rules.go).
func (m *Model) ring(text string) tea.Cmd { return m.ringFor(text, "") }

// alertText is the dock line (and notification) for a burst of alerts.
func alertText(hits []proto.AttachAgent) string {
	if len(hits) == 1 {
		a := hits[0]
		where := clean(a.Name)
		if a.Session != "" {
			where += " in " + clean(a.Session)
		}
		switch a.State {
		case "needs_input":
			return where + " needs you"
		case "errored":
			return where + " stopped on an error"
		case "idle", "working":
			return where + " is " + a.State // alerts only when [notifications.agent.states] asks
		case "unknown":
			return where + " state is unknown"
		}
		return where + " is done"
	}
	var sessions []string
	seen := map[string]bool{}
	for _, a := range hits {
		if s := clean(a.Session); s != "" && !seen[s] {
			seen[s] = true
			sessions = append(sessions, s)
		}
	}
	text := fmt.Sprintf("%d agents need you", len(hits))
	if len(sessions) > 0 {
		text += " in " + listWords(sessions, 3)
	}
	return text
}

// listWords is "a, b, c and 2 more".
func listWords(w []string, most int) string {
	if len(w) > most {
		return strings.Join(w[:most], ", ") + fmt.Sprintf(" and %d more", len(w)-most)
	}
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// onBell passes a pane's bell or notification on to the outer terminal.
func (m *Model) onBell(b proto.AttachBell) tea.Cmd {
	name := b.Window
	if w, ok := m.windowByID(b.Window); ok {
		name = w.Name
	}
	text := clean(b.Text)
	switch {
	case text != "":
		m.dock = clean(name) + ": " + text
	case b.Window == m.layout.Focused:
		// The pane in front of the person rings as a terminal would,
		// whatever the alert switches say: its program asked for it.
		return tea.Raw("\a")
	default:
		m.dock = "bell in " + clean(name)
	}
	return m.ring(text)
}
