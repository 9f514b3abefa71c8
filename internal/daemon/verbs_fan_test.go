package daemon

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
)

// Fans and worktrees on real git, with stand-in agents that are real
// programs on real PTYs: shell scripts that draw a prompt and read the
// line typed into them. They report no state, so they are ready once
// they drew their prompt and went quiet (prompt_ready_by quiet).

// gitTestEnv keeps the user's git config out, and gives commits an
// author.
func gitTestEnv(home string) []string {
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
}

// fanWorld is a daemon, a repository named api with one commit on main,
// and tuios's data folder.
type fanWorld struct {
	t    *testing.T
	srv  *Server
	sock string
	r    *rpc
	repo string
	data string
	env  []string
}

func newFanWorld(t *testing.T, set func(*Options)) *fanWorld {
	t.Helper()
	home := t.TempDir()
	w := &fanWorld{t: t, data: filepath.Join(home, "data"), repo: filepath.Join(t.TempDir(), "api")}
	w.env = append([]string{"PATH=/usr/bin:/bin", "PS1=$ ", "ENV="}, gitTestEnv(home)...)
	getenv := map[string]string{"HOME": home, "XDG_DATA_HOME": w.data}
	w.srv, w.sock = serverWith(t, func(o *Options) {
		o.Env = w.env
		o.Getenv = func(k string) string { return getenv[k] }
		if set != nil {
			set(o)
		}
	})
	w.r = dialRPC(t, w.sock)
	os.MkdirAll(w.repo, 0o755)
	w.git(w.repo, "init", "-q", "-b", "main")
	w.write(w.repo, "a.txt", "hi\n")
	w.git(w.repo, "add", "a.txt")
	w.git(w.repo, "commit", "-q", "-m", "first")
	return w
}

