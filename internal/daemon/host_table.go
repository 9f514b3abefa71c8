package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The core's reads and changes of the table, as the features see them
// (core.Host): the table's own (internal/daemon/mux).

func (h host) View(c core.Call) *core.View                      { return h.s.tab.View(c) }
func (h host) Find(id string) (core.WindowView, bool)           { return h.s.tab.Find(id) }
func (h host) FindSession(name string) (core.SessionView, bool) { return h.s.tab.FindSession(name) }
func (h host) Target(c core.Call, session, window string) *proto.Error {
	return h.s.tab.Target(c, session, window)
}
func (h host) Window(c core.Call, session, window string) (core.WindowView, *proto.Error) {
	return h.s.tab.Window(c, session, window)
}
func (h host) Neighbor(window, dir string) string      { return h.s.tab.Neighbor(window, dir) }
func (h host) Touch(session string)                    { h.s.tab.Touch(session) }
func (h host) FanCaller(c core.Call) core.FanCaller    { return h.s.tab.FanCaller(c) }
func (h host) CallerDir(c core.Call) string            { return h.s.tab.CallerDir(c) }
func (h host) UnknownSession(name string) *proto.Error { return h.s.tab.UnknownSession(name) }
func (h host) OutOfReach(c core.Call) *proto.Error     { return h.s.tab.OutOfReach(c) }
func (h host) NewSession(name string) (core.SessionView, *proto.Error) {
	return h.s.tab.NewSession(name)
}
func (h host) StartWindow(sessionID string, spec core.WindowSpec) (core.WindowView, *proto.Error) {
	return h.s.tab.StartWindow(sessionID, spec)
}
func (h host) Session(c core.Call, session string) (core.SessionView, *proto.Error) {
	return h.s.tab.Session(c, session)
}
func (h host) Resolve(c core.Call, session, addr string) (core.WindowView, bool) {
	return h.s.tab.Resolve(c, session, addr)
}
func (h host) CallerPane(c core.Call) string              { return h.s.tab.CallerPane(c) }
func (h host) StartedIn(id string) (string, string, bool) { return h.s.tab.StartedIn(id) }
func (h host) NoSession(name string) *proto.Error         { return h.s.tab.NoSession(name) }
func (h host) Seat(c core.Call, session, window string) (core.Seat, *proto.Error) {
	return h.s.tab.Seat(c, session, window)
}
func (h host) Seats(c core.Call, session string, all bool) ([]core.SessionSeats, *proto.Error) {
	return h.s.tab.Seats(c, session, all)
}
func (h host) AgentSession(c core.Call, session, name, base string) (core.SessionView, string, bool, *proto.Error) {
	return h.s.tab.AgentSession(c, session, name, base)
}
