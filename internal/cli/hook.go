package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/hook"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/procstat"
	"github.com/tuios/tuios/internal/proto"
)

// agent-hook is what a harness runs on each hook event. It is on the path
// the harness waits on, so it never blocks past its timeout, exits 0
// whatever happens, and prints nothing but the reply the harness needs.

func hookCommands() []Command {
	return []Command{{
		Name: "agent-hook", Summary: "report an agent's hook event to its pane (run by the harness)",
		Usage: "HARNESS [--integration N] [--timeout 500ms] [--explain] [--hold] [-s SESSION] [-w WINDOW] [PAYLOAD]",
		Help: "A harness's hook runs this on each event (tuios integration install wires it). It reads the event " +
			"(JSON on stdin, or the argument for harnesses that pass it so), maps it to a state report and sends it " +
			"to the pane it runs in: --window/--session, else $TUIOS_PANE_ID/$TUIOS_SESSION, else the pane whose " +
			"process is its ancestor. It exits 0 always, gives up after --timeout, sends only params the daemon lists, " +
			"starts no daemon, and prints nothing a harness could read as an answer (Gemini CLI gets {}). " +
			"--explain says on stderr what it read and what it sent. Harnesses: " + strings.Join(hook.Harnesses(), ", ") + ".",
		Example: "echo '{\"hook_event_name\":\"Stop\",\"session_id\":\"s1\"}' | tuios agent-hook claude-code --explain",
		Flags: func(fs *FlagSet) {
			// A hook written by a newer tuios may pass a flag this one does
			// not know; the harness must still get exit 0.
			fs.ParseErrorsAllowlist.UnknownFlags = true
			targetFlags(fs)
			fs.Int("integration", 0, "the integration version that wrote the hook (set by the installer)")
			fs.Duration("timeout", 500*time.Millisecond, "give up after this long")
			fs.Bool("explain", false, "say on stderr what was read and sent")
			fs.Bool("statusline", false, "run as Claude Code's status line: record the model, context and cost, print the line")
			fs.String("then", "", "with --statusline: the person's own status line command, whose output is printed instead")
			fs.Bool("hold", false, "opencode/Kilo plugin: hold the permission request it reported for the Inbox, print the decision")
		},
		Run: runAgentHook,
	}, {
		Name: "resolve-pane", Summary: "name the pane a process runs in", Usage: "[--pid PID] [--json]",
		Help:    "Finds the pane by the process's ancestry, else by its terminal session. Without --pid: the caller.",
		Example: "tuios resolve-pane\ntuios resolve-pane --pid 4242 --json",
		Flags: func(fs *FlagSet) {
			fs.Int("pid", 0, "the process (default: this one)")
			jsonFlag(fs)
		},
		Run: func(ctx *Context) error {
			var rp proto.Pane
			if printed, err := callResult(ctx, "resolve-pane", proto.ResolvePaneParams{PID: flagInt(ctx, "pid")}, &rp); printed || err != nil {
				return err
			}
			fmt.Fprintf(ctx.Stdout, "%s:%d %s (found by %s)\n", escapeControls(rp.Session), rp.Index, rp.WindowID, rp.FoundBy)
			return nil
		},
	}}
}

func runAgentHook(ctx *Context) error {
	explain, _ := ctx.Flags.GetBool("explain")
	timeout, _ := ctx.Flags.GetDuration("timeout")
	if timeout <= 0 || timeout > time.Minute {
		timeout = 500 * time.Millisecond
	}
	deadline := time.Now().Add(timeout)
	say := func(format string, a ...any) {
		if explain {
			fmt.Fprintf(ctx.Stderr, "agent-hook: "+format+"\n", a...)
		}
	}
	if len(ctx.Args) == 0 {
		say("name the harness, e.g. tuios agent-hook claude-code")
		return nil
	}
	if sl, _ := ctx.Flags.GetBool("statusline"); sl {
		return runStatusLine(ctx, deadline, say)
	}
	hold, _ := ctx.Flags.GetBool("hold")
	in := hook.Input{Harness: ctx.Args[0], Args: ctx.Args[1:], Hold: hold, Getenv: os.Getenv}
	if len(in.Args) == 0 {
		in.Stdin = readWithin(ctx.Stdin, deadline)
	}
	t, err := hook.Decode(in)
	if t.Reply != "" {
		fmt.Fprintln(ctx.Stdout, t.Reply)
	}
	if err != nil {
		// Only with --explain: some harnesses show a hook's stderr to the
		// person (or the model) when its stdout is empty.
		say("%v", err)
		return nil
	}
	say("read %s event %s (%d bytes)", t.Harness, strconv.Quote(t.Event), len(in.Stdin)+len(strings.Join(in.Args, " ")))
	say("means: %s", t.Why)
	if hold {
		// The plugin reported the request already, in order with its
		// other events; this run only finds the pane and holds.
		t.Report, t.Activity, t.SessionOnly = false, nil, false
		if _, ok := hook.HeldRequest(in); !ok {
			say("not held: not a request the Inbox holds")
			return nil
		}
	} else if !t.Report && t.Activity == nil && !t.SessionOnly {
		return nil
	}
	session, window, err := sendHook(ctx, t, deadline, say)
	if err != nil {
		say("not sent: %v", err)
		return nil
	}
	// A permission request the person may answer from the Inbox: held
	// once the pane reads needs_input (hook_hold.go).
	if held, ok := hook.HeldRequest(in); ok {
		holdForInbox(ctx, t.Harness, session, window, held, say)
	}
	return nil
}

