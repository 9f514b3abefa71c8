package daemon

import (
	"fmt"
	"testing"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/pty"
)

// A one-program window closes when its program exits; a wait-for
// window-exit that starts after that still answers, at once, with the
// program's exit code, by name or by id.
func TestWaitForExitAfterAProgramWindowClosed(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "w"})
	id := str(r.must("new-window", map[string]any{"session": "w", "name": "one", "no_focus": true, "argv": []string{"sh", "-c", "exit 7"}})["window_id"])
	eventually(t, "the program window closes when it exits", func() bool {
		_, err := r.call("get-window", map[string]any{"session": "w", "window": id})
		return err != nil && err.Code == proto.CodeWindowNotFound
	})
	for _, addr := range []string{"one", id, id[:8]} {
		res := r.must("wait-for", map[string]any{"session": "w", "window": addr, "condition": "window-exit", "timeout": 2000})
		if res["window"] != id || res["exit_code"] != 7.0 || res["closed"] != true || res["matched"] != true {
			t.Fatalf("wait-for window-exit -w %s after the exit: %v", addr, res)
		}
	}
	// A full id finds its session without -s.
	if res := r.must("wait-for", map[string]any{"window": id, "condition": "window-exit", "timeout": 2000}); res["exit_code"] != 7.0 {
		t.Fatalf("by id alone: %v", res)
	}
	// Only window-exit reads the record: the window is gone for the rest.
	if _, err := r.call("wait-for", map[string]any{"session": "w", "window": "one", "condition": "window-idle", "timeout": 2000}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("window-idle on a closed window: %+v", err)
	}
	// A name nothing ever had is still not found.
	if _, err := r.call("wait-for", map[string]any{"session": "w", "window": "never", "condition": "window-exit", "timeout": 2000}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("a name never used: %+v", err)
	}
	// A live window of the same name wins over the record: the wait is
	// for it, and times out while it runs.
	r.must("new-window", map[string]any{"session": "w", "name": "one", "no_focus": true, "argv": []string{"sleep", "60"}})
	if _, err := r.call("wait-for", map[string]any{"session": "w", "window": "one", "condition": "window-exit", "timeout": 300}); err == nil || err.Code != proto.CodeTimeout {
		t.Fatalf("a live window named one must be the one waited on: %+v", err)
	}
}

// The record is bounded: past exitLogMax the oldest exit is forgotten, and
// a name reused reads its most recent exit.
func TestExitLogIsBounded(t *testing.T) {
	t.Parallel()
	var l exitLog
	for i := range exitLogMax + 10 {
		l.note(exitRecord{id: fmt.Sprintf("id-%03d-x", i), name: "job", status: pty.ExitStatus{Code: i}})
	}
	if len(l) != exitLogMax {
		t.Fatalf("%d records kept, want %d", len(l), exitLogMax)
	}
	if _, ok := l.find("id-000-x"); ok {
		t.Fatal("the oldest exit is still remembered")
	}
	if r, ok := l.find("job"); !ok || r.status.Code != exitLogMax+9 {
		t.Fatalf("a reused name reads %+v, want the most recent exit", r)
	}
	if r, ok := l.find("id-070-x"); !ok || r.status.Code != 70 {
		t.Fatalf("by id: %+v %v", r, ok)
	}
	if _, ok := l.find("id-07"); ok {
		t.Fatal("an ambiguous prefix matched")
	}
	if _, ok := l.find(""); ok {
		t.Fatal("an empty address matched")
	}
}
