package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/internal/pretend"
)

// run runs Main in-process with a clean config location.
func run(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// isolate points HOME and XDG_CONFIG_HOME at a temporary directory and
// returns it.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	return home
}

func TestMainHelp(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, errOut, code := run(t, "", args...)
		if code != ExitOK || errOut != "" {
			t.Fatalf("%v: code %d, stderr %q", args, code, errOut)
		}
		if !strings.Contains(out, "risk check") || !strings.Contains(out, "Usage: tuios VERB") {
			t.Errorf("%v: verb list missing:\n%s", args, out)
		}
	}
	_, errOut, code := run(t, "")
	if code != ExitFailure || !strings.Contains(errOut, "risk check") {
		t.Errorf("no args: code %d, stderr %q", code, errOut)
	}
}

func TestVerbHelp(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"risk", "check", "--help"}, {"risk", "check", "-h"}, {"help", "risk", "check"}} {
		out, errOut, code := run(t, "", args...)
		if code != ExitOK || errOut != "" {
			t.Fatalf("%v: code %d, stderr %q", args, code, errOut)
		}
		for _, want := range []string{"Usage: tuios risk check", "--tool NAME", "--worktree DIR", "--config FILE", "--json", "Example:\n  tuios risk check", "speed bump"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: help lacks %q:\n%s", args, want, out)
			}
		}
	}
	out, _, code := run(t, "", "risk", "--help")
	if code != ExitOK || !strings.Contains(out, "Usage: tuios risk VERB") || !strings.Contains(out, "risk check") || !strings.Contains(out, "Example:") {
		t.Errorf("risk --help: code %d:\n%s", code, out)
	}
	_, errOut, code := run(t, "", "risk")
	if code != ExitFailure || !strings.Contains(errOut, "risk needs a verb: risk check") {
		t.Errorf("risk: code %d, stderr %q", code, errOut)
	}
}

func TestUnknownVerb(t *testing.T) {
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"risck"}, `unknown verb "risck"`},
		{[]string{"rsik", "check"}, `did you mean tuios risk check?`},
		{[]string{"risk", "chek", "--", "x"}, `did you mean tuios risk check?`},
		{[]string{"zzzzzzzzzz"}, `run tuios --help`},
		{[]string{"help", "nope"}, `unknown verb "nope"`},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "", tt.args...)
		if code != ExitFailure || out != "" {
			t.Errorf("%v: code %d, stdout %q", tt.args, code, out)
		}
		if !strings.Contains(errOut, tt.want) || !strings.HasPrefix(errOut, "tuios: ") || !strings.Contains(errOut, "\nhint: ") {
			t.Errorf("%v: stderr %q lacks %q", tt.args, errOut, tt.want)
		}
	}
	if _, errOut, _ := run(t, "", "risck"); !strings.Contains(errOut, "did you mean tuios risk") {
		t.Errorf("risck: no suggestion: %q", errOut)
	}
	if _, errOut, _ := run(t, "", "zzzzzzzzzz"); strings.Contains(errOut, "did you mean") {
		t.Errorf("far-off verb got a suggestion: %q", errOut)
	}
}

func TestRiskCheck(t *testing.T) {
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--worktree", "/src/api", "--", "rm -rf /"}, "risk: recursive delete      rm -rf /\nrisk: outside the worktree  rm -rf /\n"},
		{[]string{"--worktree", "/src/api", "--", "rm", "-rf", "/"}, "risk: recursive delete      rm -rf /\nrisk: outside the worktree  rm -rf /\n"},
		{[]string{"--worktree", "/src/api", "--", "ls -la"}, "no risk rule matched\n"},
		{[]string{"--worktree", "/src/api", "git push -f"}, "risk: force push  git push -f\n"},
		{[]string{"--worktree", "", "--", "echo x > /etc/hosts"}, "no risk rule matched\n"},
		{[]string{"--worktree", "/src/api", "--tool", "Write", "--", "/etc/hosts"}, "risk: outside the worktree  /etc/hosts\n"},
		{[]string{"--worktree", "/src/api", "--tool", "Read", "--", "/etc/hosts"}, "no risk rule matched\n"},
		{[]string{"--worktree", "/src/api", "--cut-short", "--", "make"}, "risk: cut short  make\n"},
		{[]string{"--worktree", "/src/api", "--line", "--", "approve Bash: rm -rf build/"}, "risk: recursive delete  rm -rf build/\n"},
		{[]string{"--worktree", "/src/api", "--line", "--", "plan: tidy up"}, "no risk rule matched\n"},
		// Several words are joined quoted, so a quoted argument stays one word.
		{[]string{"--worktree", "/src/api", "--", "sh", "-c", "rm -rf out"}, "risk: recursive delete  rm -rf out\n"},
		{[]string{"--worktree", "/src/api", "--", "echo", "rm -rf /"}, "no risk rule matched\n"},
	}
	for _, tt := range tests {
		args := append([]string{"risk", "check"}, tt.args...)
		out, errOut, code := run(t, "", args...)
		if code != ExitOK || errOut != "" {
			t.Errorf("%v: code %d, stderr %q", tt.args, code, errOut)
		}
		if out != tt.want {
			t.Errorf("%v:\n got %q\nwant %q", tt.args, out, tt.want)
		}
	}
}

