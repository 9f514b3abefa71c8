package detect

import (
	"os"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

// Foreground is read while the daemon lists every pane: it must not wait
// for the pane's lock (nor the tracker's), whoever holds them.
func TestForegroundTakesNoLock(t *testing.T) {
	tr := NewTracker(TrackerOptions{Clock: fakeclock.New(time.Unix(0, 0)), DetectInterval: -1, StallAfter: -1})
	defer tr.Close()
	p := tr.Attach("w", PaneOptions{})
	p.mu.Lock()
	tr.mu.Lock()
	done := make(chan Match)
	go func() { done <- p.Foreground() }()
	m := <-done
	tr.mu.Unlock()
	p.mu.Unlock()
	if m.Running {
		t.Fatalf("a pane never read has a foreground: %+v", m)
	}
}

// Forget (called by Tracker.Detach) must not wait for a detection of the
// same shell that is stuck in a /proc read; the entry's files are closed
// by whoever finishes with it last.
func TestForgetDoesNotWaitForADetectionInProgress(t *testing.T) {
	d := NewDetector(DetectorOptions{})
	pid := os.Getpid()
	e := d.lockEntry(pid) // a Detect of this shell, in progress
	done := make(chan struct{})
	go func() {
		d.Forget(pid)
		d.Close()
		close(done)
	}()
	<-done
	d.release(e) // the detection returns
	if !e.dead {
		t.Fatal("the forgotten entry's files were not closed when its detection returned")
	}
	e2 := d.lockEntry(pid)
	defer d.release(e2)
	if e2 == e {
		t.Fatal("a forgotten entry was handed out again")
	}
}

// A pane whose last read has not returned (a /proc read stuck in the
// kernel) is skipped by later passes, which still read every other pane
// and keep the tick armed.
func TestATickSkipsAPaneWhoseLastReadIsStuck(t *testing.T) {
	clock := fakeclock.New(time.Unix(0, 0))
	tr := NewTracker(TrackerOptions{Clock: clock, StallAfter: -1})
	defer tr.Close()
	stuck := tr.Attach("stuck", PaneOptions{ShellPID: os.Getpid()})
	other := tr.Attach("other", PaneOptions{ShellPID: os.Getpid()})
	seqOf := func(p *Pane) uint64 {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.det.seq
	}
	if seqOf(stuck) != 1 || seqOf(other) != 1 {
		t.Fatal("Attach did not read the panes")
	}
	stuck.mu.Lock()
	stuck.det.busy = true // its last read never returned
	stuck.mu.Unlock()
	clock.Advance(quietEvery * DefaultDetectInterval) // a quiet plain pane is read on every 5th tick
	if seqOf(other) != 2 {
		t.Fatalf("the other pane was read %d times, want 2", seqOf(other))
	}
	if seqOf(stuck) != 1 {
		t.Fatal("a pane whose read is out was read again")
	}
	if n := clock.Pending(); n != 1 {
		t.Fatalf("%d timers after the pass, want the next tick", n)
	}
}
