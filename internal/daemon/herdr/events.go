package herdr

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// events.subscribe: the one herdr method whose connection stays open. It
// answers subscription_started, then one line per event, herdr's names
// for tuios's events. A subscriber that falls behind loses events: it is
// told events_lost and closed (herdr's rule), and one that stops reading
// is closed at the 2 s write deadline, so neither holds the daemon.

// herdrStream is a subscription about to stream.
type herdrStream struct {
	sub core.Subscription
	// panes limits pane.agent_status_changed to these windows (nil: none
	// asked); global is the global event names asked for.
	panes  map[string]bool
	global map[string]bool
}

// herdrGlobalEvents are herdr's global event names tuios produces.
func herdrGlobalEvent(name string) bool {
	switch name {
	case "workspace_created", "workspace_renamed", "workspace_closed", "tab_created", "tab_closed", "tab_focused",
		"pane_created", "pane_closed", "pane_exited", "pane_updated", "pane_focused", "pane_moved", "pane_agent_detected":
		return true
	}
	return false
}

func (h *Sock) subscribe(call *herdrCall, p herdrParams) (any, *Err) {
	var subs []struct {
		Type   string `json:"type"`
		PaneID string `json:"pane_id"`
	}
	if !p.has("subscriptions") {
		return nil, herdrMissing("subscriptions")
	}
	if err := json.Unmarshal(p["subscriptions"], &subs); err != nil {
		return nil, herdrBadType("subscriptions", "a list of {type, pane_id}")
	}
	st := &herdrStream{global: map[string]bool{}}
	for _, sb := range subs {
		switch {
		case sb.Type == "pane.agent_status_changed":
			if sb.PaneID == "" {
				return nil, herdrMissing("pane_id")
			}
			w, herr := h.herdrWindow(call.gc, sb.PaneID)
			if herr != nil {
				return nil, herr
			}
			if st.panes == nil {
				st.panes = map[string]bool{}
			}
			st.panes[w.ID] = true
		case sb.Type == "pane.scroll_changed", sb.Type == "pane.output_matched":
			return nil, errorf("unsupported", sb.Type+" is not supported by tuios")
		case herdrGlobalEvent(sb.Type):
			st.global[sb.Type] = true
		default:
			return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(sb.Type, 64)+"`")
		}
	}
	// A caller that does not reach every session hears its own (gate.go).
	own, perr := h.core.SubscribeReach(call.gc)
	if perr != nil {
		return nil, herdrFromProto(perr)
	}
	h.mu.Lock()
	if h.streams[call.key] >= h.limits.StreamsPer {
		h.mu.Unlock()
		return nil, errorf(proto.CodeRateLimited, "this pane (or process) holds "+strconv.Itoa(h.limits.StreamsPer)+" event streams, its cap")
	}
	h.streams[call.key]++
	h.mu.Unlock()
	// Only the types herdr hears: attention, host and mail events would
	// fill the queue and end the stream with events_lost for nothing.
	types := map[string]bool{}
	for typ := range herdrEventNames {
		types[typ] = true
	}
	st.sub = h.core.Subscribe(core.Filter{Session: own, Types: types}, 256)
	return st, nil
}

// stream answers subscription_started and then forwards events until the
// client hangs up, falls behind, or the daemon stops.
func (call *herdrCall) stream(id json.RawMessage, st *herdrStream) {
	h := call.h
	defer func() {
		st.sub.Close()
		h.mu.Lock()
		if h.streams[call.key]--; h.streams[call.key] <= 0 {
			delete(h.streams, call.key)
		}
		h.mu.Unlock()
	}()
	call.c.SetWriteDeadline(time.Now().Add(h.ioDeadline()))
	if writeHerdr(call.c, id, map[string]any{"type": "subscription_started"}, nil) != nil {
		return
	}
	ctx, cancel := call.hangup()
	defer cancel()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-st.sub.C():
			if !ok {
				return
			}
			call.c.SetWriteDeadline(time.Now().Add(h.ioDeadline()))
			if st.sub.Lost() > 0 {
				writeHerdr(call.c, nil, nil, errorf("events_lost", "the subscriber fell behind and events were lost"))
				return
			}
			for _, line := range h.herdrEvents(ev, st) {
				if _, err := call.c.Write(line); err != nil {
					return // a client that does not read is closed at the deadline
				}
			}
		}
	}
}

// herdrEventNames maps the tuios event types herdr streams hear to the
// herdr events they become.
var herdrEventNames = map[string][]string{
	"session-created":     {"workspace_created"},
	core.EvSessionRenamed: {"workspace_renamed"},
	"session-closed":      {"workspace_closed"},
	"window-created":      {"pane_created", "tab_created"},
	"window-closed":       {"pane_closed", "tab_closed"},
	"window-exit":         {"pane_exited"},
	"window-retitled":     {"pane_updated"},
	"window-focused":      {"pane_focused"},
	"window-moved":        {"pane_moved"},
	"workspace-switched":  {"tab_focused"},
	"agent-state":         {"pane_agent_detected", "pane.agent_status_changed"},
}

// herdrEvents turns one tuios event into herdr's event lines for this
// stream (none when the stream did not ask for them).
func (h *Sock) herdrEvents(ev core.Event, st *herdrStream) [][]byte {
	names := herdrEventNames[ev.Type]
	if names == nil {
		return nil
	}
	data := map[string]any{}
	// One window or one session copied, not the table: this runs for
	// every event of every stream.
	w, hasWindow := h.core.Find(ev.Window)
	switch {
	case ev.Type == core.EvSessionRenamed || !hasWindow || w.Session != ev.Session:
		if ss, ok := h.core.FindSession(ev.Session); ok {
			data["workspace_id"] = herdrWorkspaceID(ss.ID)
			if ev.Type == core.EvSessionRenamed {
				data["label"] = ss.Label()
			}
		}
	default:
		data["workspace_id"] = herdrWorkspaceID(w.SessionID)
	}
	if hasWindow {
		data["pane_id"] = herdrPaneID(w.SessionID, w.ID)
		data["tab_id"] = herdrTabID(w.SessionID, w.Workspace)
	}
	if ev.Type == "agent-state" {
		data["agent_status"] = herdrStatus(stateNamed(ev.State))
		if ev.Message != "" {
			data["message"] = ev.Message
		}
	}
	var out [][]byte
	for _, n := range names {
		if n == "pane.agent_status_changed" && !st.panes[ev.Window] || n != "pane.agent_status_changed" && !st.global[n] {
			continue
		}
		if n == "pane_agent_detected" && ev.State == "none" {
			continue
		}
		b, err := json.Marshal(map[string]any{"event": n, "data": data})
		if err == nil {
			out = append(out, append(b, '\n'))
		}
	}
	return out
}

// stateNamed is the state an event names (None for a name it does not
// know).
func stateNamed(name string) agentstate.State {
	st, _ := agentstate.ParseState(name)
	return st
}
