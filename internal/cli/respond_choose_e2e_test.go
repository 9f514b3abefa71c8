package cli_test

import (
	"strings"
	"testing"
)

// On the pretend agent's risky prompt (rm -rf build/), `choose 2` picks
// "No, and tell …": a deny, taken at once without --risk-ack. `choose 9`
// names the options the prompt has, and does not list choose as available.
func TestRespondChooseTheNoOptionIsADeny(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t)
	e.pretendOnPrompt("agent")
	r := e.fails("invalid_params", "respond", "-s", "work", "-w", "agent", "choose", "9")
	if !strings.Contains(r.err, "option 9 is not offered; this prompt has options 1-2") || strings.Contains(r.err, "choose") && strings.Contains(r.err, "available") {
		t.Fatalf("choose 9: %s", r.err)
	}
	r = e.fails("risk_unacknowledged", "respond", "-s", "work", "-w", "agent", "choose", "1")
	if !strings.Contains(r.err, "allowing it") || !strings.Contains(r.err, "recursive delete") {
		t.Fatalf("choose 1: %s", r.err)
	}
	out := e.ok("respond", "-s", "work", "-w", "agent", "choose", "2")
	if !strings.Contains(out, `Sent "2"`) {
		t.Fatalf("choose 2: %s", out)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "agent", "--pattern", "Denied", "--timeout", "10000")
}
