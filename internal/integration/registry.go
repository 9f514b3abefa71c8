package integration

// Reasons for harnesses whose integration this version does not have yet:
// their screens and processes are read as for any harness.
const (
	notYet        = "not in this version of tuios yet: it could not be installed where this version was built (not on npm); its screen and process are read"
	notYetSession = "it could not be installed on the machine this version was built on, so nothing of its hooks could be checked; its screen is read"
)

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
		{ID: "cursor-agent", Name: "Cursor Agent", Binary: "cursor-agent", Reason: notYet},
		{ID: "kimi", Name: "Kimi Code CLI", Binary: "kimi", Reason: notYet},
		{ID: "antigravity", Name: "Antigravity", Binary: "antigravity", Reason: notYetSession},
		{ID: "crush", Name: "Crush", Binary: "crush", Reason: "Crush reports to herdr's socket by itself; its session id hook is not built yet"},
		{ID: "devin", Name: "Devin", Binary: "devin", Reason: notYetSession},
		{ID: "grok", Name: "Grok", Binary: "grok", Reason: "the Grok CLI on npm (@vibe-kit/grok-cli 0.0.34) has no hooks; its screen is read"},
		{ID: "hermes", Name: "Hermes", Binary: "hermes", Reason: notYetSession},
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
