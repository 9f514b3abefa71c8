package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttachAlertRules: a real client in a real terminal honours
// [notifications.agent] states, settle_seconds and command: a state
// switched off raises nothing, a state that changes within the settle
// time raises nothing, and one that holds runs the command with the
// alert in its environment.
func TestAttachAlertRules(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	log := filepath.Join(w.dir, "alerts.log")
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	os.WriteFile(filepath.Join(conf, "config.toml"), []byte(`[notifications.agent]
settle_seconds = 2
command = 'echo "$TUIOS_ALERT_STATE $TUIOS_ALERT_WINDOW $TUIOS_ALERT_SESSION" >> `+log+`'
[notifications.agent.states]
done = false
`), 0o600)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "bg", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\]`)

	w.ok("set-agent-state", "done", "-s", "s", "-w", "bg")        // off in the states table
	w.ok("set-agent-state", "needs_input", "-s", "s", "-w", "bg") // changes at once: dropped
	w.ok("set-agent-state", "working", "-s", "s", "-w", "bg")
	w.ok("set-agent-state", "errored", "-s", "s", "-w", "bg") // holds: alerts
	w.waitFor("c", `bg in s stopped on an error`)
	deadline := time.Now().Add(15 * time.Second)
	var got []byte
	for time.Now().Before(deadline) {
		if got, _ = os.ReadFile(log); len(got) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if string(got) != "errored bg s\n" {
		t.Fatalf("the command's log = %q, want only the errored alert", got)
	}
	if s := w.screen("c"); strings.Contains(s, "needs you") || strings.Contains(s, "is done") {
		t.Fatalf("a dropped alert reached the dock:\n%s", s)
	}
}