func (w *fanWorld) git(dir string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (w *fanWorld) write(dir, name, text string) {
	w.t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// lineAgent draws a prompt, writes the line it reads (and its own
// arguments) into its folder, and stays.
const lineAgent = `printf 'line agent\r\nready> '; IFS= read -r line; printf '%s\n' "$line" > prompt.txt; printf '%s\n' "$@" > args.txt; printf 'took it\r\n'; exec cat >/dev/null`

// left is what a refused call must not leave: branches, worktrees,
// sessions and the data folder's worktrees.
func (w *fanWorld) left() string {
	w.t.Helper()
	var b strings.Builder
	b.WriteString(w.git(w.repo, "for-each-ref", "--format=%(refname)"))
	b.WriteString("\n" + w.git(w.repo, "worktree", "list", "--porcelain"))
	res := w.r.must("list-sessions", nil)
	for _, s := range res["sessions"].([]any) {
		b.WriteString("\nsession " + str(s.(map[string]any)["name"]))
	}
	entries, _ := os.ReadDir(filepath.Join(w.data, "tuios", "worktrees", "api"))
	for _, e := range entries {
		b.WriteString("\ndir " + e.Name())
	}
	b.WriteString("\n" + w.git(w.repo, "status", "--porcelain"))
	return b.String()
}

func attempts(res map[string]any) []map[string]any {
	var out []map[string]any
	for _, a := range res["attempts"].([]any) {
		out = append(out, a.(map[string]any))
	}
	return out
}

func TestFanMakesWorktreesSessionsAndTypesThePromptOnce(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	agent := standIn(t, "my-agent", lineAgent)
	res := w.r.must("fan", map[string]any{"count": 3, "prompt": "Add a retry with backoff", "agent": agent + " --flag 'two words'",
		"repo": w.repo, "wait": true})
	if res["group"] != "fan/add-retry-backoff" || res["base"] != "main" || res["repo_name"] != "api" || res["waited"] != true {
		t.Fatalf("fan: %v", res)
	}
	as := attempts(res)
	if len(as) != 3 {
		t.Fatalf("%d attempts", len(as))
	}
	for i, a := range as {
		branch := "fan/add-retry-backoff"
		if i > 0 {
			branch += "-" + str(i+1)
		}
		session := "api-" + strings.ReplaceAll(branch, "/", "-")
		dir := filepath.Join(w.data, "tuios", "worktrees", "api", strings.ReplaceAll(branch, "/", "-"))
		if a["branch"] != branch || a["session"] != session || a["worktree"] != dir || a["prompt_status"] != "sent" || a["prompt_ready_by"] != "quiet" {
			t.Fatalf("attempt %d: %v", i+1, a)
		}
		if got := w.git(dir, "rev-parse", "--abbrev-ref", "HEAD"); got != branch {
			t.Fatalf("attempt %d is on %q", i+1, got)
		}
		eventually(t, "the agent wrote what it read", func() bool {
			b, _ := os.ReadFile(filepath.Join(dir, "prompt.txt"))
			return string(b) == "Add a retry with backoff\n"
		})
		if b, _ := os.ReadFile(filepath.Join(dir, "args.txt")); string(b) != "--flag\ntwo words\n" {
			t.Fatalf("the agent string was not split like a shell: %q", b)
		}
	}
	// Typed once: the agent read one line and the screen shows it once.
	screen := str(w.r.must("capture-pane", map[string]any{"session": "api-fan-add-retry-backoff"})["content"])
	if strings.Count(screen, "Add a retry with backoff") != 1 {
		t.Fatalf("the prompt was typed other than once:\n%s", screen)
	}

	// list-worktrees, compare-fan, the group selector.
	ls := w.r.must("list-worktrees", map[string]any{"group": "add-retry-backoff"})
	rows := ls["worktrees"].([]any)
	if len(rows) != 3 {
		t.Fatalf("list: %v", ls)
	}
	for _, r := range rows {
		m := r.(map[string]any)
		if m["files"] != float64(2) || m["gone"] != false || m["group"] != "fan/add-retry-backoff" || m["base"] != "main" || m["prompt_status"] != "sent" {
			t.Fatalf("row: %v", m)
		}
	}
	cmp := w.r.must("compare-fan", map[string]any{"session": "api-fan-add-retry-backoff-2"})
	if cmp["group"] != "fan/add-retry-backoff" || len(attempts(cmp)) != 3 {
		t.Fatalf("compare: %v", cmp)
	}
	sess := w.r.must("list-sessions", nil)
	n := 0
	for _, s := range sess["sessions"].([]any) {
		if strings.HasPrefix(str(s.(map[string]any)["name"]), "api-fan-add-retry-backoff") {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("sessions: %v", sess)
	}
}

func TestFanRefusalsLeaveNothing(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	agent := standIn(t, "my-agent", lineAgent)
	before := w.left()
	big := strings.Repeat("x", 1<<20)
	plain := t.TempDir()
	for _, c := range []struct {
		name   string
		params map[string]any
		code   string
		says   string
	}{
		{"17 attempts", map[string]any{"count": 17, "prompt": "x", "agent": agent, "repo": w.repo}, "invalid_params", "1 to 16"},
		{"no prompt", map[string]any{"count": 2, "prompt": "  ", "agent": agent, "repo": w.repo}, "invalid_params", "prompt is empty"},
		{"a prompt of 1 MB", map[string]any{"count": 2, "prompt": big, "agent": agent, "repo": w.repo}, "invalid_params", "over the cap"},
		{"not a repo", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": plain}, "not_repo", "not inside a git repository"},
		{"no such folder", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": filepath.Join(plain, "nope")}, "repo_not_found", "no folder"},
		{"a base that does not exist", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo, "base": "nope"}, "invalid_params", "does not exist"},
		{"TUIOS_ variables", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo, "env": []string{"TUIOS_SESSION=x"}}, "invalid_params", "TUIOS_SESSION is set by tuios"},
		{"TMUX", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo, "env": []string{"TMUX=/tmp/x"}}, "invalid_params", "TMUX is set by tuios"},
		{"a bad variable name", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo, "env": []string{"1X=y"}}, "invalid_params", "NAME=VALUE"},
		{"an agent that is not installed", map[string]any{"count": 2, "prompt": "x", "agent": "no-such-agent-xyz", "repo": w.repo}, "invalid_params", "not an agent"},
		{"shell syntax in an agent", map[string]any{"count": 2, "prompt": "x", "agent": agent + " | tee log", "repo": w.repo}, "invalid_params", "shell syntax"},
		{"an empty agent in the list", map[string]any{"count": 2, "prompt": "x", "agent": agent + ",", "repo": w.repo}, "invalid_params", "empty agent"},
		{"a bad stem", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo, "name": "a..b"}, "invalid_params", "not a branch name"},
	} {
		_, err := w.r.call("fan", c.params)
		if err == nil || err.Code != c.code || !strings.Contains(err.Message, c.says) {
			t.Errorf("%s: %v, want %s saying %q", c.name, err, c.code, c.says)
		}
		if after := w.left(); after != before {
			t.Fatalf("%s left something:\n%s\n---\n%s", c.name, before, after)
		}
	}

	// A dirty base: refused, named, nothing made; with --base it goes.
	w.write(w.repo, "a.txt", "edited\n")
	before = w.left()
	_, err := w.r.call("fan", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo})
	if err == nil || err.Code != "worktree_dirty" || !strings.Contains(err.Message, "a.txt") || !strings.Contains(err.Hint.Detail, "--base") {
		t.Fatalf("dirty base: %v", err)
	}
	if after := w.left(); after != before {
		t.Fatal("a refused fan left something")
	}
	w.git(w.repo, "checkout", "--", "a.txt")

	// A branch that exists: refused whole, nothing made.
	w.git(w.repo, "branch", "fan/demo-2")
	before = w.left()
	_, err = w.r.call("fan", map[string]any{"count": 3, "prompt": "x", "agent": agent, "repo": w.repo, "name": "demo"})
	if err == nil || err.Code != "invalid_params" || !strings.Contains(err.Message, `branch "fan/demo-2" already exists`) {
		t.Fatalf("existing branch: %v", err)
	}
	if after := w.left(); after != before {
		t.Fatalf("a refused fan left something:\n%s\n---\n%s", before, after)
	}

	// git failing half way (a post-checkout hook that fails for the
	// second attempt): everything made so far is taken back.
	hook := filepath.Join(w.repo, ".git", "hooks", "post-checkout")
	writeExecutable(t, hook, []byte("#!/bin/sh\ncase \"$PWD\" in *-2) exit 1;; esac\nexit 0\n"), 0o755)
	before = w.left()
	_, err = w.r.call("fan", map[string]any{"count": 3, "prompt": "x", "agent": agent, "repo": w.repo, "name": "hooked"})
	if err == nil || err.Code != "git_failed" {
		t.Fatalf("failing hook: %v", err)
	}
	if after := w.left(); after != before {
		t.Fatalf("a fan that failed half way left something:\n%s\n---\n%s", before, after)
	}
}

