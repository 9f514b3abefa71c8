package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mcpPeer is the test speaking MCP to a `tuios mcp` over real pipes, as a
// harness would.
type mcpPeer struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
	next  int
}

func newMCPPeer(t *testing.T, in io.WriteCloser, out io.Reader) *mcpPeer {
	p := &mcpPeer{t: t, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 4<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// startMCP runs tuios mcp as a child of the test (outside every pane).
func startMCP(t *testing.T, e *env, args ...string) *mcpPeer {
	t.Helper()
	cmd := exec.Command(e.bin, append([]string{"mcp"}, args...)...)
	cmd.Env = e.vars
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("tuios mcp did not end when its stdin closed")
		}
	})
	return newMCPPeer(t, in, out)
}

// startMCPInPane runs tuios mcp in a new pane of session work, its stdin
// and stdout named pipes the test holds: the daemon sees a pane's process.
func startMCPInPane(t *testing.T, e *env, name string, args ...string) *mcpPeer {
	t.Helper()
	inPath, outPath := filepath.Join(e.dir, name+".in"), filepath.Join(e.dir, name+".out")
	for _, f := range []string{inPath, outPath} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Read-write opens do not wait for the other end.
	in, err := os.OpenFile(inPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(outPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); out.Close() })
	e.ok(append([]string{"new-window", "-s", "work", name, "--no-focus", "--", "sh", "-c", `exec "$0" mcp "$@" <"` + inPath + `" >"` + outPath + `"`, e.bin}, args...)...)
	return newMCPPeer(t, in, out)
}

func (p *mcpPeer) sendLine(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

// recv reads the next line as JSON (an object or a batch array).
func (p *mcpPeer) recv() any {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("tuios mcp closed its output")
		}
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			p.t.Fatalf("tuios mcp wrote a line that is not JSON: %v\n%s", err, l)
		}
		return v
	case <-time.After(30 * time.Second):
		p.t.Fatal("no answer from tuios mcp in 30 s")
	}
	return nil
}

// call sends one request and returns its response object.
func (p *mcpPeer) call(method string, params any) map[string]any {
	p.t.Helper()
	p.next++
	id := p.next
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	p.sendLine(string(b))
	for {
		m, ok := p.recv().(map[string]any)
		if ok && m["id"] == float64(id) {
			return m
		}
		p.t.Fatalf("%s: an answer that is not for id %d: %v", method, id, m)
	}
}

