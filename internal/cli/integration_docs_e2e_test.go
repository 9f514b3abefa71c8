package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The agents page: "Twelve integrations report the pane's state: ...
// Cursor Agent, ... Kimi Code CLI ... Seven more (..., Crush, ..., Grok,
// ...) report only the conversation id". None of Cursor Agent, Crush or
// Grok runs here, and Kimi Code was not run against a model: each is
// built from its published hook documentation, integration status and
// doctor agents say so, and the hook command an install writes, fed the
// documentation's own payloads (detect/hook/testdata/recorded), reports
// to the pane it runs in through a real daemon.
func TestIntegrationsBuiltFromDocsReportThroughTheirHooks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := filepath.Join(e.dir, "home")
	for _, d := range []string{".cursor", ".kimi-code", ".grok", ".config/crush", ".hermes", ".claude"} {
		must(t, os.MkdirAll(filepath.Join(home, d), 0o755))
	}
	for _, id := range []string{"cursor-agent", "kimi", "crush", "grok", "hermes", "claude-code"} {
		if out := e.ok("integration", "install", id); !strings.Contains(out, "installed") {
			t.Fatalf("install %s:\n%s", id, out)
		}
	}
	status := e.ok("integration", "status")
	for _, id := range []string{"cursor-agent", "kimi", "crush", "grok", "hermes"} {
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + `\s+installed\s+(state|session id)\s.*\n\s+not run where this tuios was built \(.*\): follows .* and claims no more; its hooks run `)
		if !row.MatchString(status) {
			t.Fatalf("integration status does not say %s was not run here:\n%s", id, status)
		}
	}
	for _, id := range []string{"antigravity", "devin"} {
		if !regexp.MustCompile(`(?m)^` + id + `\s+no integration\s.*\n\s+\S`).MatchString(status) {
			t.Fatalf("integration status gives no reason for %s:\n%s", id, status)
		}
	}
	if doc := e.ok("doctor", "agents"); !strings.Contains(doc, "not run where this tuios was built") {
		t.Fatalf("doctor agents:\n%s", doc)
	}

	// The commands the installs wrote, as each harness would run them.
	var cursorFile struct {
		Hooks map[string][]struct{ Command string } `json:"hooks"`
	}
	b, err := os.ReadFile(filepath.Join(home, ".cursor", "hooks.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &cursorFile))
	cursorCmd := cursorFile.Hooks["stop"][0].Command
	var crushFile struct {
		Hooks map[string][]struct{ Command string } `json:"hooks"`
	}
	b, err = os.ReadFile(filepath.Join(home, ".config", "crush", "crush.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &crushFile))
	crushCmd := crushFile.Hooks["PreToolUse"][0].Command
	kimiToml, err := os.ReadFile(filepath.Join(home, ".kimi-code", "config.toml"))
	must(t, err)
	m := regexp.MustCompile(`command = "([^"]+)"`).FindSubmatch(kimiToml)
	if m == nil || cursorCmd == "" || crushCmd == "" {
		t.Fatalf("commands: cursor %q crush %q kimi\n%s", cursorCmd, crushCmd, kimiToml)
	}
	kimiCmd := string(m[1])
	hermesYAML, err := os.ReadFile(filepath.Join(home, ".hermes", "config.yaml"))
	must(t, err)
	hm := regexp.MustCompile(`command: "([^"]+)"`).FindSubmatch(hermesYAML)
	if hm == nil || !strings.Contains(string(hermesYAML), "on_session_start:") {
		t.Fatalf("hermes config.yaml:\n%s", hermesYAML)
	}
	hermesCmd := string(hm[1])
	var claudeFile struct {
		Hooks map[string][]struct{ Hooks []struct{ Command string } } `json:"hooks"`
	}
	b, err = os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	must(t, err)
	must(t, json.Unmarshal(b, &claudeFile))
	claudeCmd := claudeFile.Hooks["SessionStart"][0].Hooks[0].Command

	e.ok("new", "--detach", "work")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	recorded := func(name string) string {
		p, err := filepath.Abs(filepath.Join("..", "..", "detect", "hook", "testdata", "recorded", name))
		must(t, err)
		return p
	}
	run := func(command, payload string) {
		t.Helper()
		cmd, marker := fresh(t)
		// As the harness runs it: sh -c COMMAND, the payload on stdin,
		// the pane found by ancestry.
		e.ok("send-text", "-s", "work", "-w", "0", "env -u TUIOS_PANE_ID -u TUIOS_SESSION sh -c '"+command+"' < "+recorded(payload)+"; "+cmd+"\n")
		e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", marker, "--timeout", "10000")
	}
	get := func() hookState {
		var st hookState
		e.json(&st, "get-agent-state", "-s", "work", "-w", "0")
		return st
	}
	run(cursorCmd, "cursor-agent-pre-tool-use.json")
	if st := get(); st.State != "working" || st.Harness != "cursor-agent" || st.SessionID != "conv-123" || st.Meta["now"] != "Shell: npm install express" {
		t.Fatalf("Cursor Agent preToolUse: %+v", st)
	}
	run(cursorCmd, "cursor-agent-stop.json")
	if st := get(); st.State != "done" || st.Harness != "cursor-agent" {
		t.Fatalf("Cursor Agent stop: %+v", st)
	}
	run(kimiCmd, "kimi-permission-request.json")
	if st := get(); st.State != "needs_input" || st.BlockedBy != "approval" || st.Message != "approve Shell: make test" || st.Harness != "kimi" || st.SessionID != "session_01" {
		t.Fatalf("Kimi Code PermissionRequest: %+v", st)
	}
	run(kimiCmd, "kimi-stop-failure.json")
	if st := get(); st.State != "errored" || st.Message != "connection reset" {
		t.Fatalf("Kimi Code StopFailure: %+v", st)
	}
	// Crush: only the conversation id; the state is not its hook's.
	run(crushCmd, "crush-pre-tool-use.json")
	if st := get(); st.SessionID != "313909e" || st.State != "errored" {
		t.Fatalf("Crush PreToolUse: %+v", st)
	}
	// Hermes: only the conversation id, from its session start and from
	// every turn (a resumed conversation fires no session start).
	run(hermesCmd, "hermes-pre-llm-call.json")
	if st := get(); st.SessionID != "sess_abc123" || st.State != "errored" {
		t.Fatalf("Hermes pre_llm_call: %+v", st)
	}
	// Devin runs Claude Code's hooks and sets DEVIN_PROJECT_DIR for them:
	// tuios's Claude Code hook then reports Devin's conversation id, and
	// no Claude Code state.
	devinStart := filepath.Join(e.dir, "devin-session-start.json")
	must(t, os.WriteFile(devinStart, []byte(`{"hook_event_name":"SessionStart","session_id":"devin-sess-1","source":"startup"}`), 0o600))
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", "0", "env -u TUIOS_PANE_ID -u TUIOS_SESSION -u CLAUDE_PROJECT_DIR DEVIN_PROJECT_DIR=/tmp sh -c '"+claudeCmd+"' < "+devinStart+"; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", marker, "--timeout", "10000")
	if st := get(); st.SessionID != "devin-sess-1" || st.State != "errored" || st.Harness == "claude-code" {
		t.Fatalf("Claude Code's hook run by Devin: %+v", st)
	}
	// Each uninstall takes out what its install wrote.
	for _, id := range []string{"cursor-agent", "kimi", "crush", "grok", "hermes", "claude-code"} {
		e.ok("integration", "uninstall", id)
	}
	if st := e.ok("integration", "status"); !regexp.MustCompile(`(?m)^cursor-agent\s+not installed`).MatchString(st) {
		t.Fatalf("after uninstall:\n%s", st)
	}
}
