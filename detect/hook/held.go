package hook

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Held approvals: a permission request the hook may hold for the person's
// Inbox (request-approval) before the harness shows its own dialog, and
// the answer the harness reads back from the hook. Only a request a
// person can read whole on one line is held; everything else
// is answered in the pane. Reading here is pure: the CLI does the talking.

// Held is one permission request that may be held.
type Held struct {
	Kind    string // "approval" or "plan"
	Tool    string // the tool asked for, e.g. Bash
	Target  string // what it acts on: the command, path, pattern, URL or query
	Summary string // the whole request on one line: "approve Bash: make test", or a plan's title and length
	Plan    string // kind plan: the plan's text
	// Options are the decisions offered: once and deny, and always when
	// every rule it adds can be shown (AlwaysScope).
	Options     []string
	AlwaysScope []string
	// always is what "always" hands back to the harness: the permission
	// updates it suggested, unchanged, so what is added is what was shown.
	always json.RawMessage
	// plugin is set for a request from the opencode/Kilo plugin, which
	// reads another answer than Claude Code's (see Reply).
	plugin bool
}

// maxHeldPlan is the longest plan text held (32 KiB).
const maxHeldPlan = 32 << 10

// heldPayload is what Claude Code's PermissionRequest hook reads.
type heldPayload struct {
	Event       string          `json:"hook_event_name"`
	Cwd         string          `json:"cwd"`
	ToolName    string          `json:"tool_name"`
	ToolInput   json.RawMessage `json:"tool_input"`
	Suggestions json.RawMessage `json:"permission_suggestions"`
}

type heldInput struct {
	Command        string          `json:"command"`
	NoSandbox      bool            `json:"dangerouslyDisableSandbox"`
	FilePath       string          `json:"file_path"`
	Pattern        string          `json:"pattern"`
	Path           *string         `json:"path"`
	URL            string          `json:"url"`
	Query          string          `json:"query"`
	Plan           string          `json:"plan"`
	AllowedPrompts json.RawMessage `json:"allowedPrompts"`
}

// HeldRequest reads a hook invocation as a request to hold. ok is false
// for every harness but Claude Code, Qwen Code (held_qwen.go) and (with
// in.Hold) opencode and Kilo, for other events, and for tools that
// are never held: edits and writes, MCP tools, AskUserQuestion, Bash with
// dangerouslyDisableSandbox, Grep with a path, plans that name
// allowedPrompts. Whether the line can be shown whole is the daemon's
// check (it answers not_shown); this only builds it.
func HeldRequest(in Input) (Held, bool) {
	if (in.Harness == "opencode" || in.Harness == "kilo") && in.Hold {
		return pluginHeld(in.Stdin)
	}
	if in.Harness == "qwen" {
		return qwenHeld(in.Stdin)
	}
	if in.Harness != "claude-code" {
		return Held{}, false
	}
	data := in.Stdin
	if len(data) == 0 && len(in.Args) > 0 {
		data = []byte(in.Args[len(in.Args)-1])
	}
	var ti heldInput
	p, ok := permissionRequest(data, &ti)
	if !ok {
		return Held{}, false
	}
	h := Held{Kind: "approval", Tool: p.ToolName}
	switch p.ToolName {
	case "Bash":
		if ti.NoSandbox || ti.Command == "" {
			return Held{}, false
		}
		h.Target = ti.Command
	case "Read":
		h.Target = relTo(ti.FilePath, p.Cwd)
	case "Glob":
		h.Target = ti.Pattern
		if ti.Path != nil && *ti.Path != "" {
			h.Target += " in " + relTo(*ti.Path, p.Cwd)
		}
	case "Grep":
		if ti.Path != nil {
			return Held{}, false
		}
		h.Target = ti.Pattern
	case "WebFetch":
		h.Target = ti.URL
	case "WebSearch":
		h.Target = ti.Query
	case "ExitPlanMode":
		if ti.Plan == "" || len(ti.Plan) > maxHeldPlan || !utf8.ValidString(ti.Plan) || hasEntries(ti.AllowedPrompts) {
			return Held{}, false
		}
		h.Kind, h.Plan, h.Target = "plan", ti.Plan, ""
		h.Summary = planSummary(ti.Plan)
		h.Options = []string{"once", "deny"}
		if acceptEditsOnly(p.Suggestions) {
			// Claude Code's own "Yes, and auto-accept edits": 2 in the
			// Inbox, offered only when Claude offers exactly that.
			h.AlwaysScope, h.always = []string{"accept edits for this session"}, p.Suggestions
			h.Options = []string{"once", "always", "deny"}
		}
		return h, true
	default:
		return Held{}, false
	}
	if h.Target == "" {
		return Held{}, false
	}
	// Sent as it is: the daemon refuses what it cannot show whole, so a
	// newline or a doubled space is never cleaned into a different line.
	h.Summary = "approve " + h.Tool + ": " + h.Target
	h.Options = []string{"once", "deny"}
	if scope, ok := alwaysScope(p.Suggestions); ok {
		h.AlwaysScope, h.always = scope, p.Suggestions
		h.Options = []string{"once", "always", "deny"}
	}
	return h, true
}

