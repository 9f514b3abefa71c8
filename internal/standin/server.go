package standin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Options script a Server. The zero value answers every request with the
// text "OK" and stop reason end_turn.
type Options struct {
	// Turns answer the agent's own requests, those that offer tools, one
	// per request in order; once used up, the last one repeats. Empty:
	// Reply{Text: "OK"}.
	Turns []Reply
	// Aside answers the requests that offer no tools: the titles, topics
	// and quota probes an agent asks for beside its turn. Zero: "OK".
	Aside Reply
	// Answer, when set, is asked first for every Messages request; ok
	// false falls back to Turns and Aside. It runs on the request's
	// goroutine, with no lock held.
	Answer func(r Request) (reply Reply, ok bool)
	// Models are listed by GET /v1/models. Empty: the models requests
	// named so far, else "claude-stand-in".
	Models []string
	// Addr is where Start listens; it must be a loopback address.
	// Empty: 127.0.0.1 on a free port.
	Addr string
}

// Reply is one scripted answer: text, tool calls, or both (text first),
// or an HTTP error when Status is set.
type Reply struct {
	Text  string
	Tools []ToolUse
	// StopReason ends the message. Empty: "tool_use" when Tools is set,
	// else "end_turn".
	StopReason string
	// Delay is waited before the answer starts (a turn that takes time);
	// Gap between streamed events. A request cancelled meanwhile ends.
	Delay, Gap time.Duration
	// Chunk is the most bytes of text per text_delta (0: 24). Deltas never
	// split a UTF-8 sequence.
	Chunk int
	// Status, when not zero, answers with this HTTP status and an error
	// body of type ErrorType (default "api_error") and message Text.
	Status    int
	ErrorType string
	// InputTokens and OutputTokens fill the usage (0: rough counts).
	InputTokens, OutputTokens int
}

// ToolUse is one tool_use block of a Reply.
type ToolUse struct {
	ID    string // empty: "toolu_standin_<n>"
	Name  string // e.g. "Bash"
	Input any    // marshalled as the tool's input; nil is {}
}

// Request is what a Server recorded of one request.
type Request struct {
	Seq    int    // 1, 2, … in arrival order
	Method string // "POST"
	Path   string // "/v1/messages", without the query
	// The rest is set for Messages and count_tokens requests.
	Model      string
	Stream     bool
	MaxTokens  int
	Tools      []string // names of the tools offered
	Messages   int      // how many messages the conversation holds
	ToolResult bool     // the last user message carries a tool_result block
	UserText   string   // the text blocks of the last user message, joined by "\n"
	// Kind says how it was answered: "turn" (Turns[TurnIndex]), "aside",
	// "answer" (Options.Answer), "count", "models", "probe" (HEAD or GET
	// /) or "unknown".
	Kind      string
	TurnIndex int
}

// Server is a running stand-in. Its methods are safe for concurrent use.
type Server struct {
	listener
	opt  Options
	reqs journal[Request]

	mu     sync.Mutex
	turn   int // the next of opt.Turns
	ids    int
	models []string
}

// New returns a Server that is not listening: an http.Handler for
// httptest or a server of the caller's.
func New(opt Options) *Server {
	return &Server{opt: opt}
}

