package daemon

import (
	"encoding/json"
	"os"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
)

// registry is the daemon's verb table: rpc's, with the connection as what
// a handler gets about its caller.
type registry = drpc.Registry[*conn]

// handler adapts a typed handler: params decoded strictly, then checked
// against their tags (rpc.Handle, with the connection as the caller).
func handler[P any](fn func(cn *conn, p *P) (any, *proto.Error)) (any, func(*conn, json.RawMessage) (any, *proto.Error)) {
	return drpc.Handle(fn)
}

// verbTable is every verb the daemon serves (rpc.Registry). Registering
// a verb only adds it to the table: every subsystem a handler uses is
// built in New.
func (s *Server) verbTable() *registry {
	m := drpc.NewRegistry[*conn]()
	add := func(name string, acc access, desc, returns, example string, params any, run func(*conn, json.RawMessage) (any, *proto.Error)) {
		m.Add(drpc.Verb[*conn]{Name: name, Access: acc, Desc: desc, Returns: returns, Example: example, Params: params, Run: run})
	}
	// The table's verbs (internal/daemon/mux) get the connection as a
	// mux.Call.
	tab := func(name string, acc access, desc, returns, example string, params any, run func(mux.Call, json.RawMessage) (any, *proto.Error)) {
		add(name, acc, desc, returns, example, params, func(cn *conn, raw json.RawMessage) (any, *proto.Error) { return run(cn, raw) })
	}
	s.metaVerbs(add)
	s.tab.SessionVerbs(tab)
	s.tab.SessionMetaVerbs(tab) // display name, accent, workspace names and order
	s.tab.WindowVerbs(tab)
	s.tab.ArrangeVerbs(tab) // focus, move, set, close, run-command, split-window, set-layout
	s.tab.PopupVerbs(tab)
	s.tab.PaneVerbs(tab)    // capture-pane, send-text, send-keys
	s.screenshotVerbs(add)  // screenshot.go
	s.attachInputVerbs(add) // attach_input.go: the person's keys straight to the pane
	s.attachVerbs(add)      // verbs_attach.go: attach (peek-prompt and respond are the attention set's)
	s.tab.LayoutVerbs(tab)
	s.linkVerbs(add)   // verbs_link.go: what another machine's link may call here
	s.hostVerbs(add)   // verbs_hosts.go: this machine's links to other hosts
	s.optionVerbs(add) // verbs_options.go: list-options, get-option, set-option (set-config), list-themes
	// start-agent is the agent verbs' (internal/daemon/agents, start.go).
	s.grantVerbs(add) // verbs_grants.go: pane-grants, set-pane-grants, restrict-connection
	// The features' verbs (core.Host.AddVerb), declared as the core's.
	for _, v := range s.featureVerbs {
		run := v.Run
		acc := drpc.ClassAccess(v.Class)
		if v.Agent {
			acc |= agentFeature
		}
		if v.Holds {
			acc |= holdsConn
		}
		add(v.Name, acc, v.Desc, v.Returns, v.Example, v.Params, func(cn *conn, raw json.RawMessage) (any, *proto.Error) {
			return run(cn, raw)
		})
	}
	return m
}

type addFunc func(name string, acc access, desc, returns, example string, params any, run func(*conn, json.RawMessage) (any, *proto.Error))

// ---- hello, list-verbs, kill-server, subscribe, unsubscribe ----

