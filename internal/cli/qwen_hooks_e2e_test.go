package cli_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

// The real Qwen Code with tuios's integration installed: one turn with a
// shell call against the Chat Completions stand-in, and every state of it
// from Qwen Code's own hooks (source report): idle at the input prompt
// (SessionStart), working during the turn, needs_input naming the command
// on the permission request, done at the end (Stop). Then uninstall gives the settings file back as it was.
//
// What Qwen Code 0.15.10 needs, found by running it: only its auth method,
// security.auth.selectedType "openai" in ~/.qwen/settings.json; it then
// takes OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL from the
// environment and opens at its prompt (folder trust is off by default).
// general.enableAutoUpdate must be false: else, with the npm registry in
// reach, it updates itself with npm install --global.
func TestRealQwenCodeReportsThroughItsHooks(t *testing.T) {
	t.Parallel()
	q := findNPMAgent(t, "@qwen-code/qwen-code", "qwen")
	realAgent(t, heavyAgent)
	t.Logf("Qwen Code %s", q.version)
	const marker = "tuios-qwen-e2e"
	api := startStandin(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "echo " + marker + " > made.txt", "description": "Write made.txt"}}},
			Delay: 500 * time.Millisecond},
		{Text: "Done: made.txt is written.", Delay: 500 * time.Millisecond},
	}})

	p := newAgentPane(t)
	e := p.e
	// A person's own settings, as Qwen Code 0.15.10 writes them (it
	// migrates an older file to $version 4 and rewrites it on start, so
	// the original is already current), with a hook of their own.
	original := "{\n  \"general\": {\n    \"enableAutoUpdate\": false\n  },\n  \"privacy\": {\n    \"usageStatisticsEnabled\": false\n  },\n" +
		"  \"security\": {\n    \"auth\": {\n      \"selectedType\": \"openai\"\n    }\n  },\n" +
		"  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"true\"\n          }\n        ]\n      }\n    ]\n  },\n" +
		"  \"$version\": 4\n}"
	settings := p.write(".qwen/settings.json", original)
	e.ok("integration", "install", "qwen")
	if st := e.ok("integration", "status", "qwen"); !strings.Contains(st, "installed") || strings.Contains(st, "not installed") {
		t.Fatalf("status after install:\n%s", st)
	}

	e.vars = append(e.vars,
		"OPENAI_BASE_URL="+api.URL()+"/v1",
		"OPENAI_API_KEY=sk-tuios-standin",
		"OPENAI_MODEL=gpt-stand-in",
	)
	p.start(q.shim, `Type your message`, 30*time.Second)
	st := p.waitReport("idle", 20*time.Second)
	if st.Source != "report" || st.Harness != "qwen" || st.SessionID == "" {
		t.Fatalf("at the prompt: %+v", st)
	}
	events := p.watch()
	p.prompt("Write made.txt")

	// PermissionRequest names the command; Qwen Code runs it before it
	// shows its dialog, then sends Notification{permission_prompt}, whose
	// message names only the tool: it must not replace the command.
	st = p.wait("needs_input", 30*time.Second)
	if _, ok := events.reported("needs_input", "approve run_shell_command: echo "+marker); !ok {
		t.Fatalf("no needs_input naming the command: %+v", events.all())
	}
	p.waitScreen(`Allow execution of`, 10*time.Second)
	st = p.get()
	if st.Source != "report" || st.BlockedBy != "approval" || st.Message != "approve run_shell_command: echo "+marker+" > made.txt" {
		t.Fatalf("on the permission request, once the notice came: %+v", st)
	}
	p.approve("Enter", `Allow execution of`) // "1. Yes, allow once" is selected
	st = p.wait("done", 30*time.Second)
	if st.Source != "report" || st.CompletionSeq != 1 {
		t.Fatalf("after the turn: %+v\nevents: %+v", st, events.all())
	}
	p.made("made.txt", marker)
	if _, ok := events.reported("working", ""); !ok {
		t.Fatalf("no working from the hooks during the turn: %+v", events.all())
	}
	p.quit()

	e.ok("integration", "uninstall", "qwen")
	if b, _ := os.ReadFile(settings); string(b) != original {
		t.Fatalf("uninstall left:\n%s\nwant:\n%s", b, original)
	}
}
