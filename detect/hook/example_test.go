package hook_test

import (
	"fmt"

	"github.com/tuios/tuios/detect/hook"
)

// Claude Code asks to run a command: the pane waits for an approval.
func ExampleDecode() {
	payload := `{"session_id":"s-1","cwd":"/home/ana/proj","hook_event_name":"PermissionRequest",
		"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`
	t, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(payload)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.State, t.Kind, t.Message)
	fmt.Println("now:", t.Now)
	fmt.Println("session:", t.SessionID)
	fmt.Println("why:", t.Why)
	// Output:
	// needs_input approval approve Bash: rm -rf build
	// now: Bash: rm -rf build
	// session: s-1
	// why: needs_input (approval): approve <tool>: <what> (claude-code PermissionRequest)
}
