package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// gitRepo makes a repository with one commit under dir, git told to read
// no config but the test's own.
func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(repo, 0o700)
	os.WriteFile(filepath.Join(repo, "README"), []byte("hello\n"), 0o600)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "README"}, {"-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return realPath(repo)
}

func TestHerdrWorktrees(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	hw := newHerdrWorld(t, "")
	repo := gitRepo(t, hw.dir)
	a := str(hw.r.must("new-session", map[string]any{"name": "work", "window_name": "a", "cwd": repo})["window_id"])
	hw.r.must("wait-for", map[string]any{"window": a, "session": "work", "condition": "window-output", "pattern": `(?m)^\$`, "timeout": 10000})

	list := func() []any {
		t.Helper()
		res, code := herdrDo(t, hw, "worktree.list", map[string]any{"pane_id": a})
		if code != "" {
			t.Fatalf("worktree.list: %s", code)
		}
		wts, _ := res["worktrees"].([]any)
		return wts
	}
	wts := list()
	main, _ := wts[0].(map[string]any)
	if len(wts) != 1 || main["path"] != repo || main["main"] != true || main["open"] != true || main["branch"] != "main" {
		t.Fatalf("the one checkout, open in pane a: %v", wts)
	}

	// create: beside the repository; a path of the caller's is unsupported.
	if _, code := herdrDo(t, hw, "worktree.create", map[string]any{"pane_id": a, "branch": "x", "path": "/tmp/elsewhere"}); code != "unsupported" {
		t.Fatalf("create with a path: %s", code)
	}
	for _, bad := range []string{"-x", "a..b", "has space"} {
		if _, code := herdrDo(t, hw, "worktree.create", map[string]any{"pane_id": a, "branch": bad}); code != "invalid_params" {
			t.Fatalf("create %q: %s", bad, code)
		}
	}
	res, code := herdrDo(t, hw, "worktree.create", map[string]any{"pane_id": a, "branch": "feat/x"})
	want := filepath.Join(filepath.Dir(repo), "repo-feat-x")
	if code != "" || res["worktree"].(map[string]any)["path"] != want {
		t.Fatalf("worktree.create: %v %s", res, code)
	}
	if _, err := os.Stat(filepath.Join(want, "README")); err != nil {
		t.Fatalf("the checkout: %v", err)
	}
	if _, code := herdrDo(t, hw, "worktree.create", map[string]any{"pane_id": a, "branch": "feat/x"}); code != "worktree_failed" {
		t.Fatalf("the same worktree again: %s", code)
	}
	if wts = list(); len(wts) != 2 || wts[1].(map[string]any)["open"] != false || wts[1].(map[string]any)["branch"] != "feat/x" {
		t.Fatalf("after create: %v", wts)
	}

	// open: a new window in the checkout, then the same one again.
	res, code = herdrDo(t, hw, "worktree.open", map[string]any{"pane_id": a, "branch": "feat/x"})
	if code != "" || res["already_open"] != false || res["pane_id"] == "" {
		t.Fatalf("worktree.open: %v %s", res, code)
	}
	opened := res["pane_id"]
	res, code = herdrDo(t, hw, "worktree.open", map[string]any{"pane_id": a, "path": want})
	if code != "" || res["already_open"] != true || res["pane_id"] != opened {
		t.Fatalf("worktree.open again: %v %s", res, code)
	}
	if _, code := herdrDo(t, hw, "worktree.open", map[string]any{"pane_id": a, "branch": "nope"}); code != "worktree_not_found" {
		t.Fatalf("open of no worktree: %s", code)
	}

	// remove: refused while a window is in it, done once it closed.
	if _, code := herdrDo(t, hw, "worktree.remove", map[string]any{"pane_id": a, "branch": "feat/x"}); code != "worktree_in_use" {
		t.Fatalf("remove while open: %s", code)
	}
	if _, code := herdrDo(t, hw, "worktree.remove", map[string]any{"pane_id": a, "path": repo}); code != "worktree_failed" {
		t.Fatalf("remove of the main checkout: %s", code)
	}
	if _, code := herdrDo(t, hw, "pane.close", map[string]any{"pane_id": opened}); code != "" {
		t.Fatalf("pane.close: %s", code)
	}
	if res, code := herdrDo(t, hw, "worktree.remove", map[string]any{"pane_id": a, "branch": "feat/x"}); code != "" || res["type"] != "worktree_removed" {
		t.Fatalf("remove: %v %s", res, code)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Fatalf("the checkout is still there: %v", err)
	}
	if wts = list(); len(wts) != 1 {
		t.Fatalf("after remove: %v", wts)
	}
}

func TestParseWorktreeList(t *testing.T) {
	t.Parallel()
	out := "worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00worktree /r-x\x00HEAD def\x00detached\x00locked because\x00\x00"
	list, err := parseWorktreeList([]byte(out))
	if err != nil || len(list) != 2 || !list[0].Main || list[0].Branch != "main" || !list[1].Detached || !list[1].Locked || list[1].Main {
		t.Fatalf("%+v %v", list, err)
	}
	if _, err := parseWorktreeList([]byte("HEAD abc\x00")); err == nil {
		t.Fatal("a field before any worktree was read")
	}
}

func FuzzParseWorktreeList(f *testing.F) {
	f.Add([]byte("worktree /r\x00HEAD abc\x00branch refs/heads/main\x00\x00"))
	f.Add([]byte("worktree \x00bare\x00\x00worktree /x\x00prunable gitdir file points to non-existent location\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		list, err := parseWorktreeList(b)
		if err != nil {
			return
		}
		for i, wt := range list {
			if wt.Path == "" || wt.Main != (i == 0) {
				t.Fatalf("entry %d: %+v", i, wt)
			}
		}
	})
}
