package daemon

import (
	"context"
	"encoding/json"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// maxLabel bounds a session's or a workspace's label (core.MaxLabel).
const maxLabel = core.MaxLabel

// host is the core as its features see it (core.Host): every method
// copies what it needs under the table's lock and lets go, so no feature holds the
// core's lock or reads a field of its structs.
type host struct{ s *Server }

var _ core.Host = host{}

func (h host) Options() core.Options {
	s := h.s
	return core.Options{Socket: s.opt.Socket, Executable: s.opt.Executable, StateDir: s.opt.StateDir, UID: s.uid,
		Config: s.opt.Config, AgentsOff: s.agentsOff, Watcher: s.opt.Tracker.Watcher,
		Env: s.opt.Env, Getenv: s.getenv, // Env, Getenv: the worktrees feature's
		// respond's (attention's prompts): who may answer from a shell.
		RespondFromShell: s.fromShell, ConfigPath: s.configPath(),
		DetectOff: s.opt.Tracker.DetectInterval < 0, ManifestErrors: s.loadErrs, // the agent verbs' (internal/daemon/agents)
	}
}

func (h host) Clock() agentstate.Clock  { return h.s.clock }
func (h host) Tracker() *detect.Tracker { return h.s.tracker }
func (h host) Done() <-chan struct{}    { return h.s.done }
func (h host) Budget() *proto.Budget    { return h.s.budget }
func (h host) Log() core.Log            { return core.Log{L: h.s.log()} }

func (h host) Locate(pid int) core.Placement {
	pl := h.s.locate(pid)
	return core.Placement{Pane: pl.pane, Inside: pl.inside}
}

// Admit admits a call of verb on a connection that stands for p, placed
// as p's socket placed it (the inside flag is found again, as for a
// connection of the control socket).
func (h host) Admit(ctx context.Context, p core.Peer, verb string) (core.Call, *proto.Error) {
	s := h.s
	v := s.verbs.Lookup(verb)
	if v == nil {
		return nil, proto.Errorf(proto.CodeForbidden, "%s is not served", verb)
	}
	cn := &conn{s: s, c: p.Conn, peer: p.PID, placed: true, placedID: p.Pane, ctx: ctx, closed: ctx.Done(), verbName: verb}
	if err := s.admit(cn, verb, v.Access); err != nil {
		return nil, err
	}
	if !cn.callKnown { // a verb for anyone: its targets still pass the check
		cn.call, cn.callKnown = s.callerOf(cn), true
	}
	return cn, nil
}

func (h host) SubscribeReach(c core.Call) (string, *proto.Error) {
	cn, _ := c.(*conn)
	own, _, err := h.s.tab.SubscribeScope(cn, "", "")
	return own, err
}

// Do runs verb on a fresh connection that stands for p.
func (h host) Do(ctx context.Context, p core.Peer, verb string, params any) (map[string]any, *proto.Error) {
	s := h.s
	cn := &conn{s: s, c: p.Conn, peer: p.PID, placed: true, placedID: p.Pane, inside: p.Inside, ctx: ctx, closed: ctx.Done()}
	raw, _ := json.Marshal(params)
	res, perr := s.dispatch(cn, proto.Request{Verb: verb, Params: raw})
	if perr != nil {
		return nil, perr
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, proto.Errorf(proto.CodeInternal, "the answer did not encode")
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m, nil
}

// TypePrompt types as the admitted call c, its waits ended by ctx.
func (h host) TypePrompt(ctx context.Context, c core.Call, pane, text string) *proto.Error {
	s := h.s
	gc, w, perr := h.typingInto(c, pane)
	if perr != nil {
		return perr
	}
	cn := &conn{s: s, c: gc.c, peer: gc.peer, placed: true, placedID: gc.placedID, inside: gc.inside, ctx: ctx, closed: ctx.Done(),
		call: gc.call, callKnown: gc.callKnown, acc: gc.acc, verbName: gc.verbName}
	_, _, _, perr = s.typePrompt(cn, w, w.Tracked().Screen(), text)
	return perr
}

func (h host) Publish(ev core.Event) core.Event { return h.s.hub.Publish(ev) }

func (h host) Subscribe(f core.Filter, queue int) core.Subscription {
	return h.s.hub.Subscribe(f, queue)
}

func (h host) Attached() int { return int(h.s.attach.n.Load()) }

func (h host) SwapWindows(a, b string) (bool, string) { return h.s.tab.SwapWindows(a, b) }

// Context, Verb and Remote make an admitted connection a core.Call.
func (cn *conn) Context() context.Context { return cn.ctx }
func (cn *conn) Verb() string             { return cn.verbName }
func (cn *conn) Remote() bool             { return cn != nil && cn.link != nil }

func (h host) Person(c core.Call, verb, nonce string) *proto.Error {
	cn, _ := c.(*conn)
	if cn == nil {
		return proto.Errorf(codeNotHuman, "%s acts as the person: a call that was never checked is not", verb)
	}
	return h.s.person(cn, verb, nonce)
}

func (h host) Listening(typ string) bool { return h.s.hub.Listening(typ) }

// paneStartVars adds the features' variables (OnPaneStart) to a new
// pane's environment.
func (s *Server) paneStartVars(vars map[string]string, sessID, windowID string, workspace int, argv []string, program bool) {
	ps := core.PaneStart{Session: sessID, Window: windowID, Workspace: workspace, Argv: argv, Program: program}
	for _, fn := range s.paneStartHooks {
		fn(ps, vars)
	}
}

// environRule is a feature's rule on a caller's environment
// (core.Host.OnPaneEnviron).
type environRule struct {
	prefix string
	rule   func(map[string]string) bool
}

func (h host) Pane(id string) core.Pane {
	s := h.s
	w := s.tab.WindowByID(id) // table.go
	if w == nil {
		return nil
	}
	return w.Handle()
}

// typingInto is the connection of the admitted call c and the window
// pane it types into: a call that was never checked types nothing.
func (h host) typingInto(c core.Call, pane string) (*conn, *mux.Window, *proto.Error) {
	cn, _ := c.(*conn)
	if cn == nil {
		return nil, nil, proto.Errorf(proto.CodeForbidden, "typing into a pane from a call that was never checked (a bug): nothing was typed")
	}
	w := h.s.tab.WindowByID(pane) // table.go
	if w == nil {
		return nil, nil, proto.Errorf(proto.CodeWindowNotFound, "no window %s", clipText(pane, 64))
	}
	return cn, w, nil
}

func (h host) Shows(session string) bool {
	s := h.s
	ss := s.tab.SessionNamed(session) // table.go
	return ss != nil && s.attach.Shows(ss)
}

func (h host) CloseWindow(id string) {
	s := h.s
	w := s.tab.WindowByID(id) // table.go
	if w != nil {
		s.tab.EndWindow(w)
	}
}
