package cli

// This file is the selector writes: send-agent-message --select and
// ask-agent --select (tuios --skill mail lists the selector's keys). They
// never send on their own. They list the panes the selector matches
// first, then send only after a yes: typed at a terminal, given as --yes,
// or given as the --confirm token list-agents --select printed for
// exactly that set.
//
// The confirm token is stateless: the first 10 hex digits of a SHA-256 of
// the selector in its canonical form (the daemon's) and the matched
// window ids, sorted. It stays valid for as long as the selector matches
// the same panes, however long that is, and goes stale the moment a pane
// joins or leaves the set (a new pane, one closed, one whose state or
// name no longer fits). It names which panes, not what is sent, so the
// same token serves send-agent-message and ask-agent alike. Nothing is
// stored: the daemon and the CLI need no state for it.
//
// The panes are resolved by list-agents with the selector (the same rows
// list-agents --select prints: agent panes only, every session unless -s
// names one), and then each is sent to on its own, by session and window
// id, so a pane that appears after the listing is never written to.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// confirmTokenLen is how many hex digits a confirm token has: enough that
// two sets do not collide by chance, short enough to type.
const confirmTokenLen = 10

// confirmToken is the token for a selector and the window ids it matched.
func confirmToken(selector string, ids []string) string {
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	h := sha256.New()
	io.WriteString(h, "tuios-select-v1\x00")
	io.WriteString(h, selector)
	for _, id := range sorted {
		io.WriteString(h, "\x00")
		io.WriteString(h, id)
	}
	return hex.EncodeToString(h.Sum(nil))[:confirmTokenLen]
}

