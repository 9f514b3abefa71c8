package hook

import (
	"encoding/json"
	"strings"

	"github.com/tuios/tuios/agentstate"
)

// Event is one row of the map from a harness's hook events to reports.
type Event struct {
	Harness string // the harness id
	Name    string // the event as the harness names it
	When    string // the condition on the payload, as a person reads it; "" always
	Says    string // what it reports
	Source  string // where the event's meaning was read

	cond func(*payload) bool
	do   func(*Translation, *payload)
}

// Events returns the whole map, harness by harness, in the order the rows
// are tried (the first row whose event and condition match wins).
func Events() []Event { return table() }

func match(harness string, p *payload) (Event, bool) {
	for _, e := range table() {
		if e.Harness == harness && strings.EqualFold(e.Name, p.Event) && (e.cond == nil || e.cond(p)) {
			return e, true
		}
	}
	return Event{}, false
}

func (e Event) apply(t *Translation, p *payload) {
	t.Why = e.Says + " (" + e.Harness + " " + e.Name + cond(e.When) + ")"
	e.do(t, p)
}

func cond(w string) string {
	if w == "" {
		return ""
	}
	return ", " + w
}

// Actions the rows share.

func report(s agentstate.State) func(*Translation, *payload) {
	return func(t *Translation, _ *payload) { t.Report, t.State = true, s }
}

func working(t *Translation, p *payload) {
	t.Report, t.State, t.Now = true, agentstate.Working, p.doing()
}

func approval(t *Translation, p *payload) {
	t.Report, t.State, t.Kind, t.Now = true, agentstate.NeedsInput, agentstate.KindApproval, p.doing()
	d := p.doing()
	if d != "" && p.target() == "" && p.Message != "" {
		d += ": " + p.Message // a harness that names the tool and says what it wants in words
	}
	if d != "" {
		t.Message = NeedsInputText("approve " + d)
	} else {
		t.Message = NeedsInputText(firstNonEmpty(p.Message, "approve a tool call"))
	}
}

func question(t *Translation, p *payload) {
	t.Report, t.State, t.Kind = true, agentstate.NeedsInput, agentstate.KindQuestion
	t.Message = NeedsInputText(firstNonEmpty(p.Message, "answer a question"))
}

func notified(t *Translation, p *payload) {
	t.Report, t.State = true, agentstate.NeedsInput
	t.Message = NeedsInputText(p.Message)
	t.Kind = agentstate.KindApproval
}

// permissionNotice is the notification that a permission prompt is shown.
// The PermissionRequest hook usually came first and said what the tool
// will do; the notice's own words are generic ("… needs your permission to
// use Bash"), so it only applies when nothing said needs_input yet.
func permissionNotice(t *Translation, p *payload) {
	notified(t, p)
	t.IfState = agentstate.SetOf(agentstate.None, agentstate.Working, agentstate.Idle, agentstate.Done, agentstate.Errored, agentstate.Unknown)
}

func failed(t *Translation, p *payload) {
	t.Report, t.State = true, agentstate.Errored
	t.Message = NeedsInputText(firstNonEmpty(p.errorText(), "the turn failed"))
}

func sessionStarted(t *Translation, p *payload) {
	t.Activity = &agentstate.Activity{Kind: agentstate.SessionStart, SessionID: t.SessionID, Harness: t.Harness}
	if p.Source == "compact" {
		// Compaction starts a new session mid-turn: keep the state, only
		// renew the session and the transcript join.
		t.Report, t.State, t.IfState = true, agentstate.Working, agentstate.SetOf(agentstate.Working)
		return
	}
	t.Report, t.State = true, agentstate.Idle
}

func fromSubagent(p *payload) bool { return p.AgentID != "" }

func subagentTool(t *Translation, p *payload) {
	t.Activity = &agentstate.Activity{Kind: agentstate.SubagentTool, ID: p.AgentID, Tool: p.doing(), SessionID: t.SessionID, Harness: t.Harness}
}

func subagentIntent(t *Translation, p *payload) {
	working(t, p)
	ti := p.tool()
	if ti.SubagentType != "" && ti.Description != "" {
		t.Activity = &agentstate.Activity{Kind: agentstate.SubagentIntent, Type: ti.SubagentType, Description: ti.Description,
			SessionID: t.SessionID, Harness: t.Harness}
	}
}