// An agent that never reaches its prompt is held after 30 s with an
// Inbox question, and not_sent after the ready timeout; one that exits at
// once is not_sent with its status. Both on the daemon's clock.
func TestFanHeldAndNotSent(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	w := newFanWorld(t, func(o *Options) { o.Tracker.Clock = clk })
	busy := standIn(t, "busy-agent", `while :; do printf 'starting…\r\n'; sleep 0.2; done`)
	gone := standIn(t, "gone-agent", `echo bye; exit 3`)
	res := w.r.must("fan", map[string]any{"count": 2, "prompt": "do it", "agent": busy + "," + gone, "repo": w.repo, "name": "slow",
		"ready_timeout": 120000})
	for _, a := range attempts(res) {
		if a["prompt_status"] != "pending" && a["prompt_status"] != "not_sent" {
			t.Fatalf("at once: %v", a)
		}
	}
	status := func(session string) (string, string) {
		for _, r := range w.r.must("list-worktrees", map[string]any{"no_changes": true})["worktrees"].([]any) {
			m := r.(map[string]any)
			if m["session"] == session {
				return str(m["prompt_status"]), str(m["prompt_note"])
			}
		}
		return "", ""
	}
	eventually(t, "the agent that exited is not_sent", func() bool {
		st, note := status("api-fan-slow-2")
		return st == "not_sent" && strings.Contains(note, "exited with status 3")
	})
	if st, _ := status("api-fan-slow"); st != "pending" {
		t.Fatalf("the busy agent: %s", st)
	}
	clk.Advance(31 * time.Second)
	eventually(t, "the busy agent is held", func() bool {
		st, note := status("api-fan-slow")
		return st == "held" && strings.Contains(note, "Inbox")
	})
	waitList(t, w.r, nil, "an Inbox question for the held agent", func(l attList) bool {
		for _, it := range l.Items {
			if it.Session == "api-fan-slow" {
				return true
			}
		}
		return false
	})
	clk.Advance(2 * time.Minute)
	eventually(t, "the busy agent is not_sent after the ready timeout", func() bool {
		st, note := status("api-fan-slow")
		return st == "not_sent" && strings.Contains(note, "not ready within")
	})
	screen := str(w.r.must("capture-pane", map[string]any{"session": "api-fan-slow"})["content"])
	if strings.Contains(screen, "do it") {
		t.Fatal("a prompt was typed into an agent that never was ready")
	}
}