// normalToken is a --confirm value as typed: surrounding space dropped and
// upper case folded, so a token copied with a stray blank still matches.
func normalToken(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// yesAnswer says whether a line typed at the prompt is a yes.
func yesAnswer(line string) bool {
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// selectFlags are the flags of a selector write.
func selectFlags(fs *FlagSet) {
	fs.String("select", "", "send to every agent pane a selector matches, such as 'harness:codex state:idle' (lists them and asks first)")
	fs.Bool("yes", false, "with --select: send without asking")
	fs.String("confirm", "", "with --select: send only if the panes are still the ones list-agents --select printed this token for")
}

// selectTarget is one pane a selector matched.
type selectTarget struct {
	WindowID string `json:"window_id"`
	Session  string `json:"session"`
	Name     string `json:"name"`
	State    string `json:"state"`
	Harness  string `json:"harness_id"`
}

// selectSet is what a selector matched: its canonical form, the panes and
// their token.
type selectSet struct {
	Select string
	Agents []proto.AgentRow
	Token  string
}

func (s *selectSet) ids() []string { return agentIDs(s.Agents) }

// agentIDs are the rows' window ids, in their order.
func agentIDs(rows []proto.AgentRow) []string {
	ids := make([]string, len(rows))
	for i, a := range rows {
		ids[i] = a.WindowID
	}
	return ids
}

func (s *selectSet) targets() []selectTarget {
	out := make([]selectTarget, len(s.Agents))
	for i, a := range s.Agents {
		out[i] = selectTarget{WindowID: a.WindowID, Session: a.Session, Name: a.Name, State: a.State, Harness: a.HarnessID}
	}
	return out
}

// writeConfirmLine is list-agents --select's last line: the token and how
// to use it.
func writeConfirmLine(w io.Writer, token string, n int) {
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "Confirm token for these %d pane(s): %s (send-agent-message or ask-agent --select ... --confirm %s; valid while the selector matches the same panes).\n",
		n, token, token)
}

// resolveSelect asks the daemon which agent panes the selector matches.
func resolveSelect(ctx *Context) (*selectSet, error) {
	if str(ctx, "window") != "" {
		return nil, usageError("tuios send-agent-message --select 'harness:codex' 'text'", "--select and -w do not go together: the selector names the panes")
	}
	session := str(ctx, "session")
	if h := str(ctx, "host"); h != "" && h != "local" || remoteOf(proto.SessionParams{Session: session}) != "" {
		return nil, usageError("tuios send-agent-message --select 'harness:codex' 'text'", "--select sends to this machine's panes only; name one pane with -s HOST:SESSION -w WINDOW")
	}
	var res proto.AgentList
	if err := callCtx(ctx, "list-agents", proto.ListAgentsParams{Session: session, Select: str(ctx, "select")}, &res); err != nil {
		return nil, err
	}
	set := &selectSet{Select: res.Select, Agents: res.Agents}
	set.Token = confirmToken(set.Select, set.ids())
	return set, nil
}

// stdinTerminal says whether standard input is a terminal a person can
// answer the question on.
func stdinTerminal(ctx *Context) bool {
	f, ok := ctx.Stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// confirmSelect lists the panes and decides whether to send: --yes,
// a --confirm token that matches, or a yes typed at a terminal. Any other
// way nothing is sent and the error says what to add. list goes to w
// (stderr under --json, so stdout stays one JSON document). textFromStdin
// says the text was read from standard input, which is then no terminal
// to ask on.
func confirmSelect(ctx *Context, set *selectSet, verb string, w io.Writer, textFromStdin bool) error {
	selArg := shellWord(str(ctx, "select"))
	if len(set.Agents) == 0 {
		return &Error{Code: "not_found", Message: fmt.Sprintf("no agent pane matches %s; nothing was sent", escapeControls(set.Select)),
			Hint: "tuios list-agents --select " + selArg + " shows what it matches; --all lists panes not seen as agents"}
	}
	fmt.Fprintf(w, "%s --select %s matches %d pane(s):\n", verb, escapeControls(set.Select), len(set.Agents))
	WriteAgents(w, set.Agents, true)
	fmt.Fprintf(w, "Confirm token: %s\n", set.Token)
	yes := flagBool(ctx, "yes")
	tok := normalToken(str(ctx, "confirm"))
	switch {
	case yes && tok != "":
		return usageError("", "give --yes or --confirm, not both")
	case yes:
		return nil
	case tok != "":
		if tok == set.Token {
			return nil
		}
		return &Error{Code: "confirm_stale", Message: fmt.Sprintf("the panes %s matches changed since token %s was printed; nothing was sent", escapeControls(set.Select), escapeControls(tok)),
			Hint: "list them again (tuios list-agents --select " + selArg + ") and confirm the new set"}
	}
	if textFromStdin || !stdinTerminal(ctx) {
		return &Error{Code: "confirm_needed", Message: fmt.Sprintf("%s --select sends to %d pane(s) only after a yes; nothing was sent", verb, len(set.Agents)),
			Hint: fmt.Sprintf("check the list above, then run it again with --confirm %s (these exact panes) or --yes", set.Token)}
	}
	fmt.Fprintf(ctx.Stderr, "Send to these %d pane(s)? [y/N] ", len(set.Agents))
	line, _ := bufio.NewReader(io.LimitReader(ctx.Stdin, 256)).ReadString('\n')
	if !yesAnswer(line) {
		return &Error{Code: "declined", Message: "not confirmed; nothing was sent"}
	}
	return nil
}

// selectOut is where a selector write lists its panes.
func selectOut(ctx *Context) io.Writer {
	if flagBool(ctx, "json") {
		return ctx.Stderr
	}
	return ctx.Stdout
}

// selectSendResult is one pane's outcome in a selector write.
type selectSendResult struct {
	selectTarget
	MessageID uint64 `json:"message_id,omitempty"`
	ThreadID  uint64 `json:"thread_id,omitempty"`
	Reply     string `json:"reply,omitempty"`
	SettledBy string `json:"settled_by,omitempty"`
	StateNow  string `json:"state_now,omitempty"`
	Error     *Error `json:"error,omitempty"`
}

// runSelectSend is send-agent-message --select: one message per matched
// pane, each in its own inbox.
func runSelectSend(ctx *Context) error {
	text, err := readArgOrStdin(ctx, "send-agent-message")
	if err != nil {
		return err
	}
	set, err := resolveSelect(ctx)
	if err != nil {
		return err
	}
	if err := confirmSelect(ctx, set, "send-agent-message", selectOut(ctx), isStdinText(ctx)); err != nil {
		return err
	}
	atts, _ := ctx.Flags.GetStringArray("attach")
	results := make([]selectSendResult, len(set.Agents))
	failed := 0
	for i, t := range set.targets() {
		r := selectSendResult{selectTarget: t}
		var res proto.MessageSent
		if err := call("send-agent-message", proto.SendMessageParams{Session: t.Session, To: t.WindowID, From: str(ctx, "from"), Subject: str(ctx, "subject"), ReplyTo: flagInt(ctx, "reply-to"), Attachments: atts, Text: text}, &res); err != nil {
			r.Error, failed = asCLIError(err), failed+1
		} else {
			r.MessageID, r.ThreadID = res.MessageID, res.ThreadID
		}
		results[i] = r
	}
	return finishSelect(ctx, set, "agent_messages_sent", results, failed, func(r selectSendResult) {
		fmt.Fprintf(ctx.Stdout, "Sent #%d to %s (%s) in %s, thread %d.\n", r.MessageID, escapeControls(r.Name), short8(r.WindowID), escapeControls(r.Session), r.ThreadID)
	})
}

// askParallel is how many panes a selector ask waits on at once.
const askParallel = 8

// runSelectAsk is ask-agent --select: the question typed into each matched
// pane (at most askParallel at a time), each reply collected and printed
// fenced under its pane's name, in the order of the listing.
func runSelectAsk(ctx *Context) error {
	text, err := readArgOrStdin(ctx, "ask-agent")
	if err != nil {
		return err
	}
	set, err := resolveSelect(ctx)
	if err != nil {
		return err
	}
	if err := confirmSelect(ctx, set, "ask-agent", selectOut(ctx), isStdinText(ctx)); err != nil {
		return err
	}
	targets := set.targets()
	results := make([]selectSendResult, len(targets))
	var wg sync.WaitGroup
	slots := make(chan struct{}, askParallel)
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			r := selectSendResult{selectTarget: t}
			var res proto.AgentReply
			if err := call("ask-agent", proto.AskAgentParams{Session: t.Session, Window: t.WindowID, From: str(ctx, "from"), Text: text, Timeout: flagInt(ctx, "timeout"), ReadyTimeout: flagInt(ctx, "ready-timeout"), Settle: flagInt(ctx, "settle"), StallTimeout: flagInt(ctx, "stall-timeout"), Lines: flagInt(ctx, "lines"), Force: flagBool(ctx, "force"), AllowBlocked: flagBool(ctx, "allow-blocked")}, &res); err != nil {
				r.Error = asCLIError(err)
			} else {
				r.Reply, r.SettledBy, r.StateNow = res.Reply, res.SettledBy, res.State
			}
			results[i] = r
		}()
	}
	wg.Wait()
	failed := 0
	for _, r := range results {
		if r.Error != nil {
			failed++
		}
	}
	return finishSelect(ctx, set, "agent_replies", results, failed, func(r selectSendResult) {
		who := r.Name + " (" + short8(r.WindowID) + ")"
		fmt.Fprint(ctx.Stdout, mail.Fence(who, r.Reply, false))
		fmt.Fprintf(ctx.Stdout, "settled by %s; %s now reports %s\n", r.SettledBy, escapeControls(who), r.StateNow)
	})
}

