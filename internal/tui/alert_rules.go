package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// AlertRules are the [notifications.agent] keys beyond the switches:
// which states alert, how long a state must hold first, the quiet hours,
// the command and the sound. The zero value is what a client without a
// config file did before these keys existed: needs_input, errored and
// done alert at once, at any hour, with the bell when Options.Bell.
type AlertRules struct {
	// States says which states alert; nil is needs_input, errored, done.
	States map[string]bool
	// Settle drops an alert whose pane changes state within it.
	Settle time.Duration
	// Quiet is the part of the day with no alert at all.
	Quiet config.QuietHours
	// Command is run by sh -c on each alert (alert_command.go).
	Command string
	// SoundMode is what Options.Bell plays: "audio", "bell" or "both";
	// "" is bell.
	SoundMode string
	// Cooldown is the least time between two audio cues.
	Cooldown time.Duration
	// Sounds are cue files by state (alert_sound.go).
	Sounds map[string]string
}

// alertRulesOf turns the config file's alerts into rules.
func alertRulesOf(a config.Alerts) AlertRules {
	return AlertRules{States: a.States, Settle: a.Settle, Quiet: a.Quiet, Command: a.Command,
		SoundMode: a.SoundMode, Cooldown: a.Cooldown, Sounds: a.Sounds}
}

// alerts says whether entering state raises an alert.
func (r AlertRules) alerts(state string) bool {
	if r.States == nil {
		return state == "needs_input" || state == "errored" || state == "done"
	}
	return r.States[state]
}

// alertRun is the client's alert bookkeeping between layouts.
type alertRun struct {
	// pending are the alerts waiting out the settle time, by window id.
	pending map[string]pendingAlert
	// armedFor is the due time a timer is armed for (zero: none).
	armedFor time.Time
	// lastCue is when the last audio cue played, for the cooldown.
	lastCue time.Time
}

type pendingAlert struct {
	agent proto.AttachAgent
	due   time.Time
}

// alertDueMsg wakes the model when a pending alert's settle time is over.
type alertDueMsg struct{}

// settleAlerts raises hits at once when there is no settle time, else
// keeps them until it is over: a pane whose state changes before then
// (unsettle, from alerts) raises nothing.
func (m *Model) settleAlerts(hits []proto.AttachAgent) tea.Cmd {
	if m.opt.Alert.Settle <= 0 {
		return m.raiseAlerts(hits)
	}
	if m.alertRun.pending == nil {
		m.alertRun.pending = map[string]pendingAlert{}
	}
	due := m.clock.Now().Add(m.opt.Alert.Settle)
	for _, a := range hits {
		m.alertRun.pending[a.Window] = pendingAlert{agent: a, due: due}
	}
	return m.armAlerts()
}

// unsettle forgets the alert a pane was waiting to raise: its state
// changed within the settle time.
func (m *Model) unsettle(window string) { delete(m.alertRun.pending, window) }

// armAlerts arms one timer for the earliest pending alert.
func (m *Model) armAlerts() tea.Cmd {
	var first time.Time
	for _, p := range m.alertRun.pending {
		if first.IsZero() || p.due.Before(first) {
			first = p.due
		}
	}
	if first.IsZero() || (!m.alertRun.armedFor.IsZero() && !first.Before(m.alertRun.armedFor) && m.alertRun.armedFor.After(m.clock.Now())) {
		return nil
	}
	m.alertRun.armedFor = first
	d := max(first.Sub(m.clock.Now()), time.Millisecond)
	return tea.Tick(d, func(time.Time) tea.Msg { return alertDueMsg{} })
}

// alertDue raises the pending alerts whose settle time is over and whose
// pane still holds the state, is still there, and is not in front of the
// person now (unless Options.AlertFocused).
func (m *Model) alertDue() tea.Cmd {
	now := m.clock.Now()
	m.alertRun.armedFor = time.Time{}
	var hits []proto.AttachAgent
	for w, p := range m.alertRun.pending {
		if p.due.After(now) {
			continue
		}
		delete(m.alertRun.pending, w)
		if m.lastState[w] != p.agent.State {
			continue
		}
		if !m.opt.AlertFocused && w == m.layout.Focused && (p.agent.Session == "" || p.agent.Session == m.session) {
			continue
		}
		hits = append(hits, p.agent)
	}
	sortAgents(hits)
	return tea.Batch(m.raiseAlerts(hits), m.armAlerts())
}

// raiseAlerts is the alert itself: the dock line, the notification, the
// sound and the command, unless it is quiet hours.
func (m *Model) raiseAlerts(hits []proto.AttachAgent) tea.Cmd {
	if len(hits) == 0 || m.opt.Alert.Quiet.Contains(m.clock.Now()) {
		return nil
	}
	text := alertText(hits)
	if !m.opt.DockOff {
		m.dock = text
	}
	state := hits[0].State
	if len(hits) > 1 {
		state = "" // several states: the default cue
	}
	cmds := []tea.Cmd{m.ringFor(text, state)}
	for _, a := range hits {
		cmds = append(cmds, m.alertCommand(a, text))
	}
	return tea.Batch(cmds...)
}

// ringFor sends the outer terminal a bell and an OSC 9 notification and
// plays the audio cue, as the options allow. The text is cleaned: it may
// carry pane text.
func (m *Model) ringFor(text, state string) tea.Cmd {
	var cmds []tea.Cmd
	bell, audio := m.opt.Bell, false
	switch m.opt.Alert.SoundMode {
	case "audio":
		bell, audio = false, m.opt.Bell
	case "both":
		audio = m.opt.Bell
	}
	if audio {
		cmds = append(cmds, m.cue(state))
	}
	seq := ""
	if bell {
		seq += "\a"
	}
	if m.opt.Notify && text != "" {
		seq += "\x1b]9;" + clean(text) + "\a"
	}
	if seq != "" {
		cmds = append(cmds, tea.Raw(seq))
	}
	switch len(cmds) {
	case 0:
		return nil
	case 1:
		return cmds[0]
	}
	return tea.Batch(cmds...)
}

// sortAgents orders a burst by session and name, so the dock line does
// not depend on map order.
func sortAgents(a []proto.AttachAgent) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && (a[j].Session+"\x00"+a[j].Name) < (a[j-1].Session+"\x00"+a[j-1].Name); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
