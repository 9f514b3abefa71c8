package cli

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// agentNote is the NOTE column: the message, else what the agent does
// now, then how many subagents run.
func agentNote(a proto.AgentRow) string {
	n := a.Message
	if n == "" {
		n = a.Meta["now"]
	}
	if s := a.Meta["subagents"]; s != "" {
		if n != "" {
			n += "; "
		}
		n += s
	}
	return n
}

func agentCommands() []Command {
	return []Command{
		{
			Name: "set-agent-state", Summary: "report a pane's agent state", Usage: "STATE [-s NAME] [-w WINDOW] [-m MESSAGE] [--source SOURCE] [--harness ID]",
			Help: "STATE is none, working, needs_input, idle, done, errored or unknown (none clears). From inside a pane with no -w it reports on that pane. " +
				"A report that loses to a higher-ranked source (report > program > transcript > osc > screen > detect > stall) still exits 0 and prints \"Not applied: …\" on stderr.",
			Example: "tuios set-agent-state working -m \"running the test suite\"\ntuios set-agent-state needs_input -m \"waiting for approval to push\"\ntuios set-agent-state working -s \"$TUIOS_SESSION\" -w \"$TUIOS_PANE_ID\" --harness claude-code",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.StringP("message", "m", "", "what it is doing or asking")
				fs.String("source", "", "report (default), osc, screen or stall")
				fs.String("harness", "", "the harness id, e.g. claude-code")
				fs.String("kind", "", "approval or question (needs_input only; default: guessed)")
				fs.String("if-state", "", "apply only from these states (comma-separated)")
				fs.String("agent-session-id", "", "the agent session the report speaks for")
				fs.String("transcript-path", "", "the harness's transcript file")
				fs.Int("harness-pid", 0, "the agent's pid")
				fs.String("now", "", "what the agent is doing now, one line (e.g. \"Bash: go test ./...\")")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios set-agent-state working -m 'running tests'", "name one state: none, working, needs_input, idle, done, errored or unknown")
				}
				var res proto.AgentStateSet
				printed, err := callResult(ctx, "set-agent-state", proto.SetAgentStateParams{Session: str(ctx, "session"), Window: str(ctx, "window"), State: ctx.Args[0], Message: str(ctx, "message"), Source: str(ctx, "source"), Harness: str(ctx, "harness"), Kind: str(ctx, "kind"), IfState: str(ctx, "if-state"), AgentSessionID: str(ctx, "agent-session-id"), TranscriptPath: str(ctx, "transcript-path"), HarnessPID: flagInt(ctx, "harness-pid"), Now: str(ctx, "now")}, &res)
				if printed || err != nil {
					return err
				}
				if !res.Applied {
					fmt.Fprintf(ctx.Stderr, "Not applied: %s It still reports %s.\n", reasonText(res.Reason), res.State)
				}
				return nil
			},
		},
		{
			Name: "get-agent-state", Summary: "read a pane's agent state", Usage: "[-s NAME] [-w WINDOW] [--json]",
			Help:    "Prints the state name, or with --json every field: state, message, needs_you, source, harness_id, identity, confidence, evidence_age_ms, blocked_by, subagent_list and more.",
			Example: "tuios get-agent-state -w build\ntuios get-agent-state -w build --json | jq .needs_you",
			Flags:   func(fs *FlagSet) { targetFlags(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var raw json.RawMessage
				if err := callCtx(ctx, "get-agent-state", proto.AgentParams{Session: str(ctx, "session"), Window: windowArg(ctx)}, &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printAnswerEdited(ctx.Stdout, raw, func(doc map[string]any) { doc["success"] = true })
				}
				var st proto.AgentRow
				if err := decodeAnswer("get-agent-state", raw, &st); err != nil {
					return err
				}
				fmt.Fprintln(ctx.Stdout, escapeControls(st.State))
				return nil
			},
		},
		{
			Name: "list-agents", Summary: "list agent panes, sorted by what each needs from you", Usage: "[-s [HOST:]NAME | --host NAME | --all-hosts] [--all] [--all-sessions] [--select SELECTOR] [--json]",
			Help: "--select keeps the panes a selector matches: space-separated key:value terms that must all match (harness, state, needs, session, group, host, name, cwd; a comma gives alternatives). With --select and no -s every session is searched, and the last line is a confirm token for exactly these panes " +
				"(JSON: confirm; not with --all): send-agent-message --select and ask-agent --select take it as --confirm and send only while the selector still matches the same panes. " +
				"-s HOST:SESSION (or --host NAME) lists a linked host's panes. --all-hosts lists every session of this machine and of every linked host, asking them in parallel: " +
				"a host that does not answer within --host-timeout gets a row with its status and the command still succeeds; --json then prints {hosts: [{host, status, agents, untrusted}]}.",
			Example: "tuios list-agents\ntuios list-agents --all --json\ntuios list-agents --select 'harness:claude needs:you'\ntuios list-agents -s build:api\ntuios list-agents --all-hosts",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session, or HOST:SESSION on a linked host")
				hostFlag(fs)
				fs.Bool("all", false, "every pane, including ones not seen as agents")
				fs.Bool("all-sessions", false, "every session")
				fs.String("select", "", "only panes a selector matches, such as 'harness:codex state:idle,done'")
				allHostsFlags(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				if flagBool(ctx, "all-hosts") {
					return runAllHosts(ctx, "list-agents", "agents", proto.ListAgentsParams{All: flagBool(ctx, "all"), AllSessions: true, Select: str(ctx, "select")})
				}
				var raw json.RawMessage
				if err := callCtx(ctx, "list-agents", proto.ListAgentsParams{Session: str(ctx, "session"), All: flagBool(ctx, "all"), AllSessions: flagBool(ctx, "all-sessions"), Select: str(ctx, "select")}, &raw); err != nil {
					return err
				}
				var res proto.AgentList
				if err := decodeAnswer("list-agents", raw, &res); err != nil {
					return err
				}
				token := ""
				if !flagBool(ctx, "all") && str(ctx, "host") == "" && remoteOf(proto.SessionParams{Session: str(ctx, "session")}) == "" && res.Select != "" { // --select sends only here
					token = confirmToken(res.Select, agentIDs(res.Agents)) // select_send.go: the --confirm token for these panes
				}
				if flagBool(ctx, "json") {
					return printAnswerEdited(ctx.Stdout, raw, func(doc map[string]any) {
						if token != "" {
							doc["confirm"] = token
						}
					})
				}
				WriteAgents(ctx.Stdout, res.Agents, flagBool(ctx, "all-sessions") || str(ctx, "select") != "" && str(ctx, "session") == "")
				if token != "" {
					writeConfirmLine(ctx.Stdout, token, len(res.Agents))
				}
				writeHumanUnread(ctx.Stdout, res.HumanUnread) // agents_footer.go
				return nil
			},
		},
		{
			Name: "explain-agent-detect", Summary: "say what the detector reads in a pane and why it is or is not an agent", Usage: "[-s NAME] [-w WINDOW] [--json]",
			Example: "tuios explain-agent-detect -w build",
			Flags:   func(fs *FlagSet) { targetFlags(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				p := proto.AgentParams{Session: str(ctx, "session"), Window: windowArg(ctx)}
				return explain(ctx, "explain-agent-detect", p, func(r *proto.AgentDetect) string { return r.Text })
			},
		},
		{
			Name: "explain-agent-screen", Summary: "show a pane's screen tail as the rules read it, and each rule's verdict", Usage: "[-s NAME] [-w WINDOW] [--harness ID] [--lines N] [--json]",
			Example: "tuios explain-agent-screen -w build\ntuios explain-agent-screen -w build --harness codex --lines 20",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("harness", "", "run this harness's rules")
				fs.Int("lines", 0, "read this many non-empty rows")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				p := proto.ExplainScreenParams{Session: str(ctx, "session"), Window: windowArg(ctx), Harness: str(ctx, "harness"), Lines: flagInt(ctx, "lines")}
				return explain(ctx, "explain-agent-screen", p, func(r *proto.AgentScreen) string { return r.Text })
			},
		},
		{
			Name: "status", Summary: "report this program's state with an OSC 7501 sequence", Usage: "STATE [--kind K] [--app NAME] [--msg TEXT] [--title TEXT] [--id PATH] [--progress N]",
			Help: "Writes a Program Status report (OSC 7501) to the terminal this program runs in, so the pane it runs in takes the state at source program. " +
				"STATE is idle, working, blocked, done, error or clear. --kind (permission, question, auth) goes with blocked.",
			Example: "tuios status blocked --kind permission --app deploy --msg 'Approve deploy to production?'\ntuios status clear",
			Flags: func(fs *FlagSet) {
				fs.String("kind", "", "permission, question or auth (blocked only)")
				fs.String("app", "", "the program's label")
				fs.String("msg", "", "what it waits for or does")
				fs.String("title", "", "a short title")
				fs.String("id", "", "a sub-task path such as deploy/us-east")
				fs.Int("progress", -1, "0 to 100")
			},
			Run: runStatus,
		},
	}
}