// An agent stopped on a screen of its own (a trust dialog, as its hook
// says) is held, naming it; once it is at its prompt and has rested, the
// prompt goes in.
func TestFanPromptHeldOnAScreenOfItsOwn(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	w := newFanWorld(t, func(o *Options) { o.Tracker.Clock = clk })
	agent := standIn(t, "my-agent", lineAgent)
	res := w.r.must("fan", map[string]any{"count": 1, "prompt": "do it", "agent": agent, "repo": w.repo, "name": "trust"})
	win := str(attempts(res)[0]["window_id"])
	report(t, w.r, win, "needs_input", "approval", "Trust this folder?")
	status := func() (string, string) {
		rows := w.r.must("list-worktrees", map[string]any{"no_changes": true})["worktrees"].([]any)
		m := rows[0].(map[string]any)
		return str(m["prompt_status"]), str(m["prompt_note"])
	}
	eventually(t, "the blocked agent is held", func() bool {
		st, note := status()
		return st == "held" && strings.Contains(note, "waits for approval")
	})
	report(t, w.r, win, "idle", "", "")
	if st, _ := status(); st != "held" {
		t.Fatalf("typed before the agent rested: %s", st)
	}
	clk.Advance(time.Second)
	eventually(t, "the prompt goes in once it rested", func() bool {
		st, _ := status()
		return st != "held"
	})
	eventually(t, "the agent read the prompt", func() bool {
		b, _ := os.ReadFile(filepath.Join(str(attempts(res)[0]["worktree"]), "prompt.txt"))
		return string(b) == "do it\n"
	})
}

func fanOfThree(t *testing.T, w *fanWorld, name string) []string {
	t.Helper()
	agent := standIn(t, "my-agent", lineAgent)
	res := w.r.must("fan", map[string]any{"count": 3, "prompt": "change " + name, "agent": agent, "repo": w.repo, "name": name, "wait": true})
	var dirs []string
	for _, a := range attempts(res) {
		if a["prompt_status"] != "sent" {
			t.Fatalf("attempt: %v", a)
		}
		dir := str(a["worktree"])
		eventually(t, "the agent wrote prompt.txt", func() bool {
			_, err := os.Stat(filepath.Join(dir, "prompt.txt"))
			return err == nil
		})
		dirs = append(dirs, dir)
	}
	return dirs
}

func TestFanVerifyKeepsTheWindowsOfFailedChecks(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	dirs := fanOfThree(t, w, "demo")
	w.write(dirs[0], "pass", "")
	w.write(dirs[2], "pass", "")
	res := w.r.must("verify-fan", map[string]any{"session": "api-fan-demo", "command": "echo grants=$TUIOS_PANE_GRANTS; test -f pass"})
	if res["failed"] != float64(1) {
		t.Fatalf("verify: %v", res)
	}
	byName := map[string]map[string]any{}
	for _, a := range attempts(res) {
		byName[str(a["session"])] = a
	}
	if a := byName["api-fan-demo-2"]; a["status"] != "failed" || a["exit"] != float64(1) || a["window_kept"] != true {
		t.Fatalf("the failed check: %v", a)
	}
	for _, s := range []string{"api-fan-demo", "api-fan-demo-3"} {
		if a := byName[s]; a["status"] != "passed" || a["window_kept"] != false {
			t.Fatalf("%s: %v", s, a)
		}
		for _, win := range w.r.must("list-windows", map[string]any{"session": s})["windows"].([]any) {
			if win.(map[string]any)["name"] == "verify" {
				t.Fatalf("%s kept the window of a check that passed", s)
			}
		}
	}
	// The failed check's window is there, with its grants none and its
	// last line.
	kept := str(byName["api-fan-demo-2"]["window_id"])
	win := w.r.must("get-window", map[string]any{"session": "api-fan-demo-2", "window": kept})
	if win["name"] != "verify" {
		t.Fatalf("kept window: %v", win)
	}
	screen := str(w.r.must("capture-pane", map[string]any{"session": "api-fan-demo-2", "window": kept})["content"])
	if !strings.Contains(screen, "[verify failed: exit 1]") || !strings.Contains(screen, "grants=none") {
		t.Fatalf("the kept window's screen:\n%s", screen)
	}
	// compare-fan shows each one's last check.
	for _, a := range attempts(w.r.must("compare-fan", map[string]any{"group": "fan/demo"})) {
		ck := a["check"].(map[string]any)
		want := "passed"
		if a["session"] == "api-fan-demo-2" {
			want = "failed"
		}
		if ck["status"] != want || !strings.Contains(str(ck["command"]), "test -f pass") {
			t.Fatalf("compare check: %v", a)
		}
	}
}

