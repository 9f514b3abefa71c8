package codex_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/internal/agentproto/codex"
	"github.com/tuios/tuios/internal/agentproto/conv"
)

// A client reads what the app-server says as conversation events.
func ExampleClient() {
	out := strings.NewReader(`{"method":"turn/plan/updated","params":{"plan":[{"step":"run the tests","status":"inProgress"}]}}` + "\n")
	c := codex.New(out, io.Discard, codex.Options{Emit: func(e conv.Event) {
		if p, ok := e.(conv.Plan); ok {
			fmt.Println(p.Entries[0].Text, p.Entries[0].Status)
		}
	}})
	c.Run()
	// Output: run the tests in_progress
}
