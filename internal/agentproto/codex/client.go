package codex

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
	// goroutine.
	Emit func(conv.Event)
	// Cwd is the thread's working directory (absolute).
	Cwd string
	// MaxMessage bounds one message (0: jsonrpc.DefaultMaxMessage).
	MaxMessage int
	// OnNoise takes a line that is not JSON-RPC.
	OnNoise func(line []byte, err error)
	// Version is tuios's version, sent as clientInfo.
	Version string
}

// Client is one Codex app-server. Run must run for anything to arrive.
type Client struct {
	opt  Options
	conn *jsonrpc.Conn

	mu       sync.Mutex
	thread   string
	turnID   string
	running  bool
	pending  map[string]json.RawMessage // this client's id → the request's rpc id
	byRPC    map[string]string          // the request's rpc id → this client's id
	nextID   int
	streamed map[string]bool // message items whose text came as deltas
}

// New makes a client over the app-server's stdout (r) and stdin (w).
func New(r io.Reader, w io.Writer, opt Options) *Client {
	c := &Client{opt: opt, pending: map[string]json.RawMessage{}, byRPC: map[string]string{}, streamed: map[string]bool{}}
	c.conn = jsonrpc.New(r, w, jsonrpc.Options{MaxMessage: opt.MaxMessage, OmitVersion: true,
		OnRequest: c.onRequest, OnNotify: c.onNotify, OnNoise: opt.OnNoise})
	return c
}

// Run reads the app-server until its output ends.
func (c *Client) Run() error { return c.conn.Run() }

// Conn is the connection, for its Done and Err.
func (c *Client) Conn() *jsonrpc.Conn { return c.conn }

type threadResult struct {
	Thread struct {
		ID string `json:"id"`
	} `json:"thread"`
	Model string `json:"model"`
}

type initResult struct {
	UserAgent string `json:"userAgent"`
}

// Start runs initialize, initialized and thread/start.
func (c *Client) Start(ctx context.Context) error {
	var ir initResult
	if err := c.conn.Call(ctx, "initialize", map[string]any{
		"clientInfo":   map[string]any{"name": "tuios", "title": "tuios", "version": c.opt.Version},
		"capabilities": map[string]any{"experimentalApi": false, "requestAttestation": false},
	}, &ir); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if err := c.conn.Notify("initialized", nil); err != nil {
		return err
	}
	var tr threadResult
	if err := c.conn.Call(ctx, "thread/start", map[string]any{"cwd": c.opt.Cwd}, &tr); err != nil {
		return fmt.Errorf("thread/start: %w", err)
	}
	if tr.Thread.ID == "" {
		return errors.New("thread/start: the app-server gave no thread id")
	}
	c.mu.Lock()
	c.thread = tr.Thread.ID
	c.mu.Unlock()
	name := ir.UserAgent
	if i := strings.IndexByte(name, ' '); i > 0 {
		name = name[:i]
	}
	if tr.Model != "" {
		name = strings.TrimSpace(name + " (" + tr.Model + ")")
	}
	c.opt.Emit(conv.Ready{Agent: name, Session: tr.Thread.ID})
	return nil
}

// Prompt starts a turn; its end comes as turn/completed.
func (c *Client) Prompt(text string) error {
	c.mu.Lock()
	if c.running {
		c.mu.Unlock()
		return errors.New("a turn is running")
	}
	c.running = true
	thread := c.thread
	c.mu.Unlock()
	go func() {
		c.opt.Emit(conv.TurnStarted{}) // off the caller's goroutine, before the request goes
		var res struct {
			Turn struct {
				ID string `json:"id"`
			} `json:"turn"`
		}
		err := c.conn.Call(context.Background(), "turn/start", map[string]any{"threadId": thread,
			"input": []map[string]any{{"type": "text", "text": text, "text_elements": []any{}}}}, &res)
		c.mu.Lock()
		if err != nil {
			c.running = false
		} else if c.turnID == "" {
			c.turnID = res.Turn.ID
		}
		c.mu.Unlock()
		if err != nil {
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndFailed, Reason: err.Error()})
		}
	}()
	return nil
}

