package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/review"
)

// reviewRepo makes a git repository with api/retry.go (60 lines, line 42
// is "return err") committed on main and one uncommitted change.
func reviewRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(dir, "api"), 0o755)
	writeRetry(t, dir, 0, true)
	git("add", "-A")
	git("commit", "-qm", "base")
	writeRetry(t, dir, 0, true)
	os.WriteFile(filepath.Join(dir, "api", "new.go"), []byte("package api\n"), 0o644)
	return dir
}

// writeRetry writes api/retry.go with extra lines inserted at the top and
// line 42 (+extra) saying "return err" when keep.
func writeRetry(t *testing.T, dir string, extra int, keep bool) {
	t.Helper()
	var b strings.Builder
	for i := 0; i < extra; i++ {
		fmt.Fprintf(&b, "// inserted %d\n", i)
	}
	for i := 1; i <= 60; i++ {
		switch {
		case i == 42 && keep:
			b.WriteString("\t\treturn err\n")
		case i == 42:
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "api", "retry.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func noteAt(t *testing.T, res map[string]any, id string) (int, bool) {
	t.Helper()
	for _, v := range res["notes"].([]any) {
		n := v.(map[string]any)
		if n["id"] == id {
			return int(n["line"].(float64)), n["outdated"].(bool)
		}
	}
	t.Fatalf("note %s not listed: %v", id, res["notes"])
	return 0, false
}

func reviewPane(t *testing.T, r *rpc, session, name, dir string) string {
	t.Helper()
	return str(r.must("new-window", map[string]any{"session": session, "name": name, "cwd": dir, "argv": []string{"sh", "-c", echoLines}})["window_id"])
}

func TestReviewDiffAndNotesFollowTheirLines(t *testing.T) {
	t.Parallel()
	repo := reviewRepo(t)
	_, sock := serverWith(t, nil)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "rv"})
	reviewPane(t, r, "rv", "api", repo)

	d := r.must("review-diff", map[string]any{"session": "rv", "window": "api"})
	if d["type"] != "review_diff" || d["untrusted"] != true || d["worktree"] != repo {
		t.Fatalf("diff: %v", d)
	}
	files := d["files"].([]any)
	if len(files) != 1 || files[0].(map[string]any)["status"] != "U" {
		t.Fatalf("files: %v", files)
	}

	// V2: the note follows its line 10 lines down, then is outdated.
	res := r.must("review-note", map[string]any{"action": "add", "session": "rv", "window": "api", "path": "api/retry.go", "line": 42, "text": "log the attempt"})
	id := str(res["id"])
	if line, _ := noteAt(t, res, id); line != 42 {
		t.Fatalf("added at %d", line)
	}
	writeRetry(t, repo, 10, true)
	if line, out := noteAt(t, r.must("review-note", map[string]any{"session": "rv", "window": "api"}), id); line != 52 || out {
		t.Fatalf("after inserting 10 lines: line %d outdated %v", line, out)
	}
	writeRetry(t, repo, 10, false)
	if _, out := noteAt(t, r.must("review-diff", map[string]any{"session": "rv", "window": "api"}), id); !out {
		t.Fatal("the line was deleted: the note should be outdated")
	}
	writeRetry(t, repo, 3, true)
	if line, out := noteAt(t, r.must("review-note", map[string]any{"session": "rv", "window": "api"}), id); line != 45 || out {
		t.Fatalf("the line returned: line %d outdated %v", line, out)
	}

	// Bad input changes nothing.
	for _, p := range []map[string]any{
		{"path": "api/retry.go", "line": 500, "text": "x"},
		{"path": "../etc/passwd", "line": 1, "text": "x"},
		{"path": "/etc/passwd", "line": 1, "text": "x"},
		{"path": "api/retry.go", "line": 1, "text": strings.Repeat("x", 1001)},
	} {
		p["action"], p["session"], p["window"] = "add", "rv", "api"
		if _, err := r.call("review-note", p); err == nil || err.Code != "invalid_params" {
			t.Errorf("%v: %v", p, err)
		}
	}
	if _, err := r.call("review-diff", map[string]any{"session": "rv", "window": "api", "base": "no-such-branch"}); err == nil || err.Code != "invalid_params" {
		t.Errorf("missing base: %v", err)
	}

	// V3: 200 notes per worktree.
	for i := 1; i < review.MaxNotes; i++ {
		r.must("review-note", map[string]any{"action": "add", "session": "rv", "window": "api", "path": "api/retry.go", "line": 1, "text": fmt.Sprint("note ", i)})
	}
	if _, err := r.call("review-note", map[string]any{"action": "add", "session": "rv", "window": "api", "path": "api/retry.go", "line": 1, "text": "one too many"}); err == nil {
		t.Fatal("note 201 was taken")
	}
	res = r.must("review-note", map[string]any{"action": "clear", "session": "rv", "window": "api"})
	if res["removed"].(float64) != 200 {
		t.Fatalf("clear: %v", res["removed"])
	}

	// V1: a pane outside every repository.
	reviewPane(t, r, "rv", "plain", t.TempDir())
	if _, err := r.call("review-diff", map[string]any{"session": "rv", "window": "plain"}); err == nil || err.Code != "not_repo" {
		t.Fatalf("outside a repo: %v", err)
	}
}

