package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/sock"
)

// HerdrVersion is what `herdr --version` prints through the link: herdr
// 0.9.3's CLI, "+tuios" as semver build metadata.
const HerdrVersion = "herdr 0.9.3+tuios"

// herdrCmd is one herdr subcommand: the method it calls and how its
// command line becomes params.
type herdrCmd struct {
	method string
	// pos names the positional arguments, in order ("n:" before a name
	// reads a number); the last may take the rest when rest is set.
	pos  []string
	rest bool
	// flags maps each --flag to its param and kind (s string, n number,
	// f fraction, b bool); required lists the params that must be given.
	flags    map[string]herdrFlag
	required []string
	// quiet prints nothing on success; text prints the result's text.
	quiet, text bool
}

type herdrFlag struct {
	param string
	kind  byte
}

func herdrFlags(kv ...string) map[string]herdrFlag {
	m := map[string]herdrFlag{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = herdrFlag{param: kv[i+1][2:], kind: kv[i+1][0]}
	}
	return m
}

// herdrCommands is the part of herdr's CLI the link (tuios run as herdr)
// answers: the report commands, reads, waits and the mutating commands
// that map onto tuios verbs. Every other command answers herdr's error
// shape with unsupported.
func herdrCommands() map[string]herdrCmd {
	report := herdrFlags("--source", "s:source", "--agent", "s:agent", "--seq", "n:seq")
	with := func(base map[string]herdrFlag, kv ...string) map[string]herdrFlag {
		m := herdrFlags(kv...)
		for k, v := range base {
			m[k] = v
		}
		return m
	}
	ws := herdrFlags("--workspace", "s:workspace_id", "--tab", "s:tab_id")
	wt := herdrFlags("--pane", "s:pane_id", "--pane-id", "s:pane_id")
	return map[string]herdrCmd{
		"pane report-agent": {method: "pane.report_agent", pos: []string{"pane_id"}, quiet: true, required: []string{"source", "agent", "state"},
			flags: with(report, "--state", "s:state", "--message", "s:message", "--agent-session-id", "s:agent_session_id", "--agent-session-path", "s:agent_session_path")},
		"pane report-agent-session": {method: "pane.report_agent_session", pos: []string{"pane_id"}, quiet: true, required: []string{"source", "agent"},
			flags: with(report, "--agent-session-id", "s:agent_session_id", "--agent-session-path", "s:agent_session_path", "--session-start-source", "s:session_start_source")},
		"pane release-agent":   {method: "pane.release_agent", pos: []string{"pane_id"}, quiet: true, required: []string{"source", "agent"}, flags: report},
		"pane report-metadata": {method: "pane.report_metadata", pos: []string{"pane_id"}, quiet: true, required: []string{"source"}, flags: with(report, "--title", "s:title", "--ttl-ms", "n:ttl_ms", "--clear-title", "b:clear_title")},
		"pane list":            {method: "pane.list", flags: ws},
		"pane get":             {method: "pane.get", pos: []string{"pane_id"}},
		"pane current":         {method: "pane.current"},
		"pane read":            {method: "pane.read", pos: []string{"pane_id"}, text: true, flags: herdrFlags("--lines", "n:lines")},
		"pane send-text":       {method: "pane.send_text", pos: []string{"pane_id", "text"}, rest: true, quiet: true},
		"pane send-keys":       {method: "pane.send_keys", pos: []string{"pane_id", "keys"}, rest: true, quiet: true},
		"pane rename":          {method: "pane.rename", pos: []string{"pane_id", "label"}},
		"pane close":           {method: "pane.close", pos: []string{"pane_id"}},
		"pane focus":           {method: "pane.focus", pos: []string{"pane_id"}},
		"pane wait-for-output": {method: "pane.wait_for_output", pos: []string{"pane_id", "match"}, flags: herdrFlags("--regex", "b:regex", "--timeout-ms", "n:timeout_ms")},
		"pane run":             {method: "pane.send_text", pos: []string{"pane_id", "text"}, rest: true, quiet: true},
		"pane send-input":      {method: "pane.send_input", pos: []string{"pane_id", "text"}, rest: true, quiet: true},
		"pane split":           {method: "pane.split", pos: []string{"pane_id"}, flags: herdrFlags("--direction", "s:direction", "--cwd", "s:cwd", "--ratio", "f:ratio")},
		"pane zoom":            {method: "pane.zoom", pos: []string{"pane_id"}, flags: herdrFlags("--mode", "s:mode")},
		"pane swap":            {method: "pane.swap", pos: []string{"pane_id"}, flags: herdrFlags("--direction", "s:direction", "--with", "s:target_pane_id", "--target", "s:target_pane_id")},
		"pane layout":          {method: "pane.layout", flags: herdrFlags("--tab", "s:tab_id")},
		"pane neighbor":        {method: "pane.neighbor", pos: []string{"pane_id"}, required: []string{"direction"}, flags: herdrFlags("--direction", "s:direction")},
		"pane edges":           {method: "pane.edges", pos: []string{"pane_id"}},
		"pane focus-direction": {method: "pane.focus_direction", pos: []string{"pane_id"}, required: []string{"direction"}, flags: herdrFlags("--direction", "s:direction")},
		"pane process-info":    {method: "pane.process_info", pos: []string{"pane_id"}},
		"workspace list":       {method: "workspace.list"},
		"workspace get":        {method: "workspace.get", pos: []string{"workspace_id"}},
		"workspace create":     {method: "workspace.create", flags: herdrFlags("--label", "s:label")},
		"workspace rename":     {method: "workspace.rename", pos: []string{"workspace_id", "label"}, rest: true},
		"workspace close":      {method: "workspace.close", pos: []string{"workspace_id"}},
		"workspace focus":      {method: "workspace.focus", pos: []string{"workspace_id"}},
		"tab list":             {method: "tab.list", flags: ws},
		"tab get":              {method: "tab.get", pos: []string{"tab_id"}},
		"tab create":           {method: "tab.create", required: []string{"workspace_id"}, flags: herdrFlags("--workspace", "s:workspace_id", "--label", "s:label", "--cwd", "s:cwd")},
		"tab rename":           {method: "tab.rename", pos: []string{"tab_id", "label"}, rest: true},
		"tab focus":            {method: "tab.focus", pos: []string{"tab_id"}},
		"tab move":             {method: "tab.move", pos: []string{"tab_id", "n:index"}},
		"tab close":            {method: "tab.close", pos: []string{"tab_id"}},
		"agent list":           {method: "agent.list", flags: ws},
		"agent get":            {method: "agent.get", pos: []string{"pane_id"}},
		"agent prompt":         {method: "agent.prompt", pos: []string{"pane_id", "prompt"}, rest: true},
		"agent send-keys":      {method: "agent.send_keys", pos: []string{"pane_id", "keys"}, rest: true, quiet: true},
		"agent focus":          {method: "agent.focus", pos: []string{"pane_id"}},
		"agent read":           {method: "agent.read", pos: []string{"pane_id"}, text: true, flags: herdrFlags("--lines", "n:lines")},
		"agent wait":           {method: "agent.wait", pos: []string{"pane_id"}, flags: herdrFlags("--status", "s:status", "--timeout-ms", "n:timeout_ms")},
		"notification show":    {method: "notification.show", quiet: true, required: []string{"title"}, flags: herdrFlags("--title", "s:title", "--body", "s:body")},
		"api snapshot":         {method: "session.snapshot"},
		// worktree: the pane's repository (--pane, else the caller's pane).
		"worktree list":   {method: "worktree.list", flags: wt},
		"worktree create": {method: "worktree.create", pos: []string{"branch"}, flags: with(wt, "--base", "s:base", "--path", "s:path")},
		"worktree open":   {method: "worktree.open", flags: with(wt, "--branch", "s:branch", "--path", "s:path")},
		"worktree remove": {method: "worktree.remove", flags: with(wt, "--branch", "s:branch", "--path", "s:path", "--force", "b:force")},
	}
}

