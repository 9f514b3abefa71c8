package detect_test

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
)

func status(kv string) []byte { return []byte("\x1b]7501;" + kv + "\x07") }

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func programPane(t *testing.T) (*detect.Tracker, *detect.Pane, *fakeclock.Clock) {
	t.Helper()
	clock := fakeclock.New(time.Unix(0, 0))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1, StallAfter: -1})
	t.Cleanup(tr.Close)
	return tr, tr.Attach("w", detect.PaneOptions{Cols: 80, Rows: 24}), clock
}

func TestProgramStatusRecords(t *testing.T) {
	tr, p, clock := programPane(t)
	a := tr.Arbiter()
	p.Write(status("state=working:app=deploy:id=deploy/us-east:progress=40"))
	p.Write(status("state=blocked:kind=permission:app=deploy:title=" + b64("Deploy") + ":msg=" + b64("Approve deploy to production?")))
	s := a.Get("w")
	if s.State != agentstate.NeedsInput || s.SourceName() != "program" || s.BlockedBy() != agentstate.KindApproval || s.Message != "Deploy: Approve deploy to production?" {
		t.Fatalf("the most urgent record: %+v", s)
	}
	// OSC 9;4 no longer counts once a program reported.
	p.Write([]byte("\x1b]9;4;2\x07"))
	clock.Advance(time.Second)
	if s := a.Get("w"); s.State != agentstate.NeedsInput {
		t.Fatalf("OSC 9;4 after OSC 7501 changed the state: %s", s.State)
	}
	// Clearing a sub-task leaves the rest; clearing with no id ends all,
	// and the program gives the pane back.
	p.Write(status("state=clear:id=deploy"))
	if s := a.Get("w"); s.State != agentstate.NeedsInput {
		t.Fatalf("clearing the sub-task: %+v", s)
	}
	p.Write(status("state=clear"))
	if s := a.Get("w"); s.State != agentstate.None || s.Claimed {
		t.Fatalf("after clear: %+v", s)
	}
	p.Write(status("state=done:msg=" + b64("shipped")))
	if s := a.Get("w"); s.State != agentstate.Done || s.Message != "shipped" {
		t.Fatalf("done: %+v", s)
	}
	// Done stays until the person types; then the program yields.
	p.Exited()
	if s := a.Get("w"); s.State != agentstate.Done {
		t.Fatalf("done must survive the process exit: %s", s.State)
	}
	p.Typed()
	if s := a.Get("w"); s.SourceName() == "program" {
		t.Fatalf("typing did not end the done record: %+v", s)
	}
}

func TestProgramStatusEndsWithTheProcessAndOnReset(t *testing.T) {
	tr, p, _ := programPane(t)
	a := tr.Arbiter()
	p.Write(status("state=working:app=build"))
	if s := a.Get("w"); s.State != agentstate.Working || s.SourceName() != "program" {
		t.Fatalf("working: %+v", s)
	}
	p.Exited()
	if s := a.Get("w"); s.State != agentstate.None {
		t.Fatalf("a working record outlived its process: %+v", s)
	}
	p.Write(status("state=working:app=build"))
	p.Write([]byte("\x1b]133;A\x07")) // a new shell prompt
	if s := a.Get("w"); s.State != agentstate.None {
		t.Fatalf("a working record outlived its command: %+v", s)
	}
	p.Write(status("state=blocked:kind=question"))
	p.Write([]byte("\x1bc")) // RIS
	if s := a.Get("w"); s.State != agentstate.None {
		t.Fatalf("a full reset did not end the records: %+v", s)
	}
	// After the reset OSC 9;4 counts again (on a pane known to hold an
	// agent).
	p.Report(agentstate.Report{State: agentstate.Idle, Source: agentstate.SourceOSC}, "")
	p.Write([]byte("\x1b]9;4;4\x07"))
	if s := a.Get("w"); s.State != agentstate.NeedsInput || s.SourceName() != "osc" {
		t.Fatalf("OSC 9;4 after RIS: %+v", s)
	}
}
