package standin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/standin"
)

func startGemini(t *testing.T, opt standin.Options) *standin.Gemini {
	t.Helper()
	g, err := standin.StartGemini(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// gemBody is a generateContent request in the shape Gemini CLI sends.
func gemBody(tools []string, asJSON bool, contents ...map[string]any) string {
	req := map[string]any{"contents": contents, "systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "be brief"}}}}
	if len(tools) > 0 {
		var decls []map[string]any
		for _, n := range tools {
			decls = append(decls, map[string]any{"name": n, "parametersJsonSchema": map[string]any{"type": "object"}})
		}
		req["tools"] = []any{map[string]any{"functionDeclarations": decls}}
	}
	if asJSON {
		req["generationConfig"] = map[string]any{"responseMimeType": "application/json", "maxOutputTokens": 512}
	}
	b, _ := json.Marshal(req)
	return string(b)
}

func gemContent(role string, parts ...map[string]any) map[string]any {
	return map[string]any{"role": role, "parts": parts}
}

func gemText(s string) map[string]any { return map[string]any{"text": s} }

// gemChunk is one GenerateContentResponse as the stand-in sends it.
type gemChunk struct {
	Candidates []struct {
		Content struct {
			Role  string `json:"role"`
			Parts []struct {
				Text         *string `json:"text"`
				FunctionCall *struct {
					Name string         `json:"name"`
					Args map[string]any `json:"args"`
					ID   string         `json:"id"`
				} `json:"functionCall"`
			} `json:"parts"`
		} `json:"content"`
		FinishReason string `json:"finishReason"`
	} `json:"candidates"`
	UsageMetadata *struct {
		PromptTokenCount, CandidatesTokenCount, TotalTokenCount int
	} `json:"usageMetadata"`
	ModelVersion string `json:"modelVersion"`
}

func readGemChunks(t *testing.T, resp *http.Response) []gemChunk {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []gemChunk
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("not a data line: %q", line)
		}
		var c gemChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("bad data line %q: %v", line, err)
		}
		out = append(out, c)
	}
	return out
}

func TestGeminiStreamsAFunctionCallThenText(t *testing.T) {
	g := startGemini(t, standin.Options{Turns: []standin.Reply{
		{Tools: []standin.ToolUse{{Name: "run_shell_command", Input: map[string]any{"command": "ls"}}}},
		{Text: "Here are the files, all of them.", Chunk: 10},
	}})
	tools := []string{"read_file", "run_shell_command"}
	url := g.URL() + "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"

	resp := post(t, url, gemBody(tools, false, gemContent("user", gemText("context"), gemText("list files"))))
	cs := readGemChunks(t, resp)
	if len(cs) != 1 || len(cs[0].Candidates) != 1 {
		t.Fatalf("chunks: %+v", cs)
	}
	c := cs[0].Candidates[0]
	if c.Content.Role != "model" || len(c.Content.Parts) != 1 || c.Content.Parts[0].FunctionCall == nil ||
		c.Content.Parts[0].FunctionCall.Name != "run_shell_command" || c.Content.Parts[0].FunctionCall.Args["command"] != "ls" ||
		c.Content.Parts[0].FunctionCall.ID != "" {
		t.Fatalf("the call: %+v", c)
	}
	if c.FinishReason != "STOP" || cs[0].UsageMetadata == nil || cs[0].UsageMetadata.TotalTokenCount == 0 || cs[0].ModelVersion != "gemini-test" {
		t.Fatalf("the last chunk: %+v", cs[0])
	}

	resp = post(t, url, gemBody(tools, false,
		gemContent("user", gemText("context"), gemText("list files")),
		gemContent("model", map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "ls"}}}),
		gemContent("user", map[string]any{"functionResponse": map[string]any{"name": "run_shell_command", "response": map[string]any{"output": "a b"}}}),
	))
	cs = readGemChunks(t, resp)
	var got strings.Builder
	for i, ch := range cs {
		for _, p := range ch.Candidates[0].Content.Parts {
			if p.Text != nil {
				got.WriteString(*p.Text)
			}
		}
		if last := i == len(cs)-1; (ch.Candidates[0].FinishReason != "") != last || (ch.UsageMetadata != nil) != last {
			t.Fatalf("chunk %d of %d: %+v", i, len(cs), ch)
		}
	}
	if len(cs) != 4 || got.String() != "Here are the files, all of them." {
		t.Fatalf("%d chunks, text %q", len(cs), got.String())
	}

	rs := g.Requests()
	if len(rs) != 2 {
		t.Fatalf("requests: %+v", rs)
	}
	if r := rs[0]; r.Kind != "turn" || r.TurnIndex != 0 || r.Model != "gemini-test" || !r.Stream || r.Method != "streamGenerateContent" ||
		strings.Join(r.Tools, ",") != "read_file,run_shell_command" || r.Messages != 1 || r.ToolResult || r.UserText != "context\nlist files" ||
		strings.Join(r.Texts, "|") != "user: context|user: list files" {
		t.Fatalf("first request: %+v", r)
	}
	if r := rs[1]; r.TurnIndex != 1 || r.Messages != 3 || !r.ToolResult || r.UserText != "" ||
		strings.Join(r.FunctionCalls, ",") != "run_shell_command" || strings.Join(r.FunctionResponses, ",") != `run_shell_command: {"output":"a b"}` {
		t.Fatalf("second request: %+v", r)
	}
}

