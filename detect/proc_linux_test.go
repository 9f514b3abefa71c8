//go:build linux

package detect

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// pane is an interactive bash on a real PTY: a job it runs becomes the
// terminal's foreground process group, as in a real pane.
type pane struct {
	t     testing.TB
	cmd   *exec.Cmd
	f     *os.File
	shell int
}

func newPane(t testing.TB, extraEnv ...string) *pane {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "PS1=$ ", "TERM=dumb"}, extraEnv...)
	f, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	go io.Copy(io.Discard, f)
	p := &pane{t: t, cmd: cmd, f: f, shell: cmd.Process.Pid}
	t.Cleanup(p.close)
	// Wait until the shell owns its terminal.
	p.waitFor("shell prompt", func(fg Foreground) bool { return fg.Running && fg.AtShell })
	return p
}

func (p *pane) close() {
	if fg, err := ReadForeground(p.shell); err == nil && fg.Running && !fg.AtShell {
		syscall.Kill(-fg.Leader.PID, syscall.SIGKILL)
	}
	p.cmd.Process.Kill()
	p.f.Close()
	p.cmd.Wait()
}

// run types a command line into the shell.
func (p *pane) run(line string) {
	p.t.Helper()
	if _, err := p.f.Write([]byte(line + "\n")); err != nil {
		p.t.Fatal(err)
	}
}

// interrupt kills the foreground job and waits for the prompt.
func (p *pane) interrupt() {
	p.t.Helper()
	if fg, err := ReadForeground(p.shell); err == nil && fg.Running && !fg.AtShell {
		syscall.Kill(-fg.Leader.PID, syscall.SIGKILL)
	}
	p.waitFor("shell prompt", func(fg Foreground) bool { return fg.Running && fg.AtShell })
}

