package daemon

import (
	"os"
	"path/filepath"
	"testing"
)

// The mail feature's rings go with what they belong to, through the hub's
// hooks, before the verb that closed it answers: a closed window's mail
// reads undeliverable, a killed session's mail and stash are gone (a new
// session of the same name starts empty), and the daemon's stop removes
// the stash folder.
func TestMailGoesWithItsWindowAndSession(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	catPane(t, r, "m")
	worker := str(r.must("new-window", map[string]any{"session": "m", "name": "worker", "argv": []string{"/bin/cat"}})["window_id"])
	r.must("send-agent-message", map[string]any{"session": "m", "to": "worker", "text": "rebased"})
	src := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(src, []byte("notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	stored := str(r.must("stash-put", map[string]any{"session": "m", "path": src})["path"])
	if _, err := os.Stat(stored); err != nil {
		t.Fatalf("the stashed copy: %v", err)
	}

	r.must("close-window", map[string]any{"window": worker})
	got := msgs(r.must("read-agent-messages", map[string]any{"session": "m"}))
	if len(got) != 1 || got[0]["undeliverable"] != true {
		t.Fatalf("mail to the closed window: %v", got)
	}

	r.must("kill-session", map[string]any{"session": "m"})
	if _, err := os.Stat(stored); !os.IsNotExist(err) {
		t.Fatalf("the stash outlived its session: %v", err)
	}
	catPane(t, r, "m")
	if res := r.must("read-agent-messages", map[string]any{"session": "m"}); num(res["total"]) != 0 {
		t.Fatalf("a new session of the same name reads the old one's mail: %v", res)
	}
	if res := r.must("stash-list", map[string]any{"session": "m"}); len(res["entries"].([]any)) != 0 {
		t.Fatalf("a new session of the same name lists the old one's stash: %v", res)
	}

	stored = str(r.must("stash-put", map[string]any{"session": "m", "path": src})["path"])
	root := filepath.Join(filepath.Dir(sock), "stash")
	if _, err := os.Stat(filepath.Join(root, "m")); err != nil || filepath.Dir(stored) != filepath.Join(root, "m") {
		t.Fatalf("the stash folder: %s, %v", stored, err)
	}
	srv.Close()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the stash folder outlived the daemon: %v", err)
	}
}
