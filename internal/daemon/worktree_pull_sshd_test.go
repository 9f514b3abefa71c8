package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/testsshd"
)

// worktree pull over a real link: the far daemon (through real sshd)
// packs a worktree's work (a commit and uncommitted changes), the near
// one makes a new branch, worktree and session of it in its own clone of
// the same repository; nothing changes on the far side, and a branch that
// exists here is refused.
func TestWorktreePullOverALink(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	w.startNear(w.hostTable("far"), nil)
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "far", "up")

	env := append(os.Environ(), gitTestEnv(t.TempDir())...)
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	origin := filepath.Join(t.TempDir(), "origin")
	os.MkdirAll(origin, 0o755)
	git(origin, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(origin, "a.txt"), []byte("hi\n"), 0o644)
	git(origin, "add", "a.txt")
	git(origin, "commit", "-q", "-m", "first")
	farRepo, nearRepo := filepath.Join(t.TempDir(), "api"), filepath.Join(t.TempDir(), "api")
	git(filepath.Dir(farRepo), "clone", "-q", origin, farRepo)
	git(filepath.Dir(nearRepo), "clone", "-q", origin, nearRepo)

	fr := dialRPC(t, w.far.Socket())
	made := fr.must("new-worktree", map[string]any{"branch": "feat/x", "repo": farRepo})
	farWT := str(made["worktree"])
	os.WriteFile(filepath.Join(farWT, "c.txt"), []byte("committed\n"), 0o644)
	git(farWT, "add", "c.txt")
	git(farWT, "commit", "-q", "-m", "c")
	os.WriteFile(filepath.Join(farWT, "a.txt"), []byte("hi\nedited\n"), 0o644)
	os.WriteFile(filepath.Join(farWT, "u.txt"), []byte("untracked\n"), 0o644)
	farBefore := git(farWT, "status", "--porcelain") + git(farRepo, "for-each-ref")

	res := r.must("pull-worktree", map[string]any{"host": "far", "session": "api-feat-x", "repo": nearRepo})
	if res["type"] != "worktree_created" || res["session"] != "api-feat-x" || res["branch"] != "feat/x" || res["pulled_from"] != "far:api-feat-x" {
		t.Fatalf("pull: %v", res)
	}
	nearWT := str(res["worktree"])
	if got := git(nearWT, "log", "-1", "--format=%s"); got != "c" {
		t.Fatalf("the commit did not come: %q", got)
	}
	if st := git(nearWT, "status", "--porcelain"); !strings.Contains(st, "M a.txt") || !strings.Contains(st, "?? u.txt") {
		t.Fatalf("the uncommitted work here: %q", st)
	}
	if after := git(farWT, "status", "--porcelain") + git(farRepo, "for-each-ref"); after != farBefore {
		t.Fatalf("the far side changed:\n%s\n---\n%s", farBefore, after)
	}
	ls := r.must("list-worktrees", nil)["worktrees"].([]any)
	if len(ls) != 1 || ls[0].(map[string]any)["pulled_from"] != "far:api-feat-x" || ls[0].(map[string]any)["files"] != float64(3) {
		t.Fatalf("ls here: %v", ls)
	}
	// Again: the branch exists here now.
	if _, err := r.call("pull-worktree", map[string]any{"host": "far", "session": "api-feat-x", "repo": nearRepo, "name": "again"}); err == nil ||
		err.Code != "invalid_params" || !strings.Contains(err.Message, "already exists") {
		t.Fatalf("pull again: %v", err)
	}
	// fan --host: the verb on the far daemon, over the link, in its
	// repository; variables never cross a link.
	hc := dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "far"})
	if _, err := hc.call("fan", map[string]any{"count": 1, "prompt": "true", "agent": "sh", "repo": farRepo, "env": []string{"X=1"}}); err == nil || err.Code != "forbidden" {
		t.Fatalf("fan with --env over a link: %v", err)
	}
	fan := hc.must("fan", map[string]any{"count": 2, "prompt": "true", "agent": "sh", "repo": farRepo, "name": "link", "wait": true})
	for _, a := range attempts(fan) {
		if a["prompt_status"] != "sent" {
			t.Fatalf("fan over the link: %v", fan)
		}
	}
	if far := fr.must("list-worktrees", map[string]any{"group": "link", "no_changes": true})["worktrees"].([]any); len(far) != 2 {
		t.Fatalf("the far daemon's fan: %v", far)
	}
	if near := r.must("list-worktrees", map[string]any{"group": "link", "no_changes": true})["worktrees"].([]any); len(near) != 0 {
		t.Fatalf("the fan was made here: %v", near)
	}
	// --clone: a folder missing there is cloned first from the origin
	// the caller names, then fanned in; one that exists is used as it is.
	farClone := filepath.Join(t.TempDir(), "far", "api")
	cl := hc.must("fan", map[string]any{"count": 1, "prompt": "true", "agent": "sh", "repo": farClone, "clone": true, "clone_from": origin,
		"name": "cl", "wait": true})
	if cl["cloned"] != true || cl["repo"] != farClone {
		t.Fatalf("fan --clone: %v", cl)
	}
	again := hc.must("new-worktree", map[string]any{"branch": "feat/y", "repo": farClone, "clone": true, "clone_from": origin})
	if again["cloned"] != false || again["repo"] != farClone {
		t.Fatalf("new-worktree --clone into a repository that is there: %v", again)
	}
	if _, err := hc.call("fan", map[string]any{"count": 1, "prompt": "true", "agent": "sh", "repo": filepath.Join(t.TempDir(), "x"), "clone": true,
		"clone_from": "ext::sh -c true"}); err == nil {
		t.Fatal("an ext:: URL was cloned")
	}
	// An unknown far session, an unknown host.
	if _, err := r.call("pull-worktree", map[string]any{"host": "far", "session": "nope", "repo": nearRepo}); err == nil || err.Code != "session_not_found" {
		t.Fatalf("far nope: %v", err)
	}
	if _, err := r.call("pull-worktree", map[string]any{"host": "nohost", "session": "x", "repo": nearRepo}); err == nil || err.Code != "unknown_host" {
		t.Fatalf("unknown host: %v", err)
	}
}