// Start listens on a loopback address (Options.Addr, default 127.0.0.1 on
// a free port) and serves until Close. URL is the base URL to give the
// agent (ANTHROPIC_BASE_URL).
func Start(opt Options) (*Server, error) {
	s := New(opt)
	if err := s.serve(opt.Addr, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Requests returns a copy of every request recorded so far, in order.
func (s *Server) Requests() []Request { return s.reqs.all() }

// Wait returns the first recorded request (earlier ones included) that
// match accepts, waiting for one until ctx ends. A nil match accepts any.
func (s *Server) Wait(ctx context.Context, match func(Request) bool) (Request, error) {
	return s.reqs.wait(ctx, match)
}

// IsTurn matches the agent's own requests (for Wait).
func IsTurn(r Request) bool { return r.Kind == "turn" }

// record appends r, numbering it, and wakes the waiters.
func (s *Server) record(r *Request) { s.reqs.add(r, func(r *Request, n int) { r.Seq = n }) }

// maxBody bounds a request body: a long conversation with its tool
// schemas is well under it.
const maxBody = 32 << 20

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := Request{Method: r.Method, Path: r.URL.Path, TurnIndex: -1}
	path := strings.TrimSuffix(r.URL.Path, "/")
	if s.openAIRoute(w, r, &req, path) { // Chat Completions and Responses (openai.go)
		return
	}
	switch {
	case path == "" && (r.Method == http.MethodHead || r.Method == http.MethodGet):
		// A reachability probe (Claude Code sends HEAD / at start).
		req.Kind = "probe"
		s.record(&req)
		w.WriteHeader(http.StatusOK)
	case r.Method == http.MethodPost && path == "/v1/messages":
		s.messages(w, r, &req)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		body, err := s.decode(r, &req)
		req.Kind = "count"
		s.record(&req)
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
		writeJSON(w, map[string]int{"input_tokens": max(1, len(body)/4)})
	case r.Method == http.MethodGet && path == "/v1/models":
		req.Kind = "models"
		s.record(&req)
		var data []map[string]any
		for _, m := range s.modelList() {
			data = append(data, modelInfo(m))
		}
		first, last := "", ""
		if len(data) > 0 {
			first, last = data[0]["id"].(string), data[len(data)-1]["id"].(string)
		}
		writeJSON(w, map[string]any{"data": data, "has_more": false, "first_id": first, "last_id": last})
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/models/"):
		req.Kind = "models"
		s.record(&req)
		writeJSON(w, modelInfo(strings.TrimPrefix(path, "/v1/models/")))
	default:
		req.Kind = "unknown"
		s.record(&req)
		writeError(w, http.StatusNotFound, "not_found_error", "the stand-in does not serve "+r.Method+" "+r.URL.Path)
	}
}

func modelInfo(id string) map[string]any {
	return map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2025-01-01T00:00:00Z"}
}

func (s *Server) modelList() []string {
	if len(s.opt.Models) > 0 {
		return s.opt.Models
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.models) > 0 {
		return append([]string(nil), s.models...)
	}
	return []string{"claude-stand-in"}
}

// wireRequest is the part of a Messages request the stand-in reads.
type wireRequest struct {
	Model     string `json:"model"`
	Stream    bool   `json:"stream"`
	MaxTokens int    `json:"max_tokens"`
	Tools     []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type wireBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// decode reads a Messages-shaped body into req and returns the body.
func (s *Server) decode(r *http.Request, req *Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		return nil, errors.New("request body too large")
	}
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		return body, fmt.Errorf("the body is not JSON: %v", err)
	}
	req.Model, req.Stream, req.MaxTokens = wr.Model, wr.Stream, wr.MaxTokens
	for _, t := range wr.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	req.Messages = len(wr.Messages)
	// The last user message: Claude Code may put a system message after it.
	for i := len(wr.Messages) - 1; i >= 0; i-- {
		m := wr.Messages[i]
		if m.Role != "user" {
			continue
		}
		var blocks []wireBlock
		var text string
		if json.Unmarshal(m.Content, &text) == nil {
			blocks = []wireBlock{{Type: "text", Text: text}}
		} else {
			_ = json.Unmarshal(m.Content, &blocks)
		}
		var texts []string
		for _, b := range blocks {
			switch b.Type {
			case "tool_result":
				req.ToolResult = true
			case "text":
				texts = append(texts, b.Text)
			}
		}
		req.UserText = strings.Join(texts, "\n")
		break
	}
	if req.Model != "" {
		s.mu.Lock()
		found := false
		for _, m := range s.models {
			found = found || m == req.Model
		}
		if !found {
			s.models = append(s.models, req.Model)
		}
		s.mu.Unlock()
	}
	return body, nil
}

// pick chooses the reply for a Messages request and says how.
func (s *Server) pick(req *Request) Reply {
	if s.opt.Answer != nil {
		if rep, ok := s.opt.Answer(*req); ok {
			req.Kind = "answer"
			return rep
		}
	}
	if len(req.Tools) == 0 {
		req.Kind = "aside"
		if isZero(s.opt.Aside) {
			return Reply{Text: "OK"}
		}
		return s.opt.Aside
	}
	req.Kind = "turn"
	if len(s.opt.Turns) == 0 {
		return Reply{Text: "OK"}
	}
	s.mu.Lock()
	i := min(s.turn, len(s.opt.Turns)-1)
	s.turn++
	s.mu.Unlock()
	req.TurnIndex = i
	return s.opt.Turns[i]
}

