package detect_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/vt"
)

// These tests hang, rather than fail, when a pane's lock is held across
// blocking I/O: go test's -timeout is the hang detector. Nothing here
// sleeps; every wait is on a channel.

// stuckWriter is a PTY that never drains: Write blocks until release is
// closed. entered is closed when the first Write arrives.
type stuckWriter struct {
	entered chan struct{}
	release chan struct{}
	once    sync.Once
	mu      sync.Mutex
	got     []byte
}

func newStuckWriter() *stuckWriter {
	return &stuckWriter{entered: make(chan struct{}), release: make(chan struct{})}
}

func (w *stuckWriter) Write(b []byte) (int, error) {
	w.once.Do(func() { close(w.entered) })
	<-w.release
	w.mu.Lock()
	w.got = append(w.got, b...)
	w.mu.Unlock()
	return len(b), nil
}

func (w *stuckWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]byte(nil), w.got...)
}

// lockedBuffer is a Reply writer that records what it was given.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func quietTracker(t *testing.T, opt detect.TrackerOptions) (*detect.Tracker, *fakeclock.Clock) {
	t.Helper()
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	opt.Clock = clock
	if opt.StallAfter == 0 {
		opt.StallAfter = -1
	}
	tr := detect.NewTracker(opt)
	t.Cleanup(tr.Close)
	return tr, clock
}

var working = agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"}

// A pane whose PTY stops draining answers a cursor position query from
// the program: its Reply write blocks. Nothing else may wait for it: not
// another pane, not the same pane's other methods, not the tracker.
func TestAStuckReplyWriterStopsNothingElse(t *testing.T) {
	tr, clock := quietTracker(t, detect.TrackerOptions{})
	stuck := newStuckWriter()
	other := &lockedBuffer{}
	a := tr.Attach("a", detect.PaneOptions{Cols: 80, Rows: 24, Reply: stuck})
	b := tr.Attach("b", detect.PaneOptions{Cols: 80, Rows: 24, Reply: other})
	a.Report(working, "")
	b.Report(working, "")

	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		a.Write([]byte("prompt \x1b[6n"))
	}()
	<-stuck.entered // a's Write is now inside the stuck Reply

	// The other pane.
	b.Write([]byte("\x1b[2;5Hx\x1b[6n"))
	if got := other.String(); got != "\x1b[2;6R" {
		t.Fatalf("the other pane's reply: %q", got)
	}
	b.Report(working, "")
	b.Foreground()
	b.Typed()
	// The stuck pane itself.
	a.Foreground()
	if res := a.Report(working, ""); res.State != agentstate.Working {
		t.Fatalf("report on the stuck pane: %+v", res)
	}
	a.Typed()
	a.Exited()
	// A second chunk on the stuck pane queues its reply behind the first
	// instead of waiting for it.
	a.Write([]byte("more\x1b[6n"))
	// The tracker.
	if tr.Pane("a") != a || tr.Pane("b") != b {
		t.Fatal("Tracker.Pane lost a pane")
	}
	c := tr.Attach("c", detect.PaneOptions{Cols: 80, Rows: 24, Reply: other})
	c.Write([]byte("hello"))
	tr.Detach("c")
	tr.Arbiter().Get("a")
	clock.Advance(detect.SettleDelay + detect.DefaultDetectInterval) // settle looks and a tick
	tr.Detach("a")

	select {
	case <-wrote:
		t.Fatal("a's Write returned before its reply was written")
	default:
	}
	close(stuck.release)
	<-wrote
	if got, want := string(stuck.bytes()), "\x1b[1;8R\x1b[1;12R"; got != want {
		t.Fatalf("replies %q, want %q (in order, once each)", got, want)
	}
}

// replyProbe records every Reply write, and while writing calls a method
// that takes the pane's lock: a Write that held it would deadlock here.
type replyProbe struct {
	pane   *detect.Pane
	writes [][]byte
}

func (r *replyProbe) Write(b []byte) (int, error) {
	r.pane.Typed()
	r.writes = append(r.writes, append([]byte(nil), b...))
	return len(b), nil
}

