package daemon

import (
	"os"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/config"
)

// With [agents] enabled = false the multiplexer works and every agent verb
// says why it does not.
func TestAgentsOffLeavesOnlyTheMultiplexer(t *testing.T) {
	t.Parallel()
	f, err := config.Parse([]byte("[agents]\nenabled = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, sock := serverWith(t, func(o *Options) { o.Config = f })
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "w"})
	for _, verb := range []string{"list-agents", "list-attention", "get-agent-state", "peek-prompt"} {
		if _, err := r.call(verb, map[string]any{"session": "w", "window": "0"}); err == nil || err.Code != codeAgentsDisabled {
			t.Errorf("%s: %v, want %s", verb, err, codeAgentsDisabled)
		}
	}
	if _, err := r.call("set-agent-state", map[string]any{"session": "w", "state": "working"}); err == nil || err.Code != codeAgentsDisabled {
		t.Errorf("set-agent-state: %v", err)
	}
	if _, err := r.call("wait-for", map[string]any{"session": "w", "condition": "agent-state", "until": "done", "timeout": 100}); err == nil || err.Code != codeAgentsDisabled {
		t.Errorf("wait-for agent-state: %v", err)
	}
	// The output wait, typing and reading still work.
	r.must("send-text", map[string]any{"session": "w", "text": "echo agents-off-ok\n"})
	r.must("wait-for", map[string]any{"session": "w", "condition": "window-output", "pattern": "agents-off-ok\n", "timeout": 10000})
}

// [agents] enabled = false "to keep only the multiplexer": a new pane gets
// none of herdr's variables and no herdr socket is served, while a daemon
// with agents on gives every pane all six.
func TestAgentsOffGivesPanesNoHerdrVariables(t *testing.T) {
	t.Parallel()
	herdrVars := func(cfg string) (string, *Server) {
		f, err := config.Parse([]byte(cfg))
		if err != nil {
			t.Fatal(err)
		}
		srv, sock := serverWith(t, func(o *Options) { o.Config = f })
		r := dialRPC(t, sock)
		r.must("new-session", map[string]any{"name": "w"})
		r.must("send-text", map[string]any{"session": "w", "text": "echo herdr-vars=$(env | grep -c '^HERDR_')-end\n"})
		res := r.must("wait-for", map[string]any{"session": "w", "condition": "window-output", "pattern": "herdr-vars=[0-9]+-end", "timeout": 10000})
		return strings.TrimSpace(str(res["line"])), srv
	}
	on, onSrv := herdrVars("")
	if !strings.HasSuffix(on, "herdr-vars=6-end") || !onSrv.herdr.live() {
		t.Fatalf("agents on: %q, herdr socket served %v", on, onSrv.herdr.live())
	}
	off, offSrv := herdrVars("[agents]\nenabled = false\n")
	if !strings.HasSuffix(off, "herdr-vars=0-end") {
		t.Fatalf("agents off: a pane has herdr's variables: %q", off)
	}
	if offSrv.herdr.live() {
		t.Fatal("agents off: the herdr socket is served")
	}
	if _, err := os.Stat(offSrv.herdr.path); err == nil {
		t.Fatalf("agents off: %s exists", offSrv.herdr.path)
	}
}