func isTaskTool(p *payload) bool {
	return p.AgentID == "" && (p.ToolName == "Task" || p.ToolName == "Agent")
}

func notification(kind string) func(*payload) bool {
	return func(p *payload) bool { return p.NotificationType == kind }
}

// table is the event map. Rows cite where each event's meaning was read:
// the harness's own package (the version named) or its documentation.
func table() []Event {
	var t []Event
	t = append(t, claudeLike("claude-code", "Claude Code 2.1.197 hook input builders in bin/claude.exe (hook_event_name and fields) and its hooks documentation")...)
	// A Notification with no notification_type is the shape Claude Code
	// sent before it typed them, and what a hand-written hook or a caller
	// of the old integrations/claude-code shim sends: the message is what
	// the person is asked, so it reads as the permission notice does.
	t = append(t, Event{Harness: "claude-code", Name: "Notification", When: "no notification_type",
		Says:   "needs_input (approval) with its message, unless the pane already waits",
		Source: "Claude Code before notification_type (Notification{message, title}); the old shim's mapping",
		cond:   notification(""), do: permissionNotice})
	// Codex copies Claude Code's hook layout and payloads (JSON schemas
	// embedded in codex 0.171.0, e.g. stop.command.input); it adds
	// Interrupt (the person stopped the turn) and has no Notification.
	t = append(t, only(claudeLike("codex", "Codex 0.171.0 hook input JSON schemas (codex binary; app-server generate-ts HookEventName)"),
		"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "Stop", "SubagentStart", "SubagentStop", "SessionEnd")...)
	t = append(t, Event{Harness: "codex", Name: "Interrupt", Says: "idle: the person stopped the turn", Source: "Codex 0.171.0 interrupt.command.input {turn_id}", do: report(agentstate.Idle)})
	// Qwen Code names its events and notification types as Claude Code
	// does (Qwen Code 0.15.10 cli.js HookEventName, NotificationType).
	t = append(t, only(claudeLike("qwen", "Qwen Code 0.15.10 cli.js HookEventName and NotificationType"),
		"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "Notification",
		"Stop", "StopFailure", "SubagentStart", "SubagentStop", "SessionEnd")...)
	t = append(t, gemini()...)
	t = append(t, opencodeLike("opencode")...)
	t = append(t, opencodeLike("kilo")...)
	// Copilot CLI hands events wired by their PascalCase names Claude
	// Code's snake_case payloads (Copilot 1.0.102 changelog; hooks.discover
	// maps Stop to agentStop, PermissionRequest to permissionRequest).
	t = append(t, only(claudeLike("copilot", "Copilot CLI 1.0.102 (changelog.json, schemas/api.schema.json HookType, hooks.discover)"),
		"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest", "Notification", "Stop", "SubagentStop", "SessionEnd")...)
	t = append(t, amp()...)
	// Droid and Qoder have Claude Code's hooks; tuios wires only their
	// session start, to learn the conversation id (their state is read
	// from the screen).
	t = append(t, sessionOnly("droid", "Droid (Factory CLI 0.225.2 binary): SessionStart{session_id, source}")...)
	t = append(t, sessionOnly("qoder", "Qoder CLI 1.1.52 bundle/builtin/hook-config/SKILL.md: SessionStart{session_id}")...)
	t = append(t, piLike("pi", "Pi 0.73.1 core/extensions/types.d.ts and docs/extensions.md, passed on by tuios's extension")...)
	t = append(t, piLike("oh-my-pi", "oh-my-pi 18.3.4 src/extensibility/extensions/types.ts, passed on by tuios's extension")...)
	t = append(t, cursorAgent()...)
	t = append(t, kimi()...)
	// Crush's PreToolUse fires before every tool call of the top-level
	// agent and carries session_id; it is wired only to learn the
	// conversation (Crush reports its state to herdr's socket itself).
	t = append(t, Event{Harness: "crush", Name: "PreToolUse", Says: "the conversation id (no state)",
		Source: "charmbracelet/crush docs/hooks/README.md (read 2026-12-06): PreToolUse{event, session_id, cwd, tool_name, tool_input}",
		do:     func(t *Translation, _ *payload) { t.SessionOnly = t.SessionID != "" }})
	t = append(t, sessionOnly("grok", "Grok 1.0.41's bundled hooks guide (10-hooks.md): SessionStart{hook_event_name, sessionId, cwd}")...)
	// Devin CLI runs Claude Code's hooks (ranByDevin tells it apart); its
	// events mean what Claude Code's do, but nothing here has seen Devin
	// run, so they give the conversation id only: at the session's start,
	// and at every prompt (a resumed session may fire no start).
	const devinDoc = "docs.devin.ai/cli/extensibility/hooks (read 2026-12-06): Claude Code's hooks run under Devin CLI, with DEVIN_PROJECT_DIR set: "
	for _, e := range []string{"SessionStart", "UserPromptSubmit"} {
		t = append(t, Event{Harness: "devin", Name: e, Says: "the conversation id (no state)",
			Source: devinDoc + e + "{hook_event_name, session_id} as Claude Code's",
			do:     func(t *Translation, _ *payload) { t.SessionOnly = t.SessionID != "" }})
	}
	// Hermes Agent's shell hooks get Claude Code's wire format under its
	// own snake_case event names; tuios wires the two that carry the
	// conversation at its start and at every turn (a resumed one fires
	// no session start), for the conversation id only.
	const hermesDoc = "Hermes Agent's hooks documentation (hermes-agent.nousresearch.com/docs/user-guide/features/hooks, Shell Hooks, read 2026-12-06): "
	for _, e := range []string{"on_session_start", "pre_llm_call"} {
		t = append(t, Event{Harness: "hermes", Name: e, Says: "the conversation id (no state)",
			Source: hermesDoc + e + "{hook_event_name, session_id, cwd, extra}",
			do:     func(t *Translation, _ *payload) { t.SessionOnly = t.SessionID != "" }})
	}
	return t
}

// cursorAgent is Cursor Agent's map, from Cursor's hooks documentation
// (cursor.com/docs/agent/hooks, read 2026-12-06): camelCase events, one
// JSON object on stdin with conversation_id, generation_id,
// hook_event_name and workspace_roots. Cursor has no hook for a prompt
// waiting on the person, so needs_input stays the screen's to say.
func cursorAgent() []Event {
	const h, src = "cursor-agent", "Cursor hooks documentation (cursor.com/docs/agent/hooks, read 2026-12-06)"
	return []Event{
		{Harness: h, Name: "sessionStart", Says: "idle at the prompt, the conversation id", Source: src + ": sessionStart{conversation_id}", do: sessionStarted},
		{Harness: h, Name: "beforeSubmitPrompt", Says: "working: a prompt was submitted", Source: src + ": beforeSubmitPrompt{prompt}", do: working},
		{Harness: h, Name: "preToolUse", Says: "working, now: the tool and its target", Source: src + ": preToolUse{tool_name, tool_input}", do: working},
		{Harness: h, Name: "postToolUse", Says: "working (a prompt that was answered is gone)", Source: src + ": postToolUse{tool_name, tool_output}", do: report(agentstate.Working)},
		{Harness: h, Name: "postToolUseFailure", Says: "working (the turn goes on after a failed tool)", Source: src + ": postToolUseFailure", do: report(agentstate.Working)},
		{Harness: h, Name: "stop", When: "status=aborted", Says: "idle: the person stopped the turn", Source: src + ": stop{status: completed|aborted|error, loop_count}",
			cond: func(p *payload) bool { return p.Status == "aborted" }, do: report(agentstate.Idle)},
		{Harness: h, Name: "stop", When: "status=error", Says: "errored: the turn failed", Source: src + ": stop{status: error}",
			cond: func(p *payload) bool { return p.Status == "error" }, do: failed},
		{Harness: h, Name: "stop", Says: "done", Source: src + ": stop{status: completed}", do: report(agentstate.Done)},
		{Harness: h, Name: "sessionEnd", Says: "none: the agent left", Source: src + ": sessionEnd{reason}", do: report(agentstate.None)},
	}
}

// kimi is Kimi Code's map (2.1.0, dist/main.mjs of npm
// @moonshot-ai/kimi-code: AgentExternalHooksService). Its events and
// payloads follow Claude Code's, snake_case, with session_id; a
// PermissionRequest carries the agent's own agent_id, so it is not read
// as a subagent's. Its hooks run per agent, so a subagent's Stop may say
// done before the main agent's turn ends; the next tool call says working
// again.
func kimi() []Event {
	const h, src = "kimi", "Kimi Code 2.1.0 (npm @moonshot-ai/kimi-code dist/main.mjs, read 2026-12-06)"
	return []Event{
		{Harness: h, Name: "SessionStart", Says: "idle at the prompt, the session id", Source: src + ": SessionStart{source, session_title, model}", do: sessionStarted},
		{Harness: h, Name: "UserPromptSubmit", Says: "working", Source: src + ": UserPromptSubmit{prompt, is_steer}", do: working},
		{Harness: h, Name: "PreToolUse", Says: "working, now: the tool and its target", Source: src + ": PreToolUse{tool_name, tool_input, tool_call_id}", do: working},
		{Harness: h, Name: "PostToolUse", Says: "working (a prompt that was answered is gone)", Source: src + ": PostToolUse{tool_name, tool_output}", do: report(agentstate.Working)},
		{Harness: h, Name: "PostToolUseFailure", Says: "working (the turn goes on after a failed tool)", Source: src + ": PostToolUseFailure{tool_name, error}", do: report(agentstate.Working)},
		{Harness: h, Name: "PermissionRequest", Says: "needs_input (approval): approve <tool>: <what>", Source: src + ": PermissionRequest{tool_name, tool_input, action, agent_id}", do: approval},
		{Harness: h, Name: "PermissionResult", Says: "working: the person answered", Source: src + ": PermissionResult", do: report(agentstate.Working)},
		{Harness: h, Name: "Stop", Says: "done", Source: src + ": Stop{stop_hook_active}", do: report(agentstate.Done)},
		{Harness: h, Name: "StopFailure", Says: "errored with the error", Source: src + ": StopFailure{error_type, error_message}", do: func(t *Translation, p *payload) {
			t.Report, t.State = true, agentstate.Errored
			t.Message = NeedsInputText(firstNonEmpty(p.ErrorMessage, "the turn failed"))
		}},
		{Harness: h, Name: "Interrupt", Says: "idle: the person stopped the turn", Source: src + ": Interrupt{turn_id, reason: cancelled}", do: report(agentstate.Idle)},
		{Harness: h, Name: "SessionEnd", Says: "none: the agent left", Source: src + ": SessionEnd{reason}", do: report(agentstate.None)},
	}
}

func sessionOnly(h, src string) []Event {
	return []Event{{Harness: h, Name: "SessionStart", Says: "the conversation id (no state)", Source: src,
		do: func(t *Translation, _ *payload) { t.SessionOnly = t.SessionID != "" }}}
}

// amp is the map for tuios's Amp plugin, which passes on each top-level
// thread's state stream (ThreadState: idle, running, awaiting-approval,
// error; Amp's plugin API documentation, 0.0.1790142911).
func amp() []Event {
	const h, src = "amp", "Amp plugin API (amp plugins show-docs): PluginThread.state, passed on by tuios's plugin"
	return []Event{
		{Harness: h, Name: "session.start", Says: "idle at the prompt, the thread id", Source: src + ": session.start{thread}", do: sessionStarted},
		{Harness: h, Name: "thread.running", Says: "working", Source: src + ": running", do: report(agentstate.Working)},
		{Harness: h, Name: "thread.awaiting-approval", Says: "needs_input (approval)", Source: src + ": awaiting-approval", do: func(t *Translation, p *payload) {
			t.Report, t.State, t.Kind, t.Message = true, agentstate.NeedsInput, agentstate.KindApproval, "approve a tool call"
		}},
		{Harness: h, Name: "thread.idle", Says: "done, only from working or needs_input (the stream also says idle before the first turn)", Source: src + ": idle", do: func(t *Translation, _ *payload) {
			t.Report, t.State, t.IfState = true, agentstate.Done, agentstate.SetOf(agentstate.Working, agentstate.NeedsInput)
		}},
		{Harness: h, Name: "thread.error", Says: "errored", Source: src + ": error", do: failed},
	}
}

// piLike is the map for tuios's Pi and oh-my-pi extension, which passes on
// pi.on events by their own names.
func piLike(h, src string) []Event {
	return []Event{
		{Harness: h, Name: "session_start", Says: "idle at the prompt, the session id", Source: src + ": session_start{reason}", do: sessionStarted},
		{Harness: h, Name: "agent_start", Says: "working", Source: src + ": agent_start (once per prompt)", do: report(agentstate.Working)},
		{Harness: h, Name: "tool_execution_start", Says: "working, now: the tool and its target", Source: src + ": tool_execution_start{toolName, args}", do: working},
		{Harness: h, Name: "tool_approval_requested", Says: "needs_input (approval)", Source: src + ": tool_approval_requested{toolName, reason} (oh-my-pi)", do: approval},
		{Harness: h, Name: "tool_approval_resolved", Says: "working: the person answered", Source: src + ": tool_approval_resolved (oh-my-pi)", do: report(agentstate.Working)},
		{Harness: h, Name: "agent_end", Says: "done", Source: src + ": agent_end (the extension drops one that will continue)", do: report(agentstate.Done)},
		{Harness: h, Name: "session_shutdown", Says: "none: the agent quit", Source: src + ": session_shutdown{reason: quit}", do: report(agentstate.None)},
	}
}

// opencodeLike is the map for the plugin tuios installs into opencode and
// Kilo, which passes on opencode's bus events (session.status busy,
// session.idle, session.error, permission.asked/updated/replied; read in
// opencode 1.18.33's binary) as one JSON object.
func opencodeLike(h string) []Event {
	const src = "opencode 1.18.33 bus events, passed on by tuios's plugin (opencodePlugin in internal/integration/plugins.go)"
	return []Event{
		{Harness: h, Name: "session.busy", Says: "working", Source: src + ": session.status{status: {type: busy}}", do: report(agentstate.Working)},
		{Harness: h, Name: "permission.asked", Says: "needs_input (approval): approve <permission>: <what>", Source: src + ": permission.asked{permission, patterns}", do: approval},
		{Harness: h, Name: "permission.replied", Says: "working: the person answered", Source: src, do: report(agentstate.Working)},
		{Harness: h, Name: "question.asked", Says: "needs_input (question) with the question", Source: src + ": question.asked{questions}", do: question},
		{Harness: h, Name: "question.replied", Says: "working: the person answered", Source: src, do: report(agentstate.Working)},
		{Harness: h, Name: "question.rejected", Says: "working: the person dismissed the question", Source: src, do: report(agentstate.Working)},
		{Harness: h, Name: "session.idle", Says: "done: the session went idle", Source: src + ": session.idle{sessionID}", do: report(agentstate.Done)},
		{Harness: h, Name: "session.error", Says: "errored with the error", Source: src + ": session.error{error}", do: failed},
	}
}

// only keeps the rows for the named events.
func only(rows []Event, names ...string) []Event {
	var out []Event
	for _, r := range rows {
		for _, n := range names {
			if r.Name == n {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// claudeLike is Claude Code's map: one JSON object on stdin with
// session_id, transcript_path, cwd and hook_event_name; agent_id is set
// when a subagent fired the event.
func claudeLike(h, src string) []Event {
	nothing := func(*Translation, *payload) {}
	return []Event{
		{Harness: h, Name: "SessionStart", Says: "idle at the prompt, session id and transcript (the exact join); forgets subagents",
			Source: src + ": SessionStart{source: startup|resume|clear|compact}", do: sessionStarted},
		{Harness: h, Name: "UserPromptSubmit", Says: "working", Source: src + ": UserPromptSubmit{prompt}", do: working},
		{Harness: h, Name: "PreToolUse", When: "from a subagent", Says: "the subagent's tool (no state)", Source: src + ": agent_id in the base input", cond: fromSubagent, do: subagentTool},
		{Harness: h, Name: "PreToolUse", When: "the Task tool", Says: "working; the subagent's description for its start", Source: src + ": tool_input{description, subagent_type}", cond: isTaskTool, do: subagentIntent},
		{Harness: h, Name: "PreToolUse", Says: "working, now: the tool and its target", Source: src + ": PreToolUse{tool_name, tool_input}", do: working},
		{Harness: h, Name: "PostToolUse", When: "from a subagent", Says: "nothing", Source: src, cond: fromSubagent, do: nothing},
		{Harness: h, Name: "PostToolUse", Says: "working (a prompt that was answered is gone)", Source: src + ": PostToolUse{tool_name, tool_response}", do: report(agentstate.Working)},
		{Harness: h, Name: "PostToolUseFailure", When: "from a subagent", Says: "nothing", Source: src, cond: fromSubagent, do: nothing},
		{Harness: h, Name: "PostToolUseFailure", Says: "working (the turn goes on after a failed tool)", Source: src + ": PostToolUseFailure{error, is_interrupt}", do: report(agentstate.Working)},
		{Harness: h, Name: "PermissionRequest", Says: "needs_input (approval): approve <tool>: <what>", Source: src + ": PermissionRequest{tool_name, tool_input}", do: approval},
		{Harness: h, Name: "Notification", When: "notification_type=permission_prompt", Says: "needs_input (approval) with its message, unless the pane already waits (PermissionRequest said more)",
			Source: src + ": Notification{message, title, notification_type}; it follows PermissionRequest", cond: notification("permission_prompt"), do: permissionNotice},
		{Harness: h, Name: "Notification", When: "notification_type=elicitation_dialog", Says: "needs_input (question) with its message", Source: src, cond: notification("elicitation_dialog"), do: question},
		{Harness: h, Name: "Notification", When: "notification_type=idle_prompt", Says: "idle, only from working, needs_input or unknown (late but authoritative: a finished turn stays done)",
			Source: src + "; idle_prompt fires after the prompt has waited a while", cond: notification("idle_prompt"), do: func(t *Translation, _ *payload) {
				t.Report, t.State, t.IfState = true, agentstate.Idle, agentstate.SetOf(agentstate.Working, agentstate.NeedsInput, agentstate.Unknown)
			}},
		{Harness: h, Name: "Elicitation", Says: "needs_input (question): an MCP server asks", Source: src + ": Elicitation{mcp_server_name, message}", do: question},
		{Harness: h, Name: "Stop", Says: "done", Source: src + ": Stop{stop_hook_active, last_assistant_message}", do: report(agentstate.Done)},
		{Harness: h, Name: "StopFailure", Says: "errored with the error", Source: src + ": StopFailure{error, error_details}", do: failed},
		{Harness: h, Name: "SubagentStart", Says: "a subagent row starts", Source: src + ": SubagentStart{agent_id, agent_type}", do: func(t *Translation, p *payload) {
			t.Activity = &agentstate.Activity{Kind: agentstate.SubagentStart, ID: p.AgentID, Type: p.AgentType, SessionID: t.SessionID, Harness: t.Harness}
		}},
		{Harness: h, Name: "SubagentStop", Says: "the subagent row ends (done with a final message, else stopped)", Source: src + ": SubagentStop{agent_id, agent_type, last_assistant_message}", do: func(t *Translation, p *payload) {
			t.Activity = &agentstate.Activity{Kind: agentstate.SubagentStop, ID: p.AgentID, Type: p.AgentType, Result: p.LastMessage, SessionID: t.SessionID, Harness: t.Harness}
		}},
		{Harness: h, Name: "SessionEnd", Says: "none: the agent left", Source: src + ": SessionEnd{reason}", do: report(agentstate.None)},
	}
}

// gemini is Gemini CLI's map (0.61.0: HookEventName in the bundle, the
// payloads of HookEventHandler, bundle/docs/hooks). Every hook must print
// JSON or nothing, so the reply is {}.
func gemini() []Event {
	const h, src = "gemini-cli", "Gemini CLI 0.61.0 bundle (HookEventName, HookEventHandler) and bundle/docs/hooks"
	return []Event{
		{Harness: h, Name: "SessionStart", Says: "idle at the prompt, session id", Source: src + ": SessionStart{source: startup|resume|clear}", do: sessionStarted},
		{Harness: h, Name: "BeforeAgent", Says: "working: a prompt was submitted", Source: src + ": BeforeAgent{prompt}", do: working},
		{Harness: h, Name: "BeforeTool", Says: "working, now: the tool and its target", Source: src + ": BeforeTool{tool_name, tool_input}", do: working},
		{Harness: h, Name: "AfterTool", Says: "working (a prompt that was answered is gone)", Source: src + ": AfterTool{tool_name, tool_response}", do: report(agentstate.Working)},
		{Harness: h, Name: "Notification", When: "notification_type=ToolPermission", Says: "needs_input (approval): approve <what it runs or edits>, else its message",
			Source: src + ": Notification{notification_type: ToolPermission, message, details{command, fileName, url}}",
			cond:   notification("ToolPermission"), do: func(t *Translation, p *payload) {
				notified(t, p)
				switch d := p.Details; {
				case d.Command != "":
					t.Message = NeedsInputText("approve shell: " + d.Command)
				case d.FileName != "":
					t.Message = NeedsInputText("approve edit: " + relTo(d.FileName, p.Cwd))
				case d.URL != "":
					t.Message = NeedsInputText("approve fetch: " + d.URL)
				}
			}},
		{Harness: h, Name: "AfterAgent", Says: "done: the turn finished", Source: src + ": AfterAgent{prompt, prompt_response} (fires once no tool call is pending)", do: report(agentstate.Done)},
		{Harness: h, Name: "SessionEnd", Says: "none: the agent left", Source: src + ": SessionEnd{reason}", do: report(agentstate.None)},
	}
}

// harness is how one harness calls its hooks.
type harness struct {
	id    string
	reply string // printed on stdout after every hook
	read  func(Input) (*payload, error)
	// conversation is the field that names the agent's conversation, when
	// it is not session_id (or Codex's thread-id).
	conversation func(*payload) string
	// detached: the harness may run its hooks from a helper process it
	// shares between panes, which carries the environment of whichever
	// pane started it.
	detached bool
}

// RunsDetached reports whether a harness may run its hooks from a helper
// shared between panes (Codex 0.171's app-server daemon runs every TUI's
// hooks), so that the hook's environment does not say which pane it
// speaks for: the pane is then found by the agent's session.
func RunsDetached(harness string) bool {
	h, ok := harnessByID(harness)
	return ok && h.detached
}

// session is the conversation id the payload names.
func (h harness) session(p *payload) string {
	if h.conversation != nil {
		return h.conversation(p)
	}
	return firstNonEmpty(p.SessionID, p.ThreadID)
}

func harnessByID(id string) (harness, bool) {
	for _, h := range harnesses() {
		if h.id == id {
			return h, true
		}
	}
	return harness{}, false
}

// Harnesses lists the harness ids Decode reads.
func Harnesses() []string {
	var out []string
	for _, h := range harnesses() {
		out = append(out, h.id)
	}
	return out
}

func harnesses() []harness {
	return []harness{
		{id: "claude-code", read: stdinJSON},
		{id: "codex", read: stdinJSON, detached: true},
		{id: "gemini-cli", read: stdinJSON, reply: "{}"},
		{id: "qwen", read: stdinJSON},
		{id: "opencode", read: stdinJSON},
		{id: "kilo", read: stdinJSON},
		{id: "copilot", read: stdinJSON},
		{id: "amp", read: stdinJSON},
		{id: "droid", read: stdinJSON},
		{id: "qoder", read: stdinJSON},
		{id: "pi", read: stdinJSON},
		{id: "oh-my-pi", read: stdinJSON},
		{id: "cursor-agent", read: stdinJSON, conversation: func(p *payload) string { return firstNonEmpty(p.ConversationID, p.SessionID) }},
		{id: "kimi", read: stdinJSON},
		{id: "crush", read: stdinJSON},
		{id: "grok", read: stdinJSON, conversation: func(p *payload) string { return firstNonEmpty(p.SessionIDCamel, p.SessionID) }},
		{id: "hermes", read: stdinJSON},
		{id: "devin", read: stdinJSON},
	}
}

// stdinJSON reads one JSON object from the hook's standard input, or
// from its last argument when nothing came on stdin.
func stdinJSON(in Input) (*payload, error) {
	data := in.Stdin
	if len(data) == 0 && len(in.Args) > 0 {
		data = []byte(in.Args[len(in.Args)-1])
	}
	if len(data) > MaxPayload {
		return nil, &Error{code: CodeTooLarge, Harness: in.Harness}
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, &Error{code: CodeBadPayload, Harness: in.Harness, Detail: "not one JSON object on stdin"}
	}
	return &p, nil
}
