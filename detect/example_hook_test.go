package detect_test

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/hook"
)

// A program that runs its own terminals wires the agent's hooks to a
// command of its own; that command hands each payload to the program,
// which decodes it and gives the pane the whole translation in one call.
func ExamplePane_Hook() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1})
	defer tr.Close()
	pane := tr.Attach("build", detect.PaneOptions{})

	for _, payload := range []string{
		`{"session_id":"s-1","hook_event_name":"UserPromptSubmit","prompt":"tidy the build"}`,
		`{"session_id":"s-1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"}}`,
		`{"session_id":"s-1","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`,
		`{"session_id":"s-1","hook_event_name":"Stop"}`,
	} {
		t, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(payload)})
		if err != nil {
			fmt.Println(err)
			continue
		}
		res := pane.Hook(t)
		s := tr.Arbiter().Get("build")
		fmt.Printf("%-17s applied=%v  %s %s from %s  message=%q now=%q\n", t.Event, res.Report.Applied, s.Glyph(), s.State, s.SourceName(), s.Message, s.Now)
		clock.Advance(6 * time.Second)
	}
	// Output:
	// UserPromptSubmit  applied=true  ● working from report  message="" now=""
	// PreToolUse        applied=true  ● working from report  message="" now="Bash: make"
	// PermissionRequest applied=true  ▲ needs_input from report  message="approve Bash: rm -rf build" now="Bash: rm -rf build"
	// Stop              applied=true  ■ done from report  message="" now=""
}