// pluginPayload is what tuios's opencode/Kilo plugin (v3) hands to
// agent-hook --hold: the permission.asked event's fields, plus the
// workdir the bash call named (read by the plugin in tool.execute.before,
// since the request does not carry it).
type pluginPayload struct {
	Event      string   `json:"hook_event_name"`
	Permission string   `json:"tool_name"`
	RequestID  string   `json:"request_id"`
	Patterns   []string `json:"patterns"`
	Workdir    string   `json:"workdir"`
	Metadata   struct {
		Command string `json:"command"`
		URL     string `json:"url"`
		// Kilo takes only a reply a person typed for these, so they
		// are answered in its pane (Kilo 7.7.9's Permission.reply).
		SkillShell        bool `json:"skillShell"`
		SandboxEscalation bool `json:"sandboxEscalation"`
		Background        bool `json:"backgroundProcess"`
	} `json:"metadata"`
}

// pluginHeld reads an opencode/Kilo permission request:
// bash (the whole command from the request's metadata, not with a
// workdir, which the line would not show), read (the one path asked
// for) and webfetch (the URL). Everything else, external_directory and
// edits included, is answered in the pane. Only once and deny are
// offered: opencode's "always" keeps its own pattern list, and Kilo's
// writes it to the person's config, neither of which the Inbox shows.
func pluginHeld(data []byte) (Held, bool) {
	if len(data) == 0 || len(data) > MaxPayload {
		return Held{}, false
	}
	var p pluginPayload
	if json.Unmarshal(data, &p) != nil || p.Event != "permission.asked" || p.RequestID == "" {
		return Held{}, false
	}
	m := p.Metadata
	h := Held{Kind: "approval", Tool: p.Permission, Options: []string{"once", "deny"}, plugin: true}
	switch p.Permission {
	case "bash":
		if p.Workdir != "" || m.SkillShell || m.SandboxEscalation || m.Background {
			return Held{}, false
		}
		h.Target = m.Command
	case "read":
		if len(p.Patterns) != 1 {
			return Held{}, false
		}
		h.Target = p.Patterns[0]
	case "webfetch":
		h.Target = m.URL
	default:
		return Held{}, false
	}
	if h.Target == "" {
		return Held{}, false
	}
	h.Summary = "approve " + h.Tool + ": " + h.Target
	return h, true
}

func hasEntries(raw json.RawMessage) bool {
	var v []json.RawMessage
	return len(raw) > 0 && json.Unmarshal(raw, &v) == nil && len(v) > 0
}

// planSummary is a plan's row: its title (the first line with text,
// heading marks dropped) and its length.
func planSummary(plan string) string {
	title := ""
	for _, l := range strings.Split(plan, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l != "" {
			title = l
			break
		}
	}
	title = strings.Join(strings.FieldsFunc(title, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	}), " ")
	title = strings.TrimSpace(cutRunes(title, 100))
	if title == "" {
		title = "Plan"
	}
	n := strings.Count(strings.TrimRight(plan, "\n"), "\n") + 1
	unit := " lines)"
	if n == 1 {
		unit = " line)"
	}
	return title + " (" + strconv.Itoa(n) + unit
}

// permissionUpdate is one of Claude Code's suggested permission updates.
type permissionUpdate struct {
	Type        string   `json:"type"`
	Mode        string   `json:"mode"`
	Behavior    string   `json:"behavior"`
	Destination string   `json:"destination"`
	Directories []string `json:"directories"`
	Rules       []struct {
		ToolName    string  `json:"toolName"`
		RuleContent *string `json:"ruleContent"`
	} `json:"rules"`
}

