package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/tuios/tuios/internal/agentproto/conv"
	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
)

// Options configure a Client.
type Options struct {
	// Emit takes the conversation's events, in order, on the reading
	// goroutine (it may block: that holds the agent back).
	Emit func(conv.Event)
	// Cwd is the session's working directory (absolute).
	Cwd string
	// MaxMessage bounds one message (0: jsonrpc.DefaultMaxMessage).
	MaxMessage int
	// OnNoise takes a line that is not JSON-RPC.
	OnNoise func(line []byte, err error)
	// Version is tuios's version, sent as clientInfo.
	Version string
}

// Client is one ACP agent. Run must run (on its own goroutine) for
// anything to arrive.
type Client struct {
	opt  Options
	conn *jsonrpc.Conn

	mu        sync.Mutex
	session   string
	pending   map[string]pendingPermission // by this client's id
	nextID    int
	tools     map[string]*toolCall // what each tool call said so far, for a permission's target
	turn      context.CancelFunc
	cancelled bool // the running turn was cancelled
}

type pendingPermission struct {
	rpcID   json.RawMessage
	options []permissionOption
}

// maxTools bounds the tool calls remembered for their targets.
const maxTools = 512

// New makes a client over the agent's stdout (r) and stdin (w).
func New(r io.Reader, w io.Writer, opt Options) *Client {
	c := &Client{opt: opt, pending: map[string]pendingPermission{}, tools: map[string]*toolCall{}}
	c.conn = jsonrpc.New(r, w, jsonrpc.Options{MaxMessage: opt.MaxMessage, OnRequest: c.onRequest,
		OnNotify: c.onNotify, OnNoise: opt.OnNoise})
	return c
}

// Run reads the agent until its output ends; see jsonrpc.Conn.Run.
func (c *Client) Run() error { return c.conn.Run() }

// Conn is the connection, for its Done and Err.
func (c *Client) Conn() *jsonrpc.Conn { return c.conn }

// Start runs initialize, then session/new (authenticating first when the
// agent requires it and offers a method that needs no person). ctx bounds
// the whole handshake.
func (c *Client) Start(ctx context.Context) error {
	var init initializeResult
	err := c.conn.Call(ctx, "initialize", initializeParams{
		ProtocolVersion:    ProtocolVersion,
		ClientCapabilities: clientCaps{}, // no fs, no terminal: the agent does its own
		ClientInfo:         clientInfo{Name: "tuios", Title: "tuios", Version: c.opt.Version},
	}, &init)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if init.ProtocolVersion != 0 && init.ProtocolVersion != ProtocolVersion {
		return fmt.Errorf("the agent speaks ACP version %d; tuios speaks %d", init.ProtocolVersion, ProtocolVersion)
	}
	var sess newSessionResult
	err = c.conn.Call(ctx, "session/new", newSessionParams{Cwd: c.opt.Cwd, MCPServers: []any{}}, &sess)
	var re *jsonrpc.Error
	if errors.As(err, &re) && re.Code == codeAuthRequired {
		if aerr := c.authenticate(ctx, init.AuthMethods); aerr != nil {
			return aerr
		}
		err = c.conn.Call(ctx, "session/new", newSessionParams{Cwd: c.opt.Cwd, MCPServers: []any{}}, &sess)
	}
	if err != nil {
		return fmt.Errorf("session/new: %w", err)
	}
	if sess.SessionID == "" {
		return errors.New("session/new: the agent gave no session id")
	}
	c.mu.Lock()
	c.session = sess.SessionID
	c.mu.Unlock()
	name := ""
	if init.AgentInfo != nil {
		name = strings.TrimSpace(init.AgentInfo.Name + " " + init.AgentInfo.Version)
	}
	c.opt.Emit(conv.Ready{Agent: name, Session: sess.SessionID})
	return nil
}

// authenticate tries the methods that need no person: those whose id
// speaks of a key (the agent reads it from its environment).
func (c *Client) authenticate(ctx context.Context, methods []authMethod) error {
	var names []string
	for _, m := range methods {
		names = append(names, m.ID)
		id := strings.ToLower(m.ID)
		if !strings.Contains(id, "key") {
			continue
		}
		if err := c.conn.Call(ctx, "authenticate", map[string]string{"methodId": m.ID}, nil); err == nil {
			return nil
		}
	}
	return fmt.Errorf("the agent needs you to log in (it offers %s): run it once in a terminal and log in, or give it an API key",
		strings.Join(names, ", "))
}

