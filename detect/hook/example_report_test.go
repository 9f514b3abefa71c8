package hook_test

import (
	"fmt"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

// With a bare arbiter (no detect.Tracker), a translation's state report
// is one call away. The idle_prompt notification applies only from the
// states its guard names, so it never turns a finished turn into idle.
func ExampleTranslation_AgentReport() {
	arb := agentstate.New(agentstate.Options{})
	arb.Apply("build", agentstate.Report{State: agentstate.Done, Source: agentstate.SourceReport})

	payload := `{"session_id":"s-1","hook_event_name":"Notification","notification_type":"idle_prompt","message":"Claude is waiting for your input"}`
	t, _ := hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(payload)})
	r, ok := t.AgentReport()
	fmt.Println(ok, r.State, "from", r.Source, "only from", r.IfState)
	res := arb.Apply("build", r)
	fmt.Println(res.Applied, res.Reason, arb.Get("build").State)
	// Output:
	// true idle from report only from working,needs_input,unknown
	// false if_state done
}