// runStatusLine records what Claude Code's status line payload says and
// prints the line: the output of the person's own command (--then, run
// with the same payload), else tuios's own. The line is printed even when
// the daemon cannot be reached.
func runStatusLine(ctx *Context, deadline time.Time, say func(string, ...any)) error {
	stdin := readWithin(ctx.Stdin, deadline)
	sl, err := hook.DecodeStatusLine(stdin)
	line := sl.Line()
	if then := str(ctx, "then"); then != "" {
		line = runThen(then, stdin)
	}
	fmt.Fprintln(ctx.Stdout, line)
	if err != nil {
		say("%v", err)
		return nil
	}
	if len(sl.Meta) == 0 {
		return nil
	}
	c, err := client.Dial(client.Options{})
	if err != nil {
		say("not sent: %v", err)
		return nil
	}
	defer c.Close()
	c.SetDeadline(deadline)
	session, window := str(ctx, "session"), str(ctx, "window")
	if window == "" {
		session, window = os.Getenv("TUIOS_SESSION"), os.Getenv("TUIOS_PANE_ID")
	}
	if window == "" {
		var rp proto.Pane
		if err := c.Call("resolve-pane", nil, &rp); err != nil {
			say("not sent: no pane: %v", err)
			return nil
		}
		session, window = rp.Session, rp.WindowID
	}
	tokens := map[string]*string{}
	for k, v := range sl.Meta {
		tokens[k] = &v
	}
	p := proto.SetAgentMetaParams{Session: session, Window: window, Tokens: tokens, TTLMS: 600000}
	if err := sendListed(c, "set-agent-meta", p, say); err != nil {
		say("not sent: %v", err)
	}
	return nil
}

// runThen runs the person's own status line command with the payload and
// returns what it printed; it gets at most five seconds.
func runThen(command string, stdin []byte) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(stdin)
	out, _ := cmd.Output()
	return strings.TrimRight(string(out), "\n")
}

// readWithin reads stdin until EOF, MaxPayload+1 bytes or the deadline. A
// terminal is never read: a hook started by hand would wait on it.
func readWithin(r io.Reader, deadline time.Time) []byte {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
			return nil
		}
		f.SetReadDeadline(deadline) // works for pipes; a file needs none
	}
	type result struct{ b []byte }
	done := make(chan result, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, hook.MaxPayload+1))
		done <- result{b}
	}()
	select {
	case res := <-done:
		return res.b
	case <-time.After(time.Until(deadline)):
		return nil
	}
}

