package herdr

import (
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
)

// herdrVerb is the tuios verb whose work a herdr method does, so the
// method is admitted by that verb's declaration in the verb table: one
// place decides, whichever socket the call came in on. A method tuios
// answers unsupported, or does not know, is admitted as hello (it does
// nothing).
func herdrVerb(m string) string {
	switch m {
	case "pane.report_agent", "pane.report_agent_session", "pane.release_agent", "pane.report_metadata", "notification.show":
		return "set-agent-state" // a pane's report about itself
	case "session.snapshot", "workspace.list", "workspace.get", "tab.list", "tab.get", "pane.list", "agent.list",
		"pane.get", "agent.get", "pane.current", "pane.layout", "pane.neighbor", "pane.edges", "pane.process_info", "worktree.list":
		return "list-windows"
	case "pane.read", "agent.read":
		return "capture-pane"
	case "pane.wait_for_output", "agent.wait", "events.wait":
		return "wait-for"
	case "events.subscribe":
		return "subscribe"
	case "pane.send_text", "pane.send_input":
		return "send-text"
	case "pane.send_keys", "agent.send_keys":
		return "send-keys"
	case "agent.prompt":
		return "ask-agent"
	case "agent.start":
		return "start-agent"
	case "pane.rename":
		return "set-window"
	case "pane.close", "tab.close":
		return "close-window"
	case "pane.focus", "agent.focus", "pane.focus_direction":
		return "focus-window"
	case "pane.swap":
		return "move-window"
	case "pane.split":
		return "split-window"
	case "pane.zoom":
		return "run-command"
	case "workspace.create":
		return "new-session"
	case "workspace.close":
		return "kill-session"
	case "workspace.rename":
		return "set-session-name"
	case "workspace.focus", "tab.focus":
		return "select-workspace"
	case "tab.create", "worktree.create", "worktree.open", "worktree.remove":
		return "new-window"
	case "tab.rename":
		return "set-workspace-name"
	case "tab.move":
		return "set-workspace-order"
	}
	if strings.HasPrefix(m, "worktree.") {
		return "new-window"
	}
	return "hello"
}

// admit admits one herdr call as its verb (the daemon's dispatch rule),
// as the caller the herdr socket placed by the kernel's word on its pid.
func (h *Sock) admit(call *herdrCall, m string) *Err {
	gc, err := h.core.Admit(call.ctx, core.Peer{PID: call.peer, Placement: core.Placement{Pane: call.place()}, Conn: call.c}, herdrVerb(m))
	if err != nil {
		return herdrFromProto(err)
	}
	call.gc = gc
	return nil
}
