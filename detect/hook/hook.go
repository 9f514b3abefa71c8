package hook

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
)

// MaxPayload bounds what Decode reads of a payload; a hook that is handed
// more reads the first MaxPayload bytes and refuses the rest as too large.
const MaxPayload = 1 << 20

// Input is one hook invocation as the harness made it.
type Input struct {
	Harness string   // the harness id, e.g. "claude-code"
	Args    []string // the arguments after the harness; the last is the payload when Stdin is empty
	Stdin   []byte   // what the harness wrote to the hook's standard input
	// Getenv reads the hook's environment (nil: none). A harness that
	// runs another's hooks may say so only there: Devin CLI runs Claude
	// Code's hooks and sets DEVIN_PROJECT_DIR for every hook it runs.
	Getenv func(string) string
	// Hold is set by agent-hook --hold: the opencode/Kilo plugin asks to
	// hold a permission request it has already reported. Their ordinary
	// reports never hold (the plugin does not read their output).
	Hold bool
}

// Translation is what one hook invocation means for its pane.
type Translation struct {
	Harness string
	Event   string // the event's name as the harness gave it

	// Report is true when the event says something about the pane's
	// state; the fields below it are then the report.
	Report         bool
	State          agentstate.State
	Message        string
	Kind           agentstate.Kind
	IfState        agentstate.StateSet // the states the report applies from; empty: any
	SessionID      string
	TranscriptPath string // the harness's transcript file; joins the pane to it
	Now            string // what the agent is doing now; "" clears it

	// HarnessPID is the pid of the harness process that ran the hook,
	// when the caller knows it (the hook command's parent). Decode
	// cannot know it and leaves it zero. With it, a report binds to the
	// live agent, so a pane whose agent crashes still clears.
	HarnessPID int

	// SessionOnly is true for an event that names the agent's
	// conversation (SessionID) and says nothing of its state.
	SessionOnly bool

	// Activity is set when the event is about subagents (or a new agent
	// session, which forgets them).
	Activity *agentstate.Activity

	// Log is set when the event belongs in the pane's agent log: the
	// main agent's prompt, its tools and the end of its turn (Claude
	// Code and Codex, whose hooks see all three).
	Log *LogEvent

	// Reply is what the hook must print for the harness: "" for most,
	// "{}" for harnesses that read a JSON answer from every hook.
	Reply string

	// Why says, for a person reading an explanation, why the event reports
	// what it does or nothing at all.
	Why string
}

// AgentReport is the state report the event makes, ready for an
// agentstate arbiter: the agent speaking for itself (SourceReport), with
// the harness, message, kind, if_state guard, agent session, pid and
// what it is doing now. ok is false when the event says nothing about
// the state (Report is false).
//
// The report is only the state. A detect.Pane takes the whole
// translation in one call (Pane.Hook): the report, the transcript it
// names, the session of a session-only event and the subagent activity.
func (t Translation) AgentReport() (r agentstate.Report, ok bool) {
	if !t.Report {
		return agentstate.Report{}, false
	}
	return agentstate.Report{
		State: t.State, Source: agentstate.SourceReport, Harness: t.Harness,
		Message: t.Message, Kind: t.Kind, IfState: t.IfState,
		SessionID: t.SessionID, HarnessPID: t.HarnessPID, Now: t.Now,
	}, true
}

// Decode reads one hook invocation. An event the table does not map is
// not an error: it translates to nothing, with Why saying so. Errors are
// *Error with CodeUnknownHarness, CodeBadPayload or CodeTooLarge.
func Decode(in Input) (Translation, error) {
	h, ok := harnessByID(in.Harness)
	if !ok {
		return Translation{Harness: in.Harness}, &Error{code: CodeUnknownHarness, Harness: in.Harness}
	}
	if h.id == "claude-code" && ranByDevin(in) {
		h, _ = harnessByID("devin")
	}
	t := Translation{Harness: h.id, Reply: h.reply}
	if len(in.Stdin) > MaxPayload {
		return t, &Error{code: CodeTooLarge, Harness: h.id}
	}
	p, err := h.read(in)
	if err != nil {
		return t, err
	}
	if p.Event == "" { // Crush names the event "event"
		p.Event = p.EventAlt
	}
	t.Event = clip(oneLine(p.Event), 64)
	t.SessionID = clip(oneLine(h.session(p)), 256)
	t.TranscriptPath = p.TranscriptPath
	if len(t.TranscriptPath) > 4096 {
		t.TranscriptPath = ""
	}
	row, ok := match(h.id, p)
	if !ok {
		t.Why = "the event " + quote(t.Event) + " reports nothing for " + h.id
		return t, nil
	}
	row.apply(&t, p)
	t.Log = logOf(h.id, p)
	return t, nil
}