// Prompt starts a turn with text and returns at once; the turn's end
// arrives as a conv.TurnEnded event.
func (c *Client) Prompt(text string) error {
	c.mu.Lock()
	sess := c.session
	if c.turn != nil {
		c.mu.Unlock()
		return errors.New("a turn is running")
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.turn, c.cancelled = cancel, false
	c.mu.Unlock()
	go func() {
		// Emitted here, not on the caller's goroutine: the caller may be
		// the one reading the events. It still comes before the request
		// goes, so before anything the turn brings.
		c.opt.Emit(conv.TurnStarted{})
		defer cancel()
		var res promptResult
		err := c.conn.Call(ctx, "session/prompt", promptParams{SessionID: sess, Prompt: []textBlock{{Type: "text", Text: text}}}, &res)
		c.mu.Lock()
		c.turn = nil
		cancelled := c.cancelled
		c.mu.Unlock()
		c.dropPending()
		switch {
		case err != nil && cancelled && !errors.Is(err, jsonrpc.ErrClosed) && c.conn.Err() == nil:
			// Asked to cancel, some agents (Qwen Code 0.15) fail the
			// prompt instead of answering stopReason cancelled: the
			// person's cancel is what happened.
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndCancelled, Reason: "cancelled (" + err.Error() + ")"})
		case err != nil:
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndFailed, Reason: err.Error()})
		case res.StopReason == "cancelled":
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndCancelled, Reason: res.StopReason})
		case res.StopReason == "end_turn" || res.StopReason == "":
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndDone, Reason: "end_turn"})
		default: // max_tokens, max_turn_requests, refusal
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndFailed, Reason: "the agent stopped: " + res.StopReason})
		}
	}()
	return nil
}

// Cancel sends session/cancel and answers every pending permission
// request as cancelled, as the protocol asks of a client that cancels.
func (c *Client) Cancel() {
	c.mu.Lock()
	sess := c.session
	c.cancelled = c.turn != nil
	c.mu.Unlock()
	c.conn.Notify("session/cancel", sessionIDParams{SessionID: sess})
	c.mu.Lock()
	ids := make([]string, 0, len(c.pending))
	for id := range c.pending {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		c.Answer(id, conv.Cancelled)
	}
}

// dropPending forgets the permission requests of a turn that ended: the
// agent answers nothing more about them.
func (c *Client) dropPending() {
	c.mu.Lock()
	ids := make([]string, 0, len(c.pending))
	for id, p := range c.pending {
		ids = append(ids, id)
		c.conn.Reply(p.rpcID, permissionResult{Outcome: permissionOutcome{Outcome: "cancelled"}})
	}
	c.pending = map[string]pendingPermission{}
	c.mu.Unlock()
	for _, id := range ids {
		c.opt.Emit(conv.PermissionGone{ID: id})
	}
}

// Answer answers a permission request with the agent's own option for
// the decision.
func (c *Client) Answer(id string, d conv.Decision) error {
	c.mu.Lock()
	p, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return errors.New("no such permission request")
	}
	out := permissionOutcome{Outcome: "cancelled"}
	switch d {
	case conv.AllowOnce:
		if o := pick(p.options, "allow_once"); o != "" {
			out = permissionOutcome{Outcome: "selected", OptionID: o}
		}
	case conv.Deny:
		if o := pick(p.options, "reject_once", "reject_always"); o != "" {
			out = permissionOutcome{Outcome: "selected", OptionID: o}
		}
	}
	return c.conn.Reply(p.rpcID, permissionResult{Outcome: out})
}

// pick is the id of the first option of the first kind offered.
func pick(opts []permissionOption, kinds ...string) string {
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k && o.OptionID != "" {
				return o.OptionID
			}
		}
	}
	return ""
}

func (c *Client) onRequest(m jsonrpc.Message) {
	if m.Method != "session/request_permission" {
		// fs/* and terminal/*: not advertised, so not served.
		c.conn.ReplyError(m.ID, jsonrpc.CodeMethodNotFound, "tuios does not serve "+m.Method)
		return
	}
	var p permissionParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.conn.ReplyError(m.ID, jsonrpc.CodeInvalidParams, "session/request_permission: "+err.Error())
		return
	}
	c.mu.Lock()
	if c.turn == nil {
		// No turn runs: nothing can be waiting on this.
		c.mu.Unlock()
		c.conn.Reply(m.ID, permissionResult{Outcome: permissionOutcome{Outcome: "cancelled"}})
		return
	}
	c.nextID++
	id := "p" + strconv.Itoa(c.nextID)
	c.pending[id] = pendingPermission{rpcID: m.ID, options: p.Options}
	known := c.tools[p.ToolCall.ToolCallID]
	c.mu.Unlock()
	tc := merged(known, &p.ToolCall)
	kind := deref(tc.Kind)
	c.opt.Emit(conv.Permission{ID: id, ToolID: p.ToolCall.ToolCallID, Tool: ToolName(kind), Kind: kind,
		Title: deref(tc.Title), Target: targetOf(tc),
		Once: pick(p.Options, "allow_once") != "", Deny: pick(p.Options, "reject_once", "reject_always") != ""})
}

