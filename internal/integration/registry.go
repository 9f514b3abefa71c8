package integration

// notRunHere is what integration status says of an integration built
// from a harness's published hook documentation without the harness ever
// running where this version was built: from where, and no more.
func notRunHere(why, from string) string {
	return "not run where this tuios was built (" + why + "): follows " + from + " and claims no more"
}

// Harnesses lists every harness tuios knows, with how it is wired. The
// event lists are the events detect/hook maps for each harness; where a
// format was read is cited beside it.
func Harnesses() []Harness {
	return []Harness{
		{
			// ~/.claude/settings.json (CLAUDE_CONFIG_DIR moves the
			// directory); hooks {"Event": [{"matcher", "hooks": [{"type":
			// "command", "command", "timeout" (seconds)}]}]}. Read in
			// Claude Code 2.1.197's settings schema. v3 adds SubagentStart
			// and SubagentStop; v4 gives PermissionRequest 310 s, so the
			// hook can hold it for the Inbox (its own limit is 305 s).
			ID: "claude-code", Name: "Claude Code", Binary: "claude", Reports: ReportsState, Version: 4,
			dirEnv: "CLAUDE_CONFIG_DIR", dir: ".claude", file: "settings.json", statusLine: true,
			hooks: &jsonHooks{timeout: 10, timeouts: map[string]int{"PermissionRequest": 310}, events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
				"PostToolUseFailure", "PermissionRequest", "Notification", "Elicitation", "Stop", "StopFailure",
				"SubagentStart", "SubagentStop", "SessionEnd"}},
		},
		{
			// $CODEX_HOME/hooks.json (default ~/.codex), the same layout
			// as Claude Code's; Codex 0.171.0 lists hooks as untrusted until
			// a person trusts them once ("Hooks need review" at start). Its
			// TUI's shared app-server daemon runs every pane's hooks, so
			// agent-hook finds their pane by the agent's session (see
			// detect/hook.RunsDetached).
			ID: "codex", Name: "Codex", Binary: "codex", Reports: ReportsState, Version: 1,
			dirEnv: "CODEX_HOME", dir: ".codex", file: "hooks.json",
			hooks: &jsonHooks{timeout: 10, events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
				"PermissionRequest", "Stop", "Interrupt", "SubagentStart", "SubagentStop", "SessionEnd"}},
			notes: "Codex runs new hooks only once trusted: start codex and choose \"Trust all and continue\" (or review them with /hooks)",
		},
		{
			// ~/.gemini/settings.json; hooks as Claude Code's, timeout in
			// milliseconds; every hook must print JSON or nothing (Gemini
			// CLI 0.61.0 bundle/docs/hooks).
			ID: "gemini-cli", Name: "Gemini CLI", Binary: "gemini", Reports: ReportsState, Version: 1,
			homeEnv: "GEMINI_CLI_HOME", dir: ".gemini", file: "settings.json", suffix: " || echo '{}'",
			hooks: &jsonHooks{timeout: 5000, events: []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool",
				"Notification", "AfterAgent", "SessionEnd"}},
		},
		{
			// ~/.qwen/settings.json; Qwen Code 0.15.10 names its events as
			// Claude Code does, timeouts in milliseconds. v2 gives
			// PermissionRequest 310 s, so the hook can hold it for the
			// Inbox (its own limit is 305 s).
			ID: "qwen", Name: "Qwen Code", Binary: "qwen", Reports: ReportsState, Version: 2,
			dirEnv: "QWEN_HOME", dir: ".qwen", file: "settings.json",
			hooks: &jsonHooks{timeout: 5000, timeouts: map[string]int{"PermissionRequest": 310000}, events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
				"PostToolUseFailure", "PermissionRequest", "Notification", "Stop", "StopFailure", "SubagentStart",
				"SubagentStop", "SessionEnd"}},
		},
		{
			// ~/.config/opencode/plugins/tuios.js, a file tuios owns whole.
			// v3 holds permission requests for the Inbox.
			ID: "opencode", Name: "opencode", Binary: "opencode", Reports: ReportsState, Version: 3,
			dir: ".config/opencode", file: "plugins/tuios.js", owned: opencodePlugin,
			notes: "restart opencode to load the plugin",
		},
		{
			// Kilo is a fork of opencode and loads plugins the same way,
			// from ~/.config/kilo (kilo debug paths, 7.7.9); v3 is
			// opencode's v3.
			ID: "kilo", Name: "Kilo", Binary: "kilo", Reports: ReportsState, Version: 3,
			dir: ".config/kilo", file: "plugins/tuios.js", owned: opencodePlugin,
			notes: "restart kilo to load the plugin",
		},
		{
			// ~/.copilot/settings.json (COPILOT_HOME moves it): Copilot CLI
			// 1.0.102 reads Claude Code's hook layout there and hands
			// PascalCase events Claude Code's snake_case payloads. A failing
			// preToolUse hook denies the tool, hence the fallback.
			ID: "copilot", Name: "Copilot", Binary: "copilot", Reports: ReportsState, Version: 1,
			dirEnv: "COPILOT_HOME", dir: ".copilot", file: "settings.json", suffix: " || true",
			hooks: &jsonHooks{timeout: 10, events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
				"PermissionRequest", "Notification", "Stop", "SubagentStop", "SessionEnd"}},
		},
		{
			// ~/.config/amp/plugins/tuios.ts (Amp's system plugins).
			ID: "amp", Name: "Amp", Binary: "amp", Reports: ReportsState, Version: 2,
			dir: ".config/amp", file: "plugins/tuios.ts", owned: ampPlugin,
			notes: "run plugins: reload in Amp's command palette, or restart it",
		},
		{
			// ~/.pi/agent/extensions/tuios.ts (PI_CODING_AGENT_DIR moves
			// the agent directory).
			ID: "pi", Name: "Pi", Binary: "pi", Reports: ReportsState, Version: 2,
			dirEnv: "PI_CODING_AGENT_DIR", dir: ".pi/agent", file: "extensions/tuios.ts", owned: piExtension,
			notes: "run /reload in pi, or restart it",
		},
		{
			// ~/.omp/agent/extensions/tuios.ts.
			ID: "oh-my-pi", Name: "oh-my-pi", Binary: "omp", Reports: ReportsState, Version: 2,
			dir: ".omp/agent", file: "extensions/tuios.ts", owned: piExtension,
			notes: "restart omp to load the extension",
		},
		{
			// ~/.cursor/hooks.json (Cursor documents no variable that moves
			// ~/.cursor): {"version": 1, "hooks": {"event": [{"command"}]}},
			// camelCase events, one JSON object on stdin with
			// conversation_id and hook_event_name. Cursor has no hook for
			// "waiting for your approval", so needs_input is the screen's.
			ID: "cursor-agent", Name: "Cursor Agent", Binary: "cursor-agent", Reports: ReportsState, Version: 1,
			dir: ".cursor", file: "hooks.json",
			hooks: &jsonHooks{flat: true, version: true, events: []string{"sessionStart", "beforeSubmitPrompt", "preToolUse",
				"postToolUse", "postToolUseFailure", "stop", "sessionEnd"}},
			untested: notRunHere("not on npm", "Cursor's hooks documentation (cursor.com/docs/agent/hooks, read 2026-12-06)"),
		},
		{
			// ~/.kimi-code/config.toml (KIMI_CODE_HOME moves the
			// directory): [[hooks]] tables {event, matcher, command,
			// timeout (1-600 s)}; Claude Code's event names and a
			// snake_case JSON object on stdin (Kimi Code 2.1.0,
			// dist/main.mjs: HookDefSchema, runMatchedHooks).
			ID: "kimi", Name: "Kimi Code CLI", Binary: "kimi", Reports: ReportsState, Version: 1,
			dirEnv: "KIMI_CODE_HOME", dir: ".kimi-code", file: "config.toml",
			toml: &tomlHooks{timeout: 10, events: []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse",
				"PostToolUseFailure", "PermissionRequest", "PermissionResult", "Stop", "StopFailure", "Interrupt", "SessionEnd"}},
			untested: notRunHere("installed from npm, never run against a model", "Kimi Code 2.1.0's own code (npm @moonshot-ai/kimi-code, dist/main.mjs, read 2026-12-06)"),
		},
		{ID: "antigravity", Name: "Antigravity", Binary: "agy", Reason: "Antigravity CLI's hooks page (as mirrored at gemini.meetcoding.cn/antigravity/hooks.html, " +
			"read 2026-12-06) puts hooks.json in ~/.gemini/config/ or a workspace's .agents/ as a map of named hooks and names no field of their input, " +
			"while those who ran agy 1.0.x report another layout ({\"hooks\": {event: [...]}}) in which only PreToolUse and PostToolUse fire, with a camelCase " +
			"conversationId (websentry-ai/setup pull 104, June 2026; Cisco DefenseClaw's Antigravity connector docs): no published document names both " +
			"the file's layout and a conversation id, so tuios wires nothing; its screen is read"},
		{
			// $XDG_CONFIG_HOME/crush/crush.json (JSONC): flat entries
			// {command, timeout (s)}. PreToolUse is the one event every
			// Crush with hooks fires, and an event an older Crush does not
			// know is a config error, so only it is wired; its stdin
			// carries session_id (charmbracelet/crush docs/hooks/README.md).
			ID: "crush", Name: "Crush", Binary: "crush", Reports: ReportsSession, Version: 1,
			dir: ".config/crush", file: "crush.json",
			hooks:    &jsonHooks{flat: true, timeout: 10, events: []string{"PreToolUse"}},
			untested: notRunHere("its npm package fetches the binary from GitHub", "Crush's hooks documentation (github.com/charmbracelet/crush docs/hooks/README.md, read 2026-12-06)"),
			notes:    "Crush learns the conversation id at its first tool call; its state still comes from its herdr reports and the screen",
		},
		{ID: "devin", Name: "Devin", Binary: "devin", Reason: "Devin CLI runs your Claude Code hooks (docs.devin.ai/cli/extensibility/hooks, read 2026-12-06), " +
			"so with tuios integration install claude-code a Devin pane reports its conversation id through them (agent-hook tells Devin apart by the " +
			"DEVIN_PROJECT_DIR it sets; not run where this tuios was built); Devin's own hooks file is a project's .devin/hooks.v1.json, " +
			"and tuios does not write into your repositories; its screen is read"},
		{
			// ~/.grok/hooks/tuios.json, a file of tuios's own in Grok's
			// global hooks directory (always trusted), Claude Code's
			// layout; stdin carries sessionId (Grok 1.0.41's bundled
			// hooks guide, 10-hooks.md, in npm @xai-official/grok).
			ID: "grok", Name: "Grok", Binary: "grok", Reports: ReportsSession, Version: 1,
			dirEnv: "GROK_HOME", dir: ".grok", file: "hooks/tuios.json",
			hooks:    &jsonHooks{timeout: 5, events: []string{"SessionStart"}},
			untested: notRunHere("installed from npm, never run against a model", "the hooks guide Grok 1.0.41 ships (npm @xai-official/grok, 10-hooks.md, read 2026-12-06)"),
		},
		{
			// $HERMES_HOME/config.yaml (default ~/.hermes), its hooks:
			// block: {event: [{command, timeout (s)}]}, snake_case events,
			// Claude Code's wire format on stdin (hook_event_name,
			// session_id, cwd). The command runs without a shell
			// (shlex.split), so it carries no fallback. on_session_start
			// fires on a new conversation's first turn; pre_llm_call on
			// every turn, so a resumed conversation is learnt too.
			ID: "hermes", Name: "Hermes", Binary: "hermes", Reports: ReportsSession, Version: 1,
			dirEnv: "HERMES_HOME", dir: ".hermes", file: "config.yaml",
			yaml:     &yamlHooks{timeout: 10, events: []string{"on_session_start", "pre_llm_call"}},
			untested: notRunHere("not on npm", "Hermes Agent's hooks documentation (hermes-agent.nousresearch.com/docs/user-guide/features/hooks, \"Shell Hooks\", read 2026-12-06)"),
			notes:    "Hermes asks once per hook before it first runs it: answer yes (or run hermes --accept-hooks once, or set hooks_auto_accept: true, which gateway runs need)",
		},
		{
			// ~/.factory/settings.json: Droid reads Claude Code's hook
			// layout (Factory CLI 0.225.2); only SessionStart is wired.
			ID: "droid", Name: "Droid", Binary: "droid", Reports: ReportsSession, Version: 1,
			homeEnv: "FACTORY_HOME_OVERRIDE", dir: ".factory", file: "settings.json",
			hooks: &jsonHooks{timeout: 10, events: []string{"SessionStart"}},
		},
		{
			// ~/.qoder/settings.json: Qoder CLI 1.1.52's hook layout is
			// Claude Code's, timeouts in seconds.
			ID: "qoder", Name: "Qoder", Binary: "qodercli", Reports: ReportsSession, Version: 1,
			dir: ".qoder", file: "settings.json",
			hooks: &jsonHooks{timeout: 10, events: []string{"SessionStart"}},
		},
		{ID: "aider", Name: "aider", Binary: "aider", Reason: "aider has no hooks; tuios reads its process only"},
		{ID: "cline", Name: "Cline", Binary: "cline", Reason: "Cline has no hooks a terminal can use; tuios reads its screen"},
		{ID: "goose", Name: "goose", Binary: "goose", Reason: "goose has no hooks; tuios reads its screen"},
		{ID: "kiro", Name: "Kiro CLI", Binary: "kiro-cli", Reason: "Kiro CLI reports to herdr's socket by itself; it needs no install step"},
		{ID: "maki", Name: "Maki", Binary: "maki", Reason: "Maki has no hooks; tuios reads its screen"},
	}
}
