package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// queueCommands are the reply queue's verbs: queue a message for a busy
// agent, list what waits, drop an entry.
func queueCommands() []Command {
	return []Command{
		{
			Name: "queue", Summary: "queue a message for an agent: typed once it has been at rest for a second, one message per rest",
			Usage: "[-s NAME] -w WINDOW [--] TEXT",
			Help: "Holds the message in the daemon and types it (one paste, then the harness's Enter) once the agent in the pane has been idle, done or errored (back at its prompt) for a second, " +
				"one message per rest; the rail and the Inbox row say \"1 queued\" until then. It is never typed over a prompt the agent waits on. If the agent does not take it within 5 seconds it is marked stalled, " +
				"is never typed again, and the Inbox asks you to look at the pane. A pane holds at most 8 messages ([agents.queue] max), each at most 16 KiB; " +
				"the queue lives in memory, so a daemon restart, the pane closing or the agent leaving drops it. " +
				"Put -- before a message that starts with ls or rm. From a shell outside every pane the entry is by shell; from inside a pane it is by that pane.",
			Example: "tuios queue -w build 'make the backoff jitter configurable'\ntuios queue -w build -- rm the old fixtures too\ntuios queue ls\ntuios queue rm q3",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("from", "", "a label for the sender (outside panes)")
				nonceFlag(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				const ex = "tuios queue -w build 'add tests'"
				if len(ctx.Args) > 0 && (ctx.Args[0] == "ls" || ctx.Args[0] == "rm") && ctx.Flags.ArgsLenAtDash() != 0 {
					return usageError("tuios queue "+ctx.Args[0]+" ... for the sub-verb (flags after it), or tuios queue -w W -- "+ctx.Args[0]+" ... to queue that text",
						"%q after flags is ambiguous", ctx.Args[0])
				}
				if str(ctx, "window") == "" {
					return usageError(ex, "name the pane with -w")
				}
				text := strings.Join(ctx.Args, " ")
				if strings.TrimSpace(text) == "" {
					return usageError(ex, "give the message to queue")
				}
				var raw map[string]any
				if err := callCtx(ctx, "queue-prompt", params("session", str(ctx, "session"), "window", str(ctx, "window"), "text", text,
					"from", str(ctx, "from"), "human_nonce", str(ctx, "human-nonce")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res proto.PromptQueued
				remarshal(raw, &res)
				switch {
				case res.Position == 1 && !res.Delivering:
					fmt.Fprintf(ctx.Stdout, "Queued %s for %s: typed once it has been at rest for a second.\n", res.ID, escapeControls(res.Name))
				case res.Position == 1:
					fmt.Fprintf(ctx.Stdout, "Queued %s for %s: it is being typed now.\n", res.ID, escapeControls(res.Name))
				default:
					fmt.Fprintf(ctx.Stdout, "Queued %s for %s: %d ahead of it, one per rest.\n", res.ID, escapeControls(res.Name), res.Position-1)
				}
				return nil
			},
		},
		{
			Name: "queue ls", Summary: "list queued messages: the next first per pane",
			Usage: "[-s NAME] [-w WINDOW] [--json]",
			Help: "Lists the messages waiting in the session's panes (or one pane's), the next to be typed first: ID STATE BY AGE PANE MESSAGE. " +
				"STATE is waiting, delivering (being typed, or typed and waiting for the agent to take it) or stalled (typed, not taken: look at the pane). " +
				"BY is human, shell or the id of the pane that queued it. MESSAGE is the first line, cleaned: text bound for a pane, shown as data.",
			Example: "tuios queue ls\ntuios queue ls -w build --json",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				var raw map[string]any
				if err := callCtx(ctx, "list-queued", params("session", str(ctx, "session"), "window", str(ctx, "window")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res struct {
					Entries []struct {
						ID      string `json:"id"`
						Window  string `json:"window"`
						Name    string `json:"name"`
						At      int64  `json:"at"`
						By      string `json:"by"`
						Preview string `json:"preview"`
						State   string `json:"state"`
					} `json:"entries"`
				}
				remarshal(raw, &res)
				if len(res.Entries) == 0 {
					fmt.Fprintln(ctx.Stdout, "Nothing queued.")
					return nil
				}
				now := time.Now()
				rows := [][]string{{"ID", "STATE", "BY", "AGE", "PANE", "MESSAGE"}}
				for _, e := range res.Entries {
					by := e.By
					if by != "human" && by != "shell" {
						by = short8(by)
					}
					age := "just now"
					if d := now.Sub(time.Unix(0, e.At)); d >= 5*time.Second {
						age = ageText(d)
					}
					// escapeControls: the name and the message came from
					// panes and callers; a row must not drive the terminal.
					rows = append(rows, []string{e.ID, e.State, escapeControls(by), age, escapeControls(e.Name), escapeControls(e.Preview)})
				}
				w := colWidths(rows)
				for _, r := range rows {
					var b strings.Builder
					for i, c := range r {
						if i == len(r)-1 {
							b.WriteString(c)
							break
						}
						fmt.Fprintf(&b, "%-*s ", w[i], c)
					}
					fmt.Fprintln(ctx.Stdout, strings.TrimRight(b.String(), " "))
				}
				return nil
			},
		},
		{
			Name: "queue rm", Summary: "drop a queued message (ID), or every one on a pane you may drop (--all -w W)",
			Usage: "ID | --all [-s NAME] -w WINDOW",
			Help: "Drops a message before it is typed. The person may drop any; a pane only the ones it queued; a shell all but the person's. " +
				"One being typed cannot be dropped; a stalled one can, which closes its Inbox question, and the next waits for the agent's next rest.",
			Example: "tuios queue rm q3\ntuios queue rm --all -w build",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.Bool("all", false, "every entry on the pane you may drop")
				nonceFlag(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				all := flagBool(ctx, "all")
				var id string
				switch {
				case all && len(ctx.Args) > 0:
					return usageError("tuios queue rm q3, or tuios queue rm --all -w build", "give an ID or --all, not both")
				case all && str(ctx, "window") == "":
					return usageError("tuios queue rm --all -w build", "--all needs the pane: -w")
				case !all && len(ctx.Args) != 1:
					return usageError("tuios queue rm q3 (tuios queue ls lists the ids)", "name one entry to drop, or pass --all -w WINDOW")
				case !all:
					id = ctx.Args[0]
				}
				var raw map[string]any
				if err := callCtx(ctx, "cancel-queued", params("session", str(ctx, "session"), "window", str(ctx, "window"), "id", id, "all", all,
					"human_nonce", str(ctx, "human-nonce")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res struct {
					Cancelled []string `json:"cancelled"`
					Queued    int      `json:"queued"`
				}
				remarshal(raw, &res)
				if len(res.Cancelled) == 0 {
					fmt.Fprintln(ctx.Stdout, "Nothing to drop.")
					return nil
				}
				fmt.Fprintf(ctx.Stdout, "Dropped %s; %d still queued on that pane.\n", strings.Join(res.Cancelled, ", "), res.Queued)
				return nil
			},
		},
	}
}
