package daemon

import (
	"testing"

	"github.com/tuios/tuios/internal/proto"
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

// A session's exits go with it: after kill-session, a session made again
// under the same name does not answer a wait from the old one's exits.
func TestWaitForExitForgetsAKilledSession(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "k"})
	id := str(r.must("new-window", map[string]any{"session": "k", "name": "job", "no_focus": true, "argv": []string{"sh", "-c", "exit 3"}})["window_id"])
	eventually(t, "the program window closes when it exits", func() bool {
		_, err := r.call("get-window", map[string]any{"session": "k", "window": id})
		return err != nil && err.Code == proto.CodeWindowNotFound
	})
	if res := r.must("wait-for", map[string]any{"session": "k", "window": "job", "condition": "window-exit", "timeout": 2000}); res["exit_code"] != 3.0 {
		t.Fatalf("before the kill: %v", res)
	}
	r.must("kill-session", map[string]any{"session": "k"})
	r.must("new-session", map[string]any{"name": "k"})
	for _, addr := range []string{"job", id} {
		if _, err := r.call("wait-for", map[string]any{"session": "k", "window": addr, "condition": "window-exit", "timeout": 2000}); err == nil || err.Code != proto.CodeWindowNotFound {
			t.Fatalf("-w %s in the new session k: %+v", addr, err)
		}
	}
	if _, err := r.call("wait-for", map[string]any{"window": id, "condition": "window-exit", "timeout": 2000}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("the old id alone: %+v", err)
	}
}