func (p *mcpPeer) initialize(version string) map[string]any {
	p.t.Helper()
	r := p.call("initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	res, _ := r["result"].(map[string]any)
	if res == nil {
		p.t.Fatalf("initialize: %v", r)
	}
	p.sendLine(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// tool calls a tool and returns its result.
func (p *mcpPeer) tool(name string, args map[string]any) map[string]any {
	p.t.Helper()
	r := p.call("tools/call", map[string]any{"name": name, "arguments": args})
	res, _ := r["result"].(map[string]any)
	if res == nil {
		p.t.Fatalf("tools/call %s: no result: %v", name, r)
	}
	return res
}

func toolText(res map[string]any) string {
	c, _ := res["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	first, _ := c[0].(map[string]any)
	s, _ := first["text"].(string)
	return s
}

func (p *mcpPeer) toolNames() map[string]map[string]any {
	p.t.Helper()
	r := p.call("tools/list", map[string]any{})
	res, _ := r["result"].(map[string]any)
	list, _ := res["tools"].([]any)
	if len(list) == 0 {
		p.t.Fatalf("tools/list: %v", r)
	}
	names := map[string]map[string]any{}
	for _, x := range list {
		m := x.(map[string]any)
		names[m["name"].(string)] = m
	}
	return names
}

var typingTools = []string{"tuios_send_text", "tuios_send_keys", "tuios_ask_agent", "tuios_respond", "tuios_fan"}

// C1: without --write no tool types into a pane; with it they are there,
// marked destructive. Schemas come from list-verbs, human_nonce never.
func TestMCPToolsListWithoutAndWithWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ro := startMCP(t, e)
	if v := ro.initialize("2025-06-18")["protocolVersion"]; v != "2025-06-18" {
		t.Fatalf("negotiated %v, want the client's 2025-06-18", v)
	}
	names := ro.toolNames()
	for _, n := range typingTools {
		if names[n] != nil {
			t.Errorf("without --write tools/list offers %s", n)
		}
	}
	for _, n := range []string{"tuios_list_agents", "tuios_list_windows", "tuios_get_agent_state", "tuios_capture_pane", "tuios_peek_prompt",
		"tuios_wait_for", "tuios_read_agent_messages", "tuios_send_agent_message", "tuios_set_agent_state", "tuios_set_agent_meta", "tuios_events"} {
		if names[n] == nil {
			t.Errorf("tools/list lacks %s", n)
		}
	}
	cap := names["tuios_capture_pane"]
	lines := cap["inputSchema"].(map[string]any)["properties"].(map[string]any)["lines"].(map[string]any)
	if lines["type"] != "integer" || lines["minimum"] != float64(1) || lines["maximum"] != float64(100000) {
		t.Errorf("capture_pane lines schema: %v", lines)
	}
	if ann := cap["annotations"].(map[string]any); ann["readOnlyHint"] != true || ann["openWorldHint"] != false {
		t.Errorf("capture_pane annotations: %v", ann)
	}
	if ann := names["tuios_send_agent_message"]["annotations"].(map[string]any); ann["readOnlyHint"] != false || ann["destructiveHint"] != false {
		t.Errorf("send_agent_message annotations: %v", ann)
	}
	// A typing tool called anyway is refused, naming the flag.
	r := ro.call("tools/call", map[string]any{"name": "tuios_send_text", "arguments": map[string]any{"text": "x"}})
	if errm, _ := r["error"].(map[string]any); errm == nil || !strings.Contains(fmt.Sprint(errm["message"]), "--write") {
		t.Errorf("tuios_send_text without --write: %v", r)
	}

	rw := startMCP(t, e, "--write")
	if v := rw.initialize("1999-01-01")["protocolVersion"]; v != "2025-11-25" {
		t.Errorf("an unknown version negotiated %v, want the newest 2025-11-25", v)
	}
	names = rw.toolNames()
	for _, n := range typingTools {
		ann, _ := names[n]["annotations"].(map[string]any)
		if ann == nil || ann["destructiveHint"] != true || ann["openWorldHint"] != true {
			t.Errorf("with --write %s: %v", n, names[n])
		}
	}
	if fan := names["tuios_fan"]; fan == nil || fan["inputSchema"].(map[string]any)["properties"].(map[string]any)["count"] == nil {
		t.Errorf("tuios_fan: %v", fan)
	}
	props := names["tuios_respond"]["inputSchema"].(map[string]any)["properties"].(map[string]any)
	if props["human_nonce"] != nil || props["action"] == nil {
		t.Errorf("respond schema: %v", props)
	}
	if req := names["tuios_respond"]["inputSchema"].(map[string]any)["required"]; fmt.Sprint(req) != "[action window]" {
		t.Errorf("respond required: %v", req)
	}
}

// Malformed lines, batches, unknown methods, a line over 1 MiB: each gets
// its JSON-RPC answer and the server reads on.
func TestMCPMalformedLinesAndBatches(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := startMCP(t, e)
	p.sendLine(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}`)
	if m := p.recv().(map[string]any); m["error"].(map[string]any)["code"] != float64(-32700) || m["id"] != nil {
		t.Errorf("a cut line: %v", m)
	}
	p.sendLine(`{"jsonrpc":"2.0","id":"a","method":"no/such"}`)
	if m := p.recv().(map[string]any); m["error"].(map[string]any)["code"] != float64(-32601) || m["id"] != "a" {
		t.Errorf("an unknown method: %v", m)
	}
	p.sendLine(`{"id":2,"method":"ping"}`)
	if m := p.recv().(map[string]any); m["error"].(map[string]any)["code"] != float64(-32600) {
		t.Errorf("no jsonrpc member: %v", m)
	}
	p.sendLine(`[]`)
	if m, ok := p.recv().(map[string]any); !ok || m["error"].(map[string]any)["code"] != float64(-32600) {
		t.Errorf("an empty batch: %v", m)
	}
	p.sendLine(`"` + strings.Repeat("x", 1<<20+10) + `"`)
	if m := p.recv().(map[string]any); m["error"].(map[string]any)["code"] != float64(-32600) ||
		!strings.Contains(m["error"].(map[string]any)["message"].(string), "1 MiB") {
		t.Errorf("a line over 1 MiB: %v", m)
	}
	p.sendLine(`[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"2.0","id":11,"method":"prompts/list"},{"jsonrpc":"2.0","id":12,"method":"resources/list"},42]`)
	batch, ok := p.recv().([]any)
	if !ok || len(batch) != 4 {
		t.Fatalf("a batch of 3 requests, a notification and a bad member: %v", batch)
	}
	byID := map[any]map[string]any{}
	for _, x := range batch {
		m := x.(map[string]any)
		byID[m["id"]] = m
	}
	if byID[float64(10)]["result"] == nil || byID[nil]["error"].(map[string]any)["code"] != float64(-32600) {
		t.Errorf("batch answers: %v", batch)
	}
	if l := byID[float64(11)]["result"].(map[string]any)["prompts"]; fmt.Sprint(l) != "[]" {
		t.Errorf("prompts/list: %v", l)
	}
	p.sendLine(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	// A batch of notifications has no answer: the next line is the ping's.
	if m := p.call("ping", nil); m["result"] == nil {
		t.Errorf("ping after a notification batch: %v", m)
	}
	// Outside every pane, the default scope has no session to reach.
	res := p.tool("tuios_list_agents", nil)
	if res["isError"] != true || !strings.Contains(toolText(res), "not_in_pane") || !strings.Contains(toolText(res), "--scope all") {
		t.Errorf("list_agents outside a pane: %v", res)
	}
}

// In a pane: the tools run as that pane against the real daemon. Pane
// text is fenced; respond without the right to answer prompts is
// not_human; another session is out of scope; a cancelled wait ends
// without an answer.
func TestMCPInAPane(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t) // session work; respond_from_shell does not help a pane
	e.pretendOnPrompt("agent")
	e.ok("new", "--detach", "other")
	e.ok("new-window", "-s", "work", "sh", "--no-focus")
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", "sh", cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "sh", "--pattern", marker, "--timeout", "10000")

	p := startMCPInPane(t, e, "mcp", "--write")
	p.initialize("2025-06-18")

	res := p.tool("tuios_list_agents", map[string]any{})
	sc, _ := res["structuredContent"].(map[string]any)
	if res["isError"] == true || sc == nil || !strings.Contains(toolText(res), `"agent"`) {
		t.Fatalf("list_agents: %v", res)
	}
	agents, _ := sc["agents"].([]any)
	if len(agents) == 0 {
		t.Fatalf("list_agents found no agent: %v", sc)
	}

	res = p.tool("tuios_capture_pane", map[string]any{"window": "sh"})
	text := toolText(res)
	// The marker is the shell's output, on a line of its own or after a
	// prompt the shell painted while the command was being typed.
	if res["isError"] == true || !strings.Contains(text, "begin untrusted content") || !regexp.MustCompile(`(?m)^│ (\$ )?`+marker+`$`).MatchString(text) ||
		!strings.HasPrefix(text, "The fenced text below came from a pane") {
		t.Errorf("capture_pane is not fenced:\n%s", text)
	}
	if sc, _ := res["structuredContent"].(map[string]any); sc["untrusted"] != true {
		t.Errorf("capture_pane structuredContent not untrusted: %v", sc)
	}

	res = p.tool("tuios_respond", map[string]any{"window": "agent", "action": "approve"})
	if res["isError"] != true || !strings.Contains(toolText(res), "not_human") {
		t.Errorf("respond from a pane: %v", res)
	}
	if sc, _ := res["structuredContent"].(map[string]any); fmt.Sprint(sc["error"].(map[string]any)["code"]) != "not_human" {
		t.Errorf("respond structuredContent: %v", sc)
	}
	res = p.tool("tuios_respond", map[string]any{"window": "agent", "action": "approve", "human_nonce": "x"})
	if res["isError"] != true || !strings.Contains(toolText(res), "human_nonce") {
		t.Errorf("respond with a human_nonce argument: %v", res)
	}

	res = p.tool("tuios_list_windows", map[string]any{"session": "other"})
	if res["isError"] != true || !strings.Contains(toolText(res), "out_of_scope") {
		t.Errorf("list_windows of another session: %v", res)
	}

	// The agent's own state: the window defaults to the server's pane.
	res = p.tool("tuios_set_agent_state", map[string]any{"state": "working", "message": "via mcp"})
	if res["isError"] == true {
		t.Fatalf("set_agent_state: %v", res)
	}
	var st struct{ State, Message string }
	e.json(&st, "get-agent-state", "-s", "work", "-w", "mcp")
	if st.State != "working" || st.Message != "via mcp" {
		t.Errorf("the server's pane after set_agent_state: %+v", st)
	}

	// Events: a window created while the call waits comes back.
	p.sendLine(`{"jsonrpc":"2.0","id":"ev","method":"tools/call","params":{"name":"tuios_events","arguments":{"types":["window-created"],"wait_ms":20000}}}`)
	// The call subscribes at some point after the line is read: open
	// windows until one is seen.
	var m map[string]any
	for i := 0; m == nil && i < 50; i++ {
		e.ok("new-window", "-s", "work", fmt.Sprintf("late%d", i), "--no-focus")
		select {
		case l := <-p.lines:
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("events: %v: %s", err, l)
			}
		case <-time.After(200 * time.Millisecond):
		}
	}
	if m == nil {
		t.Fatal("tuios_events returned nothing while windows were opened")
	}
	evs := m["result"].(map[string]any)["structuredContent"].(map[string]any)["events"].([]any)
	if m["id"] != "ev" || len(evs) == 0 || evs[0].(map[string]any)["type"] != "window-created" {
		t.Errorf("events: %v", m)
	}

	// Cancel: a wait is dropped; the next answer is the ping's, and the
	// pattern printed afterwards brings no answer for the cancelled call.
	p.sendLine(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"tuios_wait_for","arguments":{"window":"sh","condition":"window-output","pattern":"never_printed_zq","timeout":60000}}}`)
	p.sendLine(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w","reason":"test"}}`)
	start := time.Now()
	if r := p.call("ping", nil); r["result"] == nil {
		t.Errorf("ping after a cancel: %v", r)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("the cancel took %v", time.Since(start))
	}
	e.ok("send-text", "-s", "work", "-w", "sh", "echo never_printed_zq\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "sh", "--pattern", "never_printed_zq", "--timeout", "10000")
	// Had the call run on, the wait would now return; give it 2 s.
	select {
	case l := <-p.lines:
		t.Errorf("a cancelled call answered: %s", l)
	case <-time.After(2 * time.Second):
	}
}

// integration install claude-code --mcp / --mcp-write registers tuios mcp
// in ~/.claude.json, and uninstall --mcp gives the file back.
func TestMCPIntegrationInstall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	home := filepath.Join(e.dir, "home")
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, ".claude.json")
	orig := "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\"}\n  }\n}\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	out := e.ok("integration", "install", "claude-code", "--mcp")
	if !strings.Contains(out, "registered tuios mcp") {
		t.Errorf("install --mcp said: %s", out)
	}
	var v struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got := v.MCPServers["tuios"]; got.Command != e.bin || strings.Join(got.Args, " ") != "mcp --integration 1" || v.MCPServers["other"].Command != "x" {
		t.Errorf("~/.claude.json after install --mcp:\n%s", b)
	}
	var res struct {
		Results []struct {
			Changed bool
			Files   []string
		}
	}
	out = e.ok("integration", "install", "claude-code", "--mcp-write", "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(res.Results) != 1 || !res.Results[0].Changed || res.Results[0].Files[0] != path {
		t.Errorf("install --mcp-write --json: %+v", res)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"--write"`) {
		t.Errorf("after --mcp-write:\n%s", b)
	}
	// The hooks are another thing: uninstall without --mcp leaves the entry.
	e.ok("integration", "uninstall", "claude-code")
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"tuios"`) {
		t.Errorf("uninstall (hooks) removed the MCP entry:\n%s", b)
	}
	e.ok("integration", "uninstall", "claude-code", "--mcp")
	if b, _ := os.ReadFile(path); string(b) != orig {
		t.Errorf("uninstall --mcp:\n%s\nwant\n%s", b, orig)
	}
	if r := e.run("integration", "install", "kilo", "--mcp"); r.code == 0 || !strings.Contains(r.err, "no_integration") {
		t.Errorf("install kilo --mcp: exit %d %s", r.code, r.err)
	}
	if r := e.run("integration", "install", "claude-code", "--mcp", "--statusline"); r.code == 0 || !strings.Contains(r.err, "--statusline does not go with --mcp") {
		t.Errorf("--mcp --statusline: exit %d %s", r.code, r.err)
	}
}

// Codex's config.toml: a file tuios cannot add its table to validly, or
// that is not TOML, is refused with a non-zero exit and left byte for byte.
func TestMCPIntegrationInstallCodexRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dir := filepath.Join(e.dir, "home", ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	for _, text := range []string{
		"mcp_servers = { docs = { command = \"docs\" } }\n",
		"[mcp_servers]\ntuios = { command = \"mine\" }\n",
		"[ mcp_servers.tuios ]\ncommand = \"mine\"\n",
		"model = \"o4\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		r := e.run("integration", "install", "codex", "--mcp")
		if r.code == 0 || !strings.Contains(r.err, "nothing was changed") {
			t.Errorf("%q: exit %d\n%s%s", text, r.code, r.out, r.err)
		}
		if b, _ := os.ReadFile(path); string(b) != text {
			t.Errorf("%q was written:\n%s", text, b)
		}
	}
	// And one it can: the result parses with the table in it.
	os.WriteFile(path, []byte("[mcp_servers]\ndocs = { command = \"docs\" }\n"), 0o600)
	e.ok("integration", "install", "codex", "--mcp")
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "[mcp_servers.tuios]") {
		t.Errorf("not installed:\n%s", b)
	}
}

func TestMCPHelpAndBadScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	out := e.ok("mcp", "--help")
	// --write's tools are the docs' list: send_text, send_keys,
	// ask_agent, respond and fan.
	for _, want := range []string{"--write", "--scope", `"method":"initialize"`, "tuios mcp",
		"tuios_send_text", "tuios_send_keys", "tuios_ask_agent", "tuios_respond", "tuios_fan", "respond, fan)"} {
		if !strings.Contains(out, want) {
			t.Errorf("tuios mcp --help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "not in this version") {
		t.Errorf("tuios mcp --help says a tool is missing, but --write offers tuios_fan:\n%s", out)
	}
	if r := e.run("mcp", "--scope", "everything"); r.code == 0 || !strings.Contains(r.err, "--scope") {
		t.Errorf("--scope everything: exit %d %s", r.code, r.err)
	}
}

// The MCP tool for mail is the verb: a host that is not answering is
// host_unreachable and nothing waits, unless the caller asks for the
// outbox with queue, which (like host) is offered only with --scope all.
func TestMCPSendAgentMessageToAHostNotAnswering(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	port := closedPort(t)
	e.ok("hosts", "add", "build", "root@127.0.0.1", "--ssh-option", fmt.Sprintf("-p %d", port), "--connect-timeout", "1")
	e.ok("new", "--detach", "api")

	props := func(p *mcpPeer) map[string]any {
		return p.toolNames()["tuios_send_agent_message"]["inputSchema"].(map[string]any)["properties"].(map[string]any)
	}
	own := startMCP(t, e)
	own.initialize("2025-06-18")
	if pr := props(own); pr["host"] != nil || pr["queue"] != nil {
		t.Fatalf("the default scope offers host or queue: %v", pr)
	}
	all := startMCP(t, e, "--scope", "all")
	all.initialize("2025-06-18")
	pr := props(all)
	if pr["host"] == nil || pr["queue"] == nil || !strings.Contains(fmt.Sprint(pr["host"]), "host_unreachable") {
		t.Fatalf("--scope all: %v", pr)
	}
	res := all.tool("tuios_send_agent_message", map[string]any{"host": "build", "session": "api", "to": "worker", "text": "retest"})
	if res["isError"] != true || !strings.Contains(toolText(res), "host_unreachable") {
		t.Fatalf("no queue: %v", res)
	}
	var lst struct {
		Waiting int `json:"waiting"`
	}
	e.json(&lst, "outbox")
	if lst.Waiting != 0 {
		t.Fatalf("kept without queue: %d", lst.Waiting)
	}
	res = all.tool("tuios_send_agent_message", map[string]any{"host": "build", "session": "api", "to": "worker", "text": "retest", "queue": true})
	if res["isError"] == true || !strings.Contains(toolText(res), "agent_message_queued") {
		t.Fatalf("queue: %v", res)
	}
	e.json(&lst, "outbox")
	if lst.Waiting != 1 {
		t.Fatalf("queue kept %d", lst.Waiting)
	}
}

// A long wait that asked for progress gets notifications/progress at once
// and every 5 s, each with its token, more waited than the last and the
// wait's bound as total, and none after its answer; a cancelled wait gets
// none after the cancel. tuios_ask_agent reports progress too.
func TestMCPProgressForLongCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	// Long enough a turn for the detector's first look to find the agent.
	e.ok("new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "--prompt=false", "--steps", "12", "--step", "250ms")
	p := startMCP(t, e, "--scope", "all", "--write")
	p.initialize("2025-11-25")
	wait := func(id, token string, timeout int) {
		p.sendLine(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":"tuios_wait_for","arguments":{"session":"work","window":"agent","condition":"window-output","pattern":"never_printed_pq","timeout":%d},"_meta":{"progressToken":%q}}}`, id, timeout, token))
	}
	wait("a", "tok-a", 7000)
	wait("b", "tok-b", 60000)
	progress := map[string][]map[string]any{}
	var answerA map[string]any
	cancelled := false
	for answerA == nil {
		m, _ := p.recv().(map[string]any)
		switch {
		case m["method"] == "notifications/progress":
			pr := m["params"].(map[string]any)
			tok := pr["progressToken"].(string)
			progress[tok] = append(progress[tok], pr)
			if tok == "tok-b" && !cancelled {
				p.sendLine(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}}`)
				cancelled = true
			}
		case m["id"] == "a":
			answerA = m
		default:
			t.Fatalf("unexpected: %v", m)
		}
	}
	if res := answerA["result"].(map[string]any); res["isError"] != true || !strings.Contains(toolText(res), "timeout") {
		t.Errorf("the wait's answer: %v", answerA)
	}
	a := progress["tok-a"]
	if len(a) < 2 {
		t.Fatalf("a 7 s wait got %d progress notifications, want one at once and one at 5 s: %v", len(a), a)
	}
	for i, pr := range a {
		if pr["total"] != float64(7000) || !strings.Contains(pr["message"].(string), "waiting for window-output") {
			t.Errorf("progress %d: %v", i, pr)
		}
		if i > 0 && pr["progress"].(float64) <= a[i-1]["progress"].(float64) {
			t.Errorf("progress %d does not grow: %v", i, a)
		}
	}
	if n := len(progress["tok-b"]); n != 1 {
		t.Errorf("the cancelled wait got %d progress notifications (one before its cancel, none after)", n)
	}
	select {
	case l := <-p.lines:
		t.Errorf("after the answer: %s", l)
	case <-time.After(1500 * time.Millisecond):
	}

	// ask_agent: once the pretend agent rests at its prompt.
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "idle", "--timeout", "30000")
	p.sendLine(`{"jsonrpc":"2.0","id":"ask","method":"tools/call","params":{"name":"tuios_ask_agent","arguments":{"session":"work","window":"agent","text":"are you there"},"_meta":{"progressToken":7}}}`)
	var asked []map[string]any
	for {
		m, _ := p.recv().(map[string]any)
		if m["method"] == "notifications/progress" {
			asked = append(asked, m["params"].(map[string]any))
			continue
		}
		if res, _ := m["result"].(map[string]any); m["id"] != "ask" || res["isError"] == true {
			t.Fatalf("ask_agent: %v", m)
		}
		break
	}
	if len(asked) == 0 || asked[0]["progressToken"] != float64(7) || asked[0]["total"] != float64(330000) {
		t.Errorf("ask_agent's progress: %v", asked)
	}
}
