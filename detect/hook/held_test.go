package hook_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect/hook"
)

// Claude Code 2.1.197's PermissionRequest payloads, in the shape its hook
// receives them (session fields trimmed).
const (
	permBash = `{"session_id":"s1","cwd":"/src/api","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash",` +
		`"tool_input":{"command":"make test","description":"Run the tests"},` +
		`"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"make test:*"}],"behavior":"allow","destination":"localSettings"}]}`
	permBashNoSandbox = `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"make","dangerouslyDisableSandbox":true}}`
	permRead          = `{"hook_event_name":"PermissionRequest","cwd":"/src/api","tool_name":"Read","tool_input":{"file_path":"/src/api/go.mod"},` +
		`"permission_suggestions":[{"type":"addDirectories","directories":["/src"],"destination":"session"},{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`
	permGrepPath  = `{"hook_event_name":"PermissionRequest","tool_name":"Grep","tool_input":{"pattern":"TODO","path":"/etc"}}`
	permGrep      = `{"hook_event_name":"PermissionRequest","tool_name":"Grep","tool_input":{"pattern":"TODO"}}`
	permWrite     = `{"hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"file_path":"/src/api/x.go","content":"package x"}}`
	permMCP       = `{"hook_event_name":"PermissionRequest","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`
	permFetch     = `{"hook_event_name":"PermissionRequest","tool_name":"WebFetch","tool_input":{"url":"https://go.dev/doc","prompt":"summarise"}}`
	permPlan      = `{"hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{"plan":"# Refactor the retry loop\n\n1. read\n2. fix\n"}}`
	permPlanEdits = `{"hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{"plan":"# P\n"},"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]}`
	permPlanAP    = `{"hook_event_name":"PermissionRequest","tool_name":"ExitPlanMode","tool_input":{"plan":"# P\n","allowedPrompts":[{"tool":"Bash","prompt":"run tests"}]}}`
	preToolUse    = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"}}`
)

func held(t *testing.T, harness, payload string) (hook.Held, bool) {
	t.Helper()
	return hook.HeldRequest(hook.Input{Harness: harness, Stdin: []byte(payload)})
}

func TestHeldRequestWhatIsHeld(t *testing.T) {
	h, ok := held(t, "claude-code", permBash)
	if !ok || h.Kind != "approval" || h.Tool != "Bash" || h.Target != "make test" || h.Summary != "approve Bash: make test" {
		t.Fatalf("Bash: %v %+v", ok, h)
	}
	if strings.Join(h.Options, ",") != "once,always,deny" || len(h.AlwaysScope) != 1 || h.AlwaysScope[0] != "Bash(make test:*) in .claude/settings.local.json" {
		t.Fatalf("Bash always: %+v", h)
	}
	// A suggestion that cannot be shown as a line (setMode) drops always.
	if h, ok := held(t, "claude-code", permRead); !ok || h.Summary != "approve Read: go.mod" || len(h.AlwaysScope) != 0 || strings.Join(h.Options, ",") != "once,deny" {
		t.Fatalf("Read: %v %+v", ok, h)
	}
	if h, ok := held(t, "claude-code", permGrep); !ok || h.Summary != "approve Grep: TODO" {
		t.Fatalf("Grep: %v %+v", ok, h)
	}
	if h, ok := held(t, "claude-code", permFetch); !ok || h.Summary != "approve WebFetch: https://go.dev/doc" {
		t.Fatalf("WebFetch: %v %+v", ok, h)
	}
	if h, ok := held(t, "claude-code", permPlan); !ok || h.Kind != "plan" || h.Summary != "Refactor the retry loop (4 lines)" || !strings.HasPrefix(h.Plan, "# Refactor") {
		t.Fatalf("plan: %v %+v", ok, h)
	}
	// A plan: 2 (approve and accept edits) only when Claude Code offers
	// exactly setMode acceptEdits for the session; that is what 2 sends.
	if h, _ := held(t, "claude-code", permPlan); strings.Join(h.Options, ",") != "once,deny" {
		t.Errorf("plan with no suggestion: %+v", h.Options)
	}
	h, ok = held(t, "claude-code", permPlanEdits)
	if !ok || h.Kind != "plan" || strings.Join(h.Options, ",") != "once,always,deny" {
		t.Fatalf("plan offering accept edits: %v %+v", ok, h)
	}
	if r := h.Reply("always", ""); !strings.Contains(r, `"behavior":"allow"`) || !strings.Contains(r, `"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`) {
		t.Errorf("plan always: %s", r)
	}
	for _, sug := range []string{`[{"type":"setMode","mode":"bypassPermissions","destination":"session"}]`,
		`[{"type":"setMode","mode":"acceptEdits","destination":"session"},{"type":"addDirectories","directories":["/"],"destination":"session"}]`} {
		p := strings.Replace(permPlanEdits, `"permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`, `"permission_suggestions":`+sug, 1)
		if h, _ := held(t, "claude-code", p); strings.Join(h.Options, ",") != "once,deny" {
			t.Errorf("plan offering %s: %+v", sug, h.Options)
		}
	}
	for name, p := range map[string]string{"no sandbox": permBashNoSandbox, "grep with path": permGrepPath, "write": permWrite,
		"mcp": permMCP, "plan with allowedPrompts": permPlanAP, "another event": preToolUse, "not JSON": "{", "empty": ""} {
		if _, ok := held(t, "claude-code", p); ok {
			t.Errorf("%s: held", name)
		}
	}
	if _, ok := held(t, "codex", permBash); ok {
		t.Error("codex's permission hook fires before its own rules: never held")
	}
}