// ranByDevin says whether Devin CLI, not Claude Code, ran a Claude Code
// hook: Devin runs the person's Claude Code hooks ("If you already have
// hooks configured for Claude Code, they will work with Devin CLI
// automatically", docs.devin.ai/cli/extensibility/hooks, read
// 2026-12-06) and sets DEVIN_PROJECT_DIR for each; Claude Code sets
// CLAUDE_PROJECT_DIR for its own, so a Claude Code that Devin started
// still reports as itself.
func ranByDevin(in Input) bool {
	if in.Getenv == nil {
		return false
	}
	return in.Getenv("DEVIN_PROJECT_DIR") != "" && in.Getenv("CLAUDE_PROJECT_DIR") == ""
}

// payload is the union of the fields harnesses put in their hook input.
// Unknown fields are ignored; every field is optional.
type payload struct {
	Event            string          `json:"hook_event_name"`
	SessionID        string          `json:"session_id"`
	ThreadID         string          `json:"thread-id"`
	TranscriptPath   string          `json:"transcript_path"`
	Cwd              string          `json:"cwd"`
	ToolName         string          `json:"tool_name"`
	ToolInput        json.RawMessage `json:"tool_input"`
	Message          string          `json:"message"`
	NotificationType string          `json:"notification_type"`
	AgentID          string          `json:"agent_id"`
	AgentType        string          `json:"agent_type"`
	LastMessage      string          `json:"last_assistant_message"`
	Prompt           string          `json:"prompt"`
	LastMessageDash  string          `json:"last-assistant-message"`
	Error            json.RawMessage `json:"error"`
	ErrorMessage     string          `json:"error_message"` // Kimi Code's StopFailure
	Status           string          `json:"status"`        // Cursor's stop: completed, aborted, error
	ConversationID   string          `json:"conversation_id"`
	SessionIDCamel   string          `json:"sessionId"` // Grok
	EventAlt         string          `json:"event"`     // Crush names the event here
	Source           string          `json:"source"`
	Reason           string          `json:"reason"`
	Type             string          `json:"type"`
	Details          struct {
		Command  string `json:"command"`
		FileName string `json:"fileName"`
		URL      string `json:"url"`
	} `json:"details"` // Gemini CLI's ToolPermission notification: what it asks to run
}

// toolInput is the part of a tool call's input that names its target.
type toolInput struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	Path         string `json:"path"`
	AbsolutePath string `json:"absolute_path"`
	Pattern      string `json:"pattern"`
	URL          string `json:"url"`
	Query        string `json:"query"`
	Description  string `json:"description"`
	SubagentType string `json:"subagent_type"`
	Prompt       string `json:"prompt"`
	Plan         string `json:"plan"`
}

func (p *payload) tool() toolInput {
	var ti toolInput
	if len(p.ToolInput) > 0 && p.ToolInput[0] == '{' {
		_ = json.Unmarshal(p.ToolInput, &ti) // a malformed input only loses the target
	}
	return ti
}

// target is the one thing a tool call acts on, as a person would name it.
func (p *payload) target() string {
	ti := p.tool()
	for _, s := range []string{ti.Command, ti.FilePath, ti.AbsolutePath, ti.Path, ti.Pattern, ti.URL, ti.Query, ti.Description} {
		if s != "" {
			return relTo(s, p.Cwd)
		}
	}
	return ""
}

// doing is "Tool: target", or the tool alone: one line, whitespace
// collapsed, likely secrets masked.
func (p *payload) doing() string {
	tool := clip(oneLine(p.ToolName), 64)
	if tool == "" {
		return ""
	}
	if t := p.target(); t != "" {
		tool += ": " + t
	}
	return clip(agentstate.MaskSecrets(flat(tool)), 160)
}

func (p *payload) errorText() string {
	if len(p.Error) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(p.Error, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if json.Unmarshal(p.Error, &o) == nil {
		return firstNonEmpty(o.Message, o.Type)
	}
	return ""
}

func relTo(path, cwd string) string {
	if cwd != "" && strings.HasPrefix(path, cwd+"/") {
		return path[len(cwd)+1:]
	}
	return path
}

// NeedsInputText is how a needs_input message is kept: whitespace
// collapsed, likely credentials masked, cut to 100 characters.
func NeedsInputText(s string) string {
	return cutRunes(agentstate.MaskSecrets(flat(s)), 100)
}

// flat is s on one line: control characters dropped, every run of
// whitespace (newlines too) one space.
func flat(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
}

// oneLine is the first line of s without control characters.
func oneLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s))
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func quote(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + oneLine(s) + `"`
}
