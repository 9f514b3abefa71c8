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
	out := core.Caller{Inside: who.inside, Own: who.own, Link: who.link, Grants: who.grants,
		ReadOnly: cn.callKnown && who.restrict != nil && who.restrict.readOnly}
	if who.pane != nil {
		out.Pane = who.pane.ID
	}
	return out
}