// Replies reach the Reply writer unchanged, in stream order, once per
// chunk that produced any, and after the pane's lock is released.
func TestRepliesAreWrittenAfterTheLockInOrder(t *testing.T) {
	chunks := []string{
		"\x1b[c",                        // DA1
		"ab\x1b[6n\x1b[5n",              // CPR, DSR
		"no query here",                 //
		"\x1b[3;4H\x1b[6n\x1b[>c",       // CPR after a move, DA2
		"\x1b[?2004h\x1b[?2004$p\x1b[n", // DECRQM
	}
	var want [][]byte
	ref := vt.New(vt.Options{Cols: 80, Rows: 24, Reply: writerFunc(func(b []byte) {
		want = append(want, append([]byte(nil), b...))
	})})
	for _, c := range chunks {
		ref.Write([]byte(c))
	}
	if len(want) < 3 {
		t.Fatalf("the reference screen answered only %q", want)
	}

	tr, _ := quietTracker(t, detect.TrackerOptions{})
	probe := &replyProbe{}
	probe.pane = tr.Attach("w", detect.PaneOptions{Cols: 80, Rows: 24, Reply: probe})
	for _, c := range chunks {
		probe.pane.Write([]byte(c))
	}
	if !slices.EqualFunc(probe.writes, want, bytes.Equal) {
		t.Fatalf("replies %q, want %q", probe.writes, want)
	}
}

type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }

// After Detach the old *Pane is inert: whatever is still calling it, and
// whatever timer fires late, neither the arbiter nor the tracker ever
// learns of the pane again.
func TestADetachedPaneNeverComesBack(t *testing.T) {
	tr, clock := quietTracker(t, detect.TrackerOptions{StallAfter: 5 * time.Second})
	a := tr.Arbiter()
	const id = "w"
	chunks := [][]byte{
		[]byte("\x1b]9;4;3\x07working\r\n"),
		[]byte("\x1b]7501;state=working:app=build\x07"),
		[]byte("\x1b]0;✳ Claude Code\x07"),
		[]byte(" Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n"),
		[]byte("\x1b[6n\x1b]133;A\x07$ "),
		[]byte("\x1b]7501;state=done\x07\x1bc"),
	}
	known := func() bool { return slices.Contains(a.Panes(), id) }
	var wg sync.WaitGroup
	for round := 0; round < 300; round++ {
		p := tr.Attach(id, detect.PaneOptions{ShellPID: os.Getpid(), Cols: 60, Rows: 12, Reply: &lockedBuffer{}})
		p.Report(working, "")
		detached := make(chan struct{})
		wg.Add(1)
		go func(p *detect.Pane) {
			defer wg.Done()
			after := 0
			for i := 0; ; i++ {
				p.Write(chunks[i%len(chunks)])
				p.Report(working, "")
				if i%3 == 0 {
					p.Exited()
					p.Typed()
				}
				p.Foreground()
				select {
				case <-detached:
					if after++; after > 8 {
						return
					}
				default:
				}
			}
		}(p)
		clock.Advance(detect.LookInterval) // looks, holds and ticks run; some fire late
		tr.Detach(id)
		close(detached)

		// Called after Detach, on this goroutine: each is a no-op.
		p.Write(chunks[round%len(chunks)])
		if res := p.Report(working, ""); res.Applied {
			t.Fatalf("round %d: a report on a detached pane applied: %+v", round, res)
		}
		p.Exited()
		p.Typed()
		if m := p.Foreground(); m.Running {
			t.Fatalf("round %d: a detached pane still has a foreground", round)
		}
		if known() || tr.Pane(id) != nil {
			t.Fatalf("round %d: the detached pane came back", round)
		}
	}
	wg.Wait()
	clock.Advance(time.Minute) // every late timer
	if known() || tr.Pane(id) != nil {
		t.Fatal("a detached pane came back after its callers stopped")
	}
	if s := a.Get(id); s.State != agentstate.None || s.Claimed {
		t.Fatalf("the arbiter holds state for a detached pane: %+v", s)
	}
}

// A hook that names a FIFO (or any non-regular file) as its transcript
// must not block: the reader opens without blocking and refuses it.
func TestAFIFOTranscriptBlocksNothing(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	tr, clock := quietTracker(t, detect.TrackerOptions{DetectInterval: -1})
	a := tr.Attach("a", detect.PaneOptions{Cols: 80, Rows: 24})
	b := tr.Attach("b", detect.PaneOptions{Cols: 80, Rows: 24})

	reported := make(chan agentstate.Result, 1)
	go func() { reported <- a.Report(working, fifo) }()
	b.Write([]byte("hello"))
	b.Report(working, "")
	tr.Pane("b")
	if res := <-reported; !res.Applied {
		t.Fatalf("the report itself: %+v", res)
	}
	// Output drives looks, and a look reads an unwatched transcript.
	a.Write([]byte("still here"))
	clock.Advance(detect.SettleDelay)
	if s := tr.Arbiter().Get("a"); s.State != agentstate.Working || s.Source != agentstate.SourceReport {
		t.Fatalf("pane a: %+v", s)
	}
	// Nobody opened the FIFO for reading and left it open: a writer
	// that does not block finds no reader.
	f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		f.Close()
		t.Fatal("something still holds the FIFO open for reading")
	}
	if !errors.Is(err, syscall.ENXIO) {
		t.Fatal(err)
	}
}