func TestFanKeepMergesOneAndRemovesTheOthers(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	dirs := fanOfThree(t, w, "demo")
	w.write(dirs[1], "prompt.txt", "the kept one\n")
	// The others have changes: refused whole until --stash or --force.
	before := w.left()
	_, err := w.r.call("keep-fan", map[string]any{"session": "api-fan-demo-2", "merge": true})
	if err == nil || err.Code != "worktree_dirty" || !strings.Contains(err.Message, "api-fan-demo ") || !strings.Contains(err.Message, "nothing was kept") {
		t.Fatalf("dirty others: %v", err)
	}
	if after := w.left(); after != before {
		t.Fatal("a refused keep changed something")
	}
	res := w.r.must("keep-fan", map[string]any{"session": "api-fan-demo-2", "merge": true, "stash": true})
	merged := res["merged"].(map[string]any)
	if res["kept"] != "api-fan-demo-2" || merged["into"] != "main" || merged["committed"] == "" {
		t.Fatalf("keep: %v", res)
	}
	if got := w.git(w.repo, "show", "main:prompt.txt"); got != "the kept one" {
		t.Fatalf("main has %q", got)
	}
	if p := w.git(w.repo, "log", "-1", "--format=%P", "main"); len(strings.Fields(p)) != 2 {
		t.Fatal("no merge commit")
	}
	if files := w.git(w.repo, "ls-tree", "-r", "--name-only", "main"); files != "a.txt\nargs.txt\nprompt.txt" {
		t.Fatalf("main holds:\n%s", files)
	}
	removed := res["removed"].([]any)
	if len(removed) != 2 {
		t.Fatalf("removed: %v", removed)
	}
	for _, r := range removed {
		m := r.(map[string]any)
		if m["stashed"] != true || m["error"] != nil {
			t.Fatalf("removal: %v", m)
		}
	}
	for _, d := range []string{dirs[0], dirs[2]} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Fatalf("%s is still there", d)
		}
	}
	branches := strings.Fields(w.git(w.repo, "branch", "--format=%(refname:short)"))
	sort.Strings(branches)
	if !slices.Equal(branches, []string{"fan/demo", "fan/demo-2", "fan/demo-3", "main"}) {
		t.Fatalf("branches: %v", branches)
	}
	if stash := w.git(w.repo, "stash", "list"); !strings.Contains(stash, "tuios: fan/demo") || !strings.Contains(stash, "tuios: fan/demo-3") {
		t.Fatalf("stash: %s", stash)
	}
	ls := w.r.must("list-worktrees", map[string]any{"no_changes": true})["worktrees"].([]any)
	if len(ls) != 1 || ls[0].(map[string]any)["session"] != "api-fan-demo-2" {
		t.Fatalf("after keep: %v", ls)
	}
	for _, s := range w.r.must("list-sessions", nil)["sessions"].([]any) {
		if n := str(s.(map[string]any)["name"]); n == "api-fan-demo" || n == "api-fan-demo-3" {
			t.Fatalf("session %s is still open", n)
		}
	}
}

// Conflicts: nothing is merged, nothing removed, the repository is as it
// was, and the error names the file and what to do.
func TestFanKeepWithConflictsChangesNothing(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	dirs := fanOfThree(t, w, "demo")
	w.write(dirs[0], "a.txt", "the attempt's a\n")
	w.write(w.repo, "a.txt", "main's a\n")
	w.git(w.repo, "commit", "-q", "-am", "main moves on")
	before := w.left()
	_, err := w.r.call("keep-fan", map[string]any{"session": "api-fan-demo", "merge": true, "force": true})
	if err == nil || err.Code != "git_failed" || !strings.Contains(err.Message, "conflicts with main in a.txt") ||
		!strings.Contains(err.Hint.Detail, "nothing was merged") || !strings.Contains(err.Hint.Detail, "merge fan/demo") {
		t.Fatalf("conflict: %v", err)
	}
	if after := w.left(); after != before {
		t.Fatalf("a refused keep changed something:\n%s\n---\n%s", before, after)
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			t.Fatal("an attempt was removed")
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dirs[0], "a.txt")); string(b) != "the attempt's a\n" {
		t.Fatal("the kept attempt's work changed")
	}
}