func (c *Client) onNotify(m jsonrpc.Message) {
	if m.Method != "session/update" {
		return
	}
	var p updateParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.opt.Emit(conv.Notice{Text: "a session/update tuios could not read: " + err.Error()})
		return
	}
	u := &p.Update
	switch u.SessionUpdate {
	case "agent_message_chunk":
		c.opt.Emit(conv.Text{ID: u.MessageID, Role: conv.RoleAgent, Text: u.Content.String()})
	case "agent_thought_chunk":
		c.opt.Emit(conv.Text{ID: u.MessageID, Role: conv.RoleThought, Text: u.Content.String()})
	case "user_message_chunk":
		c.opt.Emit(conv.Text{ID: u.MessageID, Role: conv.RoleUser, Text: u.Content.String()})
	case "tool_call", "tool_call_update":
		c.mu.Lock()
		known := c.tools[u.ToolCallID]
		tc := merged(known, &u.toolCall)
		if known != nil || len(c.tools) < maxTools {
			c.tools[u.ToolCallID] = tc
		}
		c.mu.Unlock()
		c.opt.Emit(conv.Tool{ID: u.ToolCallID, Title: deref(u.Title), Kind: deref(u.Kind), Status: deref(u.Status),
			Target: targetOf(tc), Output: outputOf(&u.toolCall)})
	case "plan":
		pl := conv.Plan{}
		for _, e := range u.Entries {
			pl.Entries = append(pl.Entries, conv.PlanEntry{Text: e.Content, Status: e.Status})
		}
		c.opt.Emit(pl)
	}
}

// merged is what a tool call says after an update: the update's fields
// over the known ones.
func merged(known, upd *toolCall) *toolCall {
	out := toolCall{}
	if known != nil {
		out = *known
	}
	out.ToolCallID = upd.ToolCallID
	if upd.Title != nil {
		out.Title = upd.Title
	}
	if upd.Kind != nil {
		out.Kind = upd.Kind
	}
	if upd.Status != nil {
		out.Status = upd.Status
	}
	if upd.Locations != nil {
		out.Locations = upd.Locations
	}
	if len(upd.RawInput) > 0 && string(upd.RawInput) != "null" && string(upd.RawInput) != "{}" {
		out.RawInput = upd.RawInput
	}
	out.Content = nil // only the update's own is drawn
	return &out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ToolName is the one-word tool name a kind stands for in the held line
// and for the risk rules: "shell" for execute (a name the risk rules read
// as a shell command), the kind itself for the others.
func ToolName(kind string) string {
	switch kind {
	case "execute":
		return "shell"
	case "":
		return "tool"
	}
	return kind
}

// targetOf is what a tool call acts on: the command, path, URL or query
// its raw input names, else its first location, else for a shell call its
// title, else "".
func targetOf(tc *toolCall) string {
	if len(tc.RawInput) > 0 {
		var in map[string]any
		if json.Unmarshal(tc.RawInput, &in) == nil {
			for _, k := range []string{"command", "cmd", "file_path", "absolute_path", "path", "url", "query", "pattern"} {
				switch v := in[k].(type) {
				case string:
					if v != "" {
						return v
					}
				case []any:
					var words []string
					for _, w := range v {
						if s, ok := w.(string); ok {
							words = append(words, s)
						}
					}
					if len(words) > 0 {
						return strings.Join(words, " ")
					}
				}
			}
		}
	}
	for _, l := range tc.Locations {
		if l.Path != "" {
			return l.Path
		}
	}
	if deref(tc.Kind) == "execute" {
		// Gemini CLI and Qwen Code send no raw input with a shell call;
		// its title is the command (what any ACP client shows).
		return deref(tc.Title)
	}
	return ""
}

// outputOf is the text a tool call update carries.
func outputOf(tc *toolCall) string {
	var b strings.Builder
	for _, ct := range tc.Content {
		switch ct.Type {
		case "content":
			b.WriteString(ct.Content.String())
		case "diff":
			b.WriteString("[diff " + ct.Path + "]")
		}
	}
	return b.String()
}