// explain prints an explain verb's text (fenced when a linked host
// wrote it), or with --json its result without the text.
func explain[R any](ctx *Context, verb string, p any, text func(*R) string) error {
	var raw json.RawMessage
	if err := callCtx(ctx, verb, p, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswerEdited(ctx.Stdout, raw, func(doc map[string]any) { delete(doc, "text") })
	}
	var res R
	if err := decodeAnswer(verb, raw, &res); err != nil {
		return err
	}
	writeMaybeFenced(ctx, p, text(&res))
	return nil
}

func reasonText(reason string) string {
	switch reason {
	case "outranked":
		return "a higher-ranked source owns this pane."
	case "if_state":
		return "the pane was not in a state the report allows (--if-state)."
	case "foreign_session":
		return "another agent session owns this pane mid-turn."
	case "foreign_harness":
		return "another harness owns this pane mid-turn."
	}
	return "the engine kept the current state (" + reason + ")."
}

// WriteAgents prints the list-agents table.
func WriteAgents(w interface{ Write([]byte) (int, error) }, agents []proto.AgentRow, withSession bool) {
	head := []string{"ID", "NAME", "STATE", "HARNESS", "SOURCE", "MAIL", "NOTE"}
	if withSession {
		head = append([]string{"SESSION"}, head...)
	}
	var rows [][]string
	for _, a := range agents {
		id := short(a.WindowID)
		if a.Focused {
			id = "*" + id
		}
		// The state word alone, as list-windows and ls print it: a
		// script reads the cell as it reads the JSON's state.
		r := []string{id, a.Name, a.State, a.HarnessID, a.Source, strconv.Itoa(a.Unread), clip(agentNote(a), 60)}
		if withSession {
			r = append([]string{a.Session}, r...)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		fmt.Fprintln(w, "No agent panes. tuios list-agents --all lists every pane.")
		return
	}
	writeTable(w, head, rows)
	// The footer is one fixed line (the skill's), star or no star: the
	// focused window is often a shell that is not listed.
	fmt.Fprintf(w, "\n%s. * marks the focused one. Address one with -w and its ID or NAME.\n", paneCount(agents)) // agents_footer.go: --all lists plain panes too
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

var statusStates = map[string]bool{"idle": true, "working": true, "blocked": true, "done": true, "error": true, "clear": true}

func runStatus(ctx *Context) error {
	if len(ctx.Args) != 1 || !statusStates[ctx.Args[0]] {
		return usageError("tuios status blocked --kind permission --msg 'Approve?'", "name one state: idle, working, blocked, done, error or clear")
	}
	state := ctx.Args[0]
	kind := str(ctx, "kind")
	if kind != "" && (state != "blocked" || !map[string]bool{"permission": true, "question": true, "auth": true}[kind]) {
		return usageError("tuios status blocked --kind permission", "--kind is permission, question or auth, and goes with blocked")
	}
	for _, f := range []string{"msg", "title", "app"} {
		if strings.ContainsFunc(str(ctx, f), func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return usageError("", "--%s holds a control character", f)
		}
	}
	parts := []string{"state=" + state}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("id", str(ctx, "id"))
	add("app", str(ctx, "app"))
	add("kind", kind)
	if p := flagInt(ctx, "progress"); p >= 0 {
		if p > 100 {
			return usageError("", "--progress is 0 to 100")
		}
		add("progress", strconv.Itoa(p))
	}
	if t := str(ctx, "title"); t != "" {
		add("title", base64.StdEncoding.EncodeToString([]byte(t)))
	}
	if m := str(ctx, "msg"); m != "" {
		add("msg", base64.StdEncoding.EncodeToString([]byte(m)))
	}
	seq := "\x1b]7501;" + strings.Join(parts, ":") + "\x07"
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return &Error{Code: "no_terminal", Message: "this program has no terminal to report to", Hint: "run tuios status inside a terminal pane"}
	}
	defer tty.Close()
	_, err = tty.WriteString(seq)
	return err
}
