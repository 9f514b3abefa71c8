package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fanRepo makes a repository named api (one commit on main) in the env's
// work folder, and gives git an author for the daemon's commits.
func fanRepo(t testing.TB, e *env) string {
	t.Helper()
	e.vars = append(e.vars, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	repo := filepath.Join(e.workDir(), "api")
	os.MkdirAll(repo, 0o755)
	e.git(repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("hi\n"), 0o644)
	e.git(repo, "add", "a.txt")
	e.git(repo, "commit", "-q", "-m", "first")
	return repo
}

func (e *env) git(dir string, args ...string) string {
	e.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, e.vars
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// writerAgent is a claude that reports what its hook would: idle at its
// prompt; then it writes the line it read to answer.txt and goes idle.
const writerAgent = `printf 'Claude stand-in\r\n> '
tuios set-agent-state idle
IFS= read -r line
tuios set-agent-state working
printf '%s\n' "$line" > answer.txt
echo "wrote answer.txt"
tuios set-agent-state idle
while IFS= read -r _; do :; done` // read is a builtin: the agent stays in the foreground, as a real one does

// The whole round: fan, ls, compare, verify, diff, keep --merge; the
// repository's history shows exactly the kept work.
func TestFanCommandsEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	repo := fanRepo(t, e)
	withAgents(t, e, map[string]string{"claude": writerAgent})

	out := e.ok("fan", "3", "Write the answer", "--agent", "claude", "--name", "demo", "--repo", repo, "--wait")
	for _, want := range []string{"Fan fan/demo in api: 3 attempts from main", "api-fan-demo-3", "sent"} {
		if !strings.Contains(out, want) {
			t.Fatalf("fan printed:\n%s\nlacking %q", out, want)
		}
	}
	data := filepath.Join(e.dir, "home", ".local", "share", "tuios", "worktrees", "api")
	for _, d := range []string{"fan-demo", "fan-demo-2", "fan-demo-3"} {
		e.waitAnswer("api-"+d, filepath.Join(data, d, "answer.txt"), "Write the answer\n")
	}
	// Each attempt writes its own change.
	os.WriteFile(filepath.Join(data, "fan-demo-2", "answer.txt"), []byte("the best answer\n"), 0o644)
	os.WriteFile(filepath.Join(data, "fan-demo-2", "ok"), nil, 0o644)

	ls := e.ok("worktree", "ls", "--group", "demo")
	for _, want := range []string{"api-fan-demo-2", "fan/demo-2", "fan/demo", "claude", "1 file +1 -0", "2 files +1 -0", "sent"} {
		if !strings.Contains(ls, want) {
			t.Fatalf("worktree ls:\n%s\nlacking %q", ls, want)
		}
	}
	// Selectors read the fan's group.
	var agents struct {
		Agents []struct {
			Session string `json:"session"`
			Group   string `json:"group"`
		} `json:"agents"`
	}
	json.Unmarshal([]byte(e.ok("list-agents", "--select", "group:fan/dem*", "--json")), &agents)
	if len(agents.Agents) != 3 || agents.Agents[0].Group != "fan/demo" {
		t.Fatalf("list-agents --select group:fan/dem*: %+v", agents)
	}
	cmp := e.ok("fan", "compare", "api-fan-demo")
	if !strings.Contains(cmp, "Compare fan/demo in api, 3 attempts vs main") || !strings.Contains(cmp, "│ 2     │ +1 -0") {
		t.Fatalf("compare:\n%s", cmp)
	}

	// A real check: one attempt passes, two fail (exit 1, windows kept).
	r := e.run("fan", "verify", "api-fan-demo", "--", "test", "-f", "ok")
	if r.code != 1 || !strings.Contains(r.out, "api-fan-demo-2: passed") || !strings.Contains(r.out, "api-fan-demo: failed, exit 1") ||
		!strings.Contains(r.err, "2 of 3 checks failed") {
		t.Fatalf("verify: %+v", r)
	}
	cmp = e.ok("fan", "compare", "--group", "fan/demo")
	if !strings.Contains(cmp, "test -f ok passed") || !strings.Contains(cmp, "test -f ok failed, exit 1") {
		t.Fatalf("compare after verify:\n%s", cmp)
	}

	diff := e.ok("fan", "diff", "api-fan-demo-2", "api-fan-demo")
	for _, want := range []string{"against attempt api-fan-demo", "-Write the answer", "+the best answer", "new file (untracked)"} {
		if !strings.Contains(diff, want) {
			t.Fatalf("fan diff:\n%s\nlacking %q", diff, want)
		}
	}
	if wd := e.ok("worktree", "diff", "api-fan-demo-2", "--stat"); !strings.Contains(wd, "against main") || !strings.Contains(wd, "U answer.txt") {
		t.Fatalf("worktree diff:\n%s", wd)
	}

	// Keep refused while the others have changes; then kept with --force.
	r = e.run("fan", "keep", "api-fan-demo-2", "--merge")
	if r.code != 1 || !strings.Contains(r.err, "worktree_dirty") || !strings.Contains(r.err, "--stash") {
		t.Fatalf("keep with dirty others: %+v", r)
	}
	out = e.ok("fan", "keep", "api-fan-demo-2", "--merge", "--force")
	for _, want := range []string{"Committed what the agent left uncommitted on fan/demo-2", "Merged fan/demo-2 into main", "Removed api-fan-demo (branch fan/demo stays)", "Removed api-fan-demo-3"} {
		if !strings.Contains(out, want) {
			t.Fatalf("keep printed:\n%s\nlacking %q", out, want)
		}
	}
	if got := e.git(repo, "show", "main:answer.txt"); got != "the best answer" {
		t.Fatalf("main:answer.txt = %q", got)
	}
	// History: the first commit, the kept attempt's work, the merge.
	log := e.git(repo, "log", "--topo-order", "--format=%s", "main")
	if lines := strings.Split(log, "\n"); len(lines) != 3 || !strings.HasPrefix(lines[0], "Merge branch 'fan/demo-2'") || !strings.HasPrefix(lines[1], "Work the agent left uncommitted in fan/demo-2") || lines[2] != "first" {
		t.Fatalf("history:\n%s", log)
	}
	if files := e.git(repo, "ls-tree", "-r", "--name-only", "main"); files != "a.txt\nanswer.txt\nok" {
		t.Fatalf("main holds:\n%s", files)
	}
	if ls := e.ok("worktree", "ls", "--no-changes"); strings.Contains(ls, "api-fan-demo-3") || !strings.Contains(ls, "api-fan-demo-2") {
		t.Fatalf("after keep:\n%s", ls)
	}
	// Removing the kept one too: its branch stays.
	if rm := e.ok("worktree", "rm", "api-fan-demo-2"); !strings.Contains(rm, "branch fan/demo-2 stays") || !strings.Contains(rm, "Closed session 'api-fan-demo-2'") {
		t.Fatalf("rm: %s", rm)
	}
	e.git(repo, "rev-parse", "--verify", "refs/heads/fan/demo-2")
}

func TestFanCommandRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	repo := fanRepo(t, e)
	withAgents(t, e, map[string]string{"claude": writerAgent})
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"fan", "17", "x", "--agent", "claude", "--repo", repo}, "count 17 is out of range: a fan has 1 to 16 attempts"},
		{[]string{"fan", "0", "x", "--agent", "claude", "--repo", repo}, "1 to 16"},
		{[]string{"fan", "three", "x", "--agent", "claude", "--repo", repo}, "is not a count"},
		{[]string{"fan", "2", "x", "--repo", repo}, "name the agents with --agent"},
		{[]string{"fan", "2", "--agent", "claude", "--repo", repo}, "give the prompt"},
		{[]string{"fan", "2", "x", "--agent", "claude", "--repo", e.dir}, "not inside a git repository"},
		{[]string{"fan", "2", "x", "--agent", "claude", "--repo", repo, "--env", "TUIOS_SOCKET=/x"}, "TUIOS_SOCKET is set by tuios"},
		{[]string{"fan", "verify", "api-fan-x"}, "give the check after --"},
		{[]string{"fan", "keep", "x", "--squash"}, "go with --merge"},
		{[]string{"worktree", "rm", "nope"}, "nope"},
	} {
		r := e.run(c.args...)
		if r.code != 1 || !strings.Contains(r.err, c.says) {
			t.Errorf("tuios %s: %+v, want exit 1 saying %q", strings.Join(c.args, " "), r, c.says)
		}
	}
	if b := e.git(repo, "branch", "--format=%(refname:short)"); b != "main" {
		t.Fatalf("a refused fan left branches: %q", b)
	}
	for _, v := range []string{"fan", "fan compare", "fan verify", "fan diff", "fan keep", "worktree new", "worktree ls", "worktree rm", "worktree diff", "worktree pull"} {
		help := e.ok(append(strings.Fields(v), "--help")...)
		if !strings.Contains(help, "tuios "+v+" ") && !strings.Contains(help, "tuios "+v+"\n") {
			t.Errorf("tuios %s --help has no example:\n%s", v, help)
		}
	}
	// worktree new: a shell session in the worktree; JSON is the daemon's.
	var res map[string]any
	json.Unmarshal([]byte(e.ok("worktree", "new", "feat/retry", "--repo", repo, "-d", "--json")), &res)
	if res["type"] != "worktree_created" || res["session"] != "api-feat-retry" || res["created_branch"] != true {
		t.Fatalf("worktree new: %v", res)
	}
	var ls struct {
		Worktrees []map[string]any `json:"worktrees"`
	}
	json.Unmarshal([]byte(e.ok("worktree", "ls", "--json")), &ls)
	if len(ls.Worktrees) != 1 || ls.Worktrees[0]["branch"] != "feat/retry" {
		t.Fatalf("ls: %v", ls)
	}
	b, _ := json.Marshal(ls)
	if strings.Contains(string(b), `"gone":true`) {
		t.Fatal("gone")
	}

	// start-agent --repo: the agent runs at the repository's top.
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	var sa map[string]any
	json.Unmarshal([]byte(e.ok("start-agent", "claude", "--repo", filepath.Join(repo, "sub"), "-s", "sa", "--json")), &sa)
	if sa["cwd"] != repo || sa["ready"] != true {
		t.Fatalf("start-agent --repo: %v", sa)
	}
	if r := e.run("start-agent", "claude", "--repo", repo, "--cwd", repo, "-s", "sa"); r.code != 1 || !strings.Contains(r.err, "--repo or --cwd") {
		t.Fatalf("--repo with --cwd: %+v", r)
	}
	if r := e.run("start-agent", "claude", "--repo", e.dir, "-s", "sa"); r.code != 1 || !strings.Contains(r.err, "not_repo") {
		t.Fatalf("--repo of no repository: %+v", r)
	}
}

// waitAnswer waits for a writer agent to say it wrote answer.txt in its
// session, then checks the file.
func (e *env) waitAnswer(session, path, want string) {
	e.t.Helper()
	e.ok("wait-for", "window-output", "-s", session, "--pattern", "wrote answer.txt", "--timeout", "20000")
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		e.t.Fatalf("%s holds %q (%v), want %q", path, b, err, want)
	}
}
