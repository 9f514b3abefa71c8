package standin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The OpenAI-style APIs: Chat Completions (Qwen Code, opencode and most
// "OpenAI-compatible" providers) and Responses (Codex). The same Options
// script them: a Reply's Text is the assistant's text and its Tools are
// function calls, their Input marshalled as the arguments string.
//
//   - POST /v1/chat/completions (or /chat/completions): with "stream": true
//     as "data:" chunks (a role delta, the text in content deltas, each
//     tool call as a tool_calls delta, a chunk with the finish reason, a
//     usage chunk when stream_options.include_usage asks for one, and
//     [DONE]); without, as one chat.completion.
//   - POST /v1/responses (or /responses): with "stream": true as
//     Responses events (response.created, response.in_progress, per
//     output item response.output_item.added … done with the text or
//     argument deltas between, response.completed); without, as one
//     response object. A tool the request offers as "custom" (freeform,
//     e.g. Codex's apply_patch) is answered with a custom_tool_call whose
//     input is the Input string.
//
// (GET /v1/models stays the Messages API's list, whose data[].id an
// OpenAI client reads too; none of Qwen Code, opencode and Codex asked for
// it against a custom provider.)
//
// A request is a turn when it offers tools, else an aside, as for the
// Messages API. Request.ToolResult is set when the conversation ends with
// a tool's result (a "tool" message, a function_call_output item), and
// UserText is the text of the last user message.

// openAIRoute answers the OpenAI-style paths; false leaves the request to
// the Messages API's routes.
func (s *Server) openAIRoute(w http.ResponseWriter, r *http.Request, req *Request, path string) bool {
	switch {
	case r.Method == http.MethodPost && (path == "/v1/chat/completions" || path == "/chat/completions"):
		s.chatCompletions(w, r, req)
	case r.Method == http.MethodPost && (path == "/v1/responses" || path == "/responses"):
		s.responses(w, r, req)
	default:
		return false
	}
	return true
}

// oaiRequest is the part of a Chat Completions or Responses request the
// stand-in reads.
type oaiRequest struct {
	Model               string `json:"model"`
	Stream              bool   `json:"stream"`
	MaxTokens           int    `json:"max_tokens"`
	MaxCompletionTokens int    `json:"max_completion_tokens"`
	MaxOutputTokens     int    `json:"max_output_tokens"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools []struct {
		Type     string `json:"type"`
		Name     string `json:"name"` // Responses: {type, name, …}
		Function struct {
			Name string `json:"name"`
		} `json:"function"` // Chat Completions: {type: function, function: {name, …}}
	} `json:"tools"`
	Messages []oaiMessage    `json:"messages"` // Chat Completions
	Input    json.RawMessage `json:"input"`    // Responses: a string or items
	custom   map[string]bool // Responses tools offered as freeform "custom"
	shells   map[string]bool // Responses tools offered as "local_shell"
}

// oaiMessage is a Chat Completions message or a Responses input item.
type oaiMessage struct {
	Type    string          `json:"type"` // Responses items: message, function_call_output, …
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text is the message's text: a string, or the text of its parts (text,
// input_text, output_text).
func (m oaiMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" || p.Type == "input_text" || p.Type == "output_text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// decodeOpenAI reads a Chat Completions or Responses body into req.
func (s *Server) decodeOpenAI(r *http.Request, req *Request) (*oaiRequest, int, error) {
	body, err := readBody(r)
	if err != nil {
		return nil, len(body), err
	}
	var or oaiRequest
	if err := json.Unmarshal(body, &or); err != nil {
		return nil, len(body), fmt.Errorf("the body is not JSON: %v", err)
	}
	req.Model, req.Stream = or.Model, or.Stream
	req.MaxTokens = max(or.MaxTokens, or.MaxCompletionTokens, or.MaxOutputTokens)
	or.custom, or.shells = map[string]bool{}, map[string]bool{}
	for _, t := range or.Tools {
		name := t.Function.Name
		if name == "" {
			name = t.Name
		}
		if name == "" {
			name = t.Type // local_shell, web_search, … have no name
		}
		switch t.Type {
		case "custom":
			or.custom[name] = true
		case "local_shell":
			or.shells[name] = true
		}
		req.Tools = append(req.Tools, name)
	}
	msgs := or.Messages
	if len(or.Input) > 0 {
		var s string
		if json.Unmarshal(or.Input, &s) == nil {
			content, _ := json.Marshal(s)
			msgs = []oaiMessage{{Type: "message", Role: "user", Content: content}}
		} else {
			_ = json.Unmarshal(or.Input, &msgs)
		}
	}
	req.Messages = len(msgs)
	if n := len(msgs); n > 0 {
		last := msgs[n-1]
		switch {
		case last.Role == "tool", strings.HasSuffix(last.Type, "_call_output"):
			req.ToolResult = true
		}
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && (msgs[i].Type == "" || msgs[i].Type == "message") {
			req.UserText = msgs[i].text()
			break
		}
	}
	s.noteModel(req.Model)
	return &or, len(body), nil
}

// readBody reads a request body of at most maxBody bytes.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		return nil, errors.New("request body too large")
	}
	return body, nil
}

func (s *Server) noteModel(model string) {
	if model == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.models {
		if m == model {
			return
		}
	}
	s.models = append(s.models, model)
}

// oaiStart decodes, picks the reply, records the request and waits out the
// reply's Delay. ok false: the request has been answered (an error) or
// cancelled.
func (s *Server) oaiStart(w http.ResponseWriter, r *http.Request, req *Request) (*oaiRequest, *message, Reply, bool) {
	or, n, err := s.decodeOpenAI(r, req)
	if err != nil {
		req.Kind = "unknown"
		s.record(req)
		writeOAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return nil, nil, Reply{}, false
	}
	rep := s.pick(req)
	s.record(req)
	if !sleep(r.Context(), rep.Delay) {
		return nil, nil, rep, false
	}
	if rep.Status != 0 {
		typ := rep.ErrorType
		if typ == "" {
			typ = "api_error"
		}
		writeOAIError(w, rep.Status, typ, rep.Text)
		return nil, nil, rep, false
	}
	m := s.message(req, rep, n)
	if req.Model == "" {
		m.model = "gpt-stand-in"
	}
	return or, m, rep, true
}

// finishReason is the Chat Completions finish_reason for the message's
// stop reason.
func (m *message) finishReason() string {
	switch m.stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	}
	return m.stop
}

func (m *message) chatUsage() map[string]any {
	return map[string]any{"prompt_tokens": m.in, "completion_tokens": m.out, "total_tokens": m.in + m.out}
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request, req *Request) {
	or, m, rep, ok := s.oaiStart(w, r, req)
	if !ok {
		return
	}
	id, created := "chatcmpl-"+strings.TrimPrefix(m.id, "msg_"), time.Now().Unix()
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": nil}
		if m.text != "" || len(m.tools) == 0 {
			msg["content"] = m.text
		}
		if len(m.tools) > 0 {
			var calls []map[string]any
			for _, t := range m.tools {
				calls = append(calls, map[string]any{"id": t.id, "type": "function",
					"function": map[string]any{"name": t.name, "arguments": string(t.input)}})
			}
			msg["tool_calls"] = calls
		}
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": m.model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": m.finishReason(), "logprobs": nil}},
			"usage":   m.chatUsage()})
		return
	}
	send, ok := startSSE(w, r.Context(), rep.Gap)
	if !ok {
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": m.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}}}
	}
	if !send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	for _, c := range chunks(m.text, m.chunk) {
		if !send("", chunk(map[string]any{"content": c}, nil)) {
			return
		}
	}
	for i, t := range m.tools {
		call := map[string]any{"index": i, "id": t.id, "type": "function", "function": map[string]any{"name": t.name, "arguments": ""}}
		if !send("", chunk(map[string]any{"tool_calls": []any{call}}, nil)) {
			return
		}
		args := map[string]any{"index": i, "function": map[string]any{"arguments": string(t.input)}}
		if !send("", chunk(map[string]any{"tool_calls": []any{args}}, nil)) {
			return
		}
	}
	if !send("", chunk(map[string]any{}, m.finishReason())) {
		return
	}
	if or.StreamOptions.IncludeUsage {
		if !send("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": m.model,
			"choices": []any{}, "usage": m.chatUsage()}) {
			return
		}
	}
	send("", "[DONE]")
}

// startSSE begins an event stream and returns its sender: an event name
// ("" for none) and the data, JSON-marshalled unless it is a string; gap
// is waited between events.
func startSSE(w http.ResponseWriter, ctx context.Context, gap time.Duration) (func(event string, data any) bool, bool) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	first := true
	return func(event string, data any) bool {
		if !first && !sleep(ctx, gap) {
			return false
		}
		first = false
		var b []byte
		if s, ok := data.(string); ok {
			b = []byte(s)
		} else {
			b, _ = json.Marshal(data)
		}
		var err error
		if event != "" {
			_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		} else {
			_, err = fmt.Fprintf(w, "data: %s\n\n", b)
		}
		if err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}, ctx.Err() == nil
}

// responseItems are the Responses output items of the message: its text
// as one assistant message, then each tool call.
func (m *message) responseItems(or *oaiRequest) []map[string]any {
	var out []map[string]any
	if m.text != "" || len(m.tools) == 0 {
		out = append(out, map[string]any{"type": "message", "id": m.id + "_text", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": m.text, "annotations": []any{}}}})
	}
	for i, t := range m.tools {
		itemID := fmt.Sprintf("fc_%s_%d", strings.TrimPrefix(m.id, "msg_"), i)
		switch {
		case or.custom[t.name]:
			var input string
			if json.Unmarshal(t.input, &input) != nil {
				input = string(t.input)
			}
			out = append(out, map[string]any{"type": "custom_tool_call", "id": itemID, "status": "completed",
				"call_id": t.id, "name": t.name, "input": input})
		case or.shells[t.name]:
			out = append(out, map[string]any{"type": "local_shell_call", "id": itemID, "status": "completed",
				"call_id": t.id, "action": json.RawMessage(t.input)})
		default:
			out = append(out, map[string]any{"type": "function_call", "id": itemID, "status": "completed",
				"call_id": t.id, "name": t.name, "arguments": string(t.input)})
		}
	}
	return out
}

func (m *message) responseObject(status string, output []map[string]any, created int64) map[string]any {
	if output == nil {
		output = []map[string]any{}
	}
	r := map[string]any{"id": "resp_" + strings.TrimPrefix(m.id, "msg_"), "object": "response", "created_at": created,
		"status": status, "model": m.model, "output": output, "error": nil, "incomplete_details": nil}
	if status == "completed" {
		r["usage"] = map[string]any{"input_tokens": m.in, "output_tokens": m.out, "total_tokens": m.in + m.out,
			"input_tokens_details": map[string]int{"cached_tokens": 0}, "output_tokens_details": map[string]int{"reasoning_tokens": 0}}
	}
	return r
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request, req *Request) {
	or, m, rep, ok := s.oaiStart(w, r, req)
	if !ok {
		return
	}
	created := time.Now().Unix()
	items := m.responseItems(or)
	if !req.Stream {
		writeJSON(w, m.responseObject("completed", items, created))
		return
	}
	send, ok := startSSE(w, r.Context(), rep.Gap)
	if !ok {
		return
	}
	seq := 0
	ev := func(typ string, fields map[string]any) bool {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		return send(typ, fields)
	}
	if !ev("response.created", map[string]any{"response": m.responseObject("in_progress", nil, created)}) ||
		!ev("response.in_progress", map[string]any{"response": m.responseObject("in_progress", nil, created)}) {
		return
	}
	for i, item := range items {
		start := map[string]any{}
		for k, v := range item {
			start[k] = v
		}
		start["status"] = "in_progress"
		id := item["id"]
		switch item["type"] {
		case "message":
			start["content"] = []any{}
			if !ev("response.output_item.added", map[string]any{"output_index": i, "item": start}) ||
				!ev("response.content_part.added", map[string]any{"item_id": id, "output_index": i, "content_index": 0,
					"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}}) {
				return
			}
			for _, c := range chunks(m.text, m.chunk) {
				if !ev("response.output_text.delta", map[string]any{"item_id": id, "output_index": i, "content_index": 0, "delta": c, "logprobs": []any{}}) {
					return
				}
			}
			if !ev("response.output_text.done", map[string]any{"item_id": id, "output_index": i, "content_index": 0, "text": m.text, "logprobs": []any{}}) ||
				!ev("response.content_part.done", map[string]any{"item_id": id, "output_index": i, "content_index": 0,
					"part": map[string]any{"type": "output_text", "text": m.text, "annotations": []any{}}}) {
				return
			}
		case "function_call":
			start["arguments"] = ""
			if !ev("response.output_item.added", map[string]any{"output_index": i, "item": start}) ||
				!ev("response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": i, "delta": item["arguments"]}) ||
				!ev("response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": i, "arguments": item["arguments"]}) {
				return
			}
		case "custom_tool_call":
			start["input"] = ""
			if !ev("response.output_item.added", map[string]any{"output_index": i, "item": start}) ||
				!ev("response.custom_tool_call_input.delta", map[string]any{"item_id": id, "output_index": i, "delta": item["input"]}) ||
				!ev("response.custom_tool_call_input.done", map[string]any{"item_id": id, "output_index": i, "input": item["input"]}) {
				return
			}
		default:
			if !ev("response.output_item.added", map[string]any{"output_index": i, "item": start}) {
				return
			}
		}
		if !ev("response.output_item.done", map[string]any{"output_index": i, "item": item}) {
			return
		}
	}
	ev("response.completed", map[string]any{"response": m.responseObject("completed", items, created)})
}

func writeOAIError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}})
}