func sendHook(ctx *Context, t hook.Translation, deadline time.Time, say func(string, ...any)) (session, window string, err error) {
	c, err := client.Dial(client.Options{})
	if err != nil {
		return "", "", err
	}
	defer c.Close()
	c.SetDeadline(deadline)

	session, window = str(ctx, "session"), str(ctx, "window")
	how := "flags"
	detached := hook.RunsDetached(t.Harness)
	if window == "" && !detached {
		session, window, how = os.Getenv("TUIOS_SESSION"), os.Getenv("TUIOS_PANE_ID"), "$TUIOS_PANE_ID"
	}
	if window == "" {
		// Never let the daemon fall back to the focused pane: a hook of an
		// agent outside every pane must report nothing. A hook a shared
		// helper runs is placed by the agent's session, the environment's
		// pane only a hint.
		var rp proto.Pane
		var q *proto.ResolvePaneParams
		if detached {
			q = &proto.ResolvePaneParams{AgentSessionID: t.SessionID, Harness: t.Harness, Hint: os.Getenv("TUIOS_PANE_ID")}
		}
		if err := c.Call("resolve-pane", q, &rp); err != nil {
			return "", "", fmt.Errorf("no pane: %w", err)
		}
		session, window, how = rp.Session, rp.WindowID, rp.FoundBy
	}
	say("pane %s (from %s)", window, how)

	if t.Report {
		p := proto.SetAgentStateParams{Session: session, Window: window, State: t.State.String(), Harness: t.Harness,
			Message: t.Message, AgentSessionID: t.SessionID, TranscriptPath: t.TranscriptPath,
			IfState: t.IfState.String(), Now: t.Now, HarnessPID: harnessPID()}
		if t.Kind != agentstate.KindNone {
			p.Kind = t.Kind.String()
		}
		if l := t.Log; l != nil {
			// The agent-log entry rides on the report: one call for both.
			p.Activity = &proto.StateActivity{Event: l.Event, Tool: l.Tool, Text: l.Text}
		}
		if err := sendListed(c, "set-agent-state", p, say); err != nil {
			return "", "", err
		}
	} else if l := t.Log; l != nil {
		p := proto.ReportActivityParams{Session: session, Window: window, Event: l.Event, Tool: l.Tool, Text: l.Text,
			Harness: t.Harness, AgentSessionID: t.SessionID}
		if err := sendListed(c, "report-agent-activity", p, say); err != nil {
			return "", "", err
		}
	}
	if t.SessionOnly {
		p := proto.SetAgentSessionParams{Session: session, Window: window, AgentSessionID: t.SessionID, Harness: t.Harness}
		if err := sendListed(c, "set-agent-session", p, say); err != nil {
			return "", "", err
		}
	}
	if a := t.Activity; a != nil {
		p := proto.ReportActivityParams{Session: session, Window: window, Event: activityEvent(a.Kind), ID: a.ID,
			SubagentType: a.Type, Description: a.Description, Tool: a.Tool, Result: a.Result,
			Failed: a.Failed, Harness: a.Harness, AgentSessionID: a.SessionID}
		if err := sendListed(c, "report-agent-activity", p, say); err != nil {
			return "", "", err
		}
	}
	return session, window, nil
}

// sendListed sends a verb's params (a params type of internal/proto) with
// only the params the daemon lists for it, and none that are empty. A
// report that needs a guard the daemon does not know (if_state) is not
// sent at all: without the guard an idle_prompt would turn a finished turn
// into idle.
func sendListed(c *client.Client, verb string, p any, say func(string, ...any)) error {
	var list proto.VerbList
	if err := c.Call("list-verbs", proto.ListVerbsParams{Verb: verb}, &list); err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	known := map[string]bool{}
	for _, v := range list.Verbs {
		for _, q := range v.Params {
			known[q.Name] = true
		}
	}
	out := map[string]any{}
	for k, v := range proto.ParamMap(p) {
		if !known[k] {
			if k == "if_state" {
				return fmt.Errorf("%s: the daemon does not know if_state, so the report is not sent", verb)
			}
			say("%s: the daemon does not list %s; left out", verb, k)
			continue
		}
		out[k] = v
	}
	b, _ := json.Marshal(out)
	say("sent %s %s", verb, b)
	var res json.RawMessage // only logged
	if err := c.Call(verb, out, &res); err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	say("answer %s", res)
	return nil
}

func activityEvent(k agentstate.ActivityKind) string {
	switch k {
	case agentstate.SubagentStart:
		return "subagent_start"
	case agentstate.SubagentTool:
		return "subagent_tool"
	case agentstate.SubagentStop:
		return "subagent_stop"
	case agentstate.SubagentIntent:
		return "subagent_intent"
	}
	return "session_start"
}

// harnessPID is the agent that ran the hook: the first ancestor that is
// not a shell (harnesses run hook commands through sh -c).
func harnessPID() int {
	pid := os.Getppid()
	for i := 0; i < 4 && pid > 1; i++ {
		comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err != nil {
			return pid
		}
		switch strings.TrimSpace(string(comm)) {
		case "sh", "bash", "dash", "zsh", "fish", "ksh", "env":
			pid = procstat.Parent(pid)
			continue
		}
		return pid
	}
	return pid
}
