package daemon

import (
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
)

// event is one line of the subscribe stream: the event hub's, which
// features read through core.Host.Subscribe.
type event = core.Event

// hub fans events out to subscribers through bounded queues: a slow
// subscriber loses events (counted, then announced with a gap event), and
// never blocks the daemon or other subscribers.
type hub struct {
	mu      sync.Mutex
	seq     uint64
	subs    map[*subscriber]struct{}
	outputs int // subscribers that asked for output events
	closed  bool
	// observe sees every published event (set once in New): attach
	// streams redraw their layout from it. It must not block or publish.
	observe func(event)
	// hooks are the features' synchronous hooks by event type
	// (core.Registrar.OnWindowClosed), added only while the daemon is
	// made: publish runs them after the fan-out, outside h.mu.
	hooks map[string][]func(event)
}

type subscriber struct {
	session string
	window  string
	types   map[string]bool // nil: every type except output
	q       chan event
	dropped uint64
	mu      sync.Mutex
}

func newHub() *hub { return &hub{subs: map[*subscriber]struct{}{}} }

// addWith adds a subscriber with events queued ahead of anything
// published after it; it says how many of them fit in its queue.
func (h *hub) addWith(sub *subscriber, pre []event) (uint64, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subs[sub] = struct{}{}
	if sub.types["output"] {
		h.outputs++
	}
	n := 0
	for _, ev := range pre {
		select {
		case sub.q <- ev:
			n++
		default:
		}
	}
	return h.seq, n
}

// wants reports whether the subscriber's filters let ev through.
func (sub *subscriber) wants(ev event) bool {
	if sub.session != "" && ev.Session != "" && sub.session != ev.Session {
		return false
	}
	if sub.window != "" && ev.Window != sub.window {
		return false
	}
	// output and transcript are sent only to a subscriber that names them.
	return !(sub.types == nil && (ev.Type == "output" || ev.Type == evTranscript) || sub.types != nil && !sub.types[ev.Type])
}

// evSessionRenamed is published when a session's display name or accent
// changes (set-session-name, set-session-accent, herdr's
// workspace.rename): herdr's event streams turn it into
// workspace_renamed. The session's name, its address, does not change.
// evWorkspaceRenamed is published when workspace names change
// (set-workspace-name, set-workspace-order, herdr's tab.rename).
const (
	evSessionRenamed   = core.EvSessionRenamed
	evWorkspaceRenamed = core.EvWorkspaceRenamed
	evTranscript       = core.EvTranscript
)

func (h *hub) remove(sub *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[sub]; ok {
		delete(h.subs, sub)
		if sub.types["output"] {
			h.outputs--
		}
		close(sub.q)
	}
}

// wants reports whether anyone listens for a costly event type.
func (h *hub) wants(typ string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return typ != "output" || h.outputs > 0
}

// hook adds fn to the hooks of events of type typ.
func (h *hub) hook(typ string, fn func(event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hooks == nil {
		h.hooks = map[string][]func(event){}
	}
	h.hooks[typ] = append(h.hooks[typ], fn)
}

// publish sends ev to every subscriber that wants it, then runs the
// hooks of its type in the publisher's goroutine (with no lock of the
// hub's held: a hook may publish), and returns it as sent (with its seq
// and time). The hooks run even once the hub is closed: a window that
// closes as the daemon stops still reaches them.
func (h *hub) publish(ev event) event {
	ev, hooks := h.send(ev)
	for _, fn := range hooks {
		fn(ev)
	}
	return ev
}

// send is publish's fan-out, under h.mu; it returns ev's hooks.
func (h *hub) send(ev event) (event, []func(event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hooks := h.hooks[ev.Type]
	if h.closed {
		return ev, hooks
	}
	h.seq++
	ev.Seq = h.seq
	ev.Time = time.Now().UTC().Format(time.RFC3339Nano)
	if h.observe != nil {
		h.observe(ev)
	}
	for sub := range h.subs {
		if !sub.wants(ev) {
			continue
		}
		select {
		case sub.q <- ev:
		default:
			sub.mu.Lock()
			sub.dropped++
			sub.mu.Unlock()
		}
	}
	return ev, hooks
}

func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for sub := range h.subs {
		close(sub.q)
		delete(h.subs, sub)
	}
}

// forwardAgentEvents turns the arbiter's changes into agent-state events.
func (s *Server) forwardAgentEvents(sub *agentstate.Subscription) {
	defer sub.Close()
	for {
		select {
		case <-s.done:
			return
		case c := <-sub.C:
			// The Inbox reads every change: a new kind or line on
			// needs_input updates its item without a transition.
			if c.Dropped > 0 { // changes of other panes may be among those missed
				s.att.UpdateAll()
				s.notePrompts()
			} else {
				s.att.Update(c.Pane)
			}
			if c.From == c.To {
				continue
			}
			s.alog.State(c.Pane, c.To, c.Message) // internal/daemon/agentlog
			s.tscript.Sync()                      // internal/daemon/agentlog: a join comes with states
			s.mu.Lock()
			w := s.windows[c.Pane]
			session := ""
			if w != nil {
				session = w.session.Name
				w.atPrompt.Store(c.To == agentstate.NeedsInput) // the target check's view (gate.go)
			}
			s.mu.Unlock()
			src := ""
			if c.Claimed {
				src = c.Source.String()
			}
			s.hub.publish(event{Type: "agent-state", Session: session, Window: c.Pane, State: c.To.String(), Source: src, Message: c.Message})
		}
	}
}

// notePrompts reads every pane's state again into atPrompt, after the
// arbiter's subscription dropped changes.
func (s *Server) notePrompts() {
	s.mu.Lock()
	wins := make([]*Window, 0, len(s.windows))
	for _, w := range s.windows {
		wins = append(wins, w)
	}
	s.mu.Unlock()
	for _, w := range wins {
		w.atPrompt.Store(s.tracker.Arbiter().Get(w.ID).State == agentstate.NeedsInput)
	}
}

// wantsType reports whether a subscriber asked for typ by name.
func (h *hub) wantsType(typ string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs {
		if sub.types[typ] {
			return true
		}
	}
	return false
}
