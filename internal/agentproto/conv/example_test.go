package conv_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

// What a pane reports for each event that changes the state.
func ExampleEvent() {
	state := func(e conv.Event) string {
		switch e := e.(type) {
		case conv.Ready:
			return "idle"
		case conv.TurnStarted:
			return "working"
		case conv.Permission:
			return "needs_input: approve " + e.Tool + ": " + e.Target
		case conv.TurnEnded:
			return map[conv.Outcome]string{conv.EndDone: "done", conv.EndCancelled: "idle", conv.EndFailed: "errored"}[e.Outcome]
		}
		return ""
	}
	for _, e := range []conv.Event{conv.Ready{}, conv.TurnStarted{}, conv.Permission{Tool: "shell", Target: "make test"}, conv.TurnEnded{}} {
		fmt.Println(state(e))
	}
	// Output:
	// idle
	// working
	// needs_input: approve shell: make test
	// done
}
