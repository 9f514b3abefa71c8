package daemon

import (
	"github.com/tuios/tuios/internal/daemon/core"
)

// What the copies (internal/daemon/transfers) read of the core.

// Caller is who c's caller is: the call's caller as admitted, else placed
// now. A call that was never checked is inside in no pane, holding
// nothing.
func (h host) Caller(c core.Call) core.Caller {
	cn, _ := c.(*conn)
	if cn == nil {
		return core.Caller{Inside: true}
	}
	who := cn.call
	if !cn.callKnown {
		who = h.s.callerOf(cn)
	}
	out := core.Caller{Inside: who.Inside, Own: who.Own, Link: who.Link, Grants: who.Grants,
		ReadOnly: cn.callKnown && who.Restrict != nil && who.Restrict.ReadOnly}
	if who.Pane != nil {
		out.Pane = who.Pane.ID
	}
	return out
}
