package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// fakeProtoAgent is an ACP agent the end-to-end tests run as a real
// process (the test binary itself, FAKE_ACP_AGENT naming how it
// behaves): a well-behaved one whose tool calls really run, and the
// broken ones tuios must survive. The real agents (Gemini CLI, Qwen
// Code, opencode, Codex) are driven in agent_proto_real_e2e_test.go; this
// one exists for what no real agent does on purpose.
//
//	ok       answers the handshake; a prompt "run: CMD" asks permission to
//	         run CMD and runs it (sh -c) when allowed; a prompt with
//	         "wait" works until cancelled; any other prompt is echoed
//	garbage  writes lines that are not JSON-RPC
//	silent   never answers initialize
//	huge     answers initialize with a 100 MB message
//	flood    on a prompt, sends session/update without end
//	perms    on a prompt, asks 1,000 permissions at once
//	die      on a prompt, says something, writes to stderr, exits 3
func fakeProtoAgent(mode string) int {
	a := &fakeAgent{out: bufio.NewWriterSize(os.Stdout, 64<<10), waiting: map[string]chan json.RawMessage{}, cancel: make(chan struct{}, 1)}
	switch mode {
	case "garbage":
		for i := 0; i < 500; i++ {
			fmt.Printf("\x1b[31mnot json %d\x1b[0m\n", i)
		}
		time.Sleep(time.Hour)
		return 0
	case "silent":
		time.Sleep(time.Hour)
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "":
			a.mu.Lock()
			ch := a.waiting[string(m.ID)]
			delete(a.waiting, string(m.ID))
			a.mu.Unlock()
			if ch != nil {
				ch <- m.Result
			}
		case "initialize":
			if mode == "huge" {
				a.out.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"x":"`)
				chunk := strings.Repeat("a", 1<<20)
				for i := 0; i < 100; i++ {
					if _, err := a.out.WriteString(chunk); err != nil {
						return 1
					}
				}
				a.out.WriteString("\"}}\n")
				a.out.Flush()
				continue
			}
			a.reply(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{},
				"authMethods": []any{}, "agentInfo": map[string]any{"name": "fake-agent", "version": "1.0"}})
		case "session/new":
			a.reply(m.ID, map[string]any{"sessionId": "s1"})
		case "session/cancel":
			select {
			case a.cancel <- struct{}{}:
			default:
			}
		case "session/prompt":
			var p struct {
				Prompt []struct {
					Text string `json:"text"`
				} `json:"prompt"`
			}
			json.Unmarshal(m.Params, &p)
			text := ""
			if len(p.Prompt) > 0 {
				text = p.Prompt[0].Text
			}
			// A cancel read before this prompt was an earlier turn's; one
			// read after it is this turn's, even if it comes before the
			// turn's goroutine runs. The reader drains in order.
			select {
			case <-a.cancel:
			default:
			}
			go a.turn(mode, m.ID, text)
		}
	}
	return 0
}

type fakeAgent struct {
	mu      sync.Mutex
	out     *bufio.Writer
	next    int
	waiting map[string]chan json.RawMessage
	cancel  chan struct{}
}

func (a *fakeAgent) send(v any) {
	b, _ := json.Marshal(v)
	a.mu.Lock()
	a.out.Write(append(b, '\n'))
	a.out.Flush()
	a.mu.Unlock()
}

func (a *fakeAgent) reply(id json.RawMessage, result any) {
	a.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (a *fakeAgent) update(u map[string]any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "s1", "update": u}})
}

func (a *fakeAgent) say(text string) {
	a.update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}})
}

// ask sends a request and returns the channel its answer comes on.
func (a *fakeAgent) ask(method string, params any) chan json.RawMessage {
	ch := make(chan json.RawMessage, 1)
	a.mu.Lock()
	a.next++
	id := fmt.Sprint(a.next)
	a.waiting[id] = ch
	a.mu.Unlock()
	a.send(map[string]any{"jsonrpc": "2.0", "id": a.next, "method": method, "params": params})
	return ch
}

var fakeOptions = []map[string]any{
	{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
	{"optionId": "always", "name": "Always allow", "kind": "allow_always"},
	{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
}

func (a *fakeAgent) turn(mode string, id json.RawMessage, text string) {
	switch mode {
	case "flood":
		for {
			a.say("x")
		}
	case "perms":
		for i := 0; i < 1000; i++ {
			a.ask("session/request_permission", map[string]any{"sessionId": "s1",
				"toolCall": map[string]any{"toolCallId": fmt.Sprint("t", i), "title": "true", "kind": "execute", "rawInput": map[string]any{"command": "true"}},
				"options":  fakeOptions})
		}
		<-a.cancel
		a.reply(id, map[string]any{"stopReason": "cancelled"})
		return
	case "die":
		a.say("about to fall over")
		fmt.Fprintln(os.Stderr, "fatal: out of cheese")
		os.Exit(3)
	}
	switch {
	case strings.HasPrefix(text, "run: "):
		cmd := strings.TrimPrefix(text, "run: ")
		a.say("I will run it.")
		a.update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": cmd, "kind": "execute", "status": "pending",
			"rawInput": map[string]any{"command": cmd}})
		ans := a.ask("session/request_permission", map[string]any{"sessionId": "s1",
			"toolCall": map[string]any{"toolCallId": "t1"}, "options": fakeOptions})
		var res struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		}
		json.Unmarshal(<-ans, &res)
		switch {
		case res.Outcome.Outcome == "cancelled":
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "failed"})
			a.reply(id, map[string]any{"stopReason": "cancelled"})
			return
		case res.Outcome.OptionID == "allow":
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "in_progress"})
			out, _ := exec.Command("sh", "-c", cmd).CombinedOutput()
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed",
				"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": string(out)}}}})
			a.say("Ran it.")
		default:
			a.update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "failed"})
			a.say("Not run: you said no.")
		}
	case strings.Contains(text, "wait"):
		a.say("working on it")
		<-a.cancel
		a.reply(id, map[string]any{"stopReason": "cancelled"})
		return
	default:
		a.update(map[string]any{"sessionUpdate": "plan", "entries": []any{
			map[string]any{"content": "read it", "status": "completed", "priority": "high"},
			map[string]any{"content": "answer it", "status": "in_progress", "priority": "high"}}})
		a.say("echo: \x1b]0;evil title\x07" + text + "\x1b[2J")
	}
	a.reply(id, map[string]any{"stopReason": "end_turn"})
}
