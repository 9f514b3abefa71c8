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
)

// Gemini is a running stand-in for the Gemini API (the Generative
// Language API that Gemini CLI calls with an API key), scripted by the
// same Options as Server. An agent is pointed at it with
// GOOGLE_GEMINI_BASE_URL=URL() and any GEMINI_API_KEY.
//
// What it speaks (under any /v1… version prefix, e.g. /v1beta):
//
//   - POST models/{model}:generateContent: one GenerateContentResponse.
//   - POST models/{model}:streamGenerateContent?alt=sse: the same as
//     server-sent events ("data: {…}" lines), text in chunks, function
//     calls in one event, the finish reason and usage in the last.
//   - POST models/{model}:countTokens: a rough count.
//   - GET models and models/{model}: the models the options name.
//   - HEAD and GET /: 200.
//   - Anything else: 404 with a Google-shaped error body.
//
// A Reply maps onto a candidate: Text is a text part, each ToolUse a
// functionCall part (Name, Input as args, ID as id when set), StopReason
// the finishReason (default "STOP", which Gemini also gives after function
// calls), Status an error {"error": {code, message, status}} whose status
// is ErrorType (default by the code, e.g. RESOURCE_EXHAUSTED for 429).
//
// Requests that declare functions are the agent's own and take Turns;
// the others take Aside. Gemini CLI 0.61.0 sends one before each prompt,
// a routing check that asks for JSON (responseMimeType application/json)
// from a small model; such a request gets "{}" while Aside is unset,
// which the check reads as "no opinion" and keeps its default model.
type Gemini struct {
	listener
	opt  Options
	reqs journal[GeminiRequest]

	mu     sync.Mutex
	turn   int
	ids    int
	models []string
}

// GeminiRequest is what a Gemini stand-in recorded of one request: the
// fields of Request (Path is the URL path, Model the model in it, Stream
// true for streamGenerateContent, MaxTokens generationConfig's
// maxOutputTokens, Tools the declared functions, Messages the contents,
// ToolResult whether the last user content holds a functionResponse,
// UserText the text parts of the last user content), and the rest of the
// context the model was given.
type GeminiRequest struct {
	Request
	// Method is the API method: "generateContent",
	// "streamGenerateContent", "countTokens", "models", or "" for others.
	Method string
	// JSON is set when generationConfig asks for application/json.
	JSON bool
	// Texts are the text parts of every content, in order, each as
	// "role: text" (role "user" or "model").
	Texts []string
	// FunctionCalls are the names of the functionCall parts the contents
	// hold (the model's earlier calls, as the agent sends them back).
	FunctionCalls []string
	// FunctionResponses are the functionResponse parts of the last user
	// content, each as "name: response-JSON".
	FunctionResponses []string
}

// NewGemini returns a Gemini stand-in that is not listening: an
// http.Handler for httptest or a server of the caller's.
func NewGemini(opt Options) *Gemini {
	return &Gemini{opt: opt}
}

// StartGemini listens on a loopback address (Options.Addr, default
// 127.0.0.1 on a free port) and serves until Close. URL is the base URL to
// give the agent (GOOGLE_GEMINI_BASE_URL).
func StartGemini(opt Options) (*Gemini, error) {
	g := NewGemini(opt)
	if err := g.serve(opt.Addr, g); err != nil {
		return nil, err
	}
	return g, nil
}

// Requests returns a copy of every request recorded so far, in order.
func (g *Gemini) Requests() []GeminiRequest { return g.reqs.all() }

// Wait returns the first recorded request (earlier ones included) that
// match accepts, waiting for one until ctx ends. A nil match accepts any;
// IsTurn matches the agent's own requests.
func (g *Gemini) Wait(ctx context.Context, match func(Request) bool) (GeminiRequest, error) {
	var m func(GeminiRequest) bool
	if match != nil {
		m = func(r GeminiRequest) bool { return match(r.Request) }
	}
	return g.reqs.wait(ctx, m)
}

func (g *Gemini) record(r *GeminiRequest) {
	g.reqs.add(r, func(r *GeminiRequest, n int) { r.Seq = n })
}

