package cli_test

import (
	"strings"
	"testing"
	"time"
)

// agentState is the part of get-agent-state --json these tests read.
type agentState struct {
	State  string `json:"state"`
	Source string `json:"source"`
}

// The pretend agent reads what the harness it stands in for would: its
// failed turn (OSC 9;4 error, "Error: the build failed") reads errored and
// stays errored at its prompt, title "✳ pretend-agent"; a turn that ends
// well reads idle there (OSC 9;4 cleared). While it works, its title
// spins, as Claude Code's does. Neither becomes unknown or working again
// while it rests. Its turns here outlast the detector's first look (2 s):
// reports printed before the pane is known to hold an agent are not
// believed, by design (a plain shell's progress bar is not an agent).
func TestThePretendAgentReadsErroredAndIdleLikeItsHarness(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"fails", []string{"-error"}, "errored"},
		{"rests", nil, "idle"},
	} {
		args := append([]string{"new-window", "-s", "work", c.name, "--no-focus", "--", e.bin, "pretend-agent", "-prompt=false", "-steps", "12", "-step", "300ms"}, c.flags...)
		e.ok(args...)
		spun := map[string]bool{}
		deadline := time.Now().Add(20 * time.Second)
		for {
			var st agentState
			e.json(&st, "get-agent-state", "-s", "work", "-w", c.name)
			w := e.getWindow(c.name)
			if st.State == "working" && strings.HasSuffix(w.Title, " pretend-agent") && !strings.HasPrefix(w.Title, "✳") {
				spun[w.Title] = true
			}
			if st.State == c.want {
				if !strings.HasPrefix(w.Title, "✳ ") {
					t.Fatalf("%s: %s with the title %q", c.name, st.State, w.Title)
				}
				break
			}
			if st.State == "unknown" || time.Now().After(deadline) {
				t.Fatalf("%s: reads %s/%s (title %q), want %s", c.name, st.State, st.Source, w.Title, c.want)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if len(spun) < 2 {
			t.Fatalf("%s: the title did not spin while working: %v", c.name, spun)
		}
		// At rest it stays what it is: nothing prints, nothing changes.
		e.ok("wait-for", "window-output", "-s", "work", "-w", c.name, "--pattern", `^>\s*$`, "--timeout", "5000")
		time.Sleep(1500 * time.Millisecond)
		var st agentState
		e.json(&st, "get-agent-state", "-s", "work", "-w", c.name)
		if st.State != c.want {
			t.Fatalf("%s: %s at rest, want %s", c.name, st.State, c.want)
		}
	}
}