// finishSelect prints the outcome: one JSON document under --json, else a
// line (or a fenced reply) per pane, and a pane that failed says why.
// Any failure makes the command fail, after every pane was tried.
func finishSelect(ctx *Context, set *selectSet, typ string, results []selectSendResult, failed int, ok func(selectSendResult)) error {
	if flagBool(ctx, "json") {
		if err := printJSON(ctx.Stdout, map[string]any{"type": typ, "select": set.Select, "confirm": set.Token,
			"results": results, "total": len(results), "failed": failed}); err != nil {
			return err
		}
	} else {
		for _, r := range results {
			if r.Error != nil {
				fmt.Fprintf(ctx.Stdout, "Not sent to %s (%s) in %s: %s: %s\n", escapeControls(r.Name), short8(r.WindowID), escapeControls(r.Session), r.Error.Code, escapeControls(r.Error.Message))
				continue
			}
			ok(r)
		}
	}
	if failed > 0 {
		msg := fmt.Sprintf("%d of %d pane(s) failed; the others were sent to", failed, len(results))
		if failed == len(results) {
			msg = fmt.Sprintf("every one of the %d pane(s) failed", failed)
		}
		return &Error{Code: "partial", Message: msg,
			Hint: "each failed pane's reason is printed above"}
	}
	return nil
}

// isStdinText says the text argument is -, read from standard input.
func isStdinText(ctx *Context) bool { return len(ctx.Args) == 1 && ctx.Args[0] == "-" }

// asCLIError is err as a CLI error with a code, for a per-pane result.
func asCLIError(err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	if e, ok := protoError(err).(*Error); ok {
		return e
	}
	return &Error{Code: "internal", Message: err.Error()}
}

// selectOnly refuses --yes and --confirm without --select: alone they
// would be ignored, and a person who typed one meant a selector write.
func selectOnly(ctx *Context) error {
	if flagBool(ctx, "yes") || str(ctx, "confirm") != "" {
		return usageError("tuios send-agent-message --select 'harness:codex' --yes 'text'", "--yes and --confirm go with --select")
	}
	return nil
}
