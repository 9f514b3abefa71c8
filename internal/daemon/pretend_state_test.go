package daemon

import (
	"os"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/internal/pretend"
)

// TestMain lets this test binary be the pretend agent in a pane: run
// with TUIOS_TEST_PRETEND=1, it is `tuios pretend-agent` with its args.
// The tests themselves mostly wait (on panes, sshd, far daemons, links'
// timers): more of them run at once than CPUs (e2e.WaitBound).
func TestMain(m *testing.M) {
	if os.Getenv("TUIOS_TEST_PRETEND") == "1" {
		os.Exit(pretend.Main(os.Args[1:]))
	}
	os.Exit(e2e.Main(m)) // WaitBound, and removes the binary e2e.Binary built
}

// The pretend agent's whole turn (no permission prompt, 1.2 s) reads
// through what it prints, as a hookless harness's would: its failed turn
// errored (OSC 9;4 error), its good turn idle at rest (OSC 9;4 cleared),
// once the detector has found it in the pane before the turn ends. Here
// the detector looks every 100 ms; with the 2 s default tick the turn
// can end before the first look, and what it printed before then is not
// believed (a progress bar on a pane not known to hold an agent is a
// plain shell's): that is the window the first-state latency closes.
func TestThePretendAgentsTurnReadsThroughWhatItPrints(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	_, sock := serverWith(t, func(o *Options) {
		o.Tracker.DetectInterval = 100 * time.Millisecond
		o.Env = append(o.Env, "TUIOS_TEST_PRETEND=1")
	})
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "work"})
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-prompt=false", "-error"}, "errored"},
		{[]string{"-prompt=false"}, "idle"},
	} {
		argv := append([]string{self}, c.flags...)
		id := str(r.must("new-window", map[string]any{"session": "work", "argv": argv})["window_id"])
		var seen []string
		deadline := time.Now().Add(15 * time.Second)
		for {
			st := r.must("get-agent-state", map[string]any{"session": "work", "window": id})
			s := str(st["state"])
			if len(seen) == 0 || seen[len(seen)-1] != s {
				seen = append(seen, s)
			}
			if s == c.want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v: states %v, want %s", c.flags, seen, c.want)
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Logf("%v: %v", c.flags, seen)
	}
}