func isZero(r Reply) bool {
	return r.Text == "" && len(r.Tools) == 0 && r.Status == 0 && r.StopReason == ""
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request, req *Request) {
	body, err := s.decode(r, req)
	if err != nil {
		req.Kind = "unknown"
		s.record(req)
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	rep := s.pick(req)
	s.record(req)
	if !sleep(r.Context(), rep.Delay) {
		return
	}
	if rep.Status != 0 {
		typ := rep.ErrorType
		if typ == "" {
			typ = "api_error"
		}
		writeError(w, rep.Status, typ, rep.Text)
		return
	}
	msg := s.message(req, rep, len(body))
	if !req.Stream {
		writeJSON(w, msg.whole())
		return
	}
	s.stream(w, r.Context(), msg, rep)
}

// message is one answer, built once for either form.
type message struct {
	id, model, stop string
	text            string
	tools           []toolBlock
	in, out         int
	chunk           int
}

type toolBlock struct {
	id, name string
	input    json.RawMessage
}

func (s *Server) message(req *Request, rep Reply, bodyLen int) *message {
	s.mu.Lock()
	s.ids++
	n := s.ids
	s.mu.Unlock()
	m := &message{id: fmt.Sprintf("msg_standin_%d", n), model: req.Model, text: rep.Text,
		in: rep.InputTokens, out: rep.OutputTokens, chunk: rep.Chunk, stop: rep.StopReason}
	if m.model == "" {
		m.model = "claude-stand-in"
	}
	for i, t := range rep.Tools {
		in, err := json.Marshal(t.Input)
		if err != nil || t.Input == nil {
			in = []byte("{}")
		}
		id := t.ID
		if id == "" {
			id = fmt.Sprintf("toolu_standin_%d_%d", n, i)
		}
		m.tools = append(m.tools, toolBlock{id: id, name: t.Name, input: in})
	}
	if m.stop == "" {
		m.stop = "end_turn"
		if len(m.tools) > 0 {
			m.stop = "tool_use"
		}
	}
	if m.in == 0 {
		m.in = max(1, bodyLen/4)
	}
	if m.out == 0 {
		m.out = max(1, len(m.text)/4+8*len(m.tools))
	}
	if m.chunk <= 0 {
		m.chunk = 24
	}
	return m
}

func (m *message) usage(out int) map[string]int {
	return map[string]int{"input_tokens": m.in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// blocks are the content blocks: text first (when any), then tool calls.
func (m *message) blocks() []map[string]any {
	var out []map[string]any
	if m.text != "" || len(m.tools) == 0 {
		out = append(out, map[string]any{"type": "text", "text": m.text})
	}
	for _, t := range m.tools {
		out = append(out, map[string]any{"type": "tool_use", "id": t.id, "name": t.name, "input": t.input})
	}
	return out
}

func (m *message) whole() map[string]any {
	return map[string]any{"id": m.id, "type": "message", "role": "assistant", "model": m.model,
		"content": m.blocks(), "stop_reason": m.stop, "stop_sequence": nil, "usage": m.usage(m.out)}
}

// stream writes the message as server-sent events.
func (s *Server) stream(w http.ResponseWriter, ctx context.Context, m *message, rep Reply) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("request-id", "req_"+m.id)
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	first := true
	send := func(event string, data any) bool {
		if !first && !sleep(ctx, rep.Gap) {
			return false
		}
		first = false
		b, _ := json.Marshal(data)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	start := map[string]any{"id": m.id, "type": "message", "role": "assistant", "model": m.model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": m.usage(1)}
	if !send("message_start", map[string]any{"type": "message_start", "message": start}) ||
		!send("ping", map[string]any{"type": "ping"}) {
		return
	}
	for i, b := range m.blocks() {
		var empty map[string]any
		var deltas []map[string]any
		switch b["type"] {
		case "text":
			empty = map[string]any{"type": "text", "text": ""}
			for _, c := range chunks(m.text, m.chunk) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": c})
			}
		case "tool_use":
			empty = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": string(b["input"].(json.RawMessage))})
		}
		if !send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": empty}) {
			return
		}
		for _, d := range deltas {
			if !send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}) {
				return
			}
		}
		if !send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}) {
			return
		}
	}
	if !send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": m.stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": m.out}}) {
		return
	}
	send("message_stop", map[string]any{"type": "message_stop"})
}

// chunks splits s into pieces of at most n bytes, never inside a UTF-8
// sequence (a rune longer than n is a piece of its own).
func chunks(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		if end == 0 {
			_, end = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error",
		"error": map[string]string{"type": typ, "message": msg}})
}