// The answers printed for Claude Code's PermissionRequest hook.
func TestHeldReply(t *testing.T) {
	h, _ := held(t, "claude-code", permBash)
	var out struct {
		HookSpecificOutput struct {
			HookEventName string `json:"hookEventName"`
			Decision      struct {
				Behavior           string            `json:"behavior"`
				Message            string            `json:"message"`
				UpdatedPermissions []json.RawMessage `json:"updatedPermissions"`
			} `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	read := func(s string) {
		t.Helper()
		out.HookSpecificOutput.Decision.UpdatedPermissions = nil
		if err := json.Unmarshal([]byte(s), &out); err != nil || out.HookSpecificOutput.HookEventName != "PermissionRequest" {
			t.Fatalf("%q: %v", s, err)
		}
	}
	read(h.Reply("once", ""))
	if d := out.HookSpecificOutput.Decision; d.Behavior != "allow" || d.UpdatedPermissions != nil {
		t.Fatalf("once: %+v", d)
	}
	read(h.Reply("always", ""))
	if d := out.HookSpecificOutput.Decision; d.Behavior != "allow" || len(d.UpdatedPermissions) != 1 || !strings.Contains(string(d.UpdatedPermissions[0]), `"ruleContent":"make test:*"`) {
		t.Fatalf("always: %+v", d)
	}
	read(h.Reply("deny", "use go test"))
	if d := out.HookSpecificOutput.Decision; d.Behavior != "deny" || d.Message != "use go test" {
		t.Fatalf("deny: %+v", d)
	}
	// No decision, or one not offered: nothing, so the harness asks.
	for _, d := range []string{"", "ask", "maybe"} {
		if s := h.Reply(d, ""); s != "" {
			t.Errorf("%q: %s", d, s)
		}
	}
	r, _ := held(t, "claude-code", permRead)
	if s := r.Reply("always", ""); s != "" {
		t.Errorf("always where it was not offered: %s", s)
	}
}

// Fuzz: reading any payload never panics, and a held request always has
// a summary, options that are decisions, and an always only with a scope.
func FuzzHeldRequest(f *testing.F) {
	for _, s := range []string{permBash, permRead, permGrep, permPlan, permPlanAP, permWrite, "{}", "[]", `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		h, ok := hook.HeldRequest(hook.Input{Harness: "claude-code", Stdin: []byte(payload)})
		if !ok {
			return
		}
		if h.Summary == "" || len(h.Options) == 0 {
			t.Fatalf("%+v", h)
		}
		for _, o := range h.Options {
			if o != "once" && o != "always" && o != "deny" {
				t.Fatalf("option %q", o)
			}
			if o == "always" && (len(h.AlwaysScope) == 0 || len(h.AlwaysScope) > 4) {
				t.Fatalf("always with scope %q", h.AlwaysScope)
			}
		}
		_ = h.Reply("always", "")
	})
}

