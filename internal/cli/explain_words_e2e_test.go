package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes an executable shell script into the env's dir.
func (e *env) writeScript(name, body string) string {
	e.t.Helper()
	p := filepath.Join(e.dir, "bin", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// explain-agent-screen --lines N reads N rows and says so in its header
// and --json; explain-agent-detect names a script a pane runs instead of
// calling it a shell prompt.
func TestExplainSaysWhatItRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "cl")
	e.ok("new-window", "-s", "cl", "seq", "--no-focus")
	e.ok("send-text", "-s", "cl", "-w", "seq", "seq 1 30\n")
	e.ok("wait-for", "window-output", "-s", "cl", "-w", "seq", "--pattern", "^30$", "--timeout", "10000")
	out := e.ok("explain-agent-screen", "-s", "cl", "-w", "seq", "--harness", "codex", "--lines", "3")
	if !strings.Contains(out, "reading the bottom 3 non-empty rows") {
		t.Fatalf("--lines 3 header:\n%s", out)
	}
	var sx struct {
		Lines int      `json:"lines"`
		Tail  []string `json:"tail"`
	}
	e.json(&sx, "explain-agent-screen", "-s", "cl", "-w", "seq", "--harness", "codex", "--lines", "3")
	if sx.Lines != 3 || len(sx.Tail) != 3 {
		t.Fatalf("--json lines %d tail %q", sx.Lines, sx.Tail)
	}

	script := e.writeScript("c-osc.sh", "sleep 600\n")
	e.ok("new-window", "-s", "cl", "scr", "--no-focus", "--", script, "x")
	out = e.ok("explain-agent-detect", "-s", "cl", "-w", "scr")
	if !strings.HasPrefix(out, "This pane runs the script "+script+" (with ") || strings.Contains(out, "shell prompt") {
		t.Fatalf("a script pane:\n%s", out)
	}
	var dx struct {
		AtShell bool `json:"at_shell"`
	}
	e.json(&dx, "explain-agent-detect", "-s", "cl", "-w", "scr")
	if dx.AtShell {
		t.Fatal("a script pane reads at_shell: true")
	}
	if out := e.ok("explain-agent-detect", "-s", "cl", "-w", "seq"); !strings.HasPrefix(out, "This pane is at its shell prompt.") {
		t.Fatalf("a shell pane:\n%s", out)
	}
}

// With [daemon] agent_autodetect = false, explain-agent-detect still reads
// the pane but says detection is off, and the pane stays none.
func TestExplainDetectSaysDetectionIsOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cfg := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[daemon]\nagent_autodetect = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	codex := e.writeScript("codex", "sleep 600\n")
	e.ok("new", "--detach", "cl")
	e.ok("new-window", "-s", "cl", "cx", "--no-focus", "--", codex)
	out := e.ok("explain-agent-detect", "-s", "cl", "-w", "cx")
	if !strings.HasPrefix(out, "This pane runs codex. Detection is off") || !strings.Contains(out, "agent_autodetect = false") {
		t.Fatalf("detection off:\n%s", out)
	}
	var dx struct {
		Detection string `json:"detection"`
		State     string `json:"state"`
	}
	e.json(&dx, "explain-agent-detect", "-s", "cl", "-w", "cx")
	if dx.Detection != "off" || dx.State != "none" {
		t.Fatalf("--json: %+v", dx)
	}
}
