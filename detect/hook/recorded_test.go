package hook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

// The payloads in testdata/recorded are the harnesses' documentation's
// own (testdata/recorded/NOTES.md says where each was read, and when);
// none of these harnesses ran where tuios is built. Each decodes to what
// the integration promises: the state, or only the conversation id.
func TestRecordedPayloads(t *testing.T) {
	want := map[string]struct {
		report      bool
		state       agentstate.State
		kind        agentstate.Kind
		message     string
		now         string
		session     string
		sessionOnly bool
	}{
		"cursor-agent-before-submit-prompt.json": {report: true, state: agentstate.Working, session: "conv-123"},
		"cursor-agent-pre-tool-use.json":         {report: true, state: agentstate.Working, now: "Shell: npm install express", session: "conv-123"},
		"cursor-agent-stop.json":                 {report: true, state: agentstate.Done, session: "conv-123"},
		"cursor-agent-stop-error.json":           {report: true, state: agentstate.Errored, message: "the turn failed", session: "conv-123"},
		"crush-pre-tool-use.json":                {session: "313909e", sessionOnly: true},
		"crush-pre-compact.json":                 {session: "313909e"},
		"devin-pre-tool-use.json":                {},
		"grok-session-start.json":                {session: "abc-123", sessionOnly: true},
		"grok-pre-tool-use.json":                 {session: "abc-123"},
		"hermes-on-session-start.json":           {session: "sess_abc123", sessionOnly: true},
		"hermes-pre-llm-call.json":               {session: "sess_abc123", sessionOnly: true},
		"hermes-pre-tool-call.json":              {session: "sess_abc123"},
		"kimi-session-start.json":                {report: true, state: agentstate.Idle, session: "session_01"},
		"kimi-permission-request.json": {report: true, state: agentstate.NeedsInput, kind: agentstate.KindApproval,
			message: "approve Shell: make test", now: "Shell: make test", session: "session_01"},
		"kimi-stop-failure.json": {report: true, state: agentstate.Errored, message: "connection reset", session: "session_01"},
	}
	files, err := filepath.Glob(filepath.Join("testdata", "recorded", "*.json"))
	if err != nil || len(files) != len(want) {
		t.Fatalf("%d recorded payloads, %d expected (%v)", len(files), len(want), err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: no expectation", name)
			continue
		}
		harness := ""
		for _, h := range hook.Harnesses() {
			if strings.HasPrefix(name, h+"-") {
				harness = h
			}
		}
		stdin, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := hook.Decode(hook.Input{Harness: harness, Stdin: stdin})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got.Report != w.report || got.State != w.state || got.Kind != w.kind || got.Message != w.message || got.Now != w.now ||
			got.SessionID != w.session || got.SessionOnly != w.sessionOnly || got.Reply != "" {
			t.Errorf("%s (%s): %+v", name, harness, got)
		}
	}
}
