package detect_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/hook"
)

func decode(t *testing.T, harness, payload string) hook.Translation {
	t.Helper()
	tr, err := hook.Decode(hook.Input{Harness: harness, Stdin: []byte(payload)})
	if err != nil {
		t.Fatalf("decode %s: %v", payload, err)
	}
	return tr
}

// Pane.Hook does in one call what the translation says: the report with
// its guard, session and pid, the transcript join, the session of a
// session-only event, and subagent activity.
func TestPaneHookAppliesTheWholeTranslation(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1, Home: t.TempDir()})
	defer tr.Close()
	pane := tr.Attach("p", detect.PaneOptions{})
	arb := tr.Arbiter()

	// A real transcript file the report names: the pane joins it.
	path := filepath.Join(t.TempDir(), "s-1.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"user","sessionId":"s-1","message":{"role":"user","content":"hi"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	start := decode(t, "claude-code", `{"session_id":"s-1","transcript_path":"`+path+`","hook_event_name":"UserPromptSubmit","prompt":"hi"}`)
	start.HarnessPID = 4242
	if res := pane.Hook(start); !res.Report.Applied || res.Report.State != agentstate.Working {
		t.Fatalf("UserPromptSubmit: %+v", res)
	}
	s := arb.Get("p")
	if s.State != agentstate.Working || s.SourceName() != "report" || s.Harness != "claude-code" || s.SessionID != "s-1" {
		t.Fatalf("after the prompt: %+v", s)
	}
	if got, h, ok := pane.TranscriptFile(); !ok || got != path || h != "claude-code" {
		t.Fatalf("transcript join: %q %q %v", got, h, ok)
	}

	// A subagent starts: activity, no change of state.
	sub := decode(t, "claude-code", `{"session_id":"s-1","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"general-purpose"}`)
	if res := pane.Hook(sub); !res.Activity.Recorded || res.Report != (agentstate.Result{}) {
		t.Fatalf("SubagentStart: %+v", res)
	}
	if s := arb.Get("p"); s.Subagents != 1 || s.State != agentstate.Working {
		t.Fatalf("after SubagentStart: subagents %d state %s", s.Subagents, s.State)
	}

	// A guarded report refused by its guard is a result, not an error.
	clock.Advance(6 * time.Second)
	pane.Hook(decode(t, "claude-code", `{"session_id":"s-1","hook_event_name":"Stop"}`))
	idle := decode(t, "claude-code", `{"session_id":"s-1","hook_event_name":"Notification","notification_type":"idle_prompt","message":"waiting"}`)
	if res := pane.Hook(idle); res.Report.Applied || res.Report.Reason != agentstate.ReasonIfState || arb.Get("p").State != agentstate.Done {
		t.Fatalf("idle_prompt after done: %+v, state %s", res, arb.Get("p").State)
	}

	// A session-only event (Droid names its conversation and nothing
	// else) records the session and leaves the state alone.
	other := tr.Attach("q", detect.PaneOptions{})
	only := decode(t, "droid", `{"session_id":"d-7","hook_event_name":"SessionStart","source":"startup"}`)
	if !only.SessionOnly {
		t.Fatalf("droid SessionStart is not session-only: %+v", only)
	}
	if res := other.Hook(only); !res.Report.Applied {
		t.Fatalf("session-only: %+v", res)
	}
	if s := arb.Get("q"); s.SessionID != "d-7" || s.State != agentstate.None || s.Claimed {
		t.Fatalf("after a session-only event: %+v", s)
	}

	// An event that says nothing changes nothing.
	v := arb.Get("p").Version
	if res := pane.Hook(hook.Translation{Harness: "claude-code", Event: "Whatever"}); res != (detect.HookResult{}) || arb.Get("p").Version != v {
		t.Fatalf("an empty translation did something: %+v", res)
	}

	// Detached, the pane takes nothing.
	tr.Detach("p")
	if res := pane.Hook(start); res != (detect.HookResult{}) {
		t.Fatalf("a detached pane applied %+v", res)
	}
}

// Exited clears what an agent the detector saw claimed, and leaves a
// claim nothing tied to an agent: with detection off, a hook's report
// stays until a report of none ends it (the Exited doc says which).
func TestExitedClearsOnlyWhatAnAgentClaimed(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1})
	defer tr.Close()
	p := tr.Attach("w", detect.PaneOptions{})
	p.Hook(decode(t, "claude-code", `{"session_id":"s-1","hook_event_name":"UserPromptSubmit"}`))
	p.Exited()
	if s := tr.Arbiter().Get("w"); s.State != agentstate.Working || s.SourceName() != "report" {
		t.Fatalf("a report no detector tied to an agent changed on exit: %+v", s)
	}
	p.Hook(decode(t, "claude-code", `{"session_id":"s-1","hook_event_name":"SessionEnd"}`))
	if s := tr.Arbiter().Get("w"); s.State != agentstate.None || s.Claimed {
		t.Fatalf("the agent's own none did not end it: %+v", s)
	}
}
