package tui

import "github.com/charmbracelet/x/ansi"

// The rail's keyboard focus: prefix s (the "rail" action) puts a cursor
// on the rail's rows that a click acts on (this machine's sessions, the
// local rows while on a host, a linked host's sessions and +); up/down
// or k/j move it, enter does what a click on the row does, esc or q
// leaves. Other keys are not typed into the pane while it is on.

// railRows are the screen rows (rail line indices) a click acts on, in
// order, for the rail as it is drawn now.
func (m *Model) railRows() []int {
	var rows []int
	n := len(m.layout.Sessions)
	for i := 1; i <= n; i++ {
		rows = append(rows, i)
	}
	base := 1 + n
	local := m.localRailLines(railWidth - 1)
	for j := 1; j < len(local); j++ { // after local's heading
		rows = append(rows, base+j)
	}
	base += len(local)
	for j, r := range m.hostRailRows(railWidth - 1) {
		if r.host != "" {
			rows = append(rows, base+j)
		}
	}
	return rows
}

// openRail puts the cursor on the current session's row (or the first).
func (m *Model) openRail() {
	m.railOn, m.railAt = true, 0
	for i, s := range m.layout.Sessions {
		if s.Current || s.Name == m.session {
			m.railAt = i
		}
	}
	m.say("rail: up/down move, enter attaches, esc leaves")
}

// railKey takes a key while the rail has the focus.
func (m *Model) railKey(name string) {
	rows := m.railRows()
	switch name {
	case "up", "k":
		m.railAt = max(0, min(m.railAt, len(rows)-1)-1)
	case "down", "j":
		m.railAt = min(len(rows)-1, m.railAt+1)
	case "enter":
		m.railOn = false
		m.dock = ""
		if m.railAt >= 0 && m.railAt < len(rows) {
			m.railClick(rows[m.railAt])
		}
	case "esc", "q":
		m.railOn = false
		m.dock = ""
	}
}

// railCursorLine draws the cursor's row reversed, over the rail's lines.
func (m *Model) railCursorLine(lines []string, inner int) {
	if !m.railOn {
		return
	}
	rows := m.railRows()
	if len(rows) == 0 {
		return
	}
	at := rows[max(0, min(m.railAt, len(rows)-1))]
	if at < len(lines) {
		lines[at] = sgrReverse + fitPlain(ansi.Strip(lines[at]), inner, m.opt.ASCIIOnly) + sgrReset
	}
}
