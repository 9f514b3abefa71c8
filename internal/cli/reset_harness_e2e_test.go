package cli_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// A full terminal reset (ESC c) in a pane running Claude Code leaves the
// pane attributed to Claude Code: claude is still in the foreground, so
// harness_id never reads empty after the reset (issue: it stayed empty
// for 5 s and more).
func TestAFullResetKeepsTheHarness(t *testing.T) {
	t.Parallel()
	inst := findClaude(t)
	realAgent(t, lightAgent)
	api := startStandin(t, standin.Options{})
	e := newEnv(t)
	_, work := e.seedClaude()
	e.vars = append(e.vars, "ANTHROPIC_BASE_URL="+api.URL(), "ANTHROPIC_API_KEY="+standinKey,
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `(?m)^\$`, "--timeout", "10000")
	e.ok("send-text", "-s", "work", "cd "+singleQuoted(work)+" && "+singleQuoted(inst.shim)+"\n")
	if r := e.run("wait-for", "window-output", "-s", "work", "--pattern", `for shortcuts`, "--timeout", "60000"); r.code != 0 {
		t.Fatalf("Claude Code's prompt never came:\n%s", e.ok("capture-pane", "-s", "work"))
	}
	var st struct {
		State     string `json:"state"`
		Source    string `json:"source"`
		HarnessID string `json:"harness_id"`
	}
	deadline := time.Now().Add(15 * time.Second)
	for e.json(&st, "get-agent-state", "-s", "work", "-w", "0"); st.HarnessID != "claude-code"; e.json(&st, "get-agent-state", "-s", "work", "-w", "0") {
		if time.Now().After(deadline) {
			t.Fatalf("never attributed: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The reset, written to the pane's terminal as Claude Code's own
	// output would be.
	var w struct {
		PID int `json:"pid"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "0")
	tty, err := os.Readlink("/proc/" + strconv.Itoa(w.PID) + "/fd/0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(tty, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\x1bc")
	f.Close()
	e.ok("wait-for", "window-output", "-s", "work", "--pattern", `^$`, "--timeout", "5000") // the screen went blank
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		if st.HarnessID != "claude-code" {
			t.Fatalf("after the reset the pane reads %+v", st)
		}
	}
}
