package cli_test

import (
	"strings"
	"testing"
)

// The harnesses whose hooks report only the conversation id (the agents
// page: "so the pane can be resumed after a restart") and the others
// with a resume flag: resume-agent names each one's own command, for a
// pane whose id came from the hook alone (no process the detector
// attributes, as in a restored pane).
func TestResumeAgentForHarnessesThatReportOnlyTheID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, c := range []struct{ harness, want string }{
		{"droid", "droid --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"qoder", "qodercli --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"grok", "grok --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"hermes", "hermes --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"crush", "crush --session 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"devin", "devin --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"kilo", "kilo --session 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"kimi", "kimi --session 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
		{"qwen", "qwen --resume 0b1c2d3e-aaaa-bbbb-cccc-111122223333"},
	} {
		e.ok("new-window", "-s", "work", c.harness+"-pane", "--no-focus", "--", "cat")
		e.verbCall("set-agent-session", `{"session":"work","window":"`+c.harness+`-pane","harness":"`+c.harness+`","agent_session_id":"0b1c2d3e-aaaa-bbbb-cccc-111122223333"}`)
		if out := e.ok("resume-agent", "-s", "work", "-w", c.harness+"-pane", "--dry-run"); strings.TrimSpace(out) != c.want {
			t.Errorf("%s: resume-agent --dry-run = %q, want %q", c.harness, out, c.want)
		}
	}

	// Droid's own SessionStart hook, through agent-hook, as the
	// integration runs it.
	e.ok("new-window", "-s", "work", "hooked", "--no-focus", "--", "cat")
	if r := e.runIn(`{"hook_event_name":"SessionStart","session_id":"9f8e7d6c-1111-2222-3333-444455556666","source":"startup"}`,
		"agent-hook", "droid", "-s", "work", "-w", "hooked", "--timeout", "5s"); r.code != 0 {
		t.Fatalf("agent-hook droid: %+v", r)
	}
	if out := e.ok("resume-agent", "-s", "work", "-w", "hooked", "--dry-run"); strings.TrimSpace(out) != "droid --resume 9f8e7d6c-1111-2222-3333-444455556666" {
		t.Fatalf("after droid's hook: resume-agent --dry-run = %q", out)
	}
}