func (p *pane) waitFor(what string, ok func(Foreground) bool) Foreground {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var fg Foreground
	for time.Now().Before(deadline) {
		var err error
		fg, err = ReadForeground(p.shell)
		if err != nil {
			p.t.Fatal(err)
		}
		if ok(fg) {
			return fg
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("timed out waiting for %s; last foreground %+v", what, fg)
	return fg
}

// start runs a job and waits until its leader's comm is comm and, when
// member is not "", a process with that comm runs in its group.
func (p *pane) start(line, comm, member string) Foreground {
	p.t.Helper()
	p.run(line)
	fg := p.waitFor(line, func(fg Foreground) bool {
		// argv too: a process inside execve has its new comm before its argv.
		return fg.Running && !fg.AtShell && fg.Leader.Comm == comm && len(fg.Leader.Argv) > 0
	})
	if member != "" {
		deadline := time.Now().Add(20 * time.Second)
		for !groupHas(fg.Leader.PID, member) {
			if time.Now().After(deadline) {
				p.t.Fatalf("%s: no %s in the group", line, member)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return fg
}

func groupHas(pgid int, comm string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		st, ok := parseStat(b)
		if ok && st.pgrp == pgid && string(st.comm) == comm {
			if argv, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); len(argv) > 0 {
				return true
			}
		}
	}
	return false
}

// fakes builds the fake agents in a temp dir.
type fakes struct {
	dir    string
	claude string // a copy of sleep named claude
	amp    string // a copy of sleep named amp (no corroboration)
	cli    string // node_modules/@anthropic-ai/claude-code/cli.js
}

func newFakes(t testing.TB) fakes {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	f := fakes{dir: dir, claude: filepath.Join(bin, "claude"), amp: filepath.Join(bin, "amp")}
	for _, p := range []string{f.claude, f.amp} {
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	os.MkdirAll(pkg, 0o755)
	f.cli = filepath.Join(pkg, "cli.js")
	os.WriteFile(f.cli, []byte("#!/usr/bin/env node\nsetTimeout(() => {}, 600000)\n"), 0o755)
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"0.0.1","bin":{"claude":"cli.js"}}`), 0o644)
	os.MkdirAll(filepath.Join(dir, "dev", "opencode"), 0o755)
	os.WriteFile(filepath.Join(dir, "dev", "opencode", "main.go"), []byte("package main\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "dev", "crush", "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "dev", "crush", "scripts", "build.sh"), []byte("sleep 600\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "aider"), data, 0o755)
	// Launchers (mise exec, nix develop, uvx), written as non-exec scripts
	// of the same process shape.
	os.WriteFile(filepath.Join(bin, "mise"), []byte("#!/bin/sh\n# mise exec -- CMD…\nshift; [ \"$1\" = -- ] && shift\n\"$@\"\nexit $?\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "nix"), []byte("#!/bin/sh\n# nix develop -c CMD…\nshift 2\nbash -c \"$*; true\"\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "uvx"), []byte("#!/bin/sh\n# uvx aider-chat: runs the tool's entry point\n\"$(dirname \"$0\")/aider\" 600\nexit $?\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "args"), []byte("600\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "claude"), 0o755)
	os.MkdirAll(filepath.Join(dir, "py", "tests", "aider"), 0o755)
	os.WriteFile(filepath.Join(dir, "py", "pytest.py"), []byte("import time\ntime.sleep(600)\n"), 0o644)
	return f
}

func needNode(t testing.TB) string {
	n, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	return n
}

func TestParseStatRealProcess(t *testing.T) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip(err)
	}
	st, ok := parseStat(b)
	if !ok || st.pgrp != syscall.Getpgrp() || st.ppid != os.Getppid() || st.start == 0 || st.nthreads < 1 {
		t.Errorf("parseStat(self) = %+v ok=%v", st, ok)
	}
	// comm with spaces and parentheses: fields are counted after the last ')'.
	st, ok = parseStat([]byte("42 (a) (b c)) S 1 42 42 34816 99 4194560 0 0 0 0 0 0 0 0 20 0 3 0 777 0 0"))
	if !ok || string(st.comm) != "a) (b c)" || st.state != 'S' || st.ppid != 1 || st.pgrp != 42 || st.tpgid != 99 || st.nthreads != 3 || st.start != 777 {
		t.Errorf("tricky comm: %+v ok=%v", st, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 x) S", "1 (x) S 1 2", "1 (x) S a 2 3 4 5"} {
		if _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) ok", bad)
		}
	}
}

func TestReadForegroundNotRunning(t *testing.T) {
	fg, err := ReadForeground(1 << 30)
	if err != nil || fg.Running {
		t.Errorf("missing shell: %+v %v", fg, err)
	}
	// A process without a controlling terminal has tpgid -1.
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	fg, err = ReadForeground(cmd.Process.Pid)
	if err != nil || fg.Running {
		t.Errorf("no terminal: %+v %v", fg, err)
	}
}

func TestForegroundAtShell(t *testing.T) {
	p := newPane(t)
	fg, err := ReadForeground(p.shell)
	if err != nil || !fg.Running || !fg.AtShell || fg.Leader.PID != p.shell || fg.Leader.Comm != "bash" {
		t.Fatalf("at shell: %+v %v", fg, err)
	}
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	m, err := d.Detect(p.shell)
	if err != nil || m.Agent || !m.AtShell || !m.Running {
		t.Errorf("at shell: %+v %v", m, err)
	}
	x, _ := d.Explain(p.shell)
	if x.Verdict != "This pane is at its shell prompt. It runs no agent." {
		t.Errorf("verdict %q", x.Verdict)
	}
}

type procCase struct {
	name    string
	line    func(f fakes) string
	comm    string // leader comm to wait for
	member  string // a group member comm to wait for
	harness string
	rule    string
	via     []string
	agent   bool
	env     []string
}

func runProcCases(t *testing.T, d *Detector, cases []procCase) {
	f := newFakes(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(t, c.env...)
			fg := p.start(c.line(f), c.comm, c.member)
			m, err := d.Detect(p.shell)
			if err != nil {
				t.Fatal(err)
			}
			if m.Agent != c.agent || m.HarnessID != c.harness || m.Rule != c.rule || strings.Join(m.Via, ",") != strings.Join(c.via, ",") {
				x, _ := d.Explain(p.shell)
				t.Fatalf("got agent=%v harness=%q rule=%q via=%q; want %v %q %q %q\n%s", m.Agent, m.HarnessID, m.Rule, m.Via,
					c.agent, c.harness, c.rule, c.via, x)
			}
			if !m.Running || m.AtShell || fg.Leader.PID == p.shell {
				t.Errorf("running=%v atShell=%v", m.Running, m.AtShell)
			}
			// The steady tick gives the same answer.
			m2, _ := d.Detect(p.shell)
			if m2.Agent != m.Agent || m2.Rule != m.Rule || m2.Process.PID != m.Process.PID {
				t.Errorf("steady tick changed the answer: %+v then %+v", m, m2)
			}
			d.Forget(p.shell)
		})
	}
}

// TestDetectRealProcesses runs fake agents and the blog post's negatives as
// foreground jobs of a shell on a PTY and reads them from /proc.
func TestDetectRealProcesses(t *testing.T) {
	node, _ := exec.LookPath("node")
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	cases := []procCase{
		{name: "claude", line: func(f fakes) string { return f.claude + " 600" }, comm: "claude", harness: "claude-code", rule: "comm=claude", agent: true},
		{name: "env claude", line: func(f fakes) string { return "env FOO=1 " + f.claude + " 600" }, comm: "claude", harness: "claude-code", rule: "comm=claude", agent: true},
		{name: "timeout claude", line: func(f fakes) string { return "timeout 600 " + f.claude + " 600" }, comm: "timeout", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"timeout"}, agent: true},
		{name: "sh -c claude; true", line: func(f fakes) string { return "sh -c '" + f.claude + " 600; true'" }, comm: "sh", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"sh"}, agent: true},
		{name: "two wrappers", line: func(f fakes) string { return "timeout 600 sh -c '" + f.claude + " 600; true'" }, comm: "timeout", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"timeout", "sh"}, agent: true},
		{name: "non-exec launcher script", line: func(f fakes) string {
			s := filepath.Join(f.dir, "launch")
			os.WriteFile(s, []byte("#!/bin/sh\n"+f.claude+" 600\necho done\n"), 0o755)
			return s
		}, comm: "launch", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"launch"}, agent: true},
		{name: "mise exec -- claude", line: func(f fakes) string { return filepath.Join(f.dir, "bin/mise") + " exec -- " + f.claude + " 600" }, comm: "mise", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"mise"}, agent: true},
		{name: "nix develop -c claude", line: func(f fakes) string { return filepath.Join(f.dir, "bin/nix") + " develop -c " + f.claude + " 600" }, comm: "nix", member: "claude", harness: "claude-code", rule: "comm=claude", via: []string{"nix", "bash"}, agent: true},
		{name: "uvx aider-chat", line: func(f fakes) string { return filepath.Join(f.dir, "bin/uvx") + " aider-chat" }, comm: "uvx", member: "aider", harness: "aider", rule: "comm=aider", via: []string{"uvx"}, agent: true},
		// Negatives: a name in an argument or a directory is not an agent.
		{name: "non-wrapper hides its child", line: func(f fakes) string { return "xargs -a " + filepath.Join(f.dir, "args") + " " + f.claude }, comm: "xargs", member: "claude"},
		{name: "tail -f opencode dir", line: func(f fakes) string { return "tail -f " + filepath.Join(f.dir, "dev/opencode/main.go") }, comm: "tail"},
		{name: "cwd named claude", line: func(f fakes) string { return "cd " + filepath.Join(f.dir, "claude") + " && sleep 600" }, comm: "sleep"},
		{name: "static amp", line: func(f fakes) string { return f.amp + " 600" }, comm: "amp"},
		{name: "bash crush build script", line: func(f fakes) string { return "bash " + filepath.Join(f.dir, "dev/crush/scripts/build.sh") }, comm: "bash", member: "sleep"},
		{name: "sh -c grep claude", line: func(f fakes) string { return "sh -c 'sleep 600 claude 2>/dev/null; sleep 600; true'" }, comm: "sh", member: "sleep"},
		{name: "timeout make-like", line: func(f fakes) string { return "timeout 600 sleep 600" }, comm: "timeout", member: "sleep"},
		{name: "python3 -m pytest tests/aider", line: func(f fakes) string {
			return "cd " + filepath.Join(f.dir, "py") + " && /usr/bin/python3 -m pytest tests/aider/test_x.py"
		}, comm: "python3"},
		{name: "hint", line: func(f fakes) string { return "TUIOS_AGENT=claude-code sleep 600" }, comm: "sleep", harness: "claude-code", rule: "TUIOS_AGENT=claude-code", agent: true},
		{name: "hint by program name", line: func(f fakes) string { return "TUIOS_AGENT=codex sleep 600" }, comm: "sleep", harness: "codex", rule: "TUIOS_AGENT=codex", agent: true},
		{name: "hint unknown", line: func(f fakes) string { return "TUIOS_AGENT=nonesuch sleep 600" }, comm: "sleep"},
		{name: "real agent beats hint", line: func(f fakes) string { return "TUIOS_AGENT=codex " + f.claude + " 600" }, comm: "claude", harness: "claude-code", rule: "comm=claude", agent: true},
	}
	if node != "" {
		cases = append(cases,
			procCase{name: "node cli.js", line: func(f fakes) string { return "node " + f.cli }, comm: "node", harness: "claude-code", rule: "argv_path=@anthropic-ai/claude-code", agent: true},
			procCase{name: "timeout node cli.js", line: func(f fakes) string { return "timeout 600 node " + f.cli }, comm: "timeout", member: "node", harness: "claude-code", rule: "argv_path=@anthropic-ai/claude-code", via: []string{"timeout"}, agent: true},
			procCase{name: "sh -c node cli.js", line: func(f fakes) string { return "sh -c 'node " + f.cli + "; true'" }, comm: "sh", member: "node", harness: "claude-code", rule: "argv_path=@anthropic-ai/claude-code", via: []string{"sh"}, agent: true},
			procCase{name: "node vite under a crush dir", line: func(f fakes) string {
				vite := filepath.Join(f.dir, "crush", "node_modules", "vite", "bin", "vite.js")
				os.MkdirAll(filepath.Dir(vite), 0o755)
				os.WriteFile(vite, []byte("setTimeout(() => {}, 600000)\n"), 0o644)
				return "node " + vite
			}, comm: "node"},
		)
	}
	runProcCases(t, d, cases)
}

// TestDetectNpx runs the fake claude-code package through npx, offline,
// from a local directory (npm exec → sh -c → node …/.bin/claude).
func TestDetectNpx(t *testing.T) {
	needNode(t)
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("no npx")
	}
	if testing.Short() {
		t.Skip("npx is slow")
	}
	f := newFakes(t)
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	p := newPane(t, "npm_config_cache="+filepath.Join(f.dir, "npmcache"), "npm_config_update_notifier=false")
	pkg := filepath.Dir(f.cli)
	p.run("npx --yes --offline " + pkg)
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, err := d.Detect(p.shell)
		if err != nil {
			t.Fatal(err)
		}
		if m.Agent {
			if m.HarnessID != "claude-code" || len(m.Via) == 0 || m.Process.PID == p.shell {
				t.Errorf("npx: %+v", m)
			}
			x, _ := d.Explain(p.shell)
			if !strings.HasPrefix(x.Verdict, "This pane runs claude-code behind npm exec") {
				t.Errorf("npx verdict %q", x.Verdict)
			}
			t.Logf("npx: rule %s via %v\n%s", m.Rule, m.Via, x)
			return
		}
		if time.Now().After(deadline) {
			x, _ := d.Explain(p.shell)
			t.Fatalf("npx never detected:\n%s", x)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Explain says what it read (comm, argv, exe), what matched and which
// words it ignored, as the agent skill's example shows.
func TestExplainAgentDetectSaysWhatItRead(t *testing.T) {
	f := newFakes(t)
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	p := newPane(t)
	p.start("bash "+filepath.Join(f.dir, "dev/crush/scripts/build.sh"), "bash", "sleep")
	x, err := d.Explain(p.shell)
	if err != nil {
		t.Fatal(err)
	}
	if x.Matched || !strings.HasPrefix(x.Verdict, "This pane does not run an agent.") {
		t.Errorf("verdict %q matched %v", x.Verdict, x.Matched)
	}
	if len(x.Ignored) == 0 || x.Ignored[0].Word != "crush" || !strings.Contains(x.Ignored[0].Sentence, `the word "crush"`) {
		t.Errorf("ignored = %#v", x.Ignored)
	}
	if !x.Walked || len(x.Group) != 1 || x.Group[0].Comm != "sleep" {
		t.Errorf("group = %#v", x.Group)
	}
	if want := "The process bash is a wrapper. None of the 1 processes behind it is an agent."; len(x.Evidence) == 0 || x.Evidence[0] != want {
		t.Errorf("evidence %q", x.Evidence)
	}
	p.interrupt()

	p.start("timeout 600 "+f.claude+" 600", "timeout", "claude")
	x, err = d.Explain(p.shell)
	if err != nil {
		t.Fatal(err)
	}
	want := `This pane runs claude-code behind timeout.
  The foreground process timeout is a wrapper, so tuios read the processes behind it.
  The process claude matched the manifest claude-code on comm=claude.
  A process name is strong evidence.
`
	if s := x.String(); !strings.HasPrefix(s, want) {
		t.Errorf("text:\n%s\nwant prefix:\n%s", s, want)
	}
	if !x.Matched || x.MatchedHarness != "claude-code" || x.MatchedRule != "comm=claude" || strings.Join(x.MatchedVia, ",") != "timeout" ||
		x.Identity.String() != "manifest" || x.Confidence.String() != "strong" || x.Process == nil || x.Process.Comm != "timeout" {
		t.Errorf("explanation %+v", x)
	}
	for _, r := range x.Manifests {
		if (r.ID == "claude-code") != r.Matched {
			t.Errorf("manifest %s matched=%v", r.ID, r.Matched)
		}
	}
}

// TestDetectorFollowsTheForeground checks the cache: a new job, an exit
// back to the shell, and a reused leader pid are all noticed.
func TestDetectorFollowsTheForeground(t *testing.T) {
	f := newFakes(t)
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	p := newPane(t)
	p.start(f.claude+" 600", "claude", "")
	if m, _ := d.Detect(p.shell); m.HarnessID != "claude-code" {
		t.Fatalf("claude: %+v", m)
	}
	p.interrupt()
	if m, _ := d.Detect(p.shell); m.Agent || !m.AtShell {
		t.Fatalf("back at shell: %+v", m)
	}
	p.start("tail -f "+filepath.Join(f.dir, "dev/opencode/main.go"), "tail", "")
	if m, _ := d.Detect(p.shell); m.Agent || m.Process.Comm != "tail" {
		t.Fatalf("tail: %+v", m)
	}
	p.interrupt()
	// exec in place: same pid and start time, new comm.
	p.start("sh -c 'sleep 0.3; exec "+f.claude+" 600'", "sh", "")
	if m, _ := d.Detect(p.shell); m.Agent {
		t.Fatalf("before exec: %+v", m)
	}
	p.waitFor("exec", func(fg Foreground) bool { return fg.Leader.Comm == "claude" })
	if m, _ := d.Detect(p.shell); m.HarnessID != "claude-code" || len(m.Via) != 0 {
		t.Fatalf("after exec: %+v", m)
	}
	// The shell exits: not running.
	p.interrupt()
	p.cmd.Process.Kill()
	p.cmd.Wait()
	if m, err := d.Detect(p.shell); m.Running || err != nil {
		t.Fatalf("shell gone: %+v %v", m, err)
	}
}

func TestForegroundCwd(t *testing.T) {
	f := newFakes(t)
	p := newPane(t)
	dir := filepath.Join(f.dir, "claude")
	fg := p.start("cd "+dir+" && sleep 600", "sleep", "")
	if fg.Cwd != dir {
		t.Errorf("cwd %q, want %q", fg.Cwd, dir)
	}
	if len(fg.Leader.Argv) != 2 || fg.Leader.Argv[0] != "sleep" || !strings.HasSuffix(fg.Leader.Exe, "sleep") {
		t.Errorf("leader %+v", fg.Leader)
	}
}

func TestDeletedExe(t *testing.T) {
	f := newFakes(t)
	p := newPane(t)
	p.start(f.claude+" 600", "claude", "")
	os.Remove(f.claude)
	fg, _ := ReadForeground(p.shell)
	if fg.Leader.Exe != f.claude {
		t.Errorf("exe %q, want %q without (deleted)", fg.Leader.Exe, f.claude)
	}
}

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	return len(ents)
}

// TestDetectorReleasesFiles checks that Forget and Close close the stat
// files the detector keeps per pane.
func TestDetectorReleasesFiles(t *testing.T) {
	f := newFakes(t)
	p := newPane(t)
	q := newPane(t)
	p.start(f.claude+" 600", "claude", "")
	q.start("sh -c '"+f.claude+" 600; true'", "sh", "claude")
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	before := openFDs(t)
	for i := 0; i < 3; i++ {
		d.Detect(p.shell)
		d.Detect(q.shell)
	}
	if held := openFDs(t) - before; held != 5 { // shell+leader, shell+leader+member
		t.Errorf("holding %d files, want 5", held)
	}
	d.Forget(p.shell)
	if held := openFDs(t) - before; held != 3 {
		t.Errorf("after Forget holding %d files, want 3", held)
	}
	d.Close()
	if held := openFDs(t) - before; held != 0 {
		t.Errorf("after Close holding %d files", held)
	}
}

func TestProcRoot(t *testing.T) {
	// A proc root that does not exist reads nothing and fails nothing.
	d := NewDetector(DetectorOptions{ProcRoot: filepath.Join(t.TempDir(), "noproc")})
	if m, err := d.Detect(os.Getpid()); err != nil || m.Running {
		t.Errorf("missing root: %+v %v", m, err)
	}
	long := NewDetector(DetectorOptions{ProcRoot: "/" + strings.Repeat("x", 600)})
	if m, _ := long.Detect(os.Getpid()); m.Running {
		t.Errorf("overlong root read something: %+v", m)
	}
}

// TestDetectorConcurrent detects two panes from several goroutines (run
// with -race).
func TestDetectorConcurrent(t *testing.T) {
	f := newFakes(t)
	p := newPane(t)
	q := newPane(t)
	p.start(f.claude+" 600", "claude", "")
	q.start("timeout 600 "+f.claude+" 600", "timeout", "claude")
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func() {
			var err error
			for i := 0; i < 50 && err == nil; i++ {
				for _, sh := range []int{p.shell, q.shell} {
					m, e := d.Detect(sh)
					if e != nil || m.HarnessID != "claude-code" {
						err = fmt.Errorf("pane %d: %+v %v", sh, m, e)
					}
				}
				if i%10 == 0 {
					d.Forget(p.shell)
					x, _ := d.Explain(q.shell)
					if !x.Matched {
						err = fmt.Errorf("explain: %s", x.Verdict)
					}
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestLongCmdline reads a command line longer than the first buffer.
func TestLongCmdline(t *testing.T) {
	args := []string{"600"}
	for i := 0; i < 400; i++ {
		args = append(args, strings.Repeat("x", 20)+strconv.Itoa(i))
	}
	// sh -c 'sleep 600' sh ARGS… keeps the long argv on sh itself.
	cmd := exec.Command("sh", append([]string{"-c", "sleep 600", "sh"}, args...)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	s := newSysProc("")
	var argv []string
	for i := 0; i < 250; i++ {
		var pb pathBuf
		argv = s.readCmdline(s.procPath(&pb, cmd.Process.Pid).str("/cmdline"))
		if len(argv) > 0 && argv[0] == "sh" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(argv) != 4+len(args) || argv[len(argv)-1] != args[len(args)-1] {
		t.Fatalf("read %d args, want %d", len(argv), 4+len(args))
	}
}

// A leader that runs exec keeping its pid, start time and comm (a program
// that re-executes itself, as the pretend agent does to name itself with
// TUIOS_AGENT) is looked at again: where its argv and environment lie
// changed. Read before the exec, it was a plain program; after, the hint
// it now carries makes it an agent.
func TestDetectSeesAnExecThatKeepsTheComm(t *testing.T) {
	perl, err := exec.LookPath("perl")
	if err != nil {
		t.Skip("no perl")
	}
	p := newPane(t)
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	defer d.Close()
	gate := filepath.Join(t.TempDir(), "go")
	fg := p.start(perl+` -e 'select(undef,undef,undef,0.01) until -e "`+gate+`"; $ENV{TUIOS_AGENT}="claude-code"; exec $^X, "-e", "sleep 600"'`, "perl", "")
	if m, err := d.Detect(p.shell); err != nil || m.Agent {
		t.Fatalf("before the exec: %+v %v", m, err)
	}
	if m, _ := d.Detect(p.shell); m.Agent {
		t.Fatal("the steady read changed its mind before the exec")
	}
	os.WriteFile(gate, nil, 0o600)
	deadline := time.Now().Add(10 * time.Second)
	for {
		env, _ := os.ReadFile("/proc/" + strconv.Itoa(fg.Leader.PID) + "/environ")
		if strings.Contains(string(env), "TUIOS_AGENT=claude-code") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("perl never ran exec")
		}
		time.Sleep(5 * time.Millisecond)
	}
	m, err := d.Detect(p.shell)
	if err != nil || !m.Agent || m.HarnessID != "claude-code" || m.Process.PID != fg.Leader.PID {
		t.Fatalf("after the exec: %+v %v", m, err)
	}
}

// image reads arg_start (48) and env_end (51), and is zero for a line the
// kernel cut short or filled with zeros (another user's process).
func TestStatImage(t *testing.T) {
	head := "7 (a b) S 1 7 7 34816 7 4194560 0 0 0 0 0 0 0 0 20 0 9 0 777"
	mid := " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25"
	for _, c := range []struct {
		line string
		want [2]uint64
	}{
		{head + mid + " 140730759461391 140730759462000 140730759462001 140730759462863 0\n", [2]uint64{140730759461391, 140730759462863}},
		{head + mid + " 140730759461391 140730759462000 140730759462001 140730759462863", [2]uint64{140730759461391, 140730759462863}},
		{head + mid + " 140730759461391 1", [2]uint64{}},
		{head, [2]uint64{}},
		{head + mid + " 0 0 0 0 0\n", [2]uint64{}},
	} {
		st, ok := parseStat([]byte(c.line))
		if !ok || st.start != 777 {
			t.Fatalf("parseStat(%q) = %+v %v", c.line, st, ok)
		}
		if got := st.image(); got != c.want {
			t.Errorf("image of %q = %v, want %v", c.line, got, c.want)
		}
	}
}
