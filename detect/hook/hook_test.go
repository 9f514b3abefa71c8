package hook_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
)

const (
	sid = "3f2a9c1e-7b44-4c5d-9e0a-1b2c3d4e5f60"
	tp  = "/home/ana/.claude/projects/-home-ana-proj/3f2a9c1e-7b44-4c5d-9e0a-1b2c3d4e5f60.jsonl"
	cwd = "/home/ana/proj"
)

// Payloads as each harness writes them to the hook's stdin: the base
// fields every event carries, then the event's own (rest starts with a
// comma, or is empty).
func claude(event, rest string) string {
	return `{"session_id":"` + sid + `","transcript_path":"` + tp + `","cwd":"` + cwd + `","permission_mode":"default","hook_event_name":"` + event + `"` + rest + `}`
}

func codex(event, rest string) string {
	return `{"session_id":"` + sid + `","transcript_path":"` + tp + `","cwd":"` + cwd + `","hook_event_name":"` + event + `","model":"gpt-5.2-codex","turn_id":"t-17"` + rest + `}`
}

func gemini(event, rest string) string {
	return `{"session_id":"` + sid + `","transcript_path":"` + tp + `","cwd":"` + cwd + `","hook_event_name":"` + event + `","timestamp":"2026-03-01T10:00:00.000Z"` + rest + `}`
}

func qwen(event, rest string) string { return claude(event, rest) }

// plugin is what tuios's own plugins and extensions (opencode, Kilo, Amp,
// Pi, oh-my-pi) send: the session id, the directory and the event.
func plugin(event, rest string) string {
	return `{"session_id":"` + sid + `","cwd":"` + cwd + `","hook_event_name":"` + event + `"` + rest + `}`
}

// Built from documentation, not recorded from a running harness (none
// of these runs where tuios is built; testdata/recorded holds the
// documentation's own examples, with where they were read):
//
//   - cursor: cursor.com/docs/agent/hooks (read 2026-12-06): the common
//     fields conversation_id, generation_id, hook_event_name,
//     workspace_roots, model, cursor_version.
//   - kimi: Kimi Code 2.1.0's runMatchedHooks (npm @moonshot-ai/kimi-code
//     dist/main.mjs): hook_event_name, session_id, cwd, then the event's
//     fields snake_cased, session_title among them.
//   - crush: charmbracelet/crush docs/hooks/README.md (read 2026-12-06):
//     event, session_id, cwd, tool_name, tool_input.
//   - grok: Grok 1.0.41's bundled hooks guide (10-hooks.md): camelCase
//     hookEventName (grok's snake_case value), hook_event_name (Claude's
//     PascalCase value), sessionId, cwd, workspaceRoot, permissionMode.
//   - hermes: hermes-agent.nousresearch.com/docs/user-guide/features/hooks
//     (Shell Hooks, JSON wire protocol; read 2026-12-06): hook_event_name,
//     tool_name, tool_input, session_id, cwd, profile, extra.
func cursor(event, rest string) string {
	return `{"conversation_id":"` + sid + `","generation_id":"gen-456","hook_event_name":"` + event + `","workspace_roots":["` + cwd + `"],"model":"gpt-5","cursor_version":"2.0.77"` + rest + `}`
}

func kimiCode(event, rest string) string {
	return `{"hook_event_name":"` + event + `","session_id":"` + sid + `","cwd":"` + cwd + `","session_title":"fix the tests"` + rest + `}`
}

func crush(event, rest string) string {
	return `{"event":"` + event + `","session_id":"` + sid + `","cwd":"` + cwd + `"` + rest + `}`
}

func hermes(event, rest string) string {
	return `{"hook_event_name":"` + event + `","tool_name":null,"tool_input":null,"session_id":"` + sid + `","cwd":"` + cwd + `","profile":"default","extra":{"platform":"cli"}` + rest + `}`
}

func grok(event, rest string) string {
	return `{"hookEventName":"session_start","hook_event_name":"` + event + `","sessionId":"` + sid + `","cwd":"` + cwd + `","workspaceRoot":"` + cwd + `","permissionMode":"default","timestamp":"2026-04-14T12:00:00Z"` + rest + `}`
}

var payloadOf = map[string]func(string, string) string{"claude-code": claude, "codex": codex, "gemini-cli": gemini, "qwen": qwen,
	"copilot": claude, "opencode": plugin, "kilo": plugin, "amp": plugin, "pi": plugin, "oh-my-pi": plugin,
	"droid": claude, "qoder": claude, "cursor-agent": cursor, "kimi": kimiCode, "crush": crush, "grok": grok, "hermes": hermes, "devin": claude}

// hasTranscript: the harness's payloads name the transcript.
func hasTranscript(h string) bool {
	switch h {
	case "opencode", "kilo", "amp", "pi", "oh-my-pi", "cursor-agent", "kimi", "crush", "grok", "hermes":
		return false
	}
	return true
}

// why is the Why of the row (harness, name, when) as Decode writes it.
func why(t *testing.T, harness, name, when string) string {
	t.Helper()
	for _, e := range hook.Events() {
		if e.Harness == harness && e.Name == name && e.When == when {
			w := e.Says + " (" + e.Harness + " " + e.Name
			if e.When != "" {
				w += ", " + e.When
			}
			return w + ")"
		}
	}
	t.Fatalf("no row %s %s %q", harness, name, when)
	return ""
}

type row struct{ name, when string }

type decodeCase struct {
	name    string
	harness string
	event   string // the event name in the payload
	rest    string // the payload's own fields
	row     *row   // the row that must match; nil: none
	want    hook.Translation
}

