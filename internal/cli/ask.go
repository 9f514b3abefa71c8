package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/term"
)

// askCommands are ask-human, the question an agent or a script puts to the
// person, and answer-ask, the person's answer (an attached client gives
// it; the verb is here so every protocol verb has a command).
//
// ask-human's exit code is its result, so a script branches on it: 0 the
// person answered (the answer is printed alone on stdout), 2 no answer yet
// (the question stays in the Inbox; the answer will be mailed to the
// asking pane), 1 the question ended without an answer.
func askCommands() []Command {
	return []Command{
		{
			Name: "ask-human", Summary: "ask the person a question with fixed answers and wait for the answer",
			Usage: "QUESTION -o ANSWER [-o ANSWER]… [-s NAME] [-w WINDOW] [--timeout MS] [--no-wait] [--request-id ID] [--json]",
			Help: "The question waits in the Inbox under Questions until the person picks one of the answers (a digit in the Inbox). " +
				"When an attached client shows the asking pane, its Inbox opens on the question at once (once the person has not typed into that pane for 0.6 s). " +
				"On a terminal, the question and its numbered answers are printed on standard error while it waits; standard output is only the answer. " +
				"The question is one printable line of at most 160 bytes, shown exactly as written; 1 to 9 answers, each one line of at most 60 bytes, no repeats. " +
				"Inside a pane the question is your pane's (-w may only name it); a pane has one open question, and asking again supersedes it. " +
				"From a shell outside every pane, -w names the pane the question is about, or leave it out for a question from no pane (at most 16 open per session). " +
				"Exit 0 prints the answer. When --timeout (default 120000 ms, at most an hour) runs out, or with --no-wait, it exits 2 and prints the request id: " +
				"the question stays, and when the person answers, the answer arrives in the asking pane's inbox as mail from human (subject \"Answer: QUESTION\"), " +
				"so `tuios wait-for agent-message -w \"$TUIOS_PANE_ID\"` returns on it; or come back with --request-id ID. " +
				"Exit 1 says how it ended without an answer: dismissed, superseded, window_closed, session_closed, evicted or shutdown. " +
				"Questions do not survive a daemon restart. Only the person answers: answer-ask from a program gets not_human.",
			Example: "tuios ask-human 'Deploy the branch to staging?' -o yes -o no -o later\n" +
				"tuios ask-human 'Merge the fan results?' -o merge -o wait --timeout 600000\n" +
				"tuios ask-human 'Rotate the key?' -o yes -o no --no-wait\n" +
				"tuios ask-human --request-id ask-3f9a0c2e",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session (default: your own pane's, else the most recently active)")
				fs.StringP("window", "w", "", "outside panes: the pane the question is about (default: none); inside a pane only your own")
				fs.StringArrayP("option", "o", nil, "an answer the person may pick (repeatable, 1 to 9)")
				fs.Int("timeout", 120000, "milliseconds to wait for the answer (at most 3600000)")
				fs.Bool("no-wait", false, "do not wait: print the request id and exit 2")
				fs.String("request-id", "", "come back for a question asked before (or name a new one)")
				jsonFlag(fs)
			},
			Run: runAskHuman,
		},
		{
			Name: "answer-ask", Summary: "answer an ask-human question as the person (the attached client does this)",
			Usage: "REQUEST_ID ANSWER [--question TEXT] [--json]",
			Help: "Answers with one of the question's options. It acts as the person, so it needs the human nonce of an attached client: " +
				"from a shell or a pane it fails with not_human, which is the point; answer in the Inbox (prefix key then i, then the answer's digit). " +
				"The first answer wins: a later one is not applied and prints the standing answer; with --question, an item that now says something else is not answered (changed).",
			Example: "tuios answer-ask ask-3f9a0c2e yes",
			Flags: func(fs *FlagSet) {
				fs.String("question", "", "the question as you saw it: nothing is applied when the item says something else")
				nonceFlag(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 2 {
					return usageError("tuios answer-ask ask-3f9a0c2e yes", "name the request id and the answer")
				}
				var raw map[string]any
				if err := call("answer-ask", params("request_id", ctx.Args[0], "answer", ctx.Args[1], "question", str(ctx, "question"),
					"human_nonce", str(ctx, "human-nonce")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res struct {
					RequestID string `json:"request_id"`
					Applied   bool   `json:"applied"`
					Reason    string `json:"reason"`
					Answer    string `json:"answer"`
				}
				remarshal(raw, &res)
				switch {
				case res.Applied:
					fmt.Fprintf(ctx.Stdout, "Answered %s: %s\n", res.RequestID, escapeControls(res.Answer))
				case res.Reason == "changed":
					return &Error{Code: "not_applied", Message: "the question changed; nothing was answered", Hint: "tuios list-attention --kind ask shows it as it is now"}
				case res.Answer != "":
					return &Error{Code: "not_applied", Message: fmt.Sprintf("%s was answered already: %s", res.RequestID, escapeControls(res.Answer))}
				default:
					return &Error{Code: "not_applied", Message: fmt.Sprintf("%s ended without an answer (%s)", res.RequestID, res.Reason)}
				}
				return nil
			},
		},
	}
}

// humanAnswerView is the part of ask-human's result the text form uses.
type humanAnswerView struct {
	RequestID string `json:"request_id"`
	Status    string `json:"status"`
	Answer    string `json:"answer"`
	Session   string `json:"session"`
	Window    string `json:"window"`
	Question  string `json:"question"`
}

// askEndings say, for each way a question ends unanswered, what happened.
var askEndings = map[string]string{
	"dismissed":      "the person dismissed the question",
	"superseded":     "a newer question from the same pane replaced it",
	"window_closed":  "the asking pane closed",
	"session_closed": "the session ended",
	"evicted":        "the Inbox overflowed and dropped it",
	"shutdown":       "the daemon stopped",
}

func runAskHuman(ctx *Context) error {
	rid := str(ctx, "request-id")
	opts, _ := ctx.Flags.GetStringArray("option")
	question := strings.Join(ctx.Args, " ")
	if question == "" && rid == "" {
		return usageError("tuios ask-human 'Deploy the branch to staging?' -o yes -o no", "write the question, and its answers with -o")
	}
	if question != "" && len(opts) == 0 {
		return usageError("tuios ask-human 'Deploy the branch to staging?' -o yes -o no", "give the answers with -o (1 to 9)")
	}
	p := params("session", str(ctx, "session"), "window", str(ctx, "window"), "question", question, "options", opts,
		"timeout", flagInt(ctx, "timeout"), "request_id", rid)
	if flagBool(ctx, "no-wait") {
		p["wait"] = false
	}
	if question != "" && !flagBool(ctx, "no-wait") {
		askingNote(ctx, question, opts)
	}
	var raw map[string]any
	if err := call("ask-human", p, &raw); err != nil {
		return err
	}
	var res humanAnswerView
	remarshal(raw, &res)
	if flagBool(ctx, "json") {
		if err := printJSON(ctx.Stdout, raw); err != nil {
			return err
		}
	}
	again := "tuios ask-human --request-id " + res.RequestID
	if res.Session != "" {
		again += " -s " + shellWord(res.Session)
	}
	switch res.Status {
	case "answered":
		if !flagBool(ctx, "json") {
			// The answer alone on stdout: a script reads it with $(...).
			fmt.Fprintln(ctx.Stdout, escapeControls(res.Answer))
		}
		return nil
	case "pending":
		if !flagBool(ctx, "json") {
			fmt.Fprintln(ctx.Stdout, res.RequestID) // the id alone on stdout, to come back with
		}
		if res.Window == "" { // a question from no pane has no inbox to mail
			return &Error{Code: "pending", Exit: ExitNoAnswer,
				Message: fmt.Sprintf("no answer yet: the question stays in the Inbox as %s", res.RequestID),
				Hint:    "come back for the answer with: " + again}
		}
		return &Error{Code: "pending", Exit: ExitNoAnswer,
			Message: fmt.Sprintf("no answer yet: the question stays in the Inbox as %s; the answer will be mailed to the asking pane from human", res.RequestID),
			Hint:    "in that pane, wait for it with tuios wait-for agent-message -w \"$TUIOS_PANE_ID\"; or come back with: " + again}
	}
	why := askEndings[res.Status]
	if why == "" {
		why = "it ended as " + strconv.Quote(res.Status)
	}
	return &Error{Code: "no_answer", Message: fmt.Sprintf("no answer to %s (%s): %s", res.RequestID, res.Status, why),
		Hint: "ask again if you still need to know"}
}

// askingNote tells a person watching the pane that ran ask-human what it
// waits on, on standard error and only when that is a terminal: the pane
// is not left blank while the question waits in the Inbox, and a program
// that reads the answer from a pipe gets the answer alone.
func askingNote(ctx *Context, question string, opts []string) {
	f, ok := ctx.Stderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return
	}
	var b strings.Builder
	b.WriteString("Asked the person: " + escapeControls(question) + "\n")
	for i, o := range opts {
		fmt.Fprintf(&b, "  %d. %s\n", i+1, escapeControls(o))
	}
	b.WriteString("Waiting for the answer: it is picked in the Inbox (the prefix key then i, then its digit).\n")
	io.WriteString(f, b.String())
}

// shellWord quotes a word for a command line a person may paste.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
