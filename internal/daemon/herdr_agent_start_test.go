package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// agentStartLine is an agent.start request for a pane.
func agentStartLine(pane, kind string, args ...string) string {
	b, _ := json.Marshal(map[string]any{"id": "st", "method": "agent.start",
		"params": map[string]any{"name": "helper", "kind": kind, "pane_id": pane, "args": args}})
	return string(b)
}

// A stand-in "crush" on the pane's PATH prints each argument it was given
// between brackets, so the test sees exactly what the shell read back.
func standInCrush(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o700)
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\necho crush_ran_$#\n"
	writeExecutable(t, filepath.Join(bin, "crush"), []byte(script), 0o700)
	return bin
}

func TestHerdrAgentStartTypesOnlyAtAShellPrompt(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	a := hw.pane("work", "a")
	bin := standInCrush(t, hw.dir)
	shellSays(t, hw.r, a, fmt.Sprintf("PATH=%s:$PATH; export PATH; echo path_set", bin), `(?m)^(\$ )?path_set`)

	screen := func() string { return str(hw.r.must("capture-pane", map[string]any{"window": a})["content"]) }

	// A pane running sleep: busy, and nothing typed (the terminal would
	// echo whatever was typed while sleep holds the foreground).
	// Typed before the prompt came back, the output follows the prompt.
	shellSays(t, hw.r, a, "echo sleep_starts; sleep 30", `(?m)^(\$ )?sleep_starts`)
	// The shell forks before it execs sleep: the foreground is the shell's
	// name for a moment after it is no longer the shell.
	eventually(t, "sleep holds the foreground", func() bool { return foregroundIs(hw.srv, a, "sleep") })
	got := rawHerdr(t, hw.herdr, agentStartLine(a, "crush", "x"))
	if errCodeOf(got) != "agent_pane_busy" || !strings.Contains(got, "sleep") {
		t.Fatalf("agent.start over sleep: %s", got)
	}
	hw.r.must("send-keys", map[string]any{"window": a, "keys": "ctrl+c"})
	eventually(t, "the shell is back", func() bool { return atPrompt(hw.srv, a) })
	shellSays(t, hw.r, a, "printf 'back_%s\\n' at_prompt", "back_at_prompt")
	if strings.Contains(screen(), "crush") {
		t.Fatalf("something was typed while sleep ran:\n%s", screen())
	}

	// A pane running vim (acceptance D5): the same.
	if vim, err := exec.LookPath("vim"); err == nil {
		hw.r.must("send-text", map[string]any{"window": a, "text": vim + " -u NONE -N -n\n"})
		hw.r.must("wait-for", map[string]any{"window": a, "condition": "window-output", "pattern": `(?m)^~`, "timeout": 10000})
		got := rawHerdr(t, hw.herdr, agentStartLine(a, "crush"))
		if errCodeOf(got) != "agent_pane_busy" || !strings.Contains(got, "vim") {
			t.Fatalf("agent.start over vim: %s", got)
		}
		if strings.Contains(screen(), "crush") {
			t.Fatalf("typed into vim:\n%s", screen())
		}
		hw.r.must("send-text", map[string]any{"window": a, "text": ":q!\r"})
		eventually(t, "vim quits", func() bool { return atPrompt(hw.srv, a) })
		shellSays(t, hw.r, a, "clear; printf 'vim_%s\\n' left", "vim_left")
	}

	// Refusals that type nothing: an unknown kind, an argument with a
	// newline (it would press Enter).
	if got := rawHerdr(t, hw.herdr, agentStartLine(a, "vim")); errCodeOf(got) != "invalid_request" || !strings.Contains(got, "unknown variant") {
		t.Fatalf("unknown kind: %s", got)
	}
	if got := rawHerdr(t, hw.herdr, agentStartLine(a, "crush", "two\nlines")); errCodeOf(got) != "invalid_agent_argument" {
		t.Fatalf("newline in an argument: %s", got)
	}
	if got := rawHerdr(t, hw.herdr, `{"id":"m","method":"agent.start","params":{"name":"n","kind":"crush"}}`); !strings.Contains(got, "missing field `pane_id`") {
		t.Fatalf("no pane_id: %s", got)
	}
	if strings.Contains(screen(), "crush") {
		t.Fatalf("a refused start typed something:\n%s", screen())
	}

	// At the prompt: the command runs, every argument read back as given.
	args := []string{"hello world", "it's", "$HOME", "a;b", "", "*", "=x", `back\slash`, "naïve"}
	got = rawHerdr(t, hw.herdr, agentStartLine(a, "crush", args...))
	var ans struct {
		Result struct {
			Type   string        `json:"type"`
			Kind   string        `json:"kind"`
			Name   string        `json:"name"`
			Argv   []string      `json:"argv"`
			PaneID string        `json:"pane_id"`
			Agent  herdrPaneInfo `json:"agent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &ans); err != nil || ans.Result.Type != "agent_started" || ans.Result.Kind != "crush" ||
		len(ans.Result.Argv) != len(args)+1 || ans.Result.Argv[0] != "crush" || ans.Result.Agent.Label != "helper" || !strings.Contains(ans.Result.PaneID, herdrHex(a)) {
		t.Fatalf("agent.start at the prompt: %s", got)
	}
	hw.r.must("wait-for", map[string]any{"window": a, "condition": "window-output", "pattern": fmt.Sprintf("(?m)^crush_ran_%d", len(args)), "timeout": 10000})
	txt := screen()
	for _, want := range args {
		if !strings.Contains(txt, "\n["+want+"]\n") {
			t.Fatalf("argument %q not read back as given:\n%s", want, txt)
		}
	}
}

// The pane's own process must be a shell whose quoting tuios writes: a
// shell of another kind takes no arguments (nothing typed), and a pane
// running a program directly is busy.
func TestHerdrAgentStartOtherShells(t *testing.T) {
	t.Parallel()
	hw := newHerdrWorld(t, "")
	// A shell tuios does not quote for: dash under another name, so its
	// process is named xonsh (no xonsh on this machine).
	dash, err := exec.LookPath("dash")
	if err != nil {
		t.Skip("no dash")
	}
	odd := filepath.Join(hw.dir, "xonsh")
	b, _ := os.ReadFile(dash)
	writeExecutable(t, odd, b, 0o700)
	id := str(hw.r.must("new-session", map[string]any{"name": "odd", "window_name": "x", "argv": []string{odd, "-i"}})["window_id"])
	hw.r.must("wait-for", map[string]any{"window": id, "session": "odd", "condition": "window-output", "pattern": `(?m)^\$`, "timeout": 10000})
	if got := rawHerdr(t, hw.herdr, agentStartLine(id, "crush", "arg")); errCodeOf(got) != "invalid_agent_argument" || !strings.Contains(got, "xonsh") {
		t.Fatalf("args into xonsh: %s", got)
	}
	if txt := str(hw.r.must("capture-pane", map[string]any{"window": id})["content"]); strings.Contains(txt, "crush") {
		t.Fatalf("typed into xonsh:\n%s", txt)
	}
	// A window that runs a program, not a shell: busy.
	prog := str(hw.r.must("new-window", map[string]any{"session": "odd", "name": "s", "argv": []string{"sleep", "30"}})["window_id"])
	if got := rawHerdr(t, hw.herdr, agentStartLine(prog, "crush")); errCodeOf(got) != "agent_pane_busy" {
		t.Fatalf("a program's pane: %s", got)
	}
}

// atPrompt says whether the window's shell holds its terminal's foreground.
func atPrompt(s *Server, window string) bool {
	w := s.tab.WindowByID(window)
	if w == nil {
		return false
	}
	fg, err := w.Proc().ForegroundPgrp()
	return err == nil && fg == w.Proc().Pid()
}

// foregroundIs says whether the process group leading window's terminal
// is led by a process named name (/proc/<pgrp>/comm).
func foregroundIs(s *Server, window, name string) bool {
	w := s.tab.WindowByID(window)
	if w == nil {
		return false
	}
	fg, err := w.Proc().ForegroundPgrp()
	if err != nil || fg == w.Proc().Pid() {
		return false
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", fg))
	return err == nil && strings.TrimSpace(string(comm)) == name
}
