package daemon

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
)

// The event hub is internal/daemon/rpc's (Hub, Subscriber). The package
// names it through these aliases, and imports rpc under another name,
// because its tests declare a connection type named rpc
// (helpers_test.go) that an import named rpc would collide with.
type (
	hub        = drpc.Hub
	subscriber = drpc.Subscriber
)

func newHub() *hub { return drpc.NewHub() }

// event is one line of the subscribe stream: the event hub's
// (internal/daemon/rpc), which features read through core.Host.Subscribe.
type event = core.Event

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
				// A new message, tool or subagent of the same state:
				// the rail says what the agent is doing.
				s.attach.LayoutChanged()
				continue
			}
			s.alog.State(c.Pane, c.To, c.Message) // internal/daemon/agentlog
			s.tscript.Sync()                      // internal/daemon/agentlog: a join comes with states
			session := ""
			if w := s.tab.WindowByID(c.Pane); w != nil { // table.go
				session = w.Session().Name
				w.SetAtPrompt(c.To == agentstate.NeedsInput) // the target check's view (gate.go)
			}
			src := ""
			if c.Claimed {
				src = c.Source.String()
			}
			s.hub.Publish(event{Type: "agent-state", Session: session, Window: c.Pane, State: c.To.String(), Source: src, Message: c.Message})
		}
	}
}

// notePrompts reads every pane's state again into atPrompt, after the
// arbiter's subscription dropped changes.
func (s *Server) notePrompts() {
	for _, w := range s.tab.WindowList() { // table.go
		w.SetAtPrompt(s.tracker.Arbiter().Get(w.ID).State == agentstate.NeedsInput)
	}
}
