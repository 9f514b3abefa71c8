package tui

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// The rail's keyboard focus: prefix s (the "rail" action) puts a cursor
// on the rail's rows: the rows a click acts on (this machine's sessions,
// the local rows while on a host, a linked host's sessions and +), then
// the agent rows. up/down or k/j move it, esc or q leaves. On a click
// row enter does what a click does; on an agent row enter goes to the
// pane and the agent keys act on it (rail_agent.go). Other keys are not
// typed into the pane while it is on.

// railStop is one row the cursor stops on: its rail line, and for an
// agent row the agent's index in the layout's Agents (-1 on a click row).
type railStop struct {
	line  int
	agent int
}

// railStops are the rows the cursor stops on, in order, for the rail as
// it is drawn now (view.go's rail: sessions, local, hosts, then a blank
// line, the Agents heading and the agent rows).
func (m *Model) railStops() []railStop {
	var stops []railStop
	rows := m.sessionRailRows() // rail_fan.go: a fan's heading is no stop
	n := len(rows)
	for i, r := range rows {
		if r.session >= 0 {
			stops = append(stops, railStop{line: i + 1, agent: -1})
		}
	}
	base := 1 + n
	local := m.localRailLines(railWidth - 1)
	for j := 1; j < len(local); j++ { // after local's heading
		stops = append(stops, railStop{line: base + j, agent: -1})
	}
	base += len(local)
	hosts := m.hostRailRows(railWidth - 1)
	for j, r := range hosts {
		if r.host != "" {
			stops = append(stops, railStop{line: base + j, agent: -1})
		}
	}
	base += len(hosts)
	if m.agentsShown() && len(m.layout.Agents) > 0 || m.mailOnRail() {
		base += 2 // the blank line and the Agents heading
		for k, a := range m.layout.Agents {
			stops = append(stops, railStop{line: base, agent: k})
			base += 1 + len(a.Subagents) // rail_subagent.go: its subagents' rows are no stop
		}
	}
	return stops
}

// railStopAt is the row under the cursor, the cursor kept on the rail
// when rows went away since it moved.
func (m *Model) railStopAt() (railStop, bool) {
	stops := m.railStops()
	if len(stops) == 0 {
		return railStop{}, false
	}
	m.railFollow(stops)
	return stops[max(0, min(m.railAt, len(stops)-1))], true
}

// railFollow keeps the cursor on the agent it was put on: the daemon
// lists the agent rows by what they need, so a row moves when its state
// changes, and a key must not land on the agent that moved under it.
func (m *Model) railFollow(stops []railStop) {
	on := m.railKeys.on
	if on.Window == "" {
		return
	}
	for i, s := range stops {
		if s.agent < 0 || s.agent >= len(m.layout.Agents) {
			continue
		}
		if a := m.layout.Agents[s.agent]; a.Window == on.Window && a.Session == on.Session {
			m.railAt = i
			return
		}
	}
}

// railMark notes the agent the cursor was put on (none on a click row).
func (m *Model) railMark() {
	m.railKeys.on = proto.AttachAgent{}
	stops := m.railStops()
	if len(stops) == 0 {
		return
	}
	if s := stops[max(0, min(m.railAt, len(stops)-1))]; s.agent >= 0 && s.agent < len(m.layout.Agents) {
		m.railKeys.on = m.layout.Agents[s.agent]
	}
}

// railAgent is the agent row under the cursor, if it is on one.
func (m *Model) railAgent() (proto.AttachAgent, bool) {
	s, ok := m.railStopAt()
	if !m.railOn || !ok || s.agent < 0 || s.agent >= len(m.layout.Agents) {
		return proto.AttachAgent{}, false
	}
	return m.layout.Agents[s.agent], true
}

// openRail puts the cursor on the current session's row (or the first).
func (m *Model) openRail() {
	if m.keyUI.railHidden {
		m.toggleRail() // hint.go: a cursor on a hidden rail shows it
	}
	m.railOn, m.railAt = true, 0
	stop := 0
	for _, r := range m.sessionRailRows() {
		if r.session < 0 {
			continue
		}
		if s := m.layout.Sessions[r.session]; s.Current || s.Name == m.session {
			m.railAt = stop
		}
		stop++
	}
	m.railMark()
	m.dock = m.railHint()
}

// railKey takes a key while the rail has the focus.
func (m *Model) railKey(name string) {
	m.railStopAt() // the cursor follows its agent to where it is now
	n := len(m.railStops())
	switch m.keys.in(ModeRail, name) { // bindings.go: [keybindings.rail]
	case "rail.up":
		m.railAt = max(0, min(m.railAt, n-1)-1)
		m.railMark()
		m.dock = m.railHint()
	case "rail.down":
		m.railAt = max(0, min(n-1, m.railAt+1))
		m.railMark()
		m.dock = m.railHint()
	case "rail.go":
		s, ok := m.railStopAt()
		a, isAgent := m.railAgent()
		m.railOn = false
		m.dock = ""
		switch {
		case isAgent:
			m.goTo(a.Session, a.Window) // inbox.go: as the Inbox's enter
		case ok:
			m.railClick(s.line)
		}
	case "rail.close":
		m.railOn = false
		m.dock = ""
	default:
		if a, ok := m.railAgent(); ok {
			m.railAgentKey(a, name) // rail_agent.go
		}
	}
}

// railCursorLine draws the cursor's row reversed, over the rail's lines.
func (m *Model) railCursorLine(lines []string, inner int) {
	if !m.railOn {
		return
	}
	s, ok := m.railStopAt()
	if ok && s.line < len(lines) {
		lines[s.line] = sgrSelect + fitPlain(ansi.Strip(lines[s.line]), inner, m.opt.ASCIIOnly) + sgrReset
	}
}