// What tuios's opencode/Kilo plugin (v3) hands agent-hook --hold: opencode
// 1.18.33's permission.asked fields, plus the bash call's workdir.
const (
	ocBash    = `{"hook_event_name":"permission.asked","session_id":"ses_1","cwd":"/src/api","tool_name":"bash","message":"make test","request_id":"per_1","patterns":["make test"],"metadata":{"command":"make test && go vet ./..."},"workdir":""}`
	ocWorkdir = `{"hook_event_name":"permission.asked","tool_name":"bash","request_id":"per_1","patterns":["make"],"metadata":{"command":"make"},"workdir":"/etc"}`
	ocRead    = `{"hook_event_name":"permission.asked","tool_name":"read","request_id":"per_2","patterns":["go.mod"],"metadata":{}}`
	ocFetch   = `{"hook_event_name":"permission.asked","tool_name":"webfetch","request_id":"per_3","patterns":["https://go.dev/doc"],"metadata":{"url":"https://go.dev/doc","format":"markdown"}}`
	ocEdit    = `{"hook_event_name":"permission.asked","tool_name":"edit","request_id":"per_4","patterns":["x.go"],"metadata":{}}`
	ocOutside = `{"hook_event_name":"permission.asked","tool_name":"external_directory","request_id":"per_5","patterns":["/etc/*"],"metadata":{"command":"cat /etc/hosts"}}`
	ocSkill   = `{"hook_event_name":"permission.asked","tool_name":"bash","request_id":"per_6","patterns":["make"],"metadata":{"command":"make","skillShell":true}}`
)

func TestHeldRequestFromThePlugin(t *testing.T) {
	hold := func(harness, payload string, asked bool) (hook.Held, bool) {
		return hook.HeldRequest(hook.Input{Harness: harness, Stdin: []byte(payload), Hold: asked})
	}
	// The whole command line, not the patterns opencode split it into.
	h, ok := hold("opencode", ocBash, true)
	if !ok || h.Summary != "approve bash: make test && go vet ./..." || h.Tool != "bash" || strings.Join(h.Options, ",") != "once,deny" {
		t.Fatalf("bash: %v %+v", ok, h)
	}
	if h, ok := hold("kilo", ocRead, true); !ok || h.Summary != "approve read: go.mod" {
		t.Fatalf("read: %v %+v", ok, h)
	}
	if h, ok := hold("opencode", ocFetch, true); !ok || h.Summary != "approve webfetch: https://go.dev/doc" {
		t.Fatalf("webfetch: %v %+v", ok, h)
	}
	for name, p := range map[string]string{"workdir": ocWorkdir, "edit": ocEdit, "outside the project": ocOutside,
		"Kilo skill shell": ocSkill, "not JSON": "{", "empty": ""} {
		if _, ok := hold("opencode", p, true); ok {
			t.Errorf("%s: held", name)
		}
	}
	// The plugin's ordinary report of the same event never holds: it
	// does not read what the hook prints.
	if _, ok := hold("opencode", ocBash, false); ok {
		t.Error("held without --hold")
	}

	var out struct{ Reply, Message string }
	read := func(s string) {
		t.Helper()
		out.Reply, out.Message = "", ""
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	}
	read(h.Reply("once", ""))
	if out.Reply != "once" || out.Message != "" {
		t.Fatalf("once: %+v", out)
	}
	read(h.Reply("deny", "use go test"))
	if out.Reply != "reject" || out.Message != "use go test" {
		t.Fatalf("deny: %+v", out)
	}
	read(h.Reply("deny", ""))
	if out.Reply != "reject" || out.Message != "The user denied this from the tuios Inbox." {
		t.Fatalf("deny without a reason: %+v", out)
	}
	// always is never offered to the plugin; no decision leaves the
	// request to opencode's own prompt.
	for _, d := range []string{"", "ask", "always"} {
		if s := h.Reply(d, ""); s != "" {
			t.Errorf("%q: %s", d, s)
		}
	}
}