// ServeHTTP answers one request.
func (g *Gemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req := GeminiRequest{Request: Request{Method: r.Method, Path: r.URL.Path, TurnIndex: -1}}
	path := strings.TrimSuffix(r.URL.Path, "/")
	rest, versioned := cutVersion(path)
	model, method, _ := strings.Cut(strings.TrimPrefix(rest, "models/"), ":")
	switch {
	case path == "" && (r.Method == http.MethodHead || r.Method == http.MethodGet):
		req.Kind = "probe"
		g.record(&req)
		w.WriteHeader(http.StatusOK)
	case versioned && r.Method == http.MethodPost && strings.HasPrefix(rest, "models/") &&
		(method == "generateContent" || method == "streamGenerateContent"):
		req.Method = method
		req.Model = model
		req.Stream = method == "streamGenerateContent"
		g.generate(w, r, &req)
	case versioned && r.Method == http.MethodPost && strings.HasPrefix(rest, "models/") && method == "countTokens":
		req.Method, req.Model, req.Kind = method, model, "count"
		body, err := g.decode(r, &req)
		g.record(&req)
		if err != nil {
			geminiError(w, http.StatusBadRequest, "", err.Error())
			return
		}
		writeJSON(w, map[string]int{"totalTokens": max(1, len(body)/4)})
	case versioned && r.Method == http.MethodGet && rest == "models":
		req.Method, req.Kind = "models", "models"
		g.record(&req)
		var list []map[string]any
		for _, m := range g.modelList() {
			list = append(list, geminiModel(m))
		}
		writeJSON(w, map[string]any{"models": list})
	case versioned && r.Method == http.MethodGet && strings.HasPrefix(rest, "models/") && method == "":
		req.Method, req.Model, req.Kind = "models", model, "models"
		g.record(&req)
		writeJSON(w, geminiModel(model))
	default:
		req.Kind = "unknown"
		g.record(&req)
		geminiError(w, http.StatusNotFound, "", "the stand-in does not serve "+r.Method+" "+r.URL.Path)
	}
}

// cutVersion strips a leading "/v1", "/v1beta", "/v1alpha"… segment.
func cutVersion(path string) (string, bool) {
	p := strings.TrimPrefix(path, "/")
	ver, rest, ok := strings.Cut(p, "/")
	if !ok || !strings.HasPrefix(ver, "v1") {
		return path, false
	}
	return rest, true
}

func geminiModel(id string) map[string]any {
	return map[string]any{"name": "models/" + id, "baseModelId": id, "version": "001", "displayName": id,
		"inputTokenLimit": 1048576, "outputTokenLimit": 65536,
		"supportedGenerationMethods": []string{"generateContent", "countTokens"}}
}

func (g *Gemini) modelList() []string {
	if len(g.opt.Models) > 0 {
		return g.opt.Models
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.models) > 0 {
		return append([]string(nil), g.models...)
	}
	return []string{"gemini-stand-in"}
}

// geminiWire is the part of a generateContent request the stand-in reads.
type geminiWire struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		MaxOutputTokens  int    `json:"maxOutputTokens"`
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

