package mux

import (
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
)

// The automatic name of the process shapes the shipped manifests record
// (detect/fixtures/processes.md), against what tmux's
// #{pane_current_command} shows for each.
func TestAutomaticNames(t *testing.T) {
	t.Parallel()
	reg, errs := detect.Load(detect.LoadOptions{NoUser: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	proc := func(pid int, comm, exe string, argv ...string) detect.ProcInfo {
		return detect.ProcInfo{PID: pid, PGID: pid, Comm: comm, Exe: exe, Argv: argv}
	}
	cases := []struct {
		what string
		fg   detect.Foreground
		m    detect.Match
		want string
	}{
		{what: "a login shell (tmux: bash)", want: "bash",
			fg: detect.Foreground{Running: true, AtShell: true, Leader: proc(10, "bash", "/usr/bin/bash", "-bash")}},
		{what: "vim by its path (tmux: vim)", want: "vim",
			fg: detect.Foreground{Running: true, Leader: proc(11, "vim", "/usr/bin/vim.basic", "/usr/bin/vim", "README.md")}},
		{what: "a relative path", want: "build.sh",
			fg: detect.Foreground{Running: true, Leader: proc(11, "build.sh", "/bin/bash", "./build.sh")}},
		{what: "a plain node program (tmux: node)", want: "node",
			fg: detect.Foreground{Running: true, Leader: proc(12, "node", "/usr/bin/node", "node", "server.js")}},
		{what: "codex behind its node wrapper (tmux: node)", want: "codex",
			fg: detect.Foreground{Running: true, Leader: proc(13, "node", "/usr/bin/node", "node", "/p/node_modules/.bin/codex")},
			m: detect.Match{Agent: true, HarnessID: "codex", Identity: agentstate.IdentityManifest, Running: true,
				Process: detect.ProcInfo{PID: 14, PGID: 13, Comm: "codex", Argv: []string{"/p/node_modules/@openai/codex-linux-x64/vendor/bin/codex"}}}},
		{what: "gemini as node (tmux: node)", want: "gemini",
			fg: detect.Foreground{Running: true, Leader: proc(15, "node", "/usr/bin/node", "node", "/p/node_modules/.bin/gemini")},
			m:  detect.Match{Agent: true, HarnessID: "gemini-cli", Identity: agentstate.IdentityManifest, Running: true, Process: proc(15, "node", "/usr/bin/node", "node", "/p/node_modules/.bin/gemini")}},
		{what: "a match of an older process group is not believed", want: "node",
			fg: detect.Foreground{Running: true, Leader: proc(16, "node", "/usr/bin/node", "node", "server.js")},
			m:  detect.Match{Agent: true, HarnessID: "gemini-cli", Identity: agentstate.IdentityManifest, Running: true, Process: proc(15, "node", "/usr/bin/node", "node", "gemini")}},
		{what: "a hint names no program (the pretend agent)", want: "tuios",
			fg: detect.Foreground{Running: true, Leader: proc(17, "tuios", "/tmp/b/tuios", "/tmp/b/tuios", "pretend-agent")},
			m:  detect.Match{Agent: true, HarnessID: "claude-code", Identity: agentstate.IdentityHint, Running: true, Process: proc(17, "tuios", "/tmp/b/tuios", "/tmp/b/tuios", "pretend-agent")}},
		{what: "claude's native install by version (tmux: 2.1.3), unmatched", want: "claude",
			fg: detect.Foreground{Running: true, Leader: proc(18, "2.1.3", "/home/u/.local/share/claude/versions/2.1.3", "/home/u/.local/share/claude/versions/2.1.3")}},
		{what: "a version argv0 with a usable comm", want: "claude",
			fg: detect.Foreground{Running: true, Leader: proc(19, "claude", "/home/u/.local/share/claude/versions/2.1.3", "2.1.3")}},
		{what: "claude matched by its manifest", want: "claude",
			fg: detect.Foreground{Running: true, Leader: proc(20, "2.1.3", "/home/u/.local/share/claude/versions/2.1.3", "2.1.3")},
			m:  detect.Match{Agent: true, HarnessID: "claude-code", Identity: agentstate.IdentityManifest, Running: true, Process: proc(20, "2.1.3", "", "2.1.3")}},
		{what: "a name with spaces, as node's process.title may set", want: "npm",
			fg: detect.Foreground{Running: true, Leader: proc(21, "npm exec clau", "/usr/bin/node", "npm exec claude")}},
	}
	for _, c := range cases {
		if got := automaticName(c.fg, c.m, reg); got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
	}
	for _, v := range []string{"2.1.3", "1.0.0-beta.2", "0.9+dev"} {
		if !versionLike(v) {
			t.Errorf("%q is a version", v)
		}
	}
	for _, v := range []string{"7z", "vim", "python3.12", "", "1 2.3"} {
		if versionLike(v) {
			t.Errorf("%q is not a version", v)
		}
	}
}
