package term_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/mux/term"
	"github.com/tuios/tuios/pty"
)

const guard = 10 * time.Second

// tracker is a tracker with no detection tick and no stall, closed when
// the test ends.
func tracker(t *testing.T) *detect.Tracker {
	tr := detect.NewTracker(detect.TrackerOptions{DetectInterval: -1, StallAfter: -1})
	t.Cleanup(tr.Close)
	return tr
}

func start(t *testing.T, opt term.Options, argv ...string) *term.Term {
	t.Helper()
	if opt.Tracker == nil {
		opt.Tracker = tracker(t)
	}
	if opt.ID == "" {
		opt.ID = "p"
	}
	opt.Start = pty.Options{Argv: argv, Env: []string{"PATH=/usr/bin:/bin", "TERM=xterm-256color"}, Cols: 80, Rows: 24}
	tm, err := term.Start(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tm.Close)
	return tm
}

func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(guard):
		t.Fatalf("%s never happened", what)
	}
}

// A process that prints and exits: the exit is recorded after its last
// output reached the screen, the hooks ran (output first), and its code
// is kept.
func TestExitComesAfterTheLastOutput(t *testing.T) {
	t.Parallel()
	var printed atomic.Int64
	exited := make(chan pty.ExitStatus, 1)
	tm := start(t, term.Options{
		OnOutput: func(n int) { printed.Add(int64(n)) },
		OnExit:   func(st pty.ExitStatus) { exited <- st },
	}, "sh", "-c", "i=0; while [ $i -lt 200 ]; do echo line-$i; i=$((i+1)); done; echo last-line; exit 3")
	if _, ok := tm.ExitStatus(); ok {
		t.Fatal("exited before it ran")
	}
	tm.Run()
	waitClosed(t, tm.Exited(), "the exit")
	if !strings.Contains(tm.Tracked().Screen().Text(), "last-line") {
		t.Fatalf("the exit came before the last output:\n%s", tm.Tracked().Screen().Text())
	}
	st, ok := tm.ExitStatus()
	if !ok || st.Code != 3 {
		t.Fatalf("exit status %+v %v, want code 3", st, ok)
	}
	select {
	case got := <-exited:
		if got.Code != 3 {
			t.Fatalf("OnExit got %+v", got)
		}
	case <-time.After(guard):
		t.Fatal("OnExit never ran")
	}
	n, gone := tm.Printed()
	if !gone || n == 0 || int64(n) != printed.Load() {
		t.Fatalf("printed %d (exited %v); OnOutput saw %d", n, gone, printed.Load())
	}
}

// What is typed goes in through the input queue; LastOutput's channel
// closes on the next chunk; Quiet counts from the start before any.
func TestInputAndOutputWake(t *testing.T) {
	t.Parallel()
	tm := start(t, term.Options{InputMax: 1 << 10}, "cat")
	last, gen := tm.LastOutput()
	if !last.IsZero() {
		t.Fatalf("printed before it ran: %v", last)
	}
	if q, _ := tm.Quiet(); q.IsZero() {
		t.Fatal("Quiet before any output is not the start")
	}
	tm.Run()
	if _, err := tm.Input().Write([]byte("typed-in\n")); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, gen, "the output's wake")
	// A chunk is on the screen before it wakes the channel taken before
	// it: take the channel, then look.
	for {
		_, gen = tm.LastOutput()
		if strings.Contains(tm.Tracked().Screen().Text(), "typed-in") {
			break
		}
		waitClosed(t, gen, "the echo on the screen")
	}
	if last, _ := tm.LastOutput(); last.IsZero() {
		t.Fatal("no time of the last output")
	}
	if tm.Exiting() {
		t.Fatal("a running cat reads as exiting")
	}
}

// Close ends a process that would run on, reaps it (Waited hears its
// pid), leaves the tracker, and calls no OnExit.
func TestCloseReapsAndDetaches(t *testing.T) {
	t.Parallel()
	tr := tracker(t)
	var registered, waited atomic.Int64
	var onExit atomic.Bool
	tm, err := term.Start(term.Options{ID: "p", Tracker: tr,
		Start:    pty.Options{Argv: []string{"sleep", "600"}, Env: []string{"PATH=/usr/bin:/bin"}, Cols: 80, Rows: 24},
		Starting: func() func(int) { return func(pid int) { registered.Store(int64(pid)) } },
		Waited:   func(pid int) { waited.Store(int64(pid)) },
		OnExit:   func(pty.ExitStatus) { onExit.Store(true) }})
	if err != nil {
		t.Fatal(err)
	}
	if registered.Load() != int64(tm.Proc().Pid()) {
		t.Fatalf("Starting registered %d, the process is %d", registered.Load(), tm.Proc().Pid())
	}
	if tr.Pane("p") == nil {
		t.Fatal("not attached to the tracker")
	}
	tm.Close()
	if waited.Load() != int64(tm.Proc().Pid()) {
		t.Fatalf("Waited heard %d, want %d", waited.Load(), tm.Proc().Pid())
	}
	if tr.Pane("p") != nil {
		t.Fatal("still attached after Close")
	}
	if onExit.Load() {
		t.Fatal("OnExit ran for a Term that was never Run")
	}
}

// A start that fails registers pid 0 and attaches nothing.
func TestStartFailureRegistersNothing(t *testing.T) {
	t.Parallel()
	tr := tracker(t)
	got := int64(-1)
	_, err := term.Start(term.Options{ID: "p", Tracker: tr, Start: pty.Options{Argv: []string{"/nonexistent/program"}},
		Starting: func() func(int) { return func(pid int) { got = int64(pid) } }})
	if err == nil {
		t.Fatal("a missing program started")
	}
	if got != 0 || tr.Pane("p") != nil {
		t.Fatalf("registered %d, attached %v", got, tr.Pane("p") != nil)
	}
}