// herdrUnsupportedCmd says whether a herdr command has no tuios
// counterpart: it answers herdr's error shape with unsupported, exit 1.
func herdrUnsupportedCmd(group, sub string) bool {
	switch group {
	case "status", "config", "session", "terminal", "machine", "channel", "update", "completion", "plugin", "integration", "server":
		return true
	}
	return group == "api" && sub == "schema" || group == "agent" && sub == "attach"
}

// HerdrMain is tuios invoked through a link named herdr: herdr's CLI
// subset, sent to HERDR_SOCKET_PATH. Exit 2 is a usage error, 1 an error
// the socket answered (its JSON on stderr), 0 success.
func HerdrMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: herdr <pane|tab|workspace|agent|notification|api> ... (tuios's herdr link)")
		return 2
	}
	switch args[0] {
	case "--version", "-V", "version":
		fmt.Fprintln(stdout, HerdrVersion)
		return 0
	case "--help", "-h", "help":
		fmt.Fprintln(stdout, "tuios's herdr link: pane, tab, workspace, agent (start included), worktree, notification show and api snapshot reach tuios's herdr socket.\n"+
			"Example: herdr agent start helper --kind claude --pane \"$PANE\" -- --model opus\n\nCommands:")
		names := []string{"agent start"}
		for name := range herdrCommands() {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			fmt.Fprintln(stdout, "  herdr "+name)
		}
		return 0
	}
	group, sub := args[0], ""
	rest := args[1:]
	if len(rest) > 0 {
		sub, rest = rest[0], rest[1:]
	}
	if herdrUnsupportedCmd(group, sub) {
		herdrPrintErr(stderr, "unsupported", "herdr "+strings.TrimSpace(group+" "+sub)+" is not supported by tuios")
		return 1
	}
	if group == "agent" && sub == "start" {
		return herdrAgentStart(rest, stdout, stderr)
	}
	cmd, ok := herdrCommands()[group+" "+sub]
	if !ok {
		fmt.Fprintf(stderr, "herdr: unknown command %q (tuios's herdr link)\n", strings.TrimSpace(group+" "+sub))
		return 2
	}
	params, err := herdrParse(cmd, rest)
	if err != nil {
		fmt.Fprintln(stderr, "herdr:", err)
		return 2
	}
	path := herdrSocket(os.Getenv)
	line, code := herdrCallLine(path, cmd.method, params, stderr)
	if code != 0 {
		return code
	}
	if group == "pane" && sub == "run" {
		// The command went in as a paste, which a shell does not run;
		// Enter runs it, as herdr's pane run does.
		if _, code := herdrCallLine(path, "pane.send_keys", map[string]any{"pane_id": params["pane_id"], "keys": "Enter"}, stderr); code != 0 {
			return code
		}
	}
	switch {
	case cmd.quiet:
	case cmd.text:
		var r struct {
			Result struct {
				Text string `json:"text"`
			} `json:"result"`
		}
		json.Unmarshal(line, &r)
		io.WriteString(stdout, r.Result.Text)
		if r.Result.Text != "" && !strings.HasSuffix(r.Result.Text, "\n") {
			io.WriteString(stdout, "\n")
		}
	default:
		stdout.Write(line)
	}
	return 0
}