type geminiPart struct {
	Text         *string `json:"text"`
	FunctionCall *struct {
		Name string `json:"name"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// decode reads a generateContent-shaped body into req and returns it.
func (g *Gemini) decode(r *http.Request, req *GeminiRequest) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		return nil, errors.New("request body too large")
	}
	var wr geminiWire
	if err := json.Unmarshal(body, &wr); err != nil {
		return body, fmt.Errorf("the body is not JSON: %v", err)
	}
	req.MaxTokens = wr.GenerationConfig.MaxOutputTokens
	req.JSON = wr.GenerationConfig.ResponseMimeType == "application/json"
	for _, t := range wr.Tools {
		for _, f := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, f.Name)
		}
	}
	req.Messages = len(wr.Contents)
	lastUser := -1
	for i, c := range wr.Contents {
		role := c.Role
		if role == "" {
			role = "user"
		}
		if role == "user" {
			lastUser = i
		}
		for _, p := range c.Parts {
			if p.Text != nil {
				req.Texts = append(req.Texts, role+": "+*p.Text)
			}
			if p.FunctionCall != nil {
				req.FunctionCalls = append(req.FunctionCalls, p.FunctionCall.Name)
			}
		}
	}
	if lastUser >= 0 {
		var texts []string
		for _, p := range wr.Contents[lastUser].Parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
			if p.FunctionResponse != nil {
				req.ToolResult = true
				req.FunctionResponses = append(req.FunctionResponses, p.FunctionResponse.Name+": "+string(p.FunctionResponse.Response))
			}
		}
		req.UserText = strings.Join(texts, "\n")
	}
	if req.Model != "" {
		g.mu.Lock()
		found := false
		for _, m := range g.models {
			found = found || m == req.Model
		}
		if !found {
			g.models = append(g.models, req.Model)
		}
		g.mu.Unlock()
	}
	return body, nil
}

// pick chooses the reply, as Server does: Answer, else Turns for a
// request that declares functions, else Aside.
func (g *Gemini) pick(req *GeminiRequest) Reply {
	if g.opt.Answer != nil {
		if rep, ok := g.opt.Answer(req.Request); ok {
			req.Kind = "answer"
			return rep
		}
	}
	if len(req.Tools) == 0 {
		req.Kind = "aside"
		if !isZero(g.opt.Aside) {
			return g.opt.Aside
		}
		if req.JSON {
			return Reply{Text: "{}"}
		}
		return Reply{Text: "OK"}
	}
	req.Kind = "turn"
	if len(g.opt.Turns) == 0 {
		return Reply{Text: "OK"}
	}
	g.mu.Lock()
	i := min(g.turn, len(g.opt.Turns)-1)
	g.turn++
	g.mu.Unlock()
	req.TurnIndex = i
	return g.opt.Turns[i]
}

func (g *Gemini) generate(w http.ResponseWriter, r *http.Request, req *GeminiRequest) {
	body, err := g.decode(r, req)
	if err != nil {
		req.Kind = "unknown"
		g.record(req)
		geminiError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	rep := g.pick(req)
	g.record(req)
	if !sleep(r.Context(), rep.Delay) {
		return
	}
	if rep.Status != 0 {
		geminiError(w, rep.Status, rep.ErrorType, rep.Text)
		return
	}
	g.mu.Lock()
	g.ids++
	id := fmt.Sprintf("standin-%d", g.ids)
	g.mu.Unlock()
	in, out := rep.InputTokens, rep.OutputTokens
	if in == 0 {
		in = max(1, len(body)/4)
	}
	if out == 0 {
		out = max(1, len(rep.Text)/4+8*len(rep.Tools))
	}
	finish := rep.StopReason
	if finish == "" {
		finish = "STOP"
	}
	model := req.Model
	if model == "" {
		model = "gemini-stand-in"
	}
	var calls []map[string]any
	for _, t := range rep.Tools {
		args := t.Input
		if args == nil {
			args = map[string]any{}
		}
		fc := map[string]any{"name": t.Name, "args": args}
		if t.ID != "" {
			fc["id"] = t.ID
		}
		calls = append(calls, map[string]any{"functionCall": fc})
	}
	chunk := func(parts []map[string]any, last bool) map[string]any {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
		resp := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": id}
		if last {
			cand["finishReason"] = finish
			resp["usageMetadata"] = map[string]int{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out}
		}
		return resp
	}
	if !req.Stream {
		var parts []map[string]any
		if rep.Text != "" || len(calls) == 0 {
			parts = append(parts, map[string]any{"text": rep.Text})
		}
		writeJSON(w, chunk(append(parts, calls...), true))
		return
	}
	// The events: one per text chunk, then the calls; the last carries
	// the finish reason and the usage.
	var events [][]map[string]any
	n := rep.Chunk
	if n <= 0 {
		n = 24
	}
	for _, c := range chunks(rep.Text, n) {
		events = append(events, []map[string]any{{"text": c}})
	}
	if len(calls) > 0 {
		events = append(events, calls)
	}
	if len(events) == 0 {
		events = append(events, []map[string]any{{"text": ""}})
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	for i, parts := range events {
		if i > 0 && !sleep(r.Context(), rep.Gap) {
			return
		}
		b, _ := json.Marshal(chunk(parts, i == len(events)-1))
		if _, err := fmt.Fprintf(w, "data: %s\r\n\r\n", b); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
	}
}

// geminiError writes a Google API error body.
func geminiError(w http.ResponseWriter, code int, status, msg string) {
	if status == "" {
		status = map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
			404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}[code]
		if status == "" {
			status = "UNKNOWN"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg, "status": status}})
}