// cases returns the recorded payloads, one or more per row of Events().
func cases() []decodeCase {
	act := func(a agentstate.Activity, h string) *agentstate.Activity {
		a.SessionID, a.Harness = sid, h
		return &a
	}
	var cs []decodeCase
	for _, h := range []string{"claude-code", "codex", "qwen", "copilot"} {
		cs = append(cs,
			decodeCase{"SessionStart startup", h, "SessionStart", `,"source":"startup","model":"claude-opus-4-5"`, &row{"SessionStart", ""},
				hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, h)}},
			decodeCase{"SessionStart resume", h, "SessionStart", `,"source":"resume"`, &row{"SessionStart", ""},
				hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, h)}},
			decodeCase{"SessionStart compact", h, "SessionStart", `,"source":"compact"`, &row{"SessionStart", ""},
				hook.Translation{Report: true, State: agentstate.Working, IfState: agentstate.SetOf(agentstate.Working), Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, h)}},
			decodeCase{"UserPromptSubmit", h, "UserPromptSubmit", `,"prompt":"fix the failing test in main.go"`, &row{"UserPromptSubmit", ""},
				hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"PreToolUse from a subagent", h, "PreToolUse", `,"agent_id":"a-91","agent_type":"Explore","tool_name":"Bash","tool_input":{"command":"go test ./...","description":"run the tests"}`,
				&row{"PreToolUse", "from a subagent"},
				hook.Translation{Activity: act(agentstate.Activity{Kind: agentstate.SubagentTool, ID: "a-91", Tool: "Bash: go test ./..."}, h)}},
			decodeCase{"PreToolUse Task from a subagent", h, "PreToolUse", `,"agent_id":"a-91","tool_name":"Task","tool_input":{"description":"nested","subagent_type":"Explore"}`,
				&row{"PreToolUse", "from a subagent"},
				hook.Translation{Activity: act(agentstate.Activity{Kind: agentstate.SubagentTool, ID: "a-91", Tool: "Task: nested"}, h)}},
			decodeCase{"PreToolUse Task", h, "PreToolUse", `,"tool_name":"Task","tool_input":{"description":"Find the flaky test","prompt":"Look through ./...","subagent_type":"general-purpose"},"tool_use_id":"toolu_01"`,
				&row{"PreToolUse", "the Task tool"},
				hook.Translation{Report: true, State: agentstate.Working, Now: "Task: Find the flaky test",
					Activity: act(agentstate.Activity{Kind: agentstate.SubagentIntent, Type: "general-purpose", Description: "Find the flaky test"}, h)}},
			decodeCase{"PreToolUse Agent without a type", h, "PreToolUse", `,"tool_name":"Agent","tool_input":{"description":"Plan it"}`,
				&row{"PreToolUse", "the Task tool"},
				hook.Translation{Report: true, State: agentstate.Working, Now: "Agent: Plan it"}},
			decodeCase{"PreToolUse Edit", h, "PreToolUse", `,"tool_name":"Edit","tool_input":{"file_path":"` + cwd + `/internal/x.go","old_string":"a","new_string":"b"}`,
				&row{"PreToolUse", ""},
				hook.Translation{Report: true, State: agentstate.Working, Now: "Edit: internal/x.go"}},
			decodeCase{"PreToolUse Bash multi-line", h, "PreToolUse", `,"tool_name":"Bash","tool_input":{"command":"cd /tmp &&\n  make   all\nrm -rf x"}`,
				&row{"PreToolUse", ""},
				hook.Translation{Report: true, State: agentstate.Working, Now: "Bash: cd /tmp && make all rm -rf x"}},
			decodeCase{"PreToolUse WebFetch", h, "PreToolUse", `,"tool_name":"WebFetch","tool_input":{"url":"https://go.dev/doc","prompt":"summarise"}`,
				&row{"PreToolUse", ""},
				hook.Translation{Report: true, State: agentstate.Working, Now: "WebFetch: https://go.dev/doc"}},
			decodeCase{"PreToolUse with no input", h, "PreToolUse", `,"tool_name":"TodoWrite","tool_input":"oops"`,
				&row{"PreToolUse", ""},
				hook.Translation{Report: true, State: agentstate.Working, Now: "TodoWrite"}},
			decodeCase{"PostToolUse from a subagent", h, "PostToolUse", `,"agent_id":"a-91","tool_name":"Bash","tool_response":{"stdout":"ok"}`,
				&row{"PostToolUse", "from a subagent"}, hook.Translation{}},
			decodeCase{"PostToolUse", h, "PostToolUse", `,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\nb"}`,
				&row{"PostToolUse", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"PermissionRequest", h, "PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"rm -rf build","description":"clean"}`,
				&row{"PermissionRequest", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "Bash: rm -rf build", Message: "approve Bash: rm -rf build"}},
			decodeCase{"PermissionRequest without a tool", h, "PermissionRequest", `,"message":"Allow the plugin to run?"`,
				&row{"PermissionRequest", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "Allow the plugin to run?"}},
			decodeCase{"PermissionRequest bare", h, "PermissionRequest", ``,
				&row{"PermissionRequest", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "approve a tool call"}},
			decodeCase{"PermissionRequest with a secret", h, "PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"OPENAI_API_KEY=sk-proj-abcdefghijklmnop python run.py"}`,
				&row{"PermissionRequest", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "Bash: OPENAI_API_KEY=**** python run.py",
					Message: "approve Bash: OPENAI_API_KEY=**** python run.py"}},
			decodeCase{"Stop", h, "Stop", `,"stop_hook_active":false,"last_assistant_message":"All tests pass."`,
				&row{"Stop", ""}, hook.Translation{Report: true, State: agentstate.Done}},
			decodeCase{"Stop in lower case", h, "stop", ``,
				&row{"Stop", ""}, hook.Translation{Report: true, State: agentstate.Done}},
			decodeCase{"SubagentStop", h, "SubagentStop", `,"agent_id":"a-91","agent_type":"Explore","agent_transcript_path":"/x.jsonl","last_assistant_message":"Found it in x.go"`,
				&row{"SubagentStop", ""}, hook.Translation{Activity: act(agentstate.Activity{Kind: agentstate.SubagentStop, ID: "a-91", Type: "Explore", Result: "Found it in x.go"}, h)}},
			decodeCase{"SessionEnd", h, "SessionEnd", `,"reason":"prompt_input_exit"`,
				&row{"SessionEnd", ""}, hook.Translation{Report: true, State: agentstate.None}},
			decodeCase{"an event it does not map", h, "PreCompact", `,"trigger":"auto"`, nil, hook.Translation{}},
		)
	}
	for _, h := range []string{"claude-code", "codex", "qwen"} {
		cs = append(cs,
			decodeCase{"SubagentStart", h, "SubagentStart", `,"agent_id":"a-91","agent_type":"Explore"`,
				&row{"SubagentStart", ""}, hook.Translation{Activity: act(agentstate.Activity{Kind: agentstate.SubagentStart, ID: "a-91", Type: "Explore"}, h)}})
	}
	cs = append(cs, decodeCase{"SubagentStart in Copilot", "copilot", "SubagentStart", `,"agent_id":"a-91"`, nil, hook.Translation{}})
	// Notifications: Claude Code, Qwen Code and Copilot.
	for _, h := range []string{"claude-code", "qwen", "copilot"} {
		cs = append(cs,
			decodeCase{"Notification permission_prompt", h, "Notification", `,"message":"Claude needs your permission to use Bash","title":"Permission needed","notification_type":"permission_prompt"`,
				&row{"Notification", "notification_type=permission_prompt"},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "Claude needs your permission to use Bash",
					IfState: agentstate.SetOf(agentstate.None, agentstate.Working, agentstate.Idle, agentstate.Done, agentstate.Errored, agentstate.Unknown)}},
			decodeCase{"Notification permission_prompt, long, spaced, with a secret", h, "Notification",
				`,"notification_type":"permission_prompt","message":"Claude needs your permission\n\n   to run:\texport OPENAI_API_KEY=sk-proj-abcdefghijklmnop && ./deploy.sh --region eu-west-1 --really-long-flag-name=value --another"`,
				&row{"Notification", "notification_type=permission_prompt"},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval,
					Message: "Claude needs your permission to run: export OPENAI_API_KEY=**** && ./deploy.sh --region eu-west-1 --",
					IfState: agentstate.SetOf(agentstate.None, agentstate.Working, agentstate.Idle, agentstate.Done, agentstate.Errored, agentstate.Unknown)}},
			decodeCase{"Notification elicitation_dialog", h, "Notification", `,"message":"Which branch should I use?","notification_type":"elicitation_dialog"`,
				&row{"Notification", "notification_type=elicitation_dialog"},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindQuestion, Message: "Which branch should I use?"}},
			decodeCase{"Notification elicitation_dialog without a message", h, "Notification", `,"notification_type":"elicitation_dialog"`,
				&row{"Notification", "notification_type=elicitation_dialog"},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindQuestion, Message: "answer a question"}},
			decodeCase{"Notification idle_prompt", h, "Notification", `,"message":"Claude is waiting for your input","notification_type":"idle_prompt"`,
				&row{"Notification", "notification_type=idle_prompt"},
				hook.Translation{Report: true, State: agentstate.Idle, IfState: agentstate.SetOf(agentstate.Working, agentstate.NeedsInput, agentstate.Unknown)}},
			decodeCase{"Notification of another type", h, "Notification", `,"message":"Logged in","notification_type":"auth_success"`, nil, hook.Translation{}},
		)
	}
	cs = append(cs,
		decodeCase{"Notification without a type", "claude-code", "Notification", `,"message":"Claude needs your permission to use Bash","title":"Claude Code"`,
			&row{"Notification", "no notification_type"},
			hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "Claude needs your permission to use Bash",
				IfState: agentstate.SetOf(agentstate.None, agentstate.Working, agentstate.Idle, agentstate.Done, agentstate.Errored, agentstate.Unknown)}},
		decodeCase{"Notification without a type in Qwen Code", "qwen", "Notification", `,"message":"x"`, nil, hook.Translation{}},
	)
	// Failures: Claude Code and Qwen Code.
	for _, h := range []string{"claude-code", "qwen"} {
		cs = append(cs,
			decodeCase{"PostToolUseFailure from a subagent", h, "PostToolUseFailure", `,"agent_id":"a-1","tool_name":"Bash","error":"exit 1"`,
				&row{"PostToolUseFailure", "from a subagent"}, hook.Translation{}},
			decodeCase{"PostToolUseFailure", h, "PostToolUseFailure", `,"tool_name":"Bash","error":"exit status 1","is_interrupt":false`,
				&row{"PostToolUseFailure", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"StopFailure", h, "StopFailure", `,"error":"rate_limit","error_details":"429 Too Many Requests"`,
				&row{"StopFailure", ""}, hook.Translation{Report: true, State: agentstate.Errored, Message: "rate_limit"}},
			decodeCase{"StopFailure, error object", h, "StopFailure", `,"error":{"type":"overloaded_error","message":"Overloaded:  try\nagain"}`,
				&row{"StopFailure", ""}, hook.Translation{Report: true, State: agentstate.Errored, Message: "Overloaded: try again"}},
			decodeCase{"StopFailure, error object without a message", h, "StopFailure", `,"error":{"type":"overloaded_error"}`,
				&row{"StopFailure", ""}, hook.Translation{Report: true, State: agentstate.Errored, Message: "overloaded_error"}},
			decodeCase{"StopFailure, no error", h, "StopFailure", `,"error":42`,
				&row{"StopFailure", ""}, hook.Translation{Report: true, State: agentstate.Errored, Message: "the turn failed"}},
		)
	}
	cs = append(cs,
		decodeCase{"Elicitation", "claude-code", "Elicitation", `,"mcp_server_name":"github","message":"Pick a repository","requested_schema":{}`,
			&row{"Elicitation", ""}, hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindQuestion, Message: "Pick a repository"}},
		decodeCase{"Elicitation in Qwen Code", "qwen", "Elicitation", `,"message":"x"`, nil, hook.Translation{}},
		decodeCase{"Interrupt", "codex", "Interrupt", ``, &row{"Interrupt", ""}, hook.Translation{Report: true, State: agentstate.Idle}},
		decodeCase{"Notification in Codex", "codex", "Notification", `,"notification_type":"permission_prompt","message":"x"`, nil, hook.Translation{}},
		decodeCase{"Interrupt in Claude Code", "claude-code", "Interrupt", ``, nil, hook.Translation{}},
	)
	g := "gemini-cli"
	cs = append(cs,
		decodeCase{"SessionStart", g, "SessionStart", `,"source":"startup"`, &row{"SessionStart", ""},
			hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, g)}},
		decodeCase{"BeforeAgent", g, "BeforeAgent", `,"prompt":"refactor the parser"`, &row{"BeforeAgent", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"BeforeTool", g, "BeforeTool", `,"tool_name":"run_shell_command","tool_input":{"command":"npm test","description":"tests"}`, &row{"BeforeTool", ""},
			hook.Translation{Report: true, State: agentstate.Working, Now: "run_shell_command: npm test"}},
		decodeCase{"BeforeTool read_file", g, "BeforeTool", `,"tool_name":"read_file","tool_input":{"absolute_path":"` + cwd + `/README.md"}`, &row{"BeforeTool", ""},
			hook.Translation{Report: true, State: agentstate.Working, Now: "read_file: README.md"}},
		decodeCase{"AfterTool", g, "AfterTool", `,"tool_name":"run_shell_command","tool_input":{},"tool_response":{"llmContent":"ok"}`, &row{"AfterTool", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"Notification ToolPermission", g, "Notification", `,"notification_type":"ToolPermission","message":"Allow run_shell_command: rm -rf dist?","details":{"type":"exec"}`,
			&row{"Notification", "notification_type=ToolPermission"},
			hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "Allow run_shell_command: rm -rf dist?"}},
		decodeCase{"Notification ToolPermission with the command", g, "Notification", `,"notification_type":"ToolPermission","message":"Tool Confirm Shell Command requires execution","details":{"type":"exec","command":"rm -rf   dist"}`,
			&row{"Notification", "notification_type=ToolPermission"},
			hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "approve shell: rm -rf dist"}},
		decodeCase{"Notification of another type", g, "Notification", `,"notification_type":"Other","message":"x"`, nil, hook.Translation{}},
		decodeCase{"AfterAgent", g, "AfterAgent", `,"prompt":"x","prompt_response":"done","stop_hook_active":false`, &row{"AfterAgent", ""},
			hook.Translation{Report: true, State: agentstate.Done}},
		decodeCase{"SessionEnd", g, "SessionEnd", `,"reason":"exit"`, &row{"SessionEnd", ""},
			hook.Translation{Report: true, State: agentstate.None}},
		decodeCase{"PreCompress", g, "PreCompress", `,"trigger":"auto"`, nil, hook.Translation{}},
	)
	for _, h := range []string{"opencode", "kilo"} {
		cs = append(cs,
			decodeCase{"session.busy", h, "session.busy", ``, &row{"session.busy", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"permission.asked", h, "permission.asked", `,"tool_name":"bash","message":"rm -rf build"`, &row{"permission.asked", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "bash", Message: "approve bash: rm -rf build"}},
			decodeCase{"permission.asked, no patterns", h, "permission.asked", `,"tool_name":"edit","message":""`, &row{"permission.asked", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "edit", Message: "approve edit"}},
			decodeCase{"permission.replied", h, "permission.replied", ``, &row{"permission.replied", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"question.asked", h, "question.asked", `,"message":"Which database?"`, &row{"question.asked", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindQuestion, Message: "Which database?"}},
			decodeCase{"question.replied", h, "question.replied", ``, &row{"question.replied", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"question.rejected", h, "question.rejected", ``, &row{"question.rejected", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"session.idle", h, "session.idle", ``, &row{"session.idle", ""}, hook.Translation{Report: true, State: agentstate.Done}},
			decodeCase{"session.error", h, "session.error", `,"error":"ProviderAuthError"`, &row{"session.error", ""},
				hook.Translation{Report: true, State: agentstate.Errored, Message: "ProviderAuthError"}},
			decodeCase{"session.compacted", h, "session.compacted", ``, nil, hook.Translation{}},
		)
	}
	cs = append(cs,
		decodeCase{"session.start", "amp", "session.start", ``, &row{"session.start", ""},
			hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, "amp")}},
		decodeCase{"thread.running", "amp", "thread.running", ``, &row{"thread.running", ""}, hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"thread.awaiting-approval", "amp", "thread.awaiting-approval", ``, &row{"thread.awaiting-approval", ""},
			hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Message: "approve a tool call"}},
		decodeCase{"thread.idle", "amp", "thread.idle", ``, &row{"thread.idle", ""},
			hook.Translation{Report: true, State: agentstate.Done, IfState: agentstate.SetOf(agentstate.Working, agentstate.NeedsInput)}},
		decodeCase{"thread.error", "amp", "thread.error", ``, &row{"thread.error", ""},
			hook.Translation{Report: true, State: agentstate.Errored, Message: "the turn failed"}},
	)
	for _, h := range []string{"pi", "oh-my-pi"} {
		cs = append(cs,
			decodeCase{"session_start", h, "session_start", `,"source":"startup"`, &row{"session_start", ""},
				hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, h)}},
			decodeCase{"agent_start", h, "agent_start", ``, &row{"agent_start", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"tool_execution_start", h, "tool_execution_start", `,"tool_name":"read","tool_input":{"path":"` + cwd + `/go.mod"}`, &row{"tool_execution_start", ""},
				hook.Translation{Report: true, State: agentstate.Working, Now: "read: go.mod"}},
			decodeCase{"tool_approval_requested", h, "tool_approval_requested", `,"tool_name":"bash","message":"writes outside the project"`, &row{"tool_approval_requested", ""},
				hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "bash", Message: "approve bash: writes outside the project"}},
			decodeCase{"tool_approval_resolved", h, "tool_approval_resolved", ``, &row{"tool_approval_resolved", ""}, hook.Translation{Report: true, State: agentstate.Working}},
			decodeCase{"agent_end", h, "agent_end", ``, &row{"agent_end", ""}, hook.Translation{Report: true, State: agentstate.Done}},
			decodeCase{"session_shutdown", h, "session_shutdown", ``, &row{"session_shutdown", ""}, hook.Translation{Report: true, State: agentstate.None}},
			decodeCase{"turn_start", h, "turn_start", ``, nil, hook.Translation{}},
		)
	}
	// Droid, Qoder and Grok: the conversation id only.
	for _, h := range []string{"droid", "qoder", "grok"} {
		cs = append(cs,
			decodeCase{"SessionStart", h, "SessionStart", `,"source":"startup"`, &row{"SessionStart", ""}, hook.Translation{SessionOnly: true}},
			decodeCase{"Stop", h, "Stop", ``, nil, hook.Translation{}},
		)
	}
	// Devin (Claude Code's hooks run under Devin CLI): the conversation id
	// only, at the start and at each prompt.
	cs = append(cs,
		decodeCase{"SessionStart", "devin", "SessionStart", `,"source":"startup"`, &row{"SessionStart", ""}, hook.Translation{SessionOnly: true}},
		decodeCase{"UserPromptSubmit", "devin", "UserPromptSubmit", `,"prompt":"fix the tests"`, &row{"UserPromptSubmit", ""}, hook.Translation{SessionOnly: true}},
		decodeCase{"Stop", "devin", "Stop", ``, nil, hook.Translation{}},
		decodeCase{"PreToolUse", "devin", "PreToolUse", `,"tool_name":"exec","tool_input":{"command":"rm -rf /","shell_id":"main"}`, nil, hook.Translation{}},
	)
	// Hermes: the conversation id from its session start and from every
	// turn; its tool calls say nothing.
	cs = append(cs,
		decodeCase{"on_session_start", "hermes", "on_session_start", ``, &row{"on_session_start", ""}, hook.Translation{SessionOnly: true}},
		decodeCase{"pre_llm_call", "hermes", "pre_llm_call", ``, &row{"pre_llm_call", ""}, hook.Translation{SessionOnly: true}},
		decodeCase{"pre_tool_call", "hermes", "pre_tool_call", ``, nil, hook.Translation{}},
	)
	// Crush: the conversation id from the PreToolUse it fires before
	// every tool call.
	cs = append(cs,
		decodeCase{"PreToolUse", "crush", "PreToolUse", `,"tool_name":"bash","tool_input":{"command":"rm -rf /"}`, &row{"PreToolUse", ""}, hook.Translation{SessionOnly: true}},
		decodeCase{"PreCompact", "crush", "PreCompact", `,"tool_name":"compact","tool_input":{"token_count":103200,"max_tokens":100000}`, nil, hook.Translation{}},
	)
	// Cursor Agent: camelCase events; no hook says it waits on the person.
	const c = "cursor-agent"
	cs = append(cs,
		decodeCase{"sessionStart", c, "sessionStart", `,"session_id":"other","is_background_agent":false,"composer_mode":"agent"`, &row{"sessionStart", ""},
			hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, c)}},
		decodeCase{"beforeSubmitPrompt", c, "beforeSubmitPrompt", `,"prompt":"Fix the bug in main.ts","attachments":[]`, &row{"beforeSubmitPrompt", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"preToolUse Shell", c, "preToolUse", `,"tool_name":"Shell","tool_input":{"command":"npm install express"}`, &row{"preToolUse", ""},
			hook.Translation{Report: true, State: agentstate.Working, Now: "Shell: npm install express"}},
		decodeCase{"postToolUse", c, "postToolUse", `,"tool_name":"Shell","tool_output":"ok"`, &row{"postToolUse", ""}, hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"postToolUseFailure", c, "postToolUseFailure", `,"tool_name":"Shell","error_message":"exit 1"`, &row{"postToolUseFailure", ""}, hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"stop completed", c, "stop", `,"status":"completed","loop_count":0`, &row{"stop", ""}, hook.Translation{Report: true, State: agentstate.Done}},
		decodeCase{"stop aborted", c, "stop", `,"status":"aborted","loop_count":0`, &row{"stop", "status=aborted"}, hook.Translation{Report: true, State: agentstate.Idle}},
		decodeCase{"stop error", c, "stop", `,"status":"error","loop_count":1`, &row{"stop", "status=error"},
			hook.Translation{Report: true, State: agentstate.Errored, Message: "the turn failed"}},
		decodeCase{"sessionEnd", c, "sessionEnd", `,"reason":"user_close"`, &row{"sessionEnd", ""}, hook.Translation{Report: true, State: agentstate.None}},
		decodeCase{"afterFileEdit", c, "afterFileEdit", `,"file_path":"` + cwd + `/main.ts","edits":[]`, nil, hook.Translation{}},
	)
	// Kimi Code: Claude Code's names, its own fields.
	const k = "kimi"
	cs = append(cs,
		decodeCase{"SessionStart", k, "SessionStart", `,"source":"startup","model":"kimi-k2","profile":"default"`, &row{"SessionStart", ""},
			hook.Translation{Report: true, State: agentstate.Idle, Activity: act(agentstate.Activity{Kind: agentstate.SessionStart}, k)}},
		decodeCase{"UserPromptSubmit", k, "UserPromptSubmit", `,"prompt":"add a test","is_steer":false`, &row{"UserPromptSubmit", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"PreToolUse", k, "PreToolUse", `,"tool_name":"Shell","tool_input":{"command":"go test ./..."},"tool_call_id":"call_1"`, &row{"PreToolUse", ""},
			hook.Translation{Report: true, State: agentstate.Working, Now: "Shell: go test ./..."}},
		decodeCase{"PostToolUse", k, "PostToolUse", `,"tool_name":"Shell","tool_input":{"command":"go test ./..."},"tool_output":"ok"`, &row{"PostToolUse", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"PostToolUseFailure", k, "PostToolUseFailure", `,"tool_name":"Shell","error":{"name":"ToolError","message":"exit 1"}`, &row{"PostToolUseFailure", ""},
			hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"PermissionRequest", k, "PermissionRequest", `,"id":"approval_1","agent_id":"main","turn_id":"t1","tool_call_id":"call_2","tool_name":"Shell","action":"run a command","display":{"kind":"generic"},"tool_input":{"command":"rm -rf build/"}`,
			&row{"PermissionRequest", ""},
			hook.Translation{Report: true, State: agentstate.NeedsInput, Kind: agentstate.KindApproval, Now: "Shell: rm -rf build/", Message: "approve Shell: rm -rf build/"}},
		decodeCase{"PermissionResult", k, "PermissionResult", `,"tool_name":"Shell","decision":"approved"`, &row{"PermissionResult", ""}, hook.Translation{Report: true, State: agentstate.Working}},
		decodeCase{"Stop", k, "Stop", `,"stop_hook_active":false`, &row{"Stop", ""}, hook.Translation{Report: true, State: agentstate.Done}},
		decodeCase{"StopFailure", k, "StopFailure", `,"error_type":"APIError","error_message":"429 rate limited"`, &row{"StopFailure", ""},
			hook.Translation{Report: true, State: agentstate.Errored, Message: "429 rate limited"}},
		decodeCase{"Interrupt", k, "Interrupt", `,"turn_id":"t1","reason":"cancelled"`, &row{"Interrupt", ""}, hook.Translation{Report: true, State: agentstate.Idle}},
		decodeCase{"SessionEnd", k, "SessionEnd", `,"reason":"exit"`, &row{"SessionEnd", ""}, hook.Translation{Report: true, State: agentstate.None}},
		decodeCase{"Notification", k, "Notification", `,"sink":"context"`, nil, hook.Translation{}},
	)
	return cs
}

func TestDecodeTable(t *testing.T) {
	hit := map[string]bool{} // the rows the cases matched, by Why
	for _, c := range cases() {
		t.Run(c.harness+"/"+c.name, func(t *testing.T) {
			payload := payloadOf[c.harness](c.event, c.rest)
			got, err := hook.Decode(hook.Input{Harness: c.harness, Stdin: []byte(payload)})
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			got.Log = nil // the agent log's entries: TestLogEvents
			want := c.want
			want.Harness, want.Event, want.SessionID = c.harness, c.event, sid
			if hasTranscript(c.harness) {
				want.TranscriptPath = tp
			}
			if c.harness == "gemini-cli" {
				want.Reply = "{}"
			}
			if c.row != nil {
				want.Why = why(t, c.harness, c.row.name, c.row.when)
				hit[want.Why] = true
			} else {
				want.Why = `the event "` + c.event + `" reports nothing for ` + c.harness
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Decode(%s)\n got %+v\nwant %+v", payload, got, want)
				if got.Activity != nil || want.Activity != nil {
					t.Errorf("activity\n got %+v\nwant %+v", got.Activity, want.Activity)
				}
			}
			if got.Report && got.State == agentstate.NeedsInput && utf8.RuneCountInString(got.Message) > 100 {
				t.Errorf("message of %d runes", utf8.RuneCountInString(got.Message))
			}
		})
	}
	// Every row of the map is exercised by a recorded payload.
	for _, e := range hook.Events() {
		if w := why(t, e.Harness, e.Name, e.When); !hit[w] {
			t.Errorf("no case covers the row %s %s %q", e.Harness, e.Name, e.When)
		}
	}
}

func TestEventsRows(t *testing.T) {
	known := map[string]bool{}
	for _, h := range hook.Harnesses() {
		known[h] = true
	}
	perHarness := map[string]int{}
	seen := map[string]bool{}
	for _, e := range hook.Events() {
		key := e.Harness + " " + e.Name + " " + e.When
		if e.Source == "" || e.Says == "" {
			t.Errorf("row %s: Source %q Says %q", key, e.Source, e.Says)
		}
		if e.Name == "" || !known[e.Harness] {
			t.Errorf("row %s: no event name, or a harness Decode does not read", key)
		}
		if seen[key] {
			t.Errorf("row %s listed twice", key)
		}
		seen[key] = true
		perHarness[e.Harness]++
	}
	for h := range known {
		if perHarness[h] == 0 {
			t.Errorf("harness %s has no rows", h)
		}
	}
	// A conditional row comes before the unconditional row of the same
	// event, or it could never match.
	last := map[string]bool{} // harness+event: an unconditional row was seen
	for _, e := range hook.Events() {
		k := e.Harness + " " + e.Name
		if last[k] {
			t.Errorf("row %s %q comes after the unconditional row of its event", k, e.When)
		}
		if e.When == "" {
			last[k] = true
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tr, err := hook.Decode(hook.Input{Harness: "vim", Stdin: []byte(claude("Stop", ""))})
	var he *hook.Error
	if !errors.As(err, &he) || he.Code() != hook.CodeUnknownHarness {
		t.Fatalf("unknown harness: %v", err)
	}
	if !strings.Contains(he.Error(), `"vim"`) || he.Hint() == "" || tr.Harness != "vim" || tr.Report || tr.Reply != "" {
		t.Errorf("unknown harness: %q %q %+v", he.Error(), he.Hint(), tr)
	}
	if _, err := hook.Decode(hook.Input{Harness: "vim\x1b[2J"}); err == nil || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("an unknown harness's name reaches the message raw: %q", err)
	}

	for _, h := range hook.Harnesses() {
		for _, stdin := range []string{"", "not json", "[1,2]", `"Stop"`, `{"hook_event_name":`, `{"hook_event_name": 7}`, "{\"hook_event_name\":\"Stop\"}\n{}"} {
			tr, err := hook.Decode(hook.Input{Harness: h, Stdin: []byte(stdin)})
			if !errors.As(err, &he) || he.Code() != hook.CodeBadPayload {
				t.Errorf("%s %q: %v, want %s", h, stdin, err, hook.CodeBadPayload)
				continue
			}
			if tr.Report || tr.Activity != nil || he.Hint() == "" || !strings.Contains(he.Error(), h) {
				t.Errorf("%s %q: %+v %q", h, stdin, tr, he.Error())
			}
			if (h == "gemini-cli") != (tr.Reply == "{}") {
				t.Errorf("%s: reply %q on a bad payload", h, tr.Reply)
			}
		}
	}

	// Over MaxPayload: too large, whatever it holds; at MaxPayload, read.
	for _, h := range hook.Harnesses() {
		big := []byte(claude("Stop", ""))
		over := append(append([]byte{}, big...), bytes.Repeat([]byte(" "), hook.MaxPayload+1-len(big))...)
		tr, err := hook.Decode(hook.Input{Harness: h, Stdin: over})
		if !errors.As(err, &he) || he.Code() != hook.CodeTooLarge || he.Hint() == "" {
			t.Errorf("%s: %d bytes: %v", h, len(over), err)
		}
		if (h == "gemini-cli") != (tr.Reply == "{}") {
			t.Errorf("%s: reply %q on a payload too large", h, tr.Reply)
		}
		at := over[:hook.MaxPayload]
		if tr, err := hook.Decode(hook.Input{Harness: h, Stdin: at}); err != nil || tr.Event != "Stop" {
			t.Errorf("%s: %d bytes: %+v %v", h, len(at), tr, err)
		}
	}
}

// Every field is bounded.
func TestDecodeBounds(t *testing.T) {
	long := strings.Repeat("é", 3000)
	p := `{"hook_event_name":"` + strings.Repeat("E", 100) + `","session_id":"` + long + `","transcript_path":"/` + strings.Repeat("p", 5000) + `"}`
	tr, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(p)})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Event) != 64 || len(tr.SessionID) > 256 || !utf8.ValidString(tr.SessionID) || tr.TranscriptPath != "" {
		t.Errorf("event %d bytes, session id %d bytes (valid %v), transcript %d bytes",
			len(tr.Event), len(tr.SessionID), utf8.ValidString(tr.SessionID), len(tr.TranscriptPath))
	}
	if strings.Contains(tr.Why, strings.Repeat("E", 65)) {
		t.Errorf("Why holds the whole event name: %q", tr.Why)
	}

	// Now is at most 160 bytes, whole runes; a needs_input message 100 runes.
	p = claude("PermissionRequest", `,"tool_name":"Bash","tool_input":{"command":"echo `+strings.Repeat("日本", 200)+`"}`)
	tr, _ = hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(p)})
	if len(tr.Now) > 160 || !utf8.ValidString(tr.Now) || !strings.HasPrefix(tr.Now, "Bash: echo 日本") {
		t.Errorf("now %d bytes %q", len(tr.Now), tr.Now)
	}
	if n := utf8.RuneCountInString(tr.Message); n > 100 || !strings.HasPrefix(tr.Message, "approve Bash: echo 日本") {
		t.Errorf("message %d runes %q", n, tr.Message)
	}

	// The session id may come as Codex's thread-id.
	tr, _ = hook.Decode(hook.Input{Harness: "codex", Stdin: []byte(`{"hook_event_name":"Stop","thread-id":"th-1"}`)})
	if tr.SessionID != "th-1" {
		t.Errorf("session id %q from thread-id", tr.SessionID)
	}
}

