package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// d.md 11: a pane's directory is what its shell or foreground job really
// runs in (the shell here says no OSC 7), get-window and get-agent-state
// report it, and the cwd: selector of list-agents and list-attention
// matches it and every directory above it.
func TestCwdSelectorFindsPanesByTheirDirectory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	repo := filepath.Join(e.workDir(), "repo")
	other := filepath.Join(e.workDir(), "other")
	for _, d := range []string{filepath.Join(repo, "sub"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.ok("new", "--detach", "s1", "--cwd", repo)
	e.ok("new", "--detach", "s2", "--cwd", other)
	for _, s := range []string{"s1", "s2"} {
		e.ok("set-agent-state", "needs_input", "-s", s, "-w", "0", "--harness", "codex", "--kind", "question", "-m", "which retry policy in "+s+"?")
	}

	var win struct {
		Cwd string `json:"cwd"`
	}
	e.json(&win, "get-window", "-s", "s1", "-w", "0", "--json")
	var st struct {
		Cwd string `json:"cwd"`
	}
	e.json(&st, "get-agent-state", "-s", "s1", "-w", "0", "--json")
	if win.Cwd != repo || st.Cwd != repo {
		t.Fatalf("get-window cwd %q, get-agent-state cwd %q, want %q", win.Cwd, st.Cwd, repo)
	}

	sessions := func(args ...string) string {
		t.Helper()
		var rows struct {
			Agents []struct {
				Session string `json:"session"`
			} `json:"agents"`
			Items []struct {
				Session string `json:"session"`
			} `json:"items"`
		}
		e.json(&rows, append(args, "--json")...)
		var b []string
		for _, a := range rows.Agents {
			b = append(b, a.Session)
		}
		for _, it := range rows.Items {
			b = append(b, it.Session)
		}
		return strings.Join(b, ",")
	}
	for _, tt := range []struct{ sel, want string }{
		{"cwd:" + repo, "s1"},
		{"cwd:" + filepath.Dir(repo), "s1,s2"},
		{"cwd:/", "s1,s2"},
		{"cwd:" + filepath.Join(repo, "sub"), ""},
		{"cwd:" + repo + "," + other, "s1,s2"},
		{"cwd:" + repo + "x", ""},
	} {
		if got := sessions("list-agents", "--select", tt.sel); got != tt.want {
			t.Errorf("list-agents --select %q: %q, want %q", tt.sel, got, tt.want)
		}
		if got := sessions("list-attention", "--select", tt.sel); got != tt.want {
			t.Errorf("list-attention --select %q: %q, want %q", tt.sel, got, tt.want)
		}
	}
	if out := e.ok("list-attention", "--select", "cwd:"+repo); !strings.Contains(out, "which retry policy in s1?") || strings.Contains(out, "s2") {
		t.Errorf("list-attention --select cwd: text:\n%s", out)
	}

	// A job in the foreground runs elsewhere than its shell: the pane is
	// where the job is, until it ends.
	e.ok("send-text", "-s", "s1", "-w", "0", "sh -c 'cd sub && exec sleep 300'\n")
	want := filepath.Join(repo, "sub")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		e.json(&win, "get-window", "-s", "s1", "-w", "0", "--json")
		if win.Cwd == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pane's cwd stayed %q while its job runs in %q", win.Cwd, want)
		}
	}
	if got := sessions("list-agents", "--select", "cwd:"+want); got != "s1" {
		t.Errorf("list-agents --select cwd:%s: %q", want, got)
	}
	e.ok("send-keys", "-s", "s1", "-w", "0", "ctrl+c")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		e.json(&win, "get-window", "-s", "s1", "-w", "0", "--json")
		if win.Cwd == repo {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the job ended the pane's cwd is %q, want the shell's %q", win.Cwd, repo)
		}
	}
}