func herdrPrintErr(w io.Writer, code, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": msg}})
	fmt.Fprintf(w, "%s\n", b)
}

// herdrSocket is HERDR_SOCKET_PATH, else tuios's own herdr socket (never
// herdr's ~/.config/herdr socket).
func herdrSocket(getenv func(string) string) string {
	if p := getenv("HERDR_SOCKET_PATH"); p != "" {
		return p
	}
	return sock.Path(getenv) + ".herdr"
}

// herdrParse turns a command line into the method's params.
func herdrParse(cmd herdrCmd, args []string) (map[string]any, error) {
	params := map[string]any{}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") || len(pos) >= len(cmd.pos) && cmd.rest {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		f, ok := cmd.flags[name]
		if !ok {
			return nil, fmt.Errorf("unknown flag %s", name)
		}
		if f.kind == 'b' {
			params[f.param] = !hasVal || val == "true"
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch f.kind {
		case 'n':
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s takes a number, not %q", name, val)
			}
			params[f.param] = n
		case 'f':
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s takes a number, not %q", name, val)
			}
			params[f.param] = x
		default:
			params[f.param] = val
		}
	}
	if cmd.rest && len(pos) > len(cmd.pos) {
		last := len(cmd.pos) - 1
		pos = append(pos[:last], strings.Join(pos[last:], " "))
	}
	if len(pos) > len(cmd.pos) {
		return nil, fmt.Errorf("unexpected argument %q", pos[len(cmd.pos)])
	}
	if len(pos) < len(cmd.pos) {
		return nil, fmt.Errorf("missing <%s>", strings.TrimPrefix(cmd.pos[len(pos)], "n:"))
	}
	for i, name := range cmd.pos {
		if num, ok := strings.CutPrefix(name, "n:"); ok {
			n, err := strconv.ParseUint(pos[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("<%s> takes a number, not %q", num, pos[i])
			}
			params[num] = n
			continue
		}
		params[name] = pos[i]
	}
	for _, r := range cmd.required {
		if _, ok := params[r]; !ok {
			return nil, fmt.Errorf("missing --%s", strings.ReplaceAll(r, "_", "-"))
		}
	}
	return params, nil
}

// herdrRoundTrip sends one request and reads its one answer line. Waits
// may take as long as their own timeout, so the read has no deadline of
// its own beyond a day.
func herdrRoundTrip(path, method string, params map[string]any) ([]byte, error) {
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return nil, fmt.Errorf("no herdr socket at %s (is the tuios daemon running?)", path)
	}
	defer c.Close()
	b, _ := json.Marshal(map[string]any{"id": "cli_1", "method": method, "params": params})
	c.SetWriteDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	c.SetReadDeadline(time.Now().Add(25 * time.Hour))
	line, err := bufio.NewReaderSize(c, 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return nil, fmt.Errorf("the herdr socket closed without an answer")
	}
	return line, nil
}