// What a needs_input message keeps: whitespace collapsed, secrets masked,
// no control characters, 100 characters.
func TestNeedsInputText(t *testing.T) {
	cases := map[string]string{
		"":                   "",
		"  plain  ":          "plain",
		"a\n\tb\r\n  c":      "a b c",
		"token=hunter2 rest": "token=**** rest",
		"OPENAI_API_KEY=sk-proj-abcdefghijklmnop": "OPENAI_API_KEY=****",
		"use sk-proj-abcdefghijklmnop":            "use ****",
		"red \x1b[31mALERT\x1b[0m now":            "red [31mALERT [0m now",
		"bell\x07 and nul\x00 and del\x7f":        "bell and nul and del",
		"c1\u0085next\u009bcsi":                   "c1 next csi",
		strings.Repeat("ab ", 60):                 strings.TrimSpace(strings.Repeat("ab ", 34))[:100],
		strings.Repeat("é", 150):                  strings.Repeat("é", 100),
	}
	for in, want := range cases {
		if got := hook.NeedsInputText(in); got != want {
			t.Errorf("NeedsInputText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A control character in a message would move the cursor of whatever
// draws it: Decode drops them from every message it writes.
func TestDecodeDropsControlCharacters(t *testing.T) {
	for _, c := range []struct{ h, event, rest string }{
		{"claude-code", "Notification", `,"notification_type":"permission_prompt","message":"allow \u001b[2J\u001b]0;pwned\u0007 this?"`},
		{"claude-code", "Elicitation", `,"message":"pick\u001b[31m one"`},
		{"qwen", "StopFailure", `,"error":"bad\u0000thing\u009b"`},
		{"gemini-cli", "Notification", `,"notification_type":"ToolPermission","message":"ok\u001b?"`},
		{"codex", "PermissionRequest", `,"message":"run\u001b[1m it?"`},
		{"codex", "PermissionRequest", `,"tool_name":"Ba\u001bsh","tool_input":{"command":"ls\u001b[2J -la"}`},
	} {
		tr, err := hook.Decode(hook.Input{Harness: c.h, Stdin: []byte(payloadOf[c.h](c.event, c.rest))})
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]string{"message": tr.Message, "now": tr.Now, "why": tr.Why} {
			if i := strings.IndexFunc(s, isControl); i >= 0 {
				t.Errorf("%s %s: %s %q holds a control character", c.h, c.event, name, s)
			}
		}
		if tr.Message == "" {
			t.Errorf("%s %s: no message", c.h, c.event)
		}
	}
}

// A session-only event without a session id says nothing.
func TestSessionOnlyWithoutID(t *testing.T) {
	for _, h := range []string{"droid", "qoder", "grok"} {
		tr, err := hook.Decode(hook.Input{Harness: h, Stdin: []byte(`{"hook_event_name":"SessionStart","source":"startup"}`)})
		if err != nil || tr.SessionOnly || tr.Report || tr.Activity != nil || tr.Why == "" {
			t.Errorf("%s: %+v %v", h, tr, err)
		}
	}
	tr, err := hook.Decode(hook.Input{Harness: "hermes", Stdin: []byte(`{"hook_event_name":"on_session_start","session_id":""}`)})
	if err != nil || tr.SessionOnly || tr.Report {
		t.Errorf("hermes: %+v %v", tr, err)
	}
}

// Devin CLI runs the person's Claude Code hooks, so tuios's Claude Code
// hook runs in a Devin pane too: told apart by DEVIN_PROJECT_DIR (which
// Devin sets for its hooks, and Claude Code does not), it reports the
// conversation id for devin and no state; a Claude Code that Devin
// started (CLAUDE_PROJECT_DIR set) still reports as itself.
func TestClaudeCodeHookUnderDevin(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	start := []byte(claude("SessionStart", `,"source":"startup"`))
	prompt := []byte(claude("UserPromptSubmit", `,"prompt":"fix the tests"`))
	devin := env(map[string]string{"DEVIN_PROJECT_DIR": cwd})
	for _, stdin := range [][]byte{start, prompt} {
		tr, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: stdin, Getenv: devin})
		if err != nil || tr.Harness != "devin" || tr.Report || !tr.SessionOnly || tr.SessionID != sid || tr.Activity != nil {
			t.Fatalf("under Devin: %+v %v", tr, err)
		}
	}
	stop, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: []byte(claude("Stop", "")), Getenv: devin})
	if err != nil || stop.Harness != "devin" || stop.Report || stop.SessionOnly {
		t.Fatalf("Stop under Devin claims a state: %+v %v", stop, err)
	}
	for name, g := range map[string]func(string) string{
		"no environment":                 nil,
		"Claude Code":                    env(map[string]string{"CLAUDE_PROJECT_DIR": cwd}),
		"Claude Code that Devin started": env(map[string]string{"CLAUDE_PROJECT_DIR": cwd, "DEVIN_PROJECT_DIR": cwd}),
	} {
		tr, err := hook.Decode(hook.Input{Harness: "claude-code", Stdin: start, Getenv: g})
		if err != nil || tr.Harness != "claude-code" || !tr.Report || tr.State != agentstate.Idle {
			t.Fatalf("%s: %+v %v", name, tr, err)
		}
	}
}
