package daemon

import (
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// What respond (internal/daemon/attention's Prompts) asks of the core,
// beyond the Host every feature sees: who answers (the human nonces stay
// here, human_nonce.go) and its keys through the one write path.

func (h host) Answerer(c core.Call, nonce string) string {
	s := h.s
	cn, _ := c.(*conn)
	switch {
	case cn == nil:
		return ""
	case linkStandsIn(cn): // another machine with the respond capability (link_policy.go)
		return "link:" + linkName(cn)
	case s.isPerson(cn, nonce):
		return "client"
	case s.fromShell && s.outsidePanes(cn):
		return "shell"
	case cn.callKnown && cn.call.Pane != nil && cn.call.Grants.Has(grant.Respond): // the respond grant (gate.go let it in)
		return "pane:" + cn.call.Pane.ID
	}
	return ""
}

// TypeKeys types b as the verb's caller would (typeInto), waiting at
// most wait for room.
func (h host) TypeKeys(c core.Call, pane string, b []byte, wait time.Duration) *proto.Error {
	cn, w, perr := h.typingInto(c, pane) // host.go
	if perr != nil {
		return perr
	}
	return h.s.typeInto(cn, w, b, wait)
}

func (h host) FocusIn(c core.Call, pane string) {
	cn, w, perr := h.typingInto(c, pane)
	if perr == nil {
		h.s.focusIn(cn, w)
	}
}
