package detect_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

// A pane started on an agent shows it when it is attached: no output and
// no tick are waited for.
func TestAttachShowsAnAgentAtOnce(t *testing.T) {
	bin := agentBin(t)
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, StallAfter: -1})
	defer tr.Close()
	proc, err := pty.Start(pty.Options{Argv: []string{filepath.Join(bin, "claude"), "-as", "", "-silence"}, Env: []string{"HOME=" + t.TempDir(), "TERM=xterm-256color"}})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	tr.Attach("w", detect.PaneOptions{ShellPID: proc.Pid()})
	if got := tr.Arbiter().Get("w"); got.State != agentstate.Working || got.SourceName() != "detect" || got.Harness != "claude-code" {
		t.Fatalf("after Attach: %s from %q (%q)", got.State, got.SourceName(), got.Harness)
	}
}

// An agent typed at the prompt that prints nothing at first (Claude Code
// 2.1.197 is silent for about 0.6 s after exec) is seen by the re-read
// that follows the Enter's echo, DetectGap later, not by the 2 s tick;
// and the pane clears when the shell is back, on the prompt it prints.
func TestAnAgentThatStartsSilentShowsWithinDetectGap(t *testing.T) {
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	silent := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(silent, []byte("#!/bin/sh\nread line\nprintf 'over\\n'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.typeLine(silent)
	waitFront(t, r.proc.Pid(), "claude")
	r.waitScreen(silent)
	r.want(agentstate.None, "") // no tick, and the agent printed nothing
	r.clock.Advance(detect.DetectGap)
	if got := r.want(agentstate.Working, "detect"); got.Harness != "claude-code" {
		t.Fatalf("attributed to %q", got.Harness)
	}
	r.typeLine("")
	r.waitScreen("over")
	deadline := time.Now().Add(10 * time.Second)
	for r.state().State != agentstate.None {
		if time.Now().After(deadline) {
			t.Fatalf("the pane did not clear when the shell came back: %+v", r.state())
		}
		r.clock.Advance(detect.DetectGap)
		time.Sleep(5 * time.Millisecond)
	}
	if elapsed := r.clock.Now().Sub(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)); elapsed >= detect.DefaultDetectInterval {
		t.Fatalf("the pane cleared only after %v of fake time: by the tick", elapsed)
	}
}

// A program that is not an agent and does not wrap one is settled: the
// read after the output that started it finds it and arms nothing more,
// where a shell in front is read again.
func TestASettledProgramIsNotReadAgain(t *testing.T) {
	r := newTrackerRig(t, detect.TrackerOptions{StallAfter: -1})
	r.typeLine("echo started; sleep 30")
	waitFront(t, r.proc.Pid(), "sleep")
	r.waitScreen("started")
	r.clock.Advance(detect.DetectGap)
	if n := r.clock.Pending(); n != 1 {
		t.Fatalf("%d timers with sleep in front, want the detection tick alone", n)
	}
	r.want(agentstate.None, "")
	r.proc.Write([]byte{3}) // the shell comes back and prints its prompt
	waitFront(t, r.proc.Pid(), "sh")
	r.waitScreen("^C")
	r.clock.Advance(detect.DetectGap)
	if n := r.clock.Pending(); n != 2 {
		t.Fatalf("%d timers with the shell back in front, want the tick and a re-read", n)
	}
}

// waitFront waits (bounded, on the real clock) until the terminal's
// foreground process group leader of shell pid is named comm.
func waitFront(t *testing.T, pid int, comm string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		fg, err := detect.ReadForeground(pid)
		if err == nil && fg.Running && strings.TrimSpace(fg.Leader.Comm) == comm {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reached the foreground: %+v %v", comm, fg, err)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// An agent that runs for half a second and exits is seen, and seen to
// leave, with no detection tick at all (it is an hour here): a pane is
// read on its output, not only on the tick. The clock is real.
func TestAShortLivedAgentIsSeen(t *testing.T) {
	bin := agentBin(t)
	tr := detect.NewTracker(detect.TrackerOptions{StallAfter: -1, DetectInterval: time.Hour})
	defer tr.Close()
	env := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "TERM=xterm-256color", "PS1=$ ", "ENV="}
	proc, err := pty.Start(pty.Options{Argv: []string{"sh", "-i"}, Env: env, Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	pane := tr.Attach("w", detect.PaneOptions{ShellPID: proc.Pid(), Cols: 100, Rows: 30, Reply: proc})
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32<<10)
		for {
			n, err := proc.Read(buf)
			if n > 0 {
				pane.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() { proc.Close(); <-done }()
	sub := tr.Arbiter().Subscribe(agentstate.SubscribeOptions{Pane: "w", Buffer: 64})
	defer sub.Close()
	proc.Write([]byte("claude -as '' -prompt=false -steps 5 -step 100ms -exit; echo back-at-$((1+1))\n"))
	var seen []agentstate.State
	deadline := time.After(15 * time.Second)
	for len(seen) < 2 {
		select {
		case c := <-sub.C:
			if c.From != c.To { // the same state from another source (its progress bar after the detector) is no change of state
				seen = append(seen, c.To)
			}
		case <-deadline:
			t.Fatalf("changes seen: %v\n%s", seen, pane.Screen().Text())
		}
	}
	if seen[0] != agentstate.Working || seen[1] != agentstate.None {
		t.Fatalf("changes seen: %v, want working then none", seen)
	}
}