func TestGeminiAsidesCountsModelsAndErrors(t *testing.T) {
	g := startGemini(t, standin.Options{Turns: []standin.Reply{
		{Status: http.StatusTooManyRequests, Text: "slow down"},
	}})
	whole := func(model string, b string) (int, map[string]any) {
		t.Helper()
		resp := post(t, g.URL()+"/v1beta/models/"+model+":generateContent", b)
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, v
	}
	textOf := func(v map[string]any) string {
		b, _ := json.Marshal(v["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"])
		return string(b)
	}
	// A routing check asks for JSON: it gets {}, which it reads as no
	// opinion; a plain aside gets OK.
	if code, v := whole("gemini-router", gemBody(nil, true, gemContent("user", gemText("which model?")))); code != 200 || textOf(v) != `[{"text":"{}"}]` {
		t.Fatalf("a JSON aside: %d %v", code, v)
	}
	if code, v := whole("gemini-router", gemBody(nil, false, gemContent("user", gemText("a title?")))); code != 200 || textOf(v) != `[{"text":"OK"}]` {
		t.Fatalf("an aside: %d %v", code, v)
	}
	code, v := whole("gemini-main", gemBody([]string{"glob"}, false, gemContent("user", gemText("go"))))
	e, _ := v["error"].(map[string]any)
	if code != http.StatusTooManyRequests || e["status"] != "RESOURCE_EXHAUSTED" || e["message"] != "slow down" || e["code"] != float64(429) {
		t.Fatalf("a scripted error: %d %v", code, v)
	}

	resp := post(t, g.URL()+"/v1beta/models/gemini-main:countTokens", gemBody(nil, false, gemContent("user", gemText("count me"))))
	var count struct{ TotalTokens int }
	if json.NewDecoder(resp.Body).Decode(&count); resp.StatusCode != 200 || count.TotalTokens < 1 {
		t.Fatalf("countTokens: %d %+v", resp.StatusCode, count)
	}
	get := func(path string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Get(g.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	if code, v := get("/v1beta/models"); code != 200 || len(v["models"].([]any)) != 2 ||
		v["models"].([]any)[0].(map[string]any)["name"] != "models/gemini-router" {
		t.Fatalf("models: %d %v", code, v)
	}
	if code, v := get("/v1beta/models/gemini-x"); code != 200 || v["name"] != "models/gemini-x" {
		t.Fatalf("a model: %d %v", code, v)
	}
	if code, v := get("/v1beta/files"); code != 404 || v["error"].(map[string]any)["status"] != "NOT_FOUND" {
		t.Fatalf("unknown: %d %v", code, v)
	}

	var kinds []string
	for _, r := range g.Requests() {
		kinds = append(kinds, r.Kind)
	}
	if got := strings.Join(kinds, " "); got != "aside aside turn count models models unknown" {
		t.Fatalf("kinds: %s", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if r, err := g.Wait(ctx, standin.IsTurn); err != nil || r.Seq != 3 || r.Model != "gemini-main" {
		t.Fatalf("Wait: %+v %v", r, err)
	}
	if r := g.Requests()[0]; !r.JSON || r.MaxTokens != 512 || r.Stream {
		t.Fatalf("the JSON aside: %+v", r)
	}
}

func TestStartGeminiListensOnLoopbackOnly(t *testing.T) {
	if g, err := standin.StartGemini(standin.Options{Addr: "0.0.0.0:0"}); err == nil {
		g.Close()
		t.Fatal("StartGemini listened on every address")
	}
}
