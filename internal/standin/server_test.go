package standin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

func start(t *testing.T, opt standin.Options) *standin.Server {
	t.Helper()
	s, err := standin.Start(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// body is a Messages request in the shape Claude Code sends.
func body(stream bool, tools []string, msgs ...map[string]any) string {
	var ts []map[string]any
	for _, n := range tools {
		ts = append(ts, map[string]any{"name": n, "input_schema": map[string]any{"type": "object"}})
	}
	b, _ := json.Marshal(map[string]any{"model": "claude-opus-4-8", "max_tokens": 64000, "stream": stream, "tools": ts, "messages": msgs})
	return string(b)
}

func user(blocks ...map[string]any) map[string]any {
	return map[string]any{"role": "user", "content": blocks}
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func post(t *testing.T, url, b string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type event struct {
	name string
	data map[string]any
}

func readEvents(t *testing.T, resp *http.Response) []event {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []event
	var name string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
			if d["type"] != name {
				t.Fatalf("event %q carries type %v", name, d["type"])
			}
			out = append(out, event{name, d})
		}
	}
	return out
}

func names(evs []event) string {
	var n []string
	for _, e := range evs {
		n = append(n, e.name)
	}
	return strings.Join(n, " ")
}

func TestStreamsATextTurn(t *testing.T) {
	const answer = "Héllo ✓ from the stand-in — wörld"
	s := start(t, standin.Options{Turns: []standin.Reply{{Text: answer, Chunk: 3}}})
	resp := post(t, s.URL()+"/v1/messages?beta=true", body(true, []string{"Bash", "Read"},
		user(text("<system-reminder>context</system-reminder>"), text("Say hello")),
		map[string]any{"role": "system", "content": "after the user"}))
	evs := readEvents(t, resp)
	got := names(evs)
	if !strings.HasPrefix(got, "message_start ping content_block_start content_block_delta") ||
		!strings.HasSuffix(got, "content_block_delta content_block_stop message_delta message_stop") {
		t.Fatalf("events: %s", got)
	}
	var sb strings.Builder
	for _, e := range evs {
		if e.name == "content_block_delta" {
			d := e.data["delta"].(map[string]any)
			if d["type"] != "text_delta" {
				t.Fatalf("delta %v", d)
			}
			sb.WriteString(d["text"].(string))
		}
	}
	if sb.String() != answer {
		t.Fatalf("text %q", sb.String())
	}
	md := evs[len(evs)-2].data["delta"].(map[string]any)
	if md["stop_reason"] != "end_turn" {
		t.Fatalf("stop reason %v", md["stop_reason"])
	}
	if m := evs[0].data["message"].(map[string]any); m["model"] != "claude-opus-4-8" || m["role"] != "assistant" {
		t.Fatalf("message_start %v", m)
	}
	r := s.Requests()
	if len(r) != 1 || r[0].Kind != "turn" || r[0].TurnIndex != 0 || !r[0].Stream || r[0].Path != "/v1/messages" ||
		r[0].UserText != "<system-reminder>context</system-reminder>\nSay hello" || len(r[0].Tools) != 2 || r[0].Messages != 2 {
		t.Fatalf("recorded %+v", r)
	}
}

// A tool call (the permission prompt's trigger), then the answer to its
// result; the last turn repeats.
func TestToolUseThenText(t *testing.T) {
	s := start(t, standin.Options{Turns: []standin.Reply{
		{Text: "I'll list the files.", Tools: []standin.ToolUse{{Name: "Bash", Input: map[string]any{"command": "ls", "description": "List files"}}}},
		{Text: "Done."},
	}})
	evs := readEvents(t, post(t, s.URL()+"/v1/messages", body(true, []string{"Bash"}, user(text("list")))))
	var input string
	var started map[string]any
	for _, e := range evs {
		switch e.name {
		case "content_block_start":
			if cb := e.data["content_block"].(map[string]any); cb["type"] == "tool_use" {
				started = cb
			}
		case "content_block_delta":
			if d := e.data["delta"].(map[string]any); d["type"] == "input_json_delta" {
				input += d["partial_json"].(string)
			}
		case "message_delta":
			if sr := e.data["delta"].(map[string]any)["stop_reason"]; sr != "tool_use" {
				t.Fatalf("stop reason %v", sr)
			}
		}
	}
	if started == nil || started["name"] != "Bash" || !strings.HasPrefix(started["id"].(string), "toolu_") || started["index"] != nil {
		t.Fatalf("tool block %v", started)
	}
	var in map[string]any
	if json.Unmarshal([]byte(input), &in) != nil || in["command"] != "ls" {
		t.Fatalf("tool input %q", input)
	}
	result := user(map[string]any{"type": "tool_result", "tool_use_id": started["id"], "content": "a\nb"})
	for i := 0; i < 2; i++ {
		resp := post(t, s.URL()+"/v1/messages", body(false, []string{"Bash"}, user(text("list")), result))
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		c := m["content"].([]any)[0].(map[string]any)
		if m["stop_reason"] != "end_turn" || c["text"] != "Done." || m["type"] != "message" {
			t.Fatalf("answer %d: %v", i, m)
		}
	}
	r := s.Requests()
	if len(r) != 3 || !r[1].ToolResult || r[1].TurnIndex != 1 || r[2].TurnIndex != 1 || r[0].ToolResult {
		t.Fatalf("recorded %+v", r)
	}
}

// Requests with no tools (titles, quota probes) take Aside; Answer
// overrides both; Wait finds requests past and future.
func TestAsideAnswerAndWait(t *testing.T) {
	s := start(t, standin.Options{
		Turns: []standin.Reply{{Text: "turn"}},
		Aside: standin.Reply{Text: `{"title":"x"}`},
		Answer: func(r standin.Request) (standin.Reply, bool) {
			return standin.Reply{Text: "special"}, r.UserText == "special please"
		},
	})
	get := func(b string) string {
		var m map[string]any
		json.NewDecoder(post(t, s.URL()+"/v1/messages", b).Body).Decode(&m)
		return m["content"].([]any)[0].(map[string]any)["text"].(string)
	}
	if got := get(body(false, nil, user(text("title?")))); got != `{"title":"x"}` {
		t.Fatalf("aside %q", got)
	}
	if got := get(body(false, []string{"Bash"}, user(text("special please")))); got != "special" {
		t.Fatalf("answer %q", got)
	}
	if got := get(body(false, []string{"Bash"}, user(text("go")))); got != "turn" {
		t.Fatalf("turn %q", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := s.Wait(ctx, standin.IsTurn)
	if err != nil || r.Seq != 3 || r.UserText != "go" {
		t.Fatalf("wait for a past turn: %+v %v", r, err)
	}
	done := make(chan standin.Request, 1)
	go func() {
		r, _ := s.Wait(ctx, func(r standin.Request) bool { return r.Kind == "count" })
		done <- r
	}()
	post(t, s.URL()+"/v1/messages/count_tokens", body(false, nil, user(text("count me"))))
	if r := <-done; r.Kind != "count" || r.Seq != 4 {
		t.Fatalf("wait for a later request: %+v", r)
	}
	short, cancel2 := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel2()
	if _, err := s.Wait(short, func(standin.Request) bool { return false }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait with nothing to find: %v", err)
	}
}

func TestErrorsProbesModelsAndCounts(t *testing.T) {
	s := start(t, standin.Options{Turns: []standin.Reply{{Status: 529, ErrorType: "overloaded_error", Text: "busy"}}})
	resp := post(t, s.URL()+"/v1/messages", body(true, []string{"Bash"}, user(text("x"))))
	var e struct {
		Type  string `json:"type"`
		Error struct{ Type, Message string }
	}
	json.NewDecoder(resp.Body).Decode(&e)
	if resp.StatusCode != 529 || e.Type != "error" || e.Error.Type != "overloaded_error" || e.Error.Message != "busy" {
		t.Fatalf("error reply %d %+v", resp.StatusCode, e)
	}
	var c struct {
		InputTokens int `json:"input_tokens"`
	}
	json.NewDecoder(post(t, s.URL()+"/v1/messages/count_tokens", body(false, nil, user(text("hello")))).Body).Decode(&c)
	if c.InputTokens <= 0 {
		t.Fatalf("count_tokens %+v", c)
	}
	req, _ := http.NewRequest(http.MethodHead, s.URL()+"/", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("probe: %v %v", resp, err)
	}
	mresp, _ := http.Get(s.URL() + "/v1/models")
	var ml struct {
		Data []struct{ ID string } `json:"data"`
	}
	json.NewDecoder(mresp.Body).Decode(&ml)
	mresp.Body.Close()
	if len(ml.Data) != 1 || ml.Data[0].ID != "claude-opus-4-8" {
		t.Fatalf("models: %+v", ml)
	}
	if resp, _ := http.Get(s.URL() + "/v1/files"); resp.StatusCode != 404 {
		t.Fatalf("unknown path: %d", resp.StatusCode)
	}
	if resp := post(t, s.URL()+"/v1/messages", "{not json"); resp.StatusCode != 400 {
		t.Fatalf("bad body: %d", resp.StatusCode)
	}
	kinds := ""
	for _, r := range s.Requests() {
		kinds += r.Kind + " "
	}
	if kinds != "turn count probe models unknown unknown " {
		t.Fatalf("kinds %q", kinds)
	}
}

// A turn that takes time ends when its client goes away; Close ends the
// server.
func TestDelayEndsWithTheClient(t *testing.T) {
	s := start(t, standin.Options{Turns: []standin.Reply{{Text: "late", Delay: time.Hour}}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/v1/messages", strings.NewReader(body(true, []string{"Bash"}, user(text("x")))))
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	if _, err := s.Wait(wctx, standin.IsTurn); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a cancelled request got an answer")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(s.URL() + "/"); err == nil {
		t.Fatal("the server still answers after Close")
	}
}

func TestStartListensOnLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "192.0.2.1:0", ":0", "nohost"} {
		if s, err := standin.Start(standin.Options{Addr: addr}); err == nil {
			s.Close()
			t.Fatalf("listened on %q", addr)
		}
	}
	if standin.New(standin.Options{}).URL() != "" {
		t.Fatal("a server that does not listen has a URL")
	}
}
