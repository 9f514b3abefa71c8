package daemon

import (
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// tableSide is what the table (internal/daemon/mux) asks of the daemon
// around it (mux.Daemon): the callers, the write path, and the parts
// built after the table. A call the table hands back is one of ours: a
// connection, or nil for the daemon's own act.
type tableSide struct{ s *Server }

var _ mux.Daemon = tableSide{}

func connOf(c mux.Call) *conn {
	cn, _ := c.(*conn)
	return cn
}

func (t tableSide) CallerOf(c mux.Call) mux.Caller { return t.s.callerOf(connOf(c)) }
func (t tableSide) NewGrants(c mux.Call, asked string) (grant.Set, bool, *proto.Error) {
	return t.s.newGrants(connOf(c), asked)
}
func (t tableSide) OutOfReach(verb string, by mux.Caller, ss *mux.Session) *proto.Error {
	return t.s.outOfReach(verb, by, ss)
}
func (t tableSide) Wide(c mux.Call, what string) *proto.Error { return t.s.wide(connOf(c), what) }
func (t tableSide) Permissions() *mux.Permissions             { return t.s.perm.Load() }
func (t tableSide) LinkAllows(name string, c core.LinkCap) bool {
	return t.s.linkPol.Allows(name, c)
}
func (t tableSide) Fans() core.Fans { return t.s.fans }

func (t tableSide) TypeInto(c mux.Call, w *mux.Window, b []byte, timeout time.Duration) *proto.Error {
	return t.s.typeInto(connOf(c), w, b, timeout)
}
func (t tableSide) PersonTyped(c mux.Call, window string) { t.s.personTyped(connOf(c), window) }
func (t tableSide) RefusePrefix(w *mux.Window, keys string) *proto.Error {
	return t.s.refusePrefix(w, keys)
}
func (t tableSide) SpellPrefix(keys string) string { return t.s.spellPrefix(keys) }
func (t tableSide) HandChord(w *mux.Window, keys string) (bool, *proto.Error) {
	return t.s.handChord(w, keys)
}

func (t tableSide) PaneStartVars(vars map[string]string, sessID, windowID string, workspace int, argv []string, program bool) {
	t.s.paneStartVars(vars, sessID, windowID, workspace, argv, program)
}
func (t tableSide) WatchStartNotice(w *mux.Window, fire <-chan struct{}, timer agentstate.Timer) {
	t.s.watchStartNotice(w, fire, timer)
}
func (t tableSide) ProgramExited(w *mux.Window, status pty.ExitStatus) { t.s.programExited(w, status) }
func (t tableSide) ScreenEvent(w *mux.Window, ev vt.Event)             { t.s.screenEvent(w, ev) }

func (t tableSide) InboxUpdate(window string) {
	if t.s.att != nil {
		t.s.att.Update(window)
	}
}
func (t tableSide) InboxSessionClosed(session string) {
	if t.s.att != nil {
		t.s.att.SessionClosed(session)
	}
}
func (t tableSide) Queued(window string) int               { return t.s.queue.Count(window) }
func (t tableSide) MailRing(session, id string) *mail.Ring { return t.s.mail.Existing(session, id) }
func (t tableSide) ConfigWaiting() ([]string, string)      { return t.s.cfg.Waiting() }
