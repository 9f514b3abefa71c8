package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

func TestTheReadBufferIsZeroedAfterEveryParse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	content := `{"type":"user","message":{"content":"the key is hunter2-SECRET"}}` + "\n" +
		`{"type":"assistant","message":{"content":"hunter2-SECRET again","stop_reason":"end_turn"}}` + "\n"
	os.WriteFile(p, []byte(content), 0o600)
	r := NewReader(p)
	if obs, ok, err := r.Read(); !ok || err != nil || obs.Turn != TurnDone {
		t.Fatalf("%v %v %v", obs, ok, err)
	}
	if bytes.Contains(r.buf[:cap(r.buf)], []byte("hunter2")) {
		t.Fatal("the read buffer still holds conversation text")
	}
}

func TestBurstOfEventsIsOneRead(t *testing.T) {
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := NewWatcher(WatcherOptions{Clock: clock})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	var reads atomic.Int32
	cancel, err := w.Watch(p, func() { reads.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if clock.Pending() != 0 {
		t.Fatal("an idle watch holds a timer")
	}
	for i := 0; i < 20; i++ {
		w.event(p)
		clock.Advance(10 * time.Millisecond)
	}
	clock.Advance(Debounce)
	if reads.Load() != 1 {
		t.Fatalf("20 events → %d reads", reads.Load())
	}
	if clock.Pending() != 0 {
		t.Fatal("a fired debounce left a timer armed")
	}
}

func TestWatchesAreRefcountedPerDirectory(t *testing.T) {
	w, err := NewWatcher(WatcherOptions{})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	dir := t.TempDir()
	c1, _ := w.Watch(filepath.Join(dir, "a.jsonl"), func() {})
	c2, _ := w.Watch(filepath.Join(dir, "b.jsonl"), func() {})
	c3, _ := w.Watch(filepath.Join(dir, "a.jsonl"), func() {})
	if w.Dirs() != 1 {
		t.Fatalf("%d directory watches for one directory", w.Dirs())
	}
	c1()
	c2()
	if w.Dirs() != 1 {
		t.Fatal("the directory watch went while a watch remained")
	}
	c3()
	c3() // idempotent
	if w.Dirs() != 0 {
		t.Fatal("the last unwatch did not drop the directory watch")
	}
}

func TestAWriteFiresTheCallbackThroughInotify(t *testing.T) {
	before := runtime.NumGoroutine()
	w, err := NewWatcher(WatcherOptions{Debounce: time.Millisecond})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	fired := make(chan struct{}, 8)
	cancel, err := w.Watch(p, func() { fired <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("{}\n"), 0o600)
	select {
	case <-fired:
	case <-time.After(10 * time.Second):
		t.Fatal("no callback for a write within 10 s")
	}
	cancel()
	w.Close()
	if _, err := w.Watch(p, func() {}); err != ErrClosed {
		t.Fatalf("watch after close: %v", err)
	}
	// It carries a stable code, as every error of the package does.
	if e, ok := ErrClosed.(interface{ Code() Code }); !ok || e.Code() != CodeClosed {
		t.Errorf("ErrClosed has no code closed: %v", ErrClosed)
	}
	var nilW *Watcher
	if _, err := nilW.Watch(p, func() {}); err == nil {
		t.Fatal("a nil watcher must refuse, not panic")
	}
	// Close ends the one goroutine.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after close, %d before", n, before)
	}
}
