package tui

import "fmt"

// The rail groups a fan's sessions: the attempts of one fan (the
// sessions whose layout entry names the same group) are drawn together,
// under a row with the group's name, each indented; every other session
// keeps its place. The group row is a heading: a click or the rail
// cursor does nothing there.

// sessionRailRow is one row of the rail's sessions part: a session (an
// index in the layout's Sessions) or a fan's heading (session -1).
type sessionRailRow struct {
	session int
	group   string
}

// sessionRailRows are the rows of the sessions part, in order.
func (m *Model) sessionRailRows() []sessionRailRow {
	ss := m.layout.Sessions
	out := make([]sessionRailRow, 0, len(ss)+2)
	done := map[string]bool{}
	for i, s := range ss {
		if s.Group == "" {
			out = append(out, sessionRailRow{session: i})
			continue
		}
		if done[s.Group] {
			continue
		}
		done[s.Group] = true
		out = append(out, sessionRailRow{session: -1, group: s.Group})
		for j := i; j < len(ss); j++ {
			if ss[j].Group == s.Group {
				out = append(out, sessionRailRow{session: j, group: s.Group})
			}
		}
	}
	return out
}

// sessionRailLine draws one row of the sessions part.
func (m *Model) sessionRailLine(r sessionRailRow, agents bool, inner int) string {
	if r.session < 0 {
		return sgrMuted + fitPlain(" "+clean(r.group), inner, m.opt.ASCIIOnly) + sgrReset
	}
	s := m.layout.Sessions[r.session]
	mark := " "
	if s.Current || s.Name == m.session {
		mark = ">"
	}
	g := " "
	if agents {
		if gl := glyph(s.State, false, m.opt.ASCIIOnly); gl != "" {
			g = stateSGR(s.State) + gl + sgrReset
		}
	}
	indent := ""
	if r.group != "" {
		indent = " "
	}
	name := fitPlain(fmt.Sprintf("%s %d", clean(s.Name), s.Windows), inner-3-len(indent), m.opt.ASCIIOnly)
	if c := accentSGR(s.Accent); c != "" {
		name = c + name + sgrReset
	}
	row := mark + indent + g + " " + name
	if mark == ">" {
		row = sgrBold + mark + indent + g + sgrBold + " " + name + sgrReset
	}
	return row
}
