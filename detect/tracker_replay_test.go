package detect_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

// chunk is one read of a recording and when it came, after the start.
type chunk struct {
	at   time.Duration
	data []byte
}

// recordPrompt runs the pretend agent on a real PTY and records what it
// writes, read by read, until its permission prompt is painted.
func recordPrompt(t *testing.T, cols, rows int) (all []byte, chunks []chunk) {
	t.Helper()
	bin := filepath.Join(agentBin(t), "claude")
	proc, err := pty.Start(pty.Options{Argv: []string{bin, "-as", "", "-steps", "2", "-step", "50ms"}, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	start := time.Now()
	deadline := start.Add(20 * time.Second)
	for !bytes.Contains(all, []byte("╯")) {
		buf := make([]byte, 4096)
		proc.SetReadDeadline(deadline)
		n, err := proc.Read(buf)
		if n > 0 {
			all = append(all, buf[:n]...)
			chunks = append(chunks, chunk{time.Since(start), buf[:n]})
		}
		if err != nil {
			t.Fatalf("reading the agent: %v (read %q)", err, all)
		}
	}
	return all, chunks
}

// replay writes the chunks to the pane at their recorded pace on the
// fake clock.
func replay(clock *fakeclock.Clock, p *detect.Pane, chunks []chunk) {
	var at time.Duration
	for _, c := range chunks {
		clock.Advance(c.at - at)
		at = c.at
		p.Write(c.data)
	}
}

// A recording explains and replays as it read live: ExplainBytes and a
// pane told its harness both read the permission prompt the pretend agent
// painted on a real PTY; a pane told nothing runs no rules.
func TestARecordingReadsAsItDidLive(t *testing.T) {
	rec, chunks := recordPrompt(t, 100, 30)
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})

	ex, err := reg.ExplainBytes(rec, detect.ExplainBytesOptions{Harness: "claude-code", Cols: 100, Rows: 30})
	if err != nil || !ex.Matched || ex.RuleState != "needs_input" || ex.Kind != "approval" {
		t.Fatalf("ExplainBytes: %v matched %v %s %s\n%s", err, ex.Matched, ex.RuleState, ex.Kind, ex.String())
	}

	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, Registry: reg, DetectInterval: -1})
	defer tr.Close()
	told := tr.Attach("told", detect.PaneOptions{Harness: "claude-code", Cols: 100, Rows: 30})
	blind := tr.Attach("blind", detect.PaneOptions{Cols: 100, Rows: 30})
	replay(clock, told, chunks)
	blind.Write(rec)
	// The agent's OSC 9;4 progress said working (it counts on a pane told
	// its harness); the prompt takes the pane once that claim has stood
	// the blocker grace unrefreshed, as it does live.
	clock.Advance(detect.SettleDelay)
	clock.Advance(agentstate.DefaultBlockerGrace)
	s := tr.Arbiter().Get("told")
	if s.State != agentstate.NeedsInput || s.SourceName() != "screen" || s.Harness != "claude-code" || s.Message != ex.Message {
		t.Fatalf("replayed pane: %s from %q harness %q message %q (explained %q)", s.State, s.SourceName(), s.Harness, s.Message, ex.Message)
	}
	if s := tr.Arbiter().Get("blind"); s.State != agentstate.None || s.Claimed {
		t.Fatalf("a pane told no harness read %s from %q", s.State, s.SourceName())
	}

	// Unknown harness: an error naming the nearest.
	if _, err := reg.ExplainBytes(rec, detect.ExplainBytesOptions{Harness: "claude"}); err == nil {
		t.Fatal("ExplainBytes of an unknown harness succeeded")
	} else if he, ok := err.(*detect.HarnessError); !ok || he.DidYouMean != "claude-code" || he.Code() != detect.CodeUnknownHarness {
		t.Fatalf("unknown harness: %#v", err)
	}
}

// Resize reads the screen again: a full-screen agent's prompt below the
// cursor is cut when the pane loses rows (rows below the cursor go first,
// as in tmux), and the pane stops reading needs_input without waiting for
// more output.
func TestPaneResizeLooksAgain(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, Registry: reg, DetectInterval: -1})
	defer tr.Close()
	p := tr.Attach("p", detect.PaneOptions{Harness: "claude-code", Cols: 80, Rows: 24})
	p.Write([]byte("\x1b[?1049h\x1b[H● Bash(rm -rf build/)\x1b[20;1H Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\x1b[2;1H"))
	clock.Advance(detect.SettleDelay)
	if s := tr.Arbiter().Get("p"); s.State != agentstate.NeedsInput {
		t.Fatalf("before the resize: %s", s.State)
	}
	p.Resize(80, 10)
	if w, h := p.Screen().Size(); w != 80 || h != 10 {
		t.Fatalf("screen is %dx%d after Resize(80, 10)", w, h)
	}
	clock.Advance(detect.SettleDelay)
	if s := tr.Arbiter().Get("p"); s.State == agentstate.NeedsInput {
		t.Fatalf("after the prompt was cut: still %s from %s", s.State, s.SourceName())
	}
	tr.Detach("p")
	p.Resize(100, 30) // detached: a no-op
	if w, _ := p.Screen().Size(); w != 80 {
		t.Fatalf("a detached pane resized to %d cols", w)
	}
}
