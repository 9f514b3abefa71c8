package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// The features' lifecycle (core.Feature) and what a feature registers
// during its Init (core.Registrar): the composition root's side.

// featureStop bounds each feature's Shutdown as the daemon stops.
const featureStop = 5 * time.Second

// initFeatures inits fs in order on h; when one fails, the ones inited
// before it are shut down, in reverse order, and its error returned.
func initFeatures(h core.Host, fs []core.Feature) error {
	for i, f := range fs {
		if err := f.Init(h); err != nil {
			shutdownFeatures(h.Log(), fs[:i])
			return fmt.Errorf("feature %s: %w", f.Name(), err)
		}
	}
	return nil
}

// shutdownFeatures shuts fs down in reverse order, each bounded by
// featureStop; a feature that fails or overruns is logged and the next
// one is still shut down.
func shutdownFeatures(log core.Log, fs []core.Feature) {
	for i := len(fs) - 1; i >= 0; i-- {
		ctx, cancel := context.WithTimeout(context.Background(), featureStop)
		if err := fs[i].Shutdown(ctx); err != nil {
			log.Warnf("feature %s: shutdown: %v", fs[i].Name(), err)
		}
		cancel()
	}
}

// errSealed is the panic of a registration after the daemon was made.
var errSealed = errors.New("a feature registered with the core after its Init: verbs and hooks are added only in Init")

// registering panics once the features' Init is over: the tables it
// adds to are read without a lock from then on.
func (h host) registering() {
	if h.s.sealed.Load() {
		panic(errSealed)
	}
}

// AddVerb keeps a feature's verb for the verb table (verbTable), which
// New builds after the features' Init.
func (h host) AddVerb(v core.Verb) {
	h.registering()
	h.s.featureVerbs = append(h.s.featureVerbs, v)
}

func (h host) OnPaneStart(fn func(core.PaneStart, map[string]string)) {
	h.registering()
	h.s.paneStartHooks = append(h.s.paneStartHooks, fn)
}

func (h host) OnPaneEnviron(prefix string, rule func(map[string]string) bool) {
	h.registering()
	h.s.environRules = append(h.s.environRules, environRule{prefix, rule})
}

// OnWindowClosed adds a hook the hub runs after it sent a window-closed
// event out (events.go).
func (h host) OnWindowClosed(fn func(core.Event)) {
	h.registering()
	h.s.hub.Hook("window-closed", fn)
}

func (h host) OnListen(fn func()) {
	h.registering()
	h.s.listenHooks = append(h.s.listenHooks, fn)
}

func (h host) OnRestored(fn func([]core.Restored)) {
	h.registering()
	h.s.restoredHooks = append(h.s.restoredHooks, fn)
}

// Own is a connection of the daemon's own, acting as verb with a typing
// verb's declaration: the target check passes it (gate.go) and the write
// path types as the daemon (typistOf).
func (h host) Own(verb string) core.Call {
	s := h.s
	return &conn{s: s, own: true, placed: true, ctx: doneContext{s.done}, closed: s.done,
		call: mux.Caller{Own: true}, callKnown: true, acc: types, verbName: verb}
}

// Type types line as the admitted call c: the daemon's own act straight
// on the write path, a caller's as its verb would (typeInto).
func (h host) Type(c core.Call, pane, line string) *proto.Error {
	s := h.s
	cn, w, perr := h.typingInto(c, pane) // host.go
	if perr != nil {
		return perr
	}
	if cn.own {
		return s.typeAs(cn.ctx, cn.verbName, cn.acc, mux.Caller{Own: true}, w, []byte(line), 0, true)
	}
	return s.typeInto(cn, w, []byte(line), 0)
}

// OpenResumeItem opens the window's resume item in the Inbox.
func (h host) OpenResumeItem(window, harness, command string) {
	s := h.s
	p, w := s.tab.InboxPane(window) // table.go
	if w == nil {
		return
	}
	p.Harness = harness
	s.att.Resume(p, command)
}

func (h host) CloseResumeItem(window string) {
	h.s.att.Close(inbox.PaneKey(inbox.KindResume, window), inbox.ReasonResolved)
}

// doneContext is a context that ends when done closes (the daemon
// stops), with no goroutine of its own.
type doneContext struct{ done <-chan struct{} }

func (doneContext) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c doneContext) Done() <-chan struct{}     { return c.done }
func (doneContext) Value(any) any               { return nil }

func (c doneContext) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}
