package tui

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// Under each linked host the rail lists that host's sessions and a "+"
// row: a click on a session attaches it here (through the link, drawn by
// this client), a click on + creates a session there and attaches it.
// Only while on this machine: on a host, the layout's hosts are that
// host's links, which this machine's daemon may not have. The keyboard
// reaches these rows through the rail cursor (prefix s: rail_cursor.go).

// hostRailRow is one row of the rail's Hosts section and what a click on
// it does: attach session on host, create one there (create), or
// nothing (host "").
type hostRailRow struct {
	text    string
	host    string
	session string
	create  bool
}

// hostSessionRows are a host's rows under its header: its sessions, then
// +. None while its link is down (nothing there can be reached) or while
// this client is on a host.
func (m *Model) hostSessionRows(h string, stale bool, sessions []string, inner int) []hostRailRow {
	if stale || m.link.host != "" {
		return nil
	}
	a := m.opt.ASCIIOnly
	var rows []hostRailRow
	for _, s := range sessions {
		rows = append(rows, hostRailRow{text: fitPlain("    "+clean(s), inner, a), host: h, session: s})
	}
	return append(rows, hostRailRow{text: fitPlain("    +", inner, a), host: h, create: true})
}

// hostRailClick takes a click on the i-th row of the Hosts section.
func (m *Model) hostRailClick(i int) bool {
	rows := m.hostRailRows(railWidth - 1)
	if i < 0 || i >= len(rows) || rows[i].host == "" {
		return false
	}
	r := rows[i]
	cols, area := m.AreaSize()
	if r.create {
		hc, ok := m.calls.(hostCreator)
		if !ok {
			return false
		}
		m.say("host %s: creating a session…", r.host)
		m.beginSwitch()
		hc.NewOnHost(r.host, cols, area)
		return true
	}
	sw, ok := m.calls.(hostSwitcher)
	if !ok {
		return false
	}
	m.say("host %s: attaching %s…", r.host, r.session)
	m.beginSwitch()
	sw.SwitchHost(r.host, r.session, "", cols, area)
	return true
}

// hostCreator creates a session on a host and attaches it (conns does).
type hostCreator interface {
	NewOnHost(host string, cols, rows int)
}

// NewOnHost creates a session on host through the link, then attaches
// it, off the UI goroutine. A refusal goes to the dock.
func (c *conns) NewOnHost(host string, cols, rows int) {
	go func() {
		cl, err := dialTo(c.opt, remoteHost(host))
		if err != nil {
			c.send(replyMsg{verb: "new-session", err: err})
			return
		}
		var made proto.SessionCreated
		err = cl.Call("new-session", proto.NewSessionParams{Cols: cols, Rows: rows}, &made)
		cl.Close()
		if err != nil {
			c.send(replyMsg{verb: "new-session", err: fmt.Errorf("host %s: %w", host, err)})
			return
		}
		c.SwitchHost(host, made.Session, "", cols, rows)
	}()
}

// hostRailLines are the rail's rows for the linked hosts, as text.
func (m *Model) hostRailLines(inner int) []string {
	rows := m.hostRailRows(inner)
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = r.text
	}
	return lines
}

// trimRow is a host header's "  name  badge" without trailing blanks.
func trimRow(name, badge string) string {
	return strings.TrimRight(fmt.Sprintf("  %s  %s", name, badge), " ")
}