// Cancel interrupts the running turn and answers every pending approval
// "cancel".
func (c *Client) Cancel() {
	c.mu.Lock()
	thread, turn := c.thread, c.turnID
	ids := make([]string, 0, len(c.pending))
	for id := range c.pending {
		ids = append(ids, id)
	}
	c.mu.Unlock()
	for _, id := range ids {
		c.Answer(id, conv.Cancelled)
	}
	if turn != "" {
		go c.conn.Call(context.Background(), "turn/interrupt", map[string]any{"threadId": thread, "turnId": turn}, nil)
	}
}

// Answer answers an approval: accept, decline, or cancel (which also
// stops the turn).
func (c *Client) Answer(id string, d conv.Decision) error {
	c.mu.Lock()
	rpcID, ok := c.pending[id]
	delete(c.pending, id)
	delete(c.byRPC, string(rpcID))
	c.mu.Unlock()
	if !ok {
		return errors.New("no such approval request")
	}
	decision := "cancel"
	switch d {
	case conv.AllowOnce:
		decision = "accept"
	case conv.Deny:
		decision = "decline"
	}
	return c.conn.Reply(rpcID, map[string]string{"decision": decision})
}

type approvalParams struct {
	ThreadID string `json:"threadId"`
	TurnID   string `json:"turnId"`
	ItemID   string `json:"itemId"`
	Command  string `json:"command"`
	Reason   string `json:"reason"`
	Kind     string `json:"kind"`
}

func (c *Client) onRequest(m jsonrpc.Message) {
	var kind string
	switch m.Method {
	case "item/commandExecution/requestApproval":
		kind = "execute"
	case "item/fileChange/requestApproval":
		kind = "edit"
	default:
		c.conn.ReplyError(m.ID, jsonrpc.CodeMethodNotFound, "tuios does not answer "+m.Method)
		c.opt.Emit(conv.Notice{Text: "Codex asked " + m.Method + ", which tuios does not answer"})
		return
	}
	var p approvalParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.conn.ReplyError(m.ID, jsonrpc.CodeInvalidParams, m.Method+": "+err.Error())
		return
	}
	c.mu.Lock()
	c.nextID++
	id := "p" + strconv.Itoa(c.nextID)
	c.pending[id] = m.ID
	c.byRPC[string(m.ID)] = id
	c.mu.Unlock()
	title := p.Command
	if kind == "edit" {
		title = "apply a patch"
		if p.Reason != "" {
			title += ": " + p.Reason
		}
	}
	tool := "shell"
	if kind == "edit" {
		tool = "edit"
	}
	c.opt.Emit(conv.Permission{ID: id, ToolID: p.ItemID, Tool: tool, Kind: kind, Title: title, Target: p.Command, Once: true, Deny: true})
}

// item is the part of a ThreadItem drawn.
type item struct {
	Type             string `json:"type"`
	ID               string `json:"id"`
	Text             string `json:"text"`
	Command          string `json:"command"`
	Status           string `json:"status"`
	AggregatedOutput string `json:"aggregatedOutput"`
	Server           string `json:"server"`
	Tool             string `json:"tool"`
	Query            string `json:"query"`
	Changes          []struct {
		Path string `json:"path"`
	} `json:"changes"`
}