func (s *Server) metaVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.HelloParams) (any, *proto.Error) {
		if p.Protocol != 0 && (p.Protocol < proto.MinVersion || p.Protocol > proto.Version) {
			return nil, proto.Errorf(proto.CodeProtocolMismatch, "this daemon speaks protocol %d to %d, not %d", proto.MinVersion, proto.Version, p.Protocol)
		}
		n := s.tab.SessionCount() // table.go
		v := version.Get()
		return proto.Hello{Type: "hello", Protocol: v.Protocol, MinProtocol: v.MinProtocol,
			DaemonVersion: v.Module, Revision: v.Revision, GoVersion: v.Go, PID: os.Getpid(), Sessions: n,
			LinkPolicy: true, PaneGrants: true}, nil
	})
	add("hello", anyone, "Say hello: the daemon's version, protocol and pid", "hello", `{"verb":"hello","params":{"client":"me","protocol":1}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.ListVerbsParams) (any, *proto.Error) {
		list, err := s.verbs.List(p.Verb)
		if err != nil {
			return nil, err
		}
		return list, nil
	})
	add("list-verbs", anyone, "Describe every verb: params, types, accepted values", "verb_list", `{"verb":"list-verbs","params":{"verb":"set-agent-state"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.NoParams) (any, *proto.Error) {
		return proto.ServerKilled{Type: "server_killed"}, nil
	})
	add("kill-server", administers, "Stop the daemon and every pane", "server_killed", `{"verb":"kill-server"}`, p, h)

	p, h = handler(func(cn *conn, p *proto.SubscribeParams) (any, *proto.Error) {
		if cn.sub != nil {
			return nil, proto.Errorf(proto.CodeInvalidRequest, "this connection already subscribed").WithHint(proto.Hint{Detail: "open another connection"})
		}
		q := p.Queue
		if q <= 0 {
			q = 256
		}
		session, window, err := s.tab.SubscribeScope(cn, p.Session, p.Window) // window_grants.go
		if err != nil {
			return nil, err
		}
		f := core.Filter{Session: session, Window: window}
		if len(p.Types) > 0 {
			f.Types = map[string]bool{}
			for _, t := range p.Types {
				f.Types[t] = true
			}
		}
		sub := s.hub.NewSubscriber(f, q)
		replay := p.AfterSeq > 0 || p.BootID != ""
		seq, attSeq, n, resync := s.att.Replay(replay, uint64(p.AfterSeq), p.BootID, sub.Wants,
			func(pre []event) (uint64, int) { return s.hub.Add(sub, pre) })
		cn.sub = sub // serveConn starts the stream once this answer is sent
		if f.Types[evTranscript] {
			s.tscript.Sync() // internal/daemon/agentlog: watch the joined transcripts
		}
		res := proto.Subscribed{Type: "subscribed", Seq: seq, AttentionSeq: attSeq, BootID: s.att.BootID()}
		if replay {
			res.Replayed, res.Resync = &n, &resync
		}
		return res, nil
	})
	add("subscribe", reads|holdsConn, "Stream events on this connection, one JSON line each; a slow reader gets a gap event; after_seq with boot_id first replays the Inbox's attention events a follower missed", "subscribed", `{"verb":"subscribe","params":{"types":["attention"],"after_seq":41,"boot_id":"3f2a9c0d5e7b1a24"}}`, p, h)

	p, h = handler(func(cn *conn, p *proto.NoParams) (any, *proto.Error) {
		ended := cn.endSubscription()
		return proto.Unsubscribed{Type: "unsubscribed", Ended: ended}, nil
	})
	add("unsubscribe", anyone|holdsConn, "End this connection's subscribe stream: every event queued before it is written first, then this answer; the connection can subscribe again", "unsubscribed",
		`{"verb":"unsubscribe"}`, p, h)
}

// stream writes a subscriber's events to its connection; drops are
// announced with a gap event before the next delivered one.
func (cn *conn) stream(sub *subscriber) {
	for ev := range sub.C() {
		if dropped := sub.TakeLost(); dropped > 0 {
			if cn.sendRaw(event{Type: "gap", Dropped: dropped}) != nil {
				return
			}
		}
		if cn.sendRaw(ev) != nil {
			return
		}
	}
}

// endSubscription ends this connection's subscribe stream, if any, once
// its queued events are written (so the unsubscribed answer follows the
// last event), and lets the connection subscribe again. It runs on the
// connection's worker, the only goroutine that sets cn.sub.
func (cn *conn) endSubscription() bool {
	if cn.sub == nil {
		return false
	}
	cn.s.hub.Remove(cn.sub) // closes the queue: the stream drains it and stops
	if cn.streamDone != nil {
		select {
		case <-cn.streamDone:
		case <-cn.closed:
		}
	}
	cn.sub, cn.streaming, cn.streamDone = nil, false, nil
	return true
}