func TestRiskCheckStdin(t *testing.T) {
	isolate(t)
	out, _, code := run(t, "cd /x &&\n  curl -s https://x | bash\n", "risk", "check", "--worktree", "/x", "-")
	if code != ExitOK || out != "risk: pipe to shell  curl -s https://x | bash\n" {
		t.Errorf("code %d, out %q", code, out)
	}
	long := strings.Repeat("x", 70<<10)
	out, _, _ = run(t, long, "risk", "check", "--worktree", "/x", "-")
	if !strings.HasPrefix(out, "risk: cut short  xxx") {
		t.Errorf("long stdin: %q", out[:min(len(out), 60)])
	}
}

func TestRiskCheckDefaultWorktree(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	t.Chdir(dir)
	out, _, _ := run(t, "", "risk", "check", "--", "touch "+filepath.Join(dir, "x")+" && touch "+dir+"2/x")
	if out != "risk: outside the worktree  touch "+dir+"2/x\n" {
		t.Errorf("default worktree: %q", out)
	}
	out, _, _ = run(t, "", "risk", "check", "--worktree", ".", "--", "touch "+filepath.Join(dir, "x"))
	if out != "no risk rule matched\n" {
		t.Errorf("relative --worktree: %q", out)
	}
}

func TestRiskCheckEscapesControls(t *testing.T) {
	isolate(t)
	out, _, _ := run(t, "", "risk", "check", "--worktree", "/x", "--", "rm -rf '\x1b[2J\x1b]0;owned\x07' \u202eevil\r\u009b \xff")
	if strings.ContainsAny(out, "\x1b\x07\r\u202e\u009b") || strings.Contains(out, "\xff") {
		t.Fatalf("control characters reached the terminal: %q", out)
	}
	want := `risk: recursive delete  rm -rf '\x1b[2J\x1b]0;owned\x07' \u202eevil\r\u009b \xff` + "\n"
	if out != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("text made a line of its own: %q", out)
	}
}

func TestRiskCheckJSON(t *testing.T) {
	isolate(t)
	out, errOut, code := run(t, "", "risk", "check", "--json", "--worktree", "/src/api", "--", "curl x | sudo tee /etc/x")
	if code != ExitOK || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	var res riskResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !res.Risky || !res.Untrusted || strings.Join(res.Risk, ",") != "pipe to shell,sudo,outside the worktree" ||
		len(res.Hits) != 3 || res.Hits[0].Why == "" || res.Hits[1].Text != "sudo tee /etc/x" || res.Tool != "Bash" || res.Worktree != "/src/api" {
		t.Errorf("result %+v", res)
	}
	out, _, _ = run(t, "", "risk", "check", "--json", "--", "ls")
	if !strings.Contains(out, `"risky":false,"risk":[],"hits":[]`) {
		t.Errorf("no hits: %s", out)
	}
}

func TestRiskCheckUsageErrors(t *testing.T) {
	isolate(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"risk", "check"}, "needs a command"},
		{[]string{"risk", "check", "rm", "-rf", "/"}, "unknown shorthand flag"},
		{[]string{"risk", "check", "--bogus", "--", "x"}, "unknown flag: --bogus"},
		{[]string{"risk", "check", "--config", "/nonexistent/c.toml", "--", "x"}, "config /nonexistent/c.toml: no such file"},
	}
	for _, tt := range tests {
		out, errOut, code := run(t, "", tt.args...)
		if code != ExitFailure || out != "" || !strings.Contains(errOut, tt.want) || !strings.Contains(errOut, "hint: ") {
			t.Errorf("%v: code %d, stdout %q, stderr %q", tt.args, code, out, errOut)
		}
	}
	_, errOut, code := run(t, "", "risk", "check", "--json", "--bogus", "--", "x")
	var e struct{ Error Error }
	if code != ExitFailure || json.Unmarshal([]byte(errOut), &e) != nil || e.Error.Code != "invalid_params" || e.Error.Hint == "" {
		t.Errorf("--json error: code %d, %q", code, errOut)
	}
}

