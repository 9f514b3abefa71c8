package term

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// Options start a Term.
type Options struct {
	// ID is the pane's id in Tracker.
	ID string
	// Start is the process and its PTY.
	Start pty.Options
	// InputMax bounds the bytes queued for the pane's input
	// (pty.InputOptions.Max).
	InputMax int
	// Tracker is the agent tracker the pane is attached to, with
	// Scrollback lines kept, and OnEvent seeing its screen's events.
	Tracker    *detect.Tracker
	Scrollback int
	OnEvent    func(vt.Event)

	// Starting, when set, is called before the fork; the func it returns
	// is called with the new process's pid (0: the start failed). Waited
	// is called with that pid once the process was reaped. The daemon's
	// orphan reaper uses the two to never reap a pane's own process.
	Starting func() func(pid int)
	Waited   func(pid int)

	// OnOutput is called on the reader's goroutine after each chunk of
	// output went to the tracked pane, with its length.
	OnOutput func(n int)
	// OnExit is called once, on a goroutine of its own, after the process
	// exited, its last output was read and its status recorded.
	OnExit func(pty.ExitStatus)
}

// Term is one pane's terminal. Its methods may be called from any
// goroutine.
type Term struct {
	opt     Options
	proc    *pty.Process
	in      *pty.Input
	tracked *detect.Pane
	started time.Time

	exitSeen atomic.Bool   // the exit is being handled
	readDone chan struct{} // closed when the reader reached the end of the terminal
	running  atomic.Bool   // Run was called

	mu         sync.Mutex
	lastOutput time.Time
	outputGen  chan struct{} // closed and replaced on every chunk
	outBytes   uint64
	exited     bool
	exitStatus pty.ExitStatus
	exitCh     chan struct{}
}

// Start starts the process on a new PTY and attaches it to the tracker.
// Nothing is read until Run.
func Start(opt Options) (*Term, error) {
	registered := func(int) {}
	if opt.Starting != nil {
		registered = opt.Starting()
	}
	proc, err := pty.Start(opt.Start)
	if err != nil {
		registered(0)
		return nil, err
	}
	registered(proc.Pid())
	t := &Term{opt: opt, proc: proc, started: time.Now(), readDone: make(chan struct{}), outputGen: make(chan struct{}), exitCh: make(chan struct{})}
	t.in = pty.NewInput(proc, pty.InputOptions{Max: opt.InputMax})
	t.tracked = opt.Tracker.Attach(opt.ID, detect.PaneOptions{ShellPID: proc.Pid(), Cols: opt.Start.Cols, Rows: opt.Start.Rows,
		Reply: t.in, Scrollback: opt.Scrollback, OnEvent: opt.OnEvent})
	return t, nil
}

// Proc is the pane's process.
func (t *Term) Proc() *pty.Process { return t.proc }

// Input is the one queue of what is typed into the pane, in order.
func (t *Term) Input() *pty.Input { return t.in }

// Tracked is the pane as the agent tracker keeps it: its screen and state.
func (t *Term) Tracked() *detect.Pane { return t.tracked }

// LastOutput is when the pane last printed (zero: never), and a channel
// closed when it next prints.
func (t *Term) LastOutput() (time.Time, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastOutput, t.outputGen
}

// Quiet is when the pane last printed, or was started if it never did,
// and a channel closed when it next prints.
func (t *Term) Quiet() (time.Time, <-chan struct{}) {
	last, gen := t.LastOutput()
	if last.IsZero() {
		last = t.started
	}
	return last, gen
}

// Printed is how many bytes the pane has printed, and whether its
// process has exited.
func (t *Term) Printed() (uint64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.outBytes, t.exited
}

// ExitStatus is the process's exit, once it exited (ok).
func (t *Term) ExitStatus() (st pty.ExitStatus, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exitStatus, t.exited
}

// Exited is closed once the process exited and its status is recorded.
func (t *Term) Exited() <-chan struct{} { return t.exitCh }

// Exiting reports whether the exit is being handled (or was).
func (t *Term) Exiting() bool { return t.exitSeen.Load() }

// Run starts the reader. A process that exited before it is noted now.
func (t *Term) Run() {
	if !t.running.CompareAndSwap(false, true) {
		return
	}
	go t.read()
	if t.proc.Exited() { // it may have exited before the exit watcher could see it
		t.noteExit()
	}
}

// CheckExit notes the exit of a process that has exited, without
// blocking: the daemon's exit watcher calls it on each SIGCHLD.
func (t *Term) CheckExit() {
	if t.running.Load() && !t.exitSeen.Load() && t.proc.Exited() {
		t.noteExit()
	}
}

// Close stops the pane: its input queue and its PTY close, the process is
// reaped, and it leaves the tracker. OnExit is not called for it.
func (t *Term) Close() {
	t.in.Close()
	t.proc.Close()
	t.wait()
	t.opt.Tracker.Detach(t.opt.ID)
}

// read is the pane's one goroutine: PTY output to the tracked pane. It
// reads until every process holding the terminal has let go, which may
// be long after the pane's own process exited (see exit).
func (t *Term) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := t.proc.Read(buf)
		if n > 0 {
			t.tracked.Write(buf[:n])
			t.mu.Lock()
			t.lastOutput = time.Now()
			t.outBytes += uint64(n)
			close(t.outputGen)
			t.outputGen = make(chan struct{})
			t.mu.Unlock()
			if t.opt.OnOutput != nil {
				t.opt.OnOutput(n)
			}
		}
		if err != nil {
			break
		}
	}
	close(t.readDone)
	t.noteExit()
}

// noteExit handles the process exiting, once, whoever sees it first. A
// background child that ignores SIGHUP and keeps the terminal open does
// not delay it.
func (t *Term) noteExit() {
	if t.exitSeen.CompareAndSwap(false, true) {
		go t.exit()
	}
}

// exitSettle bounds how long an exit waits for the last output: the
// reader normally reaches the end of the terminal at once; a child that
// still holds it is waited for only until the pane goes quiet.
const (
	exitQuiet  = 100 * time.Millisecond
	exitSettle = time.Second
)

func (t *Term) exit() {
	// What the process printed before it exited is read first, so a
	// waiter on the exit then reads the final screen.
	deadline := time.NewTimer(exitSettle)
	defer deadline.Stop()
settle:
	for {
		_, gen := t.LastOutput()
		select {
		case <-t.readDone:
			break settle
		case <-gen:
		case <-time.After(exitQuiet):
			break settle
		case <-deadline.C:
			break settle
		}
	}
	status := t.wait()
	t.tracked.Exited()
	t.mu.Lock()
	t.exited = true
	t.exitStatus = status
	close(t.exitCh)
	t.mu.Unlock()
	if t.opt.OnExit != nil {
		t.opt.OnExit(status)
	}
}

// wait reaps the process (once; later calls return the same status).
func (t *Term) wait() pty.ExitStatus {
	status, _ := t.proc.Wait()
	if t.opt.Waited != nil {
		t.opt.Waited(t.proc.Pid())
	}
	return status
}
