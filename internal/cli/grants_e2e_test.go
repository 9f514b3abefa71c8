package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// strictEnv is an env whose config file says [agents.permissions] mode =
// "strict" with grants, and a session work running a shell.
func strictEnv(t *testing.T, grants ...string) *env {
	t.Helper()
	e := newEnv(t)
	cfg := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	q := make([]string, len(grants))
	for i, g := range grants {
		q[i] = `"` + g + `"`
	}
	body := "[agents.permissions]\nmode = \"strict\"\ngrants = [" + strings.Join(q, ", ") + "]\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ok("new", "--detach", "work")
	return e
}

// The CLI in a real pane under strict: pane-grants says what the pane
// holds, TUIOS_PANE_GRANTS says what it started with, every refusal
// names the grant and the command that gives it, and the person gives
// and takes grants from outside.
func TestGrantsCLIInAPane(t *testing.T) {
	t.Parallel()
	e := strictEnv(t, "read", "write")
	e.ok("new", "--detach", "other")
	e.ok("new-window", "-s", "work", "sh", "--no-focus")
	e.ok("new-window", "-s", "work", "worker", "--grants", "read", "--no-focus", "--", "sh", "-c", "stty -echo; exec sleep 100000")

	rc, out := e.inPane("sh", "tuios pane-grants")
	if rc != 0 || !strings.Contains(out, "in session work may: read,write") || !strings.Contains(out, "the default of [agents.permissions]: mode strict") {
		t.Fatalf("pane-grants in a pane: %d\n%s", rc, out)
	}
	rc, out = e.inPane("sh", "tuios pane-grants --json")
	var pg struct {
		Grants []string `json:"grants"`
		Mode   string   `json:"mode"`
		Via    string   `json:"via"`
	}
	if rc != 0 || json.Unmarshal([]byte(out), &pg) != nil || strings.Join(pg.Grants, ",") != "read,write" || pg.Mode != "strict" || pg.Via != "pid" {
		t.Fatalf("pane-grants --json: %d %s", rc, out)
	}
	if _, out = e.inPane("sh", `echo "g=$TUIOS_PANE_GRANTS"`); !strings.Contains(out, "g=read,write") {
		t.Fatalf("TUIOS_PANE_GRANTS: %s", out)
	}

	for _, c := range []struct{ line, words string }{
		{"tuios send-text -s other -w 0 x", "forbidden|its own session|admin grant|tuios set-pane-grants"},
		{"tuios new-window -s work x", "forbidden|admin grant"},
		{"tuios send-keys -w worker ctrl+b,n", "forbidden|new-window"},
		{"tuios set-pane-grants -w worker --grants read", "forbidden|only its own"},
		{"tuios set-pane-grants -w sh --grants read,write,admin", "forbidden|widen"},
		{"tuios config apply", "forbidden|outside"},
		{"tuios list-attention --kind approval -s other", "forbidden"},
	} {
		rc, out := e.inPane("sh", c.line)
		if rc == 0 {
			t.Errorf("%s: exit 0\n%s", c.line, out)
		}
		for _, w := range strings.Split(c.words, "|") {
			if !strings.Contains(out, w) {
				t.Errorf("%s: %q is not said:\n%s", c.line, w, out)
			}
		}
	}
	if rc, out := e.inPane("sh", "tuios send-text -w worker x"); rc != 0 {
		t.Fatalf("typing into a pane that holds less: %d %s", rc, out)
	}

	// The person takes write away: the pane's next call is refused.
	out = e.ok("set-pane-grants", "-s", "work", "-w", "sh", "--grants", "read")
	if !strings.Contains(out, "now holds read (given to it); it held read,write (the default)") {
		t.Fatalf("set-pane-grants: %s", out)
	}
	rc, out = e.inPane("sh", "tuios send-text -w worker x")
	if rc == 0 || !strings.Contains(out, "needs the write grant") || !strings.Contains(out, "--grants read,write") {
		t.Fatalf("typing after write was taken: %d %s", rc, out)
	}
	if _, out = e.inPane("sh", "tuios pane-grants"); !strings.Contains(out, "may: read") || !strings.Contains(out, "given to it") {
		t.Fatalf("pane-grants after the change: %s", out)
	}
	if out := e.ok("pane-grants", "-s", "work", "-w", "worker"); !strings.Contains(out, "may: read") {
		t.Fatalf("the person looks at a pane: %s", out)
	}
	if out := e.ok("pane-grants"); !strings.Contains(out, "Outside every pane") || !strings.Contains(out, "Mode strict: a pane given nothing holds read,write") {
		t.Fatalf("pane-grants outside: %s", out)
	}
	e.fails("invalid_params", "set-pane-grants", "-w", "worker")
	e.fails("invalid_params", "new-window", "-s", "work", "x", "--grants", "root")
	for _, v := range []string{"pane-grants", "set-pane-grants"} {
		if out := e.ok(v, "--help"); !strings.Contains(out, "Example") && !strings.Contains(out, "tuios "+v) {
			t.Errorf("%s --help has no example:\n%s", v, out)
		}
	}
}

