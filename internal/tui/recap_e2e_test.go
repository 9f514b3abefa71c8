package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hook runs tuios agent-hook claude-code for a window with payload on
// stdin, as Claude Code's hooks do.
func (w *world) hook(session, window, payload string) {
	w.t.Helper()
	cmd := exec.Command(w.bin, "agent-hook", "claude-code", "-s", session, "-w", window, "--timeout", "5s")
	cmd.Env, cmd.Stdin = w.vars, strings.NewReader(payload)
	if out, err := cmd.CombinedOutput(); err != nil {
		w.t.Fatalf("agent-hook %s: %v\n%s", payload, err, out)
	}
}

// turn is one finished turn of Claude Code in window: a prompt, an edit
// and its end.
func (w *world) turn(session, window, file, said string) {
	w.t.Helper()
	w.hook(session, window, `{"hook_event_name":"UserPromptSubmit","session_id":"c1","prompt":"go on"}`)
	w.hook(session, window, `{"hook_event_name":"PreToolUse","session_id":"c1","tool_name":"Edit","tool_input":{"file_path":"`+file+`"}}`)
	w.hook(session, window, `{"hook_event_name":"PostToolUse","session_id":"c1","tool_name":"Edit","tool_input":{"file_path":"`+file+`"},"tool_response":{}}`)
	w.hook(session, window, `{"hook_event_name":"Stop","session_id":"c1","last_assistant_message":"`+said+`"}`)
}

// Seed 003, "What the agent has been doing": an agent pane finishes a turn
// while the person is away from it ([agents.recap] away, 1 ms here: the
// hooks of a turn take longer, so no wait is needed); its
// finished row in the Inbox shows the recap under the list, coming back
// to the pane puts the one-liner on the dock, and a detach counts as
// away: reattached later, the dock says what it did meanwhile.
func TestAttachAwayRecap(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[agents.recap]\naway = \"1ms\"\n"), 0o600)
	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "other", "--no-focus", "--", "sleep", "600")
	w.ok("new-window", "-s", "s1", "ag", "--", "sleep", "600")
	w.hook("s1", "ag", `{"hook_event_name":"SessionStart","session_id":"c1"}`)
	w.waitFocused("s1", "ag")
	w.start("c", w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)

	// Away from ag (the client shows other) while it finishes a turn.
	w.ok("focus-window", "-s", "s1", "-w", "other")
	w.waitFocused("s1", "other")
	// The client stamps when it stopped showing ag as it draws the
	// layout that shows other: the turn comes after that, not merely
	// after the daemon moved the focus.
	w.waitFor("c", `\d+:other`)
	w.turn("s1", "ag", "api/retry.go", "Added retry with backoff.")
	w.keys("c", "C-b", "i")
	w.waitFor("c", `s1/ag`)
	w.waitFor("c", `ag while you were away \(\d+s\): 1 turn, 1 file, 0 commands, at prompt`)
	w.waitFor("c", `files: api/retry\.go`)
	w.waitFor("c", `last said: Added retry with backoff\.`)
	w.keys("c", "q")
	w.waitGone("c", `last said: `)

	// Back to ag: the dock says it in one line.
	w.ok("focus-window", "-s", "s1", "-w", "ag")
	w.waitFor("c", `(?m)\[s1\].*ag while you were away \(\d+s\): 1 turn, 1 file`)

	// A detach is away: reattached, the dock sums up what ag did since.
	w.keys("c", "C-b", "d")
	w.waitFor("c", `detached`)
	w.turn("s1", "ag", "api/backoff.go", "Made the jitter configurable.")
	w.turn("s1", "ag", "api/backoff_test.go", "Tested it.")
	w.start("c2", w.bin+" attach -t s1")
	w.waitFor("c2", `(?m)\[s1\].*ag while you were away \(\d+s\): 2 turns, 2 files, 0 commands, at prompt`)
}