func TestReviewAgainstAnotherAttempt(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	dirs := fanOfThree(t, w, "demo")
	w.write(dirs[1], "only-two.txt", "2\n")
	w.write(dirs[1], "prompt.txt", "two\n")
	res := w.r.must("review-diff", map[string]any{"session": "api-fan-demo-2", "against": "api-fan-demo"})
	files := map[string]string{}
	for _, f := range res["files"].([]any) {
		m := f.(map[string]any)
		files[str(m["path"])] = str(m["status"])
	}
	if res["against"] != "api-fan-demo" || res["against_tree"] == "" || len(files) != 2 || files["only-two.txt"] != "U" || files["prompt.txt"] != "M" {
		t.Fatalf("against: %v %v", files, res)
	}
	// Against a base: the recorded base is the fan's (main).
	base := w.r.must("review-diff", map[string]any{"session": "api-fan-demo-2", "stat": true})
	if base["base"] != "main" {
		t.Fatalf("recorded base: %v", base["base"])
	}
	for _, c := range []map[string]any{
		{"session": "api-fan-demo-2", "against": "api-fan-demo-2"},
		{"session": "api-fan-demo-2", "against": "nope"},
		{"session": "api-fan-demo-2", "against": "api-fan-demo", "base": "main"},
	} {
		if _, err := w.r.call("review-diff", c); err == nil || err.Code != "invalid_params" {
			t.Fatalf("%v: %v", c, err)
		}
	}
}

func TestWorktreeNewListRemove(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, nil)
	res := w.r.must("new-worktree", map[string]any{"branch": "feat/retry", "repo": w.repo})
	dir := filepath.Join(w.data, "tuios", "worktrees", "api", "feat-retry")
	if res["session"] != "api-feat-retry" || res["worktree"] != dir || res["created_branch"] != true || res["base"] != "main" || res["agent"] != "shell" {
		t.Fatalf("new: %v", res)
	}
	// A shell in the worktree.
	eventually(t, "the shell starts in the worktree", func() bool {
		res, err := w.r.call("list-windows", map[string]any{"session": "api-feat-retry"})
		return err == nil && len(res["windows"].([]any)) == 1 && str(res["windows"].([]any)[0].(map[string]any)["cwd"]) == dir
	})
	// An existing branch is checked out; --base with it is refused.
	w.git(w.repo, "branch", "old")
	res = w.r.must("new-worktree", map[string]any{"branch": "old", "repo": w.repo, "name": "oldie"})
	if res["session"] != "oldie" || res["created_branch"] != false {
		t.Fatalf("existing: %v", res)
	}
	if _, err := w.r.call("new-worktree", map[string]any{"branch": "main2", "base": "nope", "repo": w.repo}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("bad base: %v", err)
	}

	// rm refuses changes, stashes them, and never deletes the branch.
	w.write(dir, "wip.txt", "wip\n")
	if _, err := w.r.call("remove-worktree", map[string]any{"session": "api-feat-retry"}); err == nil || err.Code != "worktree_dirty" || !strings.Contains(err.Message, "wip.txt") {
		t.Fatalf("dirty rm: %v", err)
	}
	rm := w.r.must("remove-worktree", map[string]any{"session": "api-feat-retry", "stash": true})
	if rm["stashed"] != true || rm["session_closed"] != true {
		t.Fatalf("rm: %v", rm)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("the folder is still there")
	}
	w.git(w.repo, "rev-parse", "--verify", "refs/heads/feat/retry")

	// A worktree removed behind tuios's back reads gone; rm forgets it.
	old := filepath.Join(w.data, "tuios", "worktrees", "api", "old")
	os.RemoveAll(old)
	ls := w.r.must("list-worktrees", nil)["worktrees"].([]any)
	if len(ls) != 1 || ls[0].(map[string]any)["gone"] != true || ls[0].(map[string]any)["session"] != "oldie" {
		t.Fatalf("gone: %v", ls)
	}
	rm = w.r.must("remove-worktree", map[string]any{"session": "oldie"})
	if rm["gone"] != true {
		t.Fatalf("rm gone: %v", rm)
	}
	if ls := w.r.must("list-worktrees", nil)["worktrees"].([]any); len(ls) != 0 {
		t.Fatalf("after rm: %v", ls)
	}
	if _, err := w.r.call("remove-worktree", map[string]any{"session": "nope"}); err == nil || err.Code != "session_not_found" {
		t.Fatalf("rm nope: %v", err)
	}
}
