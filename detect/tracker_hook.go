package detect

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

// HookResult says what one hook invocation did to a pane.
type HookResult struct {
	// Report is what became of the state report (Pane.Report's result),
	// or of the session a session-only event names (Pane.SetSession's).
	// It is the zero Result when the event said neither.
	Report agentstate.Result
	// Activity is what became of the subagent event, when there was one.
	Activity agentstate.ActivityResult
}

// Hook applies everything one decoded hook invocation says about the
// pane, in one call: the state report at the top rank (joining the
// transcript it names), the agent session of an event that names only
// that, then the subagent activity. It is what the tuios agent-hook
// command does for a pane of the daemon.
//
//	t, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: payload})
//	if err == nil {
//		t.HarnessPID = harnessPID // when known: binds the report to the live agent
//		pane.Hook(t)
//	}
//
// A translation that says nothing changes nothing. Its Log entry is not
// applied (a pane keeps no agent log; a caller that keeps one reads
// t.Log) and its Reply is for the harness, which the caller's hook
// command prints. On a detached pane Hook applies nothing.
func (p *Pane) Hook(t hook.Translation) HookResult {
	var res HookResult
	if r, ok := t.AgentReport(); ok {
		res.Report = p.Report(r, t.TranscriptPath)
	}
	if t.SessionOnly && t.SessionID != "" {
		res.Report = p.SetSession(t.Harness, t.SessionID)
	}
	if t.Activity != nil {
		res.Activity = p.Activity(*t.Activity)
	}
	return res
}
