package hook_test

import (
	"errors"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

func isControl(r rune) bool { return unicode.IsControl(r) }

// FuzzDecode: Decode never panics; every error is an *Error with a code;
// a message is at most 100 runes, Now at most 160 bytes, and neither
// (nor Why, nor a subagent's tool) holds a control character.
func FuzzDecode(f *testing.F) {
	for _, c := range cases() {
		f.Add(c.harness, []byte(payloadOf[c.harness](c.event, c.rest)))
	}
	f.Add("claude-code", []byte(`{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"a\u001b[2Jb\u0000c"}`))
	f.Add("gemini-cli", []byte(`{"hook_event_name":"BeforeTool","tool_name":"x\n\ty","tool_input":{"command":"\u009b1m"}}`))
	f.Add("codex", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"description":"d","subagent_type":"t"}}`))
	f.Add("qwen", []byte(`null`))
	f.Add("nope", []byte(`{}`))
	f.Fuzz(func(t *testing.T, harness string, stdin []byte) {
		tr, err := hook.Decode(hook.Input{Harness: harness, Stdin: stdin})
		if err != nil {
			var he *hook.Error
			if !errors.As(err, &he) || he.Code() == "" || he.Error() == "" {
				t.Fatalf("error %T %v", err, err)
			}
			if tr.Report || tr.Activity != nil {
				t.Fatalf("an error with a report: %+v", tr)
			}
			return
		}
		if n := utf8.RuneCountInString(tr.Message); n > 100 {
			t.Fatalf("message of %d runes: %q", n, tr.Message)
		}
		if tr.Message != "" && (!tr.Report || (tr.State != agentstate.NeedsInput && tr.State != agentstate.Errored)) {
			t.Fatalf("a message without a needs_input or errored report: %+v", tr)
		}
		if len(tr.Now) > 160 {
			t.Fatalf("now of %d bytes: %q", len(tr.Now), tr.Now)
		}
		if len(tr.Event) > 64 || len(tr.SessionID) > 256 || len(tr.TranscriptPath) > 4096 {
			t.Fatalf("a field past its bound: event %d, session %d, transcript %d", len(tr.Event), len(tr.SessionID), len(tr.TranscriptPath))
		}
		fields := map[string]string{"message": tr.Message, "now": tr.Now, "why": tr.Why}
		if tr.Activity != nil {
			fields["activity tool"] = tr.Activity.Tool
			if len(tr.Activity.Tool) > 160 {
				t.Fatalf("activity tool of %d bytes", len(tr.Activity.Tool))
			}
		}
		for name, s := range fields {
			for _, r := range s {
				if isControl(r) {
					t.Fatalf("%s %q holds the control character %U", name, s, r)
				}
			}
		}
		if tr.SessionOnly && (tr.SessionID == "" || tr.Report) {
			t.Fatalf("a session-only event with a report or without a session id: %+v", tr)
		}
		if tr.Report && tr.Activity != nil && tr.Activity.Kind != agentstate.SessionStart && tr.Activity.Kind != agentstate.SubagentIntent {
			t.Fatalf("a report with a %v activity: %+v", tr.Activity.Kind, tr)
		}
	})
}
