package tui

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// While the client is on a host, the rail lists this machine's sessions
// under "local"; a click on one comes back here. The list is polled from
// this machine's daemon on a connection of its own (the stream and the
// call connection are the far daemon's).

// localPoll is how often this machine's sessions are listed while on a
// host.
const localPoll = 3 * time.Second

// localSession is a row of this machine's list-sessions.
type localSession = proto.SessionRow

// localSessionsMsg is this machine's sessions, listed while on a host.
type localSessionsMsg struct{ sessions []localSession }

// watchLocal lists this machine's sessions until the client is back on
// this machine or ends. At most one runs (c.watching).
func (c *conns) watchLocal() {
	c.smu.Lock()
	if c.watching {
		c.smu.Unlock()
		return
	}
	c.watching = true
	c.smu.Unlock()
	go func() {
		var lc *client.Client
		defer func() {
			if lc != nil {
				lc.Close()
			}
		}()
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			select {
			case <-c.done:
				return
			case <-t.C:
			}
			c.smu.Lock()
			if c.host == "" {
				// Back here: the next host starts a watcher again.
				c.watching = false
				c.smu.Unlock()
				c.send(localSessionsMsg{})
				return
			}
			c.smu.Unlock()
			if lc == nil {
				lc, _ = dial(c.opt)
			}
			if lc != nil {
				var res proto.SessionList
				if err := lc.Call("list-sessions", nil, &res); err != nil {
					lc.Close()
					lc = nil
				} else {
					c.send(localSessionsMsg{sessions: res.Sessions})
				}
			}
			t.Reset(localPoll)
		}
	}()
}

// localRailLines are the rail's "local" rows while on a host.
func (m *Model) localRailLines(inner int) []string {
	if m.link.host == "" || len(m.link.local) == 0 {
		return nil
	}
	lines := []string{sgrBold + fitPlain(" local", inner, m.opt.ASCIIOnly) + sgrReset}
	for _, s := range m.link.local {
		lines = append(lines, fitPlain(fmt.Sprintf("   %s %d", clean(s.Name), s.Windows), inner, m.opt.ASCIIOnly))
	}
	return lines
}

// localRailClick takes a click on the i-th rail row after the sessions:
// a "local" row comes back to that session on this machine.
func (m *Model) localRailClick(i int) bool {
	if m.link.host == "" || len(m.link.local) == 0 {
		return false
	}
	j := i - 1 // the "local" heading
	if j < 0 || j >= len(m.link.local) {
		return false
	}
	if sw, ok := m.calls.(hostSwitcher); ok {
		cols, rows := m.AreaSize()
		m.beginSwitch()
		sw.SwitchHost("", m.link.local[j].Name, "", cols, rows)
	}
	return true
}
