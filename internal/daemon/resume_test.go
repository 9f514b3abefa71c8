package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
)

// resumeDaemon starts a daemon whose panes find a fake claude on PATH: it
// prints its argv, so nothing real runs.
func resumeDaemon(t *testing.T, dir string, cfg *config.File) (*Server, string) {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o700)
	writeExecutable(t, filepath.Join(bin, "claude"), []byte("#!/bin/sh\necho \"claude-argv: $*\"\n"), 0o700)
	sock := filepath.Join(dir, "s", "tuios.sock")
	home := filepath.Join(dir, "home")
	srv, err := New(Options{Socket: sock, Shell: "/bin/sh", StateDir: filepath.Join(home, "state"), Config: cfg,
		Env:     []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "PS1=$ ", "ENV="},
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Close() })
	return srv, sock
}

// claudePane opens a shell pane whose Claude-like agent reported
// conversation abc-123, then stops the daemon.
func claudePane(t *testing.T, dir string) string {
	t.Helper()
	srv, sock := resumeDaemon(t, dir, &config.File{})
	r := dialRPC(t, sock)
	w := str(r.must("new-session", map[string]any{"name": "work"})["window_id"])
	shellSays(t, r, w, "echo up-$((1+1))", "up-2")
	report(t, r, w, "working", "", "")
	r.must("set-agent-state", map[string]any{"window": w, "state": "working", "harness": "claude-code"})
	r.must("set-agent-session", map[string]any{"window": w, "harness": "claude-code", "agent_session_id": "abc-123"})
	srv.Close()
	return w
}

func resumeItems(t *testing.T, r *rpc) []attItem {
	var out []attItem
	for _, it := range listAtt(t, r, nil).Items {
		if it.Kind == "resume" {
			out = append(out, it)
		}
	}
	return out
}

// U1: after a restart, one resume item whose summary is the command;
// resume-agent types exactly that line at the shell prompt and closes it;
// a later restart offers nothing again.
func TestResumeAskAfterRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := claudePane(t, dir)
	srv, sock := resumeDaemon(t, dir, &config.File{})
	r := personRPC(t, sock)
	items := resumeItems(t, r)
	if len(items) != 1 || items[0].Summary != "claude --resume abc-123" || items[0].Window != w {
		t.Fatalf("resume items: %+v", items)
	}
	var wins struct {
		Windows []windowRow `json:"windows"`
	}
	remarshalT(t, r.must("list-windows", map[string]any{"session": "work"}), &wins)
	if len(wins.Windows) != 1 || wins.Windows[0].AgentSessionID != "abc-123" || wins.Windows[0].AgentSessionHarness != "claude-code" {
		t.Fatalf("list-windows: %+v", wins.Windows)
	}
	dry := r.must("resume-agent", map[string]any{"window": w, "dry_run": true})
	if dry["command"] != "claude --resume abc-123" || dry["typed"] != false || dry["type"] != "agent_resumed" {
		t.Fatalf("dry run: %v", dry)
	}
	shellSays(t, r, w, "echo ready-$((1+1))", "ready-2")
	res := r.must("resume-agent", map[string]any{"window": w})
	if res["typed"] != true || str(res["argv"]) != "[claude --resume abc-123]" {
		t.Fatalf("resume: %v", res)
	}
	if _, err := r.call("wait-for", map[string]any{"window": w, "condition": "window-output", "pattern": "claude-argv: --resume abc-123", "timeout": 10000}); err != nil {
		t.Fatalf("the fake claude never ran: %v", err.Message)
	}
	screen := str(r.must("capture-pane", map[string]any{"window": w})["content"])
	if !strings.Contains(screen, "$ claude --resume abc-123\n") {
		t.Fatalf("typed line:\n%s", screen)
	}
	eventually(t, "the item closed", func() bool { return len(resumeItems(t, r)) == 0 })
	srv.Close()

	_, sock = resumeDaemon(t, dir, &config.File{})
	r = personRPC(t, sock)
	if items := resumeItems(t, r); len(items) != 0 {
		t.Fatalf("offered again: %+v", items)
	}
}

// U2: auto types the command once the new shell is at its prompt.
func TestResumeAutoTypesAtThePrompt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := claudePane(t, dir)
	_, sock := resumeDaemon(t, dir, &config.File{Daemon: config.Daemon{ResumeAgents: "auto"}})
	r := personRPC(t, sock)
	if _, err := r.call("wait-for", map[string]any{"window": w, "condition": "window-output", "pattern": "claude-argv: --resume abc-123", "timeout": 15000}); err != nil {
		t.Fatalf("auto never typed: %v\n%v", err.Message, r.must("capture-pane", map[string]any{"window": w})["content"])
	}
	if items := resumeItems(t, r); len(items) != 0 {
		t.Fatalf("auto typed and still offered: %+v", items)
	}
}

// off: nothing offered, the id stays on the window.
func TestResumeOffOffersNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := claudePane(t, dir)
	_, sock := resumeDaemon(t, dir, &config.File{Daemon: config.Daemon{ResumeAgents: "off"}})
	r := personRPC(t, sock)
	if items := resumeItems(t, r); len(items) != 0 {
		t.Fatalf("off offered: %+v", items)
	}
	if dry := r.must("resume-agent", map[string]any{"window": w, "dry_run": true}); dry["agent_session_id"] != "abc-123" {
		t.Fatalf("dry run: %v", dry)
	}
}

// U3: ids that cannot be typed safely are refused and never typed; so is
// a pane without an id, a harness without [resume], and a busy pane.
func TestResumeRefusesBadIDs(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	w := catPane(t, r, "work")
	if _, err := r.call("resume-agent", map[string]any{"window": w}); err == nil || err.Code != codeNotResumable {
		t.Fatalf("no id: %v", err)
	}
	for _, id := range []string{"-rf", "a b", strings.Repeat("x", 300), "a;rm", "$(id)"} {
		srv.tab.SetResume(w, id, "claude-code")
		if _, err := r.call("resume-agent", map[string]any{"window": w, "dry_run": true}); err == nil || err.Code != codeNotResumable {
			t.Fatalf("id %q: %v", id, err)
		}
		if _, err := r.call("resume-agent", map[string]any{"window": w}); err == nil || err.Code != codeNotResumable {
			t.Fatalf("id %q: %v", id, err)
		}
	}
	srv.tab.SetResume(w, "abc-123", "aider")
	if _, err := r.call("resume-agent", map[string]any{"window": w}); err == nil || err.Code != codeNotResumable || !strings.Contains(err.Message, "[resume]") {
		t.Fatalf("no [resume]: %v", err)
	}
	// cat is a program, not a shell at its prompt: not_ready, nothing typed.
	srv.tab.SetResume(w, "abc-123", "claude-code")
	if _, err := r.call("resume-agent", map[string]any{"window": w}); err == nil || err.Code != "not_ready" {
		t.Fatalf("busy pane: %v", err)
	}
	if c := strings.TrimSpace(str(r.must("capture-pane", map[string]any{"window": w})["content"])); c != "" {
		t.Fatalf("something was typed: %q", c)
	}
}
