package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tuios/tuios/detect"
)

// herdrAgentStartDefaultWait is how long `herdr agent start` waits for the
// agent to come to rest when --timeout-ms is not given.
const herdrAgentStartDefaultWait = 120000

// herdrAgentStart is `herdr agent start NAME --kind KIND --pane PANE_ID
// [--timeout-ms N] [-- ARGS...]`: agent.start types the agent's command
// into the pane, then the link waits until the agent is at rest (idle or
// done), as herdr's own command does. A kind no harness manifest knows is
// a usage error (exit 2) before anything is sent.
func herdrAgentStart(args []string, stdout, stderr io.Writer) int {
	var agentArgs []string
	for i, a := range args {
		if a == "--" {
			args, agentArgs = args[:i], append([]string{}, args[i+1:]...)
			break
		}
	}
	cmd := herdrCmd{method: "agent.start", pos: []string{"name"}, required: []string{"kind", "pane_id"},
		flags: herdrFlags("--kind", "s:kind", "--pane", "s:pane_id", "--pane-id", "s:pane_id", "--timeout-ms", "n:timeout_ms")}
	params, err := herdrParse(cmd, args)
	if err != nil {
		fmt.Fprintln(stderr, "herdr:", err)
		return 2
	}
	kind, _ := params["kind"].(string)
	reg, _ := detect.Load(detect.LoadOptions{})
	if _, ok := reg.Lookup(detect.HarnessForKind(kind)); !ok {
		fmt.Fprintf(stderr, "herdr: unknown agent kind %q: herdr starts known agents only (claude, codex, gemini, cursor, opencode, crush, …)\n", kind)
		return 2
	}
	if agentArgs != nil {
		params["args"] = agentArgs
	}
	path := herdrSocket(os.Getenv)
	line, code := herdrCallLine(path, "agent.start", params, stderr)
	if code != 0 {
		return code
	}
	wait := map[string]any{"pane_id": params["pane_id"], "status": []string{"idle", "done"}, "timeout_ms": herdrAgentStartDefaultWait}
	if t, ok := params["timeout_ms"]; ok {
		wait["timeout_ms"] = t
	}
	if _, code := herdrCallLine(path, "agent.wait", wait, stderr); code != 0 {
		return code
	}
	stdout.Write(line)
	return 0
}

// herdrCallLine sends one request and returns its answer line, or the
// exit code after printing herdr's error shape on stderr.
func herdrCallLine(path, method string, params map[string]any, stderr io.Writer) ([]byte, int) {
	line, err := herdrRoundTrip(path, method, params)
	if err != nil {
		herdrPrintErr(stderr, "unavailable", err.Error())
		return nil, 1
	}
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &resp) != nil {
		herdrPrintErr(stderr, "invalid_response", "the socket answered something that is not JSON")
		return nil, 1
	}
	if len(resp.Error) > 0 && strings.TrimSpace(string(resp.Error)) != "null" {
		stderr.Write(line)
		return nil, 1
	}
	return line, 0
}
