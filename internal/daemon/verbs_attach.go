package daemon

import "github.com/tuios/tuios/internal/proto"

// attach: the person's client says it is there and gets a human nonce
// (human_nonce.go); with stream, the connection then carries the session
// (attach_stream.go). The person check reads the nonce, so attach is the
// core's; respond and peek-prompt, which read and answer a pane's
// prompt, are the attention set's (internal/daemon/attention).

// codeRespondNotHuman refuses a nonce to a caller inside a pane.
const codeRespondNotHuman = codeNotHuman

func (s *Server) attachVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.AttachParams) (any, *proto.Error) {
		if cn.link == nil && !s.outsidePanes(cn) { // a link attaches without a nonce (link_policy.go)
			return nil, proto.Errorf(codeRespondNotHuman, "a caller inside a pane of this daemon (or one the kernel cannot place) gets no human nonce").
				WithHint(proto.Hint{Detail: "attach from a terminal outside every pane"})
		}
		if p.Presence && (p.Stream || p.Session != "" || p.Cols != nil || p.Rows != nil || p.Prefix != "") {
			return nil, proto.Errorf(proto.CodeInvalidParams, "presence shows no session: it takes no stream, session, cols, rows or prefix").
				WithHint(proto.Hint{Param: "presence"})
		}
		res := proto.Attached{Type: "attached", Client: p.Client, Presence: p.Presence}
		if err := s.prepareAttach(cn, p, &res); err != nil {
			return nil, err
		}
		if cn.link == nil {
			res.HumanNonce = s.nonces.issue(cn)
		}
		return res, nil
	})
	add("attach", whoGranted|needAdmin|access(capOpen|capWrite)|holdsConn, "Attach a client: its reply carries a fresh human nonce, good on this connection (and this client process) while it stays open; refused inside a pane. With stream, the connection then carries the session's layout, changed screen rows and bells, one JSON line each, until a detached line", "attached",
		`{"verb":"attach","params":{"client":"tuios-client","session":"work","stream":true,"cols":200,"rows":50}}`, p, h)
}