func TestSendReview(t *testing.T) {
	t.Parallel()
	repo := reviewRepo(t)
	srv, sock := serverWith(t, nil)
	r := dialRPC(t, sock)
	person := personRPC(t, sock)
	r.must("new-session", map[string]any{"name": "rv"})
	worker := reviewPane(t, r, "rv", "worker", repo)
	lead := reviewPane(t, r, "rv", "lead", repo)
	r.must("wait-for", map[string]any{"window": worker, "condition": "window-output", "pattern": "ready", "timeout": 10000})
	r.must("set-agent-state", map[string]any{"session": "rv", "window": worker, "state": "working", "harness": "claude-code"})

	// V7: nothing to send.
	if _, err := r.call("send-review", map[string]any{"session": "rv", "window": "worker"}); err == nil || err.Code != "no_notes" {
		t.Fatalf("no notes: %v", err)
	}
	// A note by the person, and one by pane lead, written into the file
	// the daemon reads on its first review call after this.
	mine := person.must("review-note", map[string]any{"action": "add", "session": "rv", "window": "worker", "path": "api/retry.go", "line": 42, "text": "log the attempt number", "human_nonce": person.nonce})
	if byOf(t, mine, str(mine["id"])) != "human" {
		t.Fatalf("the person's note: %v", mine)
	}
	withReviewer(srv, func(book *review.Notebook) {
		book.Add(review.Note{Session: "rv", Window: worker, Worktree: repo, Path: "api/retry.go", Side: "new", Line: 1, Quote: "line 1", Text: "from lead", By: lead})
	})
	// V5: --now while working.
	if _, err := person.call("send-review", map[string]any{"session": "rv", "window": "worker", "now": true, "human_nonce": person.nonce}); err == nil || err.Code != "not_ready" {
		t.Fatalf("--now while working: %v", err)
	}
	// V4: lead closes; the person sends: lead's note withheld.
	r.must("close-window", map[string]any{"window": lead})
	sent := person.must("send-review", map[string]any{"session": "rv", "window": "worker", "human_nonce": person.nonce})
	if sent["queued_id"] == nil || len(sent["ids"].([]any)) != 1 || sent["withheld"] == nil {
		t.Fatalf("send: %v", sent)
	}
	w := sent["withheld"].([]any)[0].(map[string]any)
	if w["withheld_reason"] == "" || w["by"] != lead {
		t.Fatalf("withheld: %v", w)
	}
	list := r.must("list-queued", map[string]any{"session": "rv", "window": "worker"})
	e := list["entries"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(str(e["preview"]), "Review notes on your changes (vs HEAD), from the person:") {
		t.Fatalf("queued: %v", e)
	}
	// Only the withheld one is unsent, and it stays withheld: forbidden.
	if _, err := person.call("send-review", map[string]any{"session": "rv", "window": "worker", "human_nonce": person.nonce}); err == nil || err.Code != "forbidden" {
		t.Fatalf("all withheld: %v", err)
	}
}

// withReviewer runs fn on the daemon's notebook, as a verb would.
func withReviewer(srv *Server, fn func(*review.Notebook)) {
	srv.review.Edit(fn)
}

func byOf(t *testing.T, res map[string]any, id string) string {
	for _, v := range res["notes"].([]any) {
		if n := v.(map[string]any); n["id"] == id {
			return str(n["by"])
		}
	}
	t.Fatalf("no note %s", id)
	return ""
}

func TestReviewNotesSurviveARestart(t *testing.T) {
	t.Parallel()
	repo := reviewRepo(t)
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	srv := daemonAt(t, sock, state, &config.File{})
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "rv"})
	w := str(r.must("new-window", map[string]any{"session": "rv", "name": "api", "cwd": repo})["window_id"])
	gone := str(r.must("new-window", map[string]any{"session": "rv", "name": "gone", "cwd": repo})["window_id"])
	id := str(r.must("review-note", map[string]any{"action": "add", "window": w, "path": "api/retry.go", "line": 42, "text": "keep me"})["id"])
	r.must("review-note", map[string]any{"action": "add", "window": gone, "path": "api/retry.go", "line": 42, "text": "dropped with its pane"})
	r.must("close-window", map[string]any{"window": gone})
	fi, err := os.Stat(filepath.Join(state, "review", "notes.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("notes file: %v %v", err, fi)
	}
	srv.Close()

	daemonAt(t, sock, state, &config.File{})
	r = dialRPC(t, sock)
	eventually(t, "the pane came back", func() bool {
		_, err := r.call("get-agent-state", map[string]any{"window": w})
		return err == nil
	})
	res := r.must("review-note", map[string]any{"window": w})
	if line, _ := noteAt(t, res, id); line != 42 || len(res["notes"].([]any)) != 1 {
		t.Fatalf("after restart: %v", res["notes"])
	}
	b, _ := os.ReadFile(filepath.Join(state, "review", "notes.json"))
	var book review.Notebook
	if json.Unmarshal(b, &book) != nil || len(book.Notes) != 1 {
		t.Fatalf("the file keeps the closed pane's note: %s", b)
	}
}
