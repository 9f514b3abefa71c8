package cli

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/mail"
)

// transcriptCommands read the conversation of the agent in a pane
// (agent-transcript): for the person, at this machine.
func transcriptCommands() []Command {
	return []Command{{
		Name: "agent-transcript", Summary: "read the conversation of the agent in a pane (Claude Code): prompts, answers, tool calls, diffs, plans, todos",
		Usage: "[-s NAME] -w WINDOW [--limit N] [--after CURSOR] [--json]",
		Help: "Prints the conversation of the Claude Code agent in the pane, oldest first: prompts, answers, thinking, tool calls and their results, " +
			"diffs of edits, plans and todo lists. The daemon reads it from the transcript the pane is joined to (the agent's hook names it, or the daemon " +
			"finds it); the file's path never leaves the daemon, and it reads only a regular *.jsonl file under ~/.claude/projects. " +
			"Text is cleaned of escape sequences and likely secrets, and the output fences it as untrusted content: it is the agent's, read it as data. " +
			"--limit keeps the newest N entries (1 to 1000, the most a reply holds); --after prints only what came after the cursor an earlier --json reply gave as next. " +
			"Only you can read it: the daemon takes the call from your attached client (--human-nonce), or from a shell outside every pane when " +
			"~/.config/tuios/config.toml has respond_from_shell = true under [daemon]; a program inside a pane gets not_human. " +
			"A client without a screen (a phone's bridge) gets its nonce with attach {presence:true} on the socket; the transcript event says the conversation grew.",
		Example: "tuios agent-transcript -w api\ntuios agent-transcript -s work -w api --limit 50\ntuios agent-transcript -w api --json | jq -r '.entries[] | select(.kind==\"edit_diff\") | .text'",
		Flags: func(fs *FlagSet) {
			targetFlags(fs)
			fs.Int("limit", 0, "the newest N entries (1 to 1000; default 1000)")
			fs.Int("after", 0, "only what came after this cursor (the next of an earlier --json reply)")
			nonceFlag(fs)
			jsonFlag(fs)
		},
		Run: func(ctx *Context) error {
			const ex = "tuios agent-transcript -w api --limit 50"
			w := str(ctx, "window")
			if w == "" {
				return usageError(ex, "name the pane with -w")
			}
			p := params("session", str(ctx, "session"), "window", w, "human_nonce", str(ctx, "human-nonce"),
				"limit", flagInt(ctx, "limit"), "after", flagInt(ctx, "after"))
			if ctx.Flags.Changed("limit") && flagInt(ctx, "limit") == 0 {
				p["limit"] = 0 // let the daemon refuse it with its bounds
			}
			var raw map[string]any
			if err := callCtx(ctx, "agent-transcript", p, &raw); err != nil {
				return err
			}
			if flagBool(ctx, "json") {
				return printJSON(ctx.Stdout, raw)
			}
			var res transcriptReply
			remarshal(raw, &res)
			writeTranscript(ctx, w, &res)
			return nil
		},
	}}
}

type transcriptReply struct {
	Harness string `json:"harness"`
	Entries []struct {
		Kind  string `json:"kind"`
		Text  string `json:"text"`
		Tool  string `json:"tool"`
		File  string `json:"file"`
		Error bool   `json:"error"`
		Time  string `json:"time"`
		Cut   bool   `json:"cut"`
	} `json:"entries"`
	Truncated bool  `json:"truncated"`
	Next      int64 `json:"next"`
}

// writeTranscript prints a header in the CLI's own words, then the
// conversation inside one untrusted-content fence: every entry a line
// saying what it is, then its text.
func writeTranscript(ctx *Context, window string, res *transcriptReply) {
	out := ctx.Stdout
	n := plural(len(res.Entries), "entry")
	if len(res.Entries) != 1 {
		n = fmt.Sprintf("%d entries", len(res.Entries))
	}
	more := ""
	if res.Truncated {
		more = "; older ones left out"
	}
	fmt.Fprintf(out, "Conversation in %s (%s): %s%s. Next cursor: %d\n", escapeControls(window), escapeControls(res.Harness), n, more, res.Next)
	if len(res.Entries) == 0 {
		return
	}
	var b strings.Builder
	for i, e := range res.Entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		head := "## " + e.Kind
		if e.Tool != "" && e.Kind != "todo" && e.Kind != "plan" {
			head += " " + e.Tool
		}
		if e.File != "" {
			head += " " + e.File
		}
		if e.Error {
			head += " (failed)"
		}
		if len(e.Time) >= len("2006-01-02T15:04:05") {
			head += " at " + e.Time[11:19]
		}
		b.WriteString(head + "\n")
		if e.Text != "" {
			b.WriteString(e.Text + "\n")
		}
		if e.Cut {
			b.WriteString("[cut at 8 KiB]\n")
		}
	}
	out.Write([]byte(mail.Fence("the agent's transcript in "+window, b.String(), false)))
}
