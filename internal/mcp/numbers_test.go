package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/client"
)

// A tool's result carries the verb's numbers as the daemon wrote them:
// agent_state_at is nanoseconds since 1970, past what a float64 holds
// exactly, and a client that compares it with the CLI's must see the
// same number.
func TestToolResultKeepsLargeNumbersExact(t *testing.T) {
	sock := inProcessDaemon(t)
	dial := func() (*client.Client, error) { return client.Dial(client.Options{Socket: sock}) }
	c, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Call("new-session", map[string]any{"name": "work"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call("set-agent-state", map[string]any{"session": "work", "state": "working"}, nil); err != nil {
		t.Fatal(err)
	}
	var direct struct {
		At json.Number `json:"agent_state_at"`
	}
	if err := c.Call("get-agent-state", map[string]any{"session": "work"}, &direct); err != nil {
		t.Fatal(err)
	}

	s := New(Options{Dial: dial, ScopeAll: true})
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), inR, outW); outW.Close() }()
	inW.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}` + "\n")
	inW.WriteString(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tuios_get_agent_state","arguments":{"session":"work"}}}` + "\n")
	inW.Close()
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	var got json.Number
	for sc.Scan() {
		var m struct {
			ID     int `json:"id"`
			Result struct {
				Structured struct {
					At json.Number `json:"agent_state_at"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		if dec.Decode(&m) == nil && m.ID == 2 {
			got = m.Result.Structured.At
		}
	}
	<-done
	if got == "" || got != direct.At {
		t.Fatalf("agent_state_at through the tool = %q, from the daemon %q", got, direct.At)
	}
}