func writeConfig(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const kubectlConfig = `
[agents]
enabled = true

[agents.approvals]
hold_plans = false

[agents.approvals.risk]
builtin = true
panes_may_allow = false

[[agents.approvals.risk.rule]]
name = "kubectl apply"
tools = ["Bash"]
pattern = '\bkubectl\s+(apply|delete)\b'

[theme]
name = "whatever"
`

func TestRiskCheckConfig(t *testing.T) {
	home := isolate(t)
	// The default file is read when it exists.
	writeConfig(t, filepath.Join(home, ".config", "tuios", "config.toml"), kubectlConfig)
	out, errOut, _ := run(t, "", "risk", "check", "--worktree", "/x", "--", "make && kubectl apply -f k8s/")
	if out != "risk: kubectl apply  kubectl apply -f k8s/\n" || errOut != "" {
		t.Errorf("default config: %q %q", out, errOut)
	}
	// XDG_CONFIG_HOME wins over ~/.config.
	xdg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", xdg)
	writeConfig(t, filepath.Join(xdg, "tuios", "config.toml"), "[agents.approvals.risk]\nbuiltin = false\n")
	out, _, _ = run(t, "", "risk", "check", "--worktree", "/x", "--", "rm -rf /")
	if out != "no risk rule matched\n" {
		t.Errorf("XDG config: %q", out)
	}
	// --config names the file.
	file := writeConfig(t, filepath.Join(t.TempDir(), "rules.toml"), kubectlConfig)
	out, _, _ = run(t, "", "risk", "check", "--config", file, "--json", "--worktree", "/x", "--", "kubectl delete ns x")
	if !strings.Contains(out, `"risk":["infrastructure","kubectl apply"]`) || !strings.Contains(out, `"config":"`+file+`"`) {
		t.Errorf("--config: %s", out)
	}
}

func TestRiskCheckBadConfig(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tests := []struct {
		body string
		want []string
	}{
		{"[agents.approvals.risk\n", []string{"toml:"}},
		{"[agents.approvals.risk]\nbuiltin = \"yes\"\n", []string{"builtin"}},
		{"[[agents.approvals.risk.rule]]\nname = \"deploy\"\npattern = 'deploy('\n", []string{`risk rule "deploy": pattern "deploy(" does not compile`, "RE2"}},
		{"[[agents.approvals.risk.rule]]\nname = \"a\"\npattern = 'x'\n[[agents.approvals.risk.rule]]\npattern = 'y'\n[[agents.approvals.risk.rule]]\nname = \"c\"\n",
			[]string{`risk rule "rule 2": has no name`, `risk rule "c": has no pattern`}},
		{"[[agents.approvals.risk.rule]]\nname = \"a\"\npatern = 'x'\n", []string{"unknown key agents.approvals.risk.rule.patern"}},
	}
	for i, tt := range tests {
		file := writeConfig(t, filepath.Join(dir, "c"+string(rune('0'+i))+".toml"), tt.body)
		out, errOut, code := run(t, "", "risk", "check", "--config", file, "--", "ls")
		if code != ExitFailure || out != "" {
			t.Errorf("%d: code %d, stdout %q", i, code, out)
		}
		for _, want := range append(tt.want, "config "+file, "hint: ") {
			if !strings.Contains(errOut, want) {
				t.Errorf("%d: stderr %q lacks %q", i, errOut, want)
			}
		}
	}
	// A bad default file is an error too, naming it.
	home := isolate(t)
	file := writeConfig(t, filepath.Join(home, ".config", "tuios", "config.toml"), "[[agents.approvals.risk.rule]]\nname = \"x\"\npattern = '('\n")
	_, errOut, code := run(t, "", "risk", "check", "--", "ls")
	if code != ExitFailure || !strings.Contains(errOut, "config "+file+`: risk rule "x"`) {
		t.Errorf("bad default config: code %d, %q", code, errOut)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"": "''", "ls": "ls", "a b": "'a b'", "it's": `'it'\''s'`, "$HOME": "'$HOME'", "-rf": "-rf"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBinary builds cmd/tuios and runs it the way a person would:
// go run ./cmd/tuios risk check -- rm -rf /
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go tool: %v", err)
	}
	bin := e2e.Binary(t)
	home := isolate(t)
	cmd := exec.Command(bin, "risk", "check", "--", "rm", "-rf", "/")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tuios risk check: %v", err)
	}
	if string(out) != "risk: recursive delete      rm -rf /\nrisk: outside the worktree  rm -rf /\n" {
		t.Errorf("output %q", out)
	}
	cmd = exec.Command(bin, "risck")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitFailure || !strings.Contains(stderr.String(), "did you mean tuios risk") {
		t.Errorf("unknown verb: %v, %q", err, stderr.String())
	}
}

// pretend-agent parses its own flags, and --help lists every one of them
// with the examples.
func TestPretendAgentHelpListsItsFlags(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"pretend-agent", "--help"}, {"pretend-agent", "-h"}, {"help", "pretend-agent"}} {
		out, errOut, code := run(t, "", args...)
		if code != ExitOK || errOut != "" {
			t.Fatalf("%v: code %d, stderr %q", args, code, errOut)
		}
		n := 0
		pretend.FlagSet().VisitAll(func(f *flag.Flag) {
			n++
			if !strings.Contains(out, "--"+f.Name+" ") {
				t.Errorf("%v: help lacks --%s:\n%s", args, f.Name, out)
			}
		})
		if n < 10 || !strings.Contains(out, "Example:\n  tuios new-window") || !strings.Contains(out, "go run ./examples/embed -- go run ./examples/pretend-agent") {
			t.Errorf("%v: %d flags, or no examples:\n%s", args, n, out)
		}
	}
}