// acceptEditsOnly reports whether a plan's suggestions are exactly
// "accept edits for this session" (never bypassPermissions or another
// mode, never with rules beside it).
func acceptEditsOnly(raw json.RawMessage) bool {
	var ups []permissionUpdate
	if len(raw) == 0 || json.Unmarshal(raw, &ups) != nil || len(ups) != 1 {
		return false
	}
	u := ups[0]
	return u.Type == "setMode" && u.Mode == "acceptEdits" && u.Destination == "session" && len(u.Rules) == 0 && len(u.Directories) == 0
}

// destinations name where Claude Code writes a rule, as a person reads it.
var destinations = map[string]string{
	"localSettings":   ".claude/settings.local.json",
	"projectSettings": ".claude/settings.json",
	"userSettings":    "~/.claude/settings.json",
	"session":         "this session",
}

// alwaysScope is what "always" would add, one line per rule or directory,
// e.g. "Bash(make:*) in .claude/settings.local.json". ok is false when
// there is nothing to add, more than four lines, or anything that cannot
// be shown as a line (another kind of update, an unknown destination): an
// "always" that adds what was not shown is never offered.
func alwaysScope(raw json.RawMessage) ([]string, bool) {
	var ups []permissionUpdate
	if len(raw) == 0 || json.Unmarshal(raw, &ups) != nil || len(ups) == 0 {
		return nil, false
	}
	var lines []string
	for _, u := range ups {
		where, known := destinations[u.Destination]
		if !known {
			return nil, false
		}
		switch {
		case u.Type == "addRules" && u.Behavior == "allow" && len(u.Rules) > 0:
			for _, r := range u.Rules {
				if r.ToolName == "" {
					return nil, false
				}
				rule := r.ToolName
				if r.RuleContent != nil {
					rule += "(" + *r.RuleContent + ")"
				}
				lines = append(lines, rule+" in "+where)
			}
		case u.Type == "addDirectories" && len(u.Directories) > 0:
			for _, d := range u.Directories {
				lines = append(lines, "read and edit under "+d+" in "+where)
			}
		default:
			return nil, false
		}
	}
	if len(lines) > 4 {
		return nil, false
	}
	return lines, true
}

// Reply is the hook's answer to Claude Code's PermissionRequest for a
// decision the person made in the Inbox: allow (once), allow and add the
// rules shown (always), or deny with the reason the model reads. An empty
// decision, or one this request did not offer, is "" (print nothing: the
// harness asks in its pane).
func (h Held) Reply(decision, message string) string {
	type decisionOut struct {
		Behavior           string          `json:"behavior"`
		UpdatedPermissions json.RawMessage `json:"updatedPermissions,omitempty"`
		Message            string          `json:"message,omitempty"`
	}
	if h.plugin {
		return h.pluginReply(decision, message)
	}
	var d decisionOut
	switch decision {
	case "once":
		d.Behavior = "allow"
	case "always":
		if len(h.always) == 0 || len(h.AlwaysScope) == 0 {
			return ""
		}
		d.Behavior, d.UpdatedPermissions = "allow", h.always
	case "deny":
		d.Behavior, d.Message = "deny", message
		if d.Message == "" {
			d.Message = "The user denied this from the tuios Inbox."
		}
	default:
		return ""
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": d}}
	b, err := json.Marshal(out)
	if err != nil {
		return ""
	}
	return string(b)
}

// pluginReply is what agent-hook --hold prints for the opencode/Kilo
// plugin, which hands it to opencode's permission reply (POST
// /permission/{id}/reply): {"reply":"once"}, or {"reply":"reject"} with
// the message the model reads. Anything else is "": the plugin then
// leaves the request to opencode's own prompt.
func (h Held) pluginReply(decision, message string) string {
	out := map[string]string{}
	switch decision {
	case "once":
		out["reply"] = "once"
	case "deny":
		out["reply"] = "reject"
		out["message"] = message
		if message == "" {
			out["message"] = "The user denied this from the tuios Inbox."
		}
	default:
		return ""
	}
	b, err := json.Marshal(out)
	if err != nil {
		return ""
	}
	return string(b)
}

// permissionRequest decodes a PermissionRequest hook payload and its tool
// input into input (a pointer to the harness's input struct); ok is false
// for anything else, or a payload too big or malformed to hold.
func permissionRequest(data []byte, input any) (heldPayload, bool) {
	var p heldPayload
	if len(data) == 0 || len(data) > MaxPayload || json.Unmarshal(data, &p) != nil || p.Event != "PermissionRequest" {
		return heldPayload{}, false
	}
	if len(p.ToolInput) == 0 || p.ToolInput[0] != '{' || json.Unmarshal(p.ToolInput, input) != nil {
		return heldPayload{}, false
	}
	return p, true
}
