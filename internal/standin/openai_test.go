package standin_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/standin"
)

// chatBody is a Chat Completions request in the shape Qwen Code and
// opencode send.
func chatBody(stream bool, tools []string, msgs ...map[string]any) string {
	var ts []map[string]any
	for _, n := range tools {
		ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": n, "parameters": map[string]any{"type": "object"}}})
	}
	b, _ := json.Marshal(map[string]any{"model": "gpt-stand-in", "max_tokens": 32000, "stream": stream,
		"stream_options": map[string]any{"include_usage": true}, "tools": ts, "messages": msgs})
	return string(b)
}

func msg(role string, content any) map[string]any {
	return map[string]any{"role": role, "content": content}
}

// dataLines reads a "data:"-only event stream (Chat Completions).
func dataLines(t *testing.T, resp *http.Response) []string {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "data: ") {
			t.Fatalf("not a data line: %q", line)
		}
		out = append(out, strings.TrimPrefix(line, "data: "))
	}
	return out
}

type chunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// A streamed Chat Completions turn: text in content deltas, a tool call
// put together from its deltas, the finish reason, the usage chunk,
// [DONE]; the tool's result takes the next turn, unstreamed.
func TestChatCompletionsStreamsTextAndAToolCall(t *testing.T) {
	const text = "I’ll write it — ✓"
	s := start(t, standin.Options{Turns: []standin.Reply{
		{Text: text, Chunk: 4, Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "echo hi > made.txt"}}}},
		{Text: "Done."},
	}})
	lines := dataLines(t, post(t, s.URL()+"/v1/chat/completions", chatBody(true, []string{"run_shell_command", "read_file"},
		msg("system", "be brief"), msg("user", []any{map[string]any{"type": "text", "text": "Write made.txt"}}))))
	if lines[len(lines)-1] != "[DONE]" {
		t.Fatalf("the stream does not end with [DONE]: %q", lines)
	}
	var content, name, args, id, finish string
	usage := false
	for i, l := range lines[:len(lines)-1] {
		var c chunk
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("chunk %d %q: %v", i, l, err)
		}
		if c.Object != "chat.completion.chunk" || c.Model != "gpt-stand-in" || !strings.HasPrefix(c.ID, "chatcmpl-") {
			t.Fatalf("chunk %d: %s", i, l)
		}
		if c.Usage != nil {
			usage = len(c.Choices) == 0 && c.Usage.PromptTokens > 0 && c.Usage.CompletionTokens > 0
			continue
		}
		if i == 0 && c.Choices[0].Delta.Role != "assistant" {
			t.Fatalf("the first chunk has no role: %s", l)
		}
		d := c.Choices[0].Delta
		content += d.Content
		for _, tc := range d.ToolCalls {
			if tc.Index != 0 {
				t.Fatalf("tool call index %d", tc.Index)
			}
			name += tc.Function.Name
			args += tc.Function.Arguments
			id += tc.ID
		}
		if f := c.Choices[0].FinishReason; f != nil {
			finish = *f
		}
	}
	var in map[string]any
	if content != text || name != "run_shell_command" || json.Unmarshal([]byte(args), &in) != nil || in["command"] != "echo hi > made.txt" ||
		!strings.HasPrefix(id, "toolu_standin_") || finish != "tool_calls" || !usage {
		t.Fatalf("content %q, call %s(%s) id %q, finish %q, usage %v", content, name, args, id, finish, usage)
	}

	resp := post(t, s.URL()+"/chat/completions", chatBody(false, []string{"run_shell_command"},
		msg("user", "Write made.txt"),
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": "run_shell_command", "arguments": args}}}},
		map[string]any{"role": "tool", "tool_call_id": id, "content": "ok"}))
	var whole struct {
		Object  string `json:"object"`
		Choices []struct {
			Message struct {
				Role      string `json:"role"`
				Content   string `json:"content"`
				ToolCalls []any  `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&whole); err != nil {
		t.Fatal(err)
	}
	if c := whole.Choices[0]; whole.Object != "chat.completion" || c.Message.Role != "assistant" || c.Message.Content != "Done." ||
		c.Message.ToolCalls != nil || c.FinishReason != "stop" || whole.Usage.TotalTokens <= 0 {
		t.Fatalf("answer to the tool result: %+v", whole)
	}
	r := s.Requests()
	if len(r) != 2 || r[0].Kind != "turn" || r[0].TurnIndex != 0 || !r[0].Stream || r[0].Path != "/v1/chat/completions" ||
		r[0].UserText != "Write made.txt" || len(r[0].Tools) != 2 || r[0].Tools[0] != "run_shell_command" || r[0].Messages != 2 ||
		r[0].ToolResult || r[0].MaxTokens != 32000 || r[0].Model != "gpt-stand-in" {
		t.Fatalf("first request %+v", r[0])
	}
	if r[1].TurnIndex != 1 || r[1].Stream || !r[1].ToolResult || r[1].UserText != "Write made.txt" || r[1].Path != "/chat/completions" {
		t.Fatalf("second request %+v", r[1])
	}
}

// A request without tools is an aside; an error reply has OpenAI's error
// shape; a body that is not JSON is refused.
func TestChatCompletionsAsideAndErrors(t *testing.T) {
	s := start(t, standin.Options{
		Turns: []standin.Reply{{Status: 429, ErrorType: "rate_limit_error", Text: "slow down"}},
		Aside: standin.Reply{Text: "A title"},
	})
	var whole struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	json.NewDecoder(post(t, s.URL()+"/v1/chat/completions", chatBody(false, nil, msg("user", "title?"))).Body).Decode(&whole)
	if len(whole.Choices) != 1 || whole.Choices[0].Message.Content != "A title" {
		t.Fatalf("aside %+v", whole)
	}
	resp := post(t, s.URL()+"/v1/chat/completions", chatBody(true, []string{"bash"}, msg("user", "go")))
	var e struct {
		Error struct{ Message, Type string } `json:"error"`
	}
	json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != 429 || e.Error.Type != "rate_limit_error" || e.Error.Message != "slow down" {
		t.Fatalf("error reply %d %+v", resp.StatusCode, e)
	}
	if resp := post(t, s.URL()+"/v1/chat/completions", "{nope"); resp.StatusCode != 400 {
		t.Fatalf("bad body: %d", resp.StatusCode)
	}
	kinds := ""
	for _, r := range s.Requests() {
		kinds += r.Kind + " "
	}
	if kinds != "aside turn unknown " {
		t.Fatalf("kinds %q", kinds)
	}
}

// respBody is a Responses request in the shape Codex sends.
func respBody(stream bool, tools []map[string]any, input ...map[string]any) string {
	b, _ := json.Marshal(map[string]any{"model": "gpt-stand-in", "stream": stream, "tools": tools, "input": input,
		"instructions": "be brief", "parallel_tool_calls": false})
	return string(b)
}

func item(role, text string) map[string]any {
	typ := "input_text"
	if role == "assistant" {
		typ = "output_text"
	}
	return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": typ, "text": text}}}
}

// A streamed Responses turn: the text message and a function call as
// output items with their deltas, then response.completed holding both;
// the next request carries the call's output.
func TestResponsesStreamsTextAndAFunctionCall(t *testing.T) {
	s := start(t, standin.Options{Turns: []standin.Reply{
		{Text: "Running it.", Chunk: 5, Tools: []standin.ToolUse{{Name: "exec_command", Input: map[string]any{"cmd": "echo hi > made.txt", "sandbox_permissions": "require_escalated"}}}},
		{Text: "Done."},
	}})
	tools := []map[string]any{
		{"type": "function", "name": "exec_command", "parameters": map[string]any{"type": "object"}},
		{"type": "web_search"},
	}
	evs := readEvents(t, post(t, s.URL()+"/v1/responses", respBody(true, tools,
		item("developer", "rules"), item("user", "<environment_context/>"), item("user", "Write made.txt"))))
	want := "response.created response.in_progress " +
		"response.output_item.added response.content_part.added response.output_text.delta response.output_text.delta response.output_text.delta " +
		"response.output_text.done response.content_part.done response.output_item.done " +
		"response.output_item.added response.function_call_arguments.delta response.function_call_arguments.done response.output_item.done " +
		"response.completed"
	if got := names(evs); got != want {
		t.Fatalf("events:\n%s\nwant:\n%s", got, want)
	}
	text := ""
	for i, e := range evs {
		if e.data["sequence_number"] != float64(i) {
			t.Fatalf("event %d has sequence_number %v", i, e.data["sequence_number"])
		}
		if e.name == "response.output_text.delta" {
			text += e.data["delta"].(string)
		}
	}
	call := evs[len(evs)-2].data["item"].(map[string]any)
	var args map[string]any
	if text != "Running it." || call["type"] != "function_call" || call["name"] != "exec_command" || call["status"] != "completed" ||
		call["call_id"] == "" || json.Unmarshal([]byte(call["arguments"].(string)), &args) != nil || args["cmd"] != "echo hi > made.txt" {
		t.Fatalf("text %q, call %v", text, call)
	}
	done := evs[len(evs)-1].data["response"].(map[string]any)
	out := done["output"].([]any)
	usage := done["usage"].(map[string]any)
	if done["status"] != "completed" || len(out) != 2 || out[0].(map[string]any)["type"] != "message" || usage["total_tokens"].(float64) <= 0 {
		t.Fatalf("response.completed %v", done)
	}

	resp := post(t, s.URL()+"/responses", respBody(false, tools, item("user", "Write made.txt"), call,
		map[string]any{"type": "function_call_output", "call_id": call["call_id"], "output": "ok"}))
	var whole struct {
		Object string `json:"object"`
		Status string `json:"status"`
		Output []struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content []struct{ Type, Text string }
		} `json:"output"`
	}
	json.NewDecoder(resp.Body).Decode(&whole)
	if whole.Object != "response" || whole.Status != "completed" || len(whole.Output) != 1 || whole.Output[0].Role != "assistant" ||
		whole.Output[0].Content[0].Type != "output_text" || whole.Output[0].Content[0].Text != "Done." {
		t.Fatalf("answer to the call's output: %+v", whole)
	}
	r := s.Requests()
	if len(r) != 2 || r[0].Kind != "turn" || r[0].UserText != "Write made.txt" || r[0].Messages != 3 || r[0].ToolResult ||
		strings.Join(r[0].Tools, ",") != "exec_command,web_search" || !r[0].Stream || r[0].Path != "/v1/responses" {
		t.Fatalf("first request %+v", r[0])
	}
	if !r[1].ToolResult || r[1].TurnIndex != 1 || r[1].Stream || r[1].Path != "/responses" {
		t.Fatalf("second request %+v", r[1])
	}
}

// A tool offered as "custom" (freeform) is called with its input as a
// string; "input" may be a bare string.
func TestResponsesCustomToolAndStringInput(t *testing.T) {
	const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"
	s := start(t, standin.Options{Turns: []standin.Reply{{Tools: []standin.ToolUse{{Name: "apply_patch", Input: patch}}}}})
	b, _ := json.Marshal(map[string]any{"model": "m", "stream": true, "input": "add a.txt",
		"tools": []any{map[string]any{"type": "custom", "name": "apply_patch", "format": map[string]any{"type": "grammar"}}}})
	evs := readEvents(t, post(t, s.URL()+"/v1/responses", string(b)))
	if got := names(evs); got != "response.created response.in_progress response.output_item.added response.custom_tool_call_input.delta "+
		"response.custom_tool_call_input.done response.output_item.done response.completed" {
		t.Fatalf("events: %s", got)
	}
	it := evs[5].data["item"].(map[string]any)
	if it["type"] != "custom_tool_call" || it["name"] != "apply_patch" || it["input"] != patch {
		t.Fatalf("item %v", it)
	}
	if r := s.Requests()[0]; r.UserText != "add a.txt" || r.Messages != 1 || r.Kind != "turn" {
		t.Fatalf("recorded %+v", r)
	}
}