// The matrix through tuios mcp: servers started with --write --scope
// all in panes holding different grants; the daemon holds each call to
// the pane's grants whatever the server offers.
func TestMCPGrantsMatrix(t *testing.T) {
	t.Parallel()
	e := strictEnv(t, "read")
	e.ok("new", "--detach", "other")
	prompt := `printf '\n Bash command\n\n   touch hello.txt\n\n Do you want to proceed?\n \342\235\257 1. Yes\n   2. No\n\n'; stty -echo; exec sleep 100000`
	for _, s := range []string{"work", "other"} {
		e.ok("new-window", "-s", s, "quiet", "--grants", "read", "--no-focus", "--", "sh", "-c", "stty -echo; exec sleep 100000")
		e.ok("new-window", "-s", s, "prompt", "--grants", "read", "--no-focus", "--", "env", "TUIOS_AGENT=claude-code", "sh", "-c", prompt)
	}
	for _, s := range []string{"work", "other"} {
		e.ok("wait-for", "agent-state", "-s", s, "-w", "prompt", "--until", "needs_input", "--timeout", "20000")
	}
	held := []string{"read", "read,write", "admin", "read,write,respond"}
	peers := map[string]*mcpPeer{}
	for i, g := range held {
		name := fmt.Sprintf("mcp%d", i)
		p := startMCPInPane(t, e, name, "--write", "--scope", "all")
		e.ok("set-pane-grants", "-s", "work", "-w", name, "--grants", g)
		p.initialize("2025-06-18")
		peers[g] = p
	}
	has := func(g, want string) bool { return strings.Contains(","+g+",", ","+want+",") }
	for _, g := range held {
		p := peers[g]
		admin := has(g, "admin")
		for _, s := range []string{"work", "other"} {
			own := s == "work"
			for _, tgt := range []string{"quiet", "prompt"} {
				at := tgt == "prompt"
				cases := []struct {
					tool string
					args map[string]any
					ok   bool
					code string
				}{
					{"tuios_capture_pane", map[string]any{"session": s, "window": tgt}, own || admin, "forbidden"},
					{"tuios_send_text", map[string]any{"session": s, "window": tgt, "text": "x"},
						(has(g, "write") || admin) && (own || admin) && (!at || has(g, "respond")), "forbidden"},
					{"tuios_send_agent_message", map[string]any{"session": s, "to": tgt, "text": "hi"}, (has(g, "write") || admin) && (own || admin), "forbidden"},
					{"tuios_respond", map[string]any{"session": s, "window": tgt, "action": "deny", "timeout": 200}, has(g, "respond") && own, "not_human"},
				}
				for _, c := range cases {
					res := p.tool(c.tool, c.args)
					text := toolText(res)
					refused := res["isError"] == true && (strings.Contains(text, "forbidden") || strings.Contains(text, "not_human"))
					where := fmt.Sprintf("%s holding %s on %s/%s", c.tool, g, s, tgt)
					switch {
					case c.ok && refused:
						t.Errorf("%s: refused: %s", where, text)
					case !c.ok && !refused:
						t.Errorf("%s: not refused: %s", where, text)
					case !c.ok && c.tool == "tuios_respond" && !has(g, "respond") && !strings.Contains(text, c.code):
						t.Errorf("%s: want %s: %s", where, c.code, text)
					}
				}
			}
		}
	}
	// Without --write the server lists no typing tool, even for a pane
	// that holds admin; reading works.
	ro := startMCPInPane(t, e, "ro")
	e.ok("set-pane-grants", "-s", "work", "-w", "ro", "--grants", "admin")
	ro.initialize("2025-06-18")
	if names := ro.toolNames(); names["tuios_send_text"] != nil {
		t.Fatal("a server without --write offers tuios_send_text")
	}
	res := ro.tool("tuios_capture_pane", map[string]any{"window": "quiet"})
	if res["isError"] == true {
		t.Fatalf("read-only capture: %v", res)
	}
}

// A machine with no config file when the daemon starts: the person writes
// one that narrows [agents.permissions], and it applies at once, as an
// edit of an existing file does.
func TestConfigWrittenAfterTheDaemonStartedNarrowsAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	cfg := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	if _, err := os.Stat(filepath.Dir(cfg)); err == nil {
		t.Fatalf("%s exists before the test writes it", filepath.Dir(cfg))
	}
	if out := e.ok("pane-grants", "--json"); !strings.Contains(out, `"mode": "open"`) {
		t.Fatalf("before: %s", out)
	}
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte("[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := e.ok("pane-grants", "--json")
		if strings.Contains(out, `"mode": "strict"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new file's strict mode did not apply:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// send-keys with no -w from a pane presses the keys in the focused pane,
// not the caller's own (the agents page), and its --help says so.
func TestSendKeysWithNoWindowFromAPaneGoesToTheFocusedPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "target")
	done := filepath.Join(e.dir, "sent.done")
	e.ok("new-window", "-s", "work", "--no-focus", "caller", "--", "/bin/sh", "-c",
		e.bin+" send-keys mark_from_caller > "+done+".tmp 2>&1; echo \"exit $?\" >> "+done+".tmp; mv "+done+".tmp "+done+"; exec sleep 600")
	if b := waitFile(t, done); !strings.Contains(b, "exit 0") {
		t.Fatalf("send-keys from the pane: %s", b)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", "target", "--pattern", "mark_from_caller", "--timeout", "10000")
	if out := e.ok("capture-pane", "-s", "work", "-w", "caller"); strings.Contains(out, "mark_from_caller") {
		t.Fatalf("the keys went to the caller's own pane:\n%s", out)
	}
	if help := e.ok("send-keys", "--help"); !strings.Contains(help, "default: the focused one, from inside a pane too") {
		t.Fatalf("send-keys --help does not say where keys with no -w go:\n%s", help)
	}
}
