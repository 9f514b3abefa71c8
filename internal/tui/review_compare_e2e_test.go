package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Seed 003, "Comparing the attempts of a fan": a fan of two shells, one
// that changed nothing and one that changed a.txt and made b.txt, checked
// with test -f b.txt. The person attached to the second reviews it (the
// rail shows both under the fan's name), presses w for the comparison,
// marks both and diffs them, runs another check with V, and keeps the
// second with K after y to the question naming the one removed.
func TestAttachFanCompareView(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	w := newWorld(t)
	w.vars = append(w.vars, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	repo := filepath.Join(w.dir, "api")
	os.MkdirAll(repo, 0o700)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = w.vars
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("hi\n"), 0o600)
	git("add", ".")
	git("commit", "-q", "-m", "base")

	w.ok("fan", "2", "true", "--prompt", "echo change >> a.txt; echo new > b.txt", "--agent", "sh", "--name", "demo", "--repo", repo, "--wait")
	w.ok("wait-for", "window-output", "-s", "api-fan-demo-2", "--pattern", `echo new > b.txt\s+\$`, "--timeout", "20000")
	if out, err := w.tuios("fan", "verify", "api-fan-demo", "--", "test", "-f", "b.txt"); err == nil || !strings.Contains(out, "api-fan-demo: failed, exit 1") {
		t.Fatalf("verify: %v\n%s", err, out)
	}

	w.start("c", w.bin+" attach -t api-fan-demo-2")
	w.waitFor("c", `\[api-fan-demo-2\]`)
	// The rail: the fan's name, its two sessions under it.
	w.waitFor("c", `(?m)^ fan/demo +│`)
	w.waitFor("c", `(?m)^ +\S? ?api-fan-demo 2 `) // its shell and the failed check's window
	w.waitFor("c", `(?m)^> +\S? ?api-fan-demo-2 1 `)

	w.keys("c", "C-b", "v")
	w.waitFor("c", `Review api-fan-demo-2 \S+ \S+  2 files \+2 -0  vs main`)
	w.waitFor("c", `w compare`)
	w.keys("c", "w")
	w.waitFor("c", `╭ Compare fan/demo in api, 2 attempts vs main ─`)
	w.waitFor("c", `│   session +agent +state +files +\+/- +check`)
	w.waitFor("c", `│   api-fan-demo +sh +\S+ +0 +\+0 -0 +test -f b\.txt failed, exit 1`)
	w.waitFor("c", `│ › api-fan-demo-2 +sh +\S+ +2 +\+2 -0 +test -f b\.txt passed`)
	w.waitFor("c", `↵ review  m mark  V verify  K keep  esc back`)

	// m on both (the cursor starts on the attempt under review), d: the
	// one marked last against the one marked first.
	w.keys("c", "m", "k", "m")
	w.waitFor("c", `d diff`)
	w.keys("c", "d")
	w.waitFor("c", `Review api-fan-demo \S+ \S+  2 files \+0 -2  vs attempt api-fan-demo-2`)
	w.waitFor("c", `D b\.txt +\+0 -1`)
	w.keys("c", "w")
	w.waitFor("c", `Compare fan/demo in api`)

	// V: a check typed on the dock runs in every attempt.
	w.keys("c", "V")
	w.waitFor("c", `check in every attempt \(sh -c\):`)
	w.keys("c", "-l", "test -f a.txt")
	w.keys("c", "Enter")
	w.waitFor("c", `api-fan-demo +sh .* test -f a\.txt passed`)
	w.waitFor("c", `api-fan-demo-2 +sh .* test -f a\.txt passed`)

	// K on the second: the question names the one removed; y keeps it.
	w.keys("c", "j", "K")
	w.waitFor("c", `keep api-fan-demo-2: remove api-fan-demo \(its worktree and session`)
	w.keys("c", "y")
	w.waitFor("c", `kept api-fan-demo-2; removed api-fan-demo`)
	w.waitFor("c", `Compare fan/demo in api, 1 attempt vs main`)
	if ls := w.ok("ls"); strings.Contains(ls, "api-fan-demo ") || !strings.Contains(ls, "api-fan-demo-2") {
		t.Fatalf("after keep:\n%s", ls)
	}
	// esc back to the review, esc again closes it.
	w.keys("c", "Escape")
	w.waitFor("c", `Review api-fan-demo-2`)
	w.keys("c", "Escape")
	w.waitGone("c", `Review api-fan-demo-2`)
}