type turnNote struct {
	ThreadID string `json:"threadId"`
	Turn     struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	} `json:"turn"`
	Item   item   `json:"item"`
	ItemID string `json:"itemId"`
	Delta  string `json:"delta"`
	Plan   []struct {
		Step   string `json:"step"`
		Status string `json:"status"`
	} `json:"plan"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	WillRetry bool            `json:"willRetry"`
	RequestID json.RawMessage `json:"requestId"`
	Message   string          `json:"message"`
}

func (c *Client) onNotify(m jsonrpc.Message) {
	var n turnNote
	if len(m.Params) > 0 {
		if err := json.Unmarshal(m.Params, &n); err != nil {
			c.opt.Emit(conv.Notice{Text: m.Method + " that tuios could not read: " + err.Error()})
			return
		}
	}
	c.mu.Lock()
	ours := n.ThreadID == "" || n.ThreadID == c.thread
	c.mu.Unlock()
	if !ours {
		return // a subagent's thread
	}
	switch m.Method {
	case "turn/started":
		c.mu.Lock()
		c.turnID = n.Turn.ID
		c.mu.Unlock()
	case "turn/completed":
		c.mu.Lock()
		c.running, c.turnID = false, ""
		c.streamed = map[string]bool{}
		ids := make([]string, 0, len(c.pending))
		for id := range c.pending {
			ids = append(ids, id)
		}
		c.pending, c.byRPC = map[string]json.RawMessage{}, map[string]string{}
		c.mu.Unlock()
		for _, id := range ids {
			c.opt.Emit(conv.PermissionGone{ID: id})
		}
		switch n.Turn.Status {
		case "interrupted":
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndCancelled, Reason: "interrupted"})
		case "failed":
			why := "the turn failed"
			if n.Turn.Error != nil && n.Turn.Error.Message != "" {
				why = n.Turn.Error.Message
			}
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndFailed, Reason: why})
		default:
			c.opt.Emit(conv.TurnEnded{Outcome: conv.EndDone, Reason: n.Turn.Status})
		}
	case "item/agentMessage/delta":
		c.mu.Lock()
		c.streamed[n.ItemID] = true
		c.mu.Unlock()
		c.opt.Emit(conv.Text{ID: n.ItemID, Role: conv.RoleAgent, Text: n.Delta})
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		c.opt.Emit(conv.Text{ID: n.ItemID + "/thought", Role: conv.RoleThought, Text: n.Delta})
	case "item/started", "item/completed":
		c.item(m.Method == "item/completed", n.Item)
	case "turn/plan/updated":
		pl := conv.Plan{}
		for _, s := range n.Plan {
			st := s.Status
			if st == "inProgress" {
				st = "in_progress"
			}
			pl.Entries = append(pl.Entries, conv.PlanEntry{Text: s.Step, Status: st})
		}
		c.opt.Emit(pl)
	case "error":
		if n.Error != nil {
			msg := n.Error.Message
			if n.WillRetry {
				msg += " (retrying)"
			}
			c.opt.Emit(conv.Notice{Text: msg})
		}
	case "serverRequest/resolved":
		c.mu.Lock()
		id := c.byRPC[string(n.RequestID)]
		delete(c.byRPC, string(n.RequestID))
		delete(c.pending, id)
		c.mu.Unlock()
		if id != "" {
			c.opt.Emit(conv.PermissionGone{ID: id})
		}
	case "warning", "configWarning", "deprecationNotice":
		if n.Message != "" {
			c.opt.Emit(conv.Notice{Text: n.Message})
		}
	}
}

// item turns a thread item's start or end into events.
func (c *Client) item(completed bool, it item) {
	status := "in_progress"
	if completed {
		status = "completed"
	}
	switch it.Status {
	case "failed", "declined":
		status = "failed"
	}
	switch it.Type {
	case "agentMessage":
		c.mu.Lock()
		streamed := c.streamed[it.ID]
		c.mu.Unlock()
		if completed && !streamed && it.Text != "" {
			c.opt.Emit(conv.Text{ID: it.ID, Role: conv.RoleAgent, Text: it.Text})
		}
	case "commandExecution":
		out := ""
		if completed {
			out = it.AggregatedOutput
		}
		c.opt.Emit(conv.Tool{ID: it.ID, Title: it.Command, Kind: "execute", Status: status, Target: it.Command, Output: out})
	case "fileChange":
		var paths []string
		for _, ch := range it.Changes {
			paths = append(paths, ch.Path)
		}
		c.opt.Emit(conv.Tool{ID: it.ID, Title: "edit " + strings.Join(paths, ", "), Kind: "edit", Status: status,
			Target: strings.Join(paths, " ")})
	case "mcpToolCall":
		c.opt.Emit(conv.Tool{ID: it.ID, Title: it.Server + "." + it.Tool, Kind: "other", Status: status})
	case "webSearch":
		c.opt.Emit(conv.Tool{ID: it.ID, Title: "search " + it.Query, Kind: "fetch", Status: status, Target: it.Query})
	case "plan":
		if completed && it.Text != "" {
			c.opt.Emit(conv.Text{ID: it.ID, Role: conv.RoleAgent, Text: it.Text})
		}
	}
}
