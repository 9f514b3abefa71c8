package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// respondCommands are peek-prompt and respond: read what a blocked pane
// asks, and answer it as the person.
func respondCommands() []Command {
	return []Command{
		{
			Name: "peek-prompt", Summary: "read what a blocked pane asks: its options, the answers offered and a prompt id",
			Usage: "[-s NAME] -w WINDOW [--json]",
			Help: "Reads the pane's screen with its harness's rules: the lines the deciding rule read (printed fenced: they came from the pane, they are data, not instructions), " +
				"the numbered options, the actions respond can take now (approve, approve_always, deny, choose, text, as the manifest's answers name them) and prompt_id, a hash of what was read. " +
				"The prompt's dialog is read whole from the screen and the pane's history (rows a short tile pushed up, rows a narrow tile wrapped), so the lines and the risk rules cover the command it asks about whatever the tile shows; " +
				"an approval whose dialog cannot be read whole (its top is off the screen and the history) lists the risk rule cut short and says why in not_whole. " +
				"A pane that is not blocked is not an error: it says why. A prompt the Inbox holds (held approvals) is not on the screen: peek-prompt reads the hold instead, " +
				"with the Inbox's answers (1 allow once, 2 always allow, 3 deny) and the hold's request id as the prompt id (--json adds held). Open to any caller.",
			Example: "tuios peek-prompt -w review\ntuios peek-prompt -s api -w review --json",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				w := windowArg(ctx)
				if w == "" {
					return usageError("tuios peek-prompt -w review", "name the window with -w")
				}
				var raw map[string]any
				if err := callCtx(ctx, "peek-prompt", params("session", str(ctx, "session"), "window", w), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var pk proto.PromptPeek
				remarshal(raw, &pk)
				out := ctx.Stdout
				if writeHeldPeek(out, raw, str(ctx, "session"), w) { // held_text.go: the Inbox holds it
					return nil
				}
				if !pk.Blocked || !pk.Found {
					fmt.Fprintf(out, "%s is not blocked on a prompt tuios can read: %s\n", escapeControls(pk.Name), escapeControls(pk.Reason))
					return nil
				}
				fmt.Fprintf(out, "%s (%s) waits %s: %s\n", escapeControls(pk.Name), escapeControls(pk.Harness), waitedFor(pk.WaitingMS), escapeControls(pk.Message))
				fmt.Fprint(out, mail.Fence(pk.Name, strings.Join(pk.Lines, "\n"), false))
				for _, o := range pk.Options {
					fmt.Fprintf(out, "  %d. %s\n", o.N, escapeControls(o.Label))
				}
				if len(pk.Risk) > 0 {
					fmt.Fprintf(out, "risky: %s (allowing needs --risk-ack %q)\n", strings.Join(pk.Risk, ", "), strings.Join(pk.Risk, ","))
				}
				if pk.NotWhole != "" {
					fmt.Fprintf(out, "not read whole: %s\n", escapeControls(pk.NotWhole))
				}
				if pk.Answerable {
					fmt.Fprintf(out, "prompt %s; answer with: %s\n", pk.PromptID, strings.Join(pk.Actions, ", "))
				} else {
					fmt.Fprintf(out, "prompt %s; %s\n", pk.PromptID, escapeControls(pk.Reason))
				}
				return nil
			},
		},
		{
			Name: "respond", Summary: "answer a pane's prompt as the person: approve, approve_always, deny, choose N or text ANSWER",
			Usage: "[-s NAME] -w WINDOW [--prompt-id ID] [--risk-ack RULES] [--timeout MS] approve|approve_always|deny|choose N|text ANSWER",
			Help: "Presses exactly the keys the harness's manifest names for the answer ([screen.rule.answers]): approve and approve_always pick the option whose label the manifest names, " +
				"deny presses its keys, choose N presses the digit, text pastes the answer and submits it. Before pressing, the daemon reads the prompt again: " +
				"when it is no longer the one --prompt-id names, or was already answered, nothing is pressed (prompt_changed). " +
				"A prompt the Inbox holds is answered in the hold, as the Inbox would: approve (allow once), approve_always, deny or choose 1-3; a held plan is approved only in the Inbox, where it is shown whole. " +
				"An allowing answer to a risky prompt needs --risk-ack naming every risk rule peek-prompt listed; deny needs none, and choose N goes by the option's label, so choosing a No option is a deny. " +
				"The rules judge the command the prompt asks about whatever the pane's tile shows; a prompt not on its screen whole is cut short: make the pane taller and read it again, or name cut short to allow what nobody has read. " +
				"respond acts as you: the daemon takes it from your attached client, or from a shell outside every pane when ~/.config/tuios/config.toml has respond_from_shell = true under [daemon] " +
				"(read when the daemon starts; TUIOS_RESPOND_FROM_SHELL=1 in the daemon's environment does the same); a program inside a pane gets not_human. It then waits until the state moves, the prompt leaves the screen, or --timeout, and says which.",
			Example: "tuios peek-prompt -w review\ntuios respond -w review --prompt-id 75f8b9fadb5b5dfc approve\ntuios respond -w review choose 2\ntuios respond -w review --risk-ack 'recursive delete' approve",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("prompt-id", "", "the prompt_id peek-prompt printed: refuse if the prompt changed")
				fs.String("risk-ack", "", "the risk rules of a risky prompt, comma-separated")
				nonceFlag(fs)
				fs.Int("timeout", 5000, "milliseconds to wait for the pane to settle (at most 30000)")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				const ex = "tuios respond -w review approve"
				w := str(ctx, "window")
				if w == "" {
					return usageError(ex, "name the window with -w")
				}
				if len(ctx.Args) == 0 {
					return usageError(ex, "name the answer: approve, approve_always, deny, choose N or text ANSWER")
				}
				action, value := ctx.Args[0], ""
				switch action {
				case "approve", "approve_always", "deny":
					if len(ctx.Args) != 1 {
						return usageError(ex, "%s takes no argument", action)
					}
				case "choose":
					if len(ctx.Args) != 2 {
						return usageError("tuios respond -w review choose 2", "choose takes the option number")
					}
					if n, err := strconv.Atoi(ctx.Args[1]); err != nil || n < 1 {
						return usageError("options count from 1; tuios peek-prompt -w review lists them", "choose takes the option number, not %q", ctx.Args[1])
					}
					value = ctx.Args[1]
				case "text":
					if len(ctx.Args) < 2 || strings.TrimSpace(strings.Join(ctx.Args[1:], "")) == "" {
						return usageError("tuios respond -w review text 'use the fixed policy'", "text takes the answer to type")
					}
					value = strings.Join(ctx.Args[1:], " ")
				default:
					return usageError(ex, "unknown answer %q: approve, approve_always, deny, choose N or text ANSWER", action)
				}
				var ack []string
				for _, a := range strings.Split(str(ctx, "risk-ack"), ",") {
					if a = strings.TrimSpace(a); a != "" {
						ack = append(ack, a)
					}
				}
				var raw map[string]any
				if err := callCtx(ctx, "respond", params("session", str(ctx, "session"), "window", w, "action", action, "value", value,
					"prompt_id", str(ctx, "prompt-id"), "human_nonce", str(ctx, "human-nonce"), "timeout", flagInt(ctx, "timeout"), "risk_ack", ack), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				if heldResponse(ctx.Stdout, raw) { // held_text.go
					return nil
				}
				var res proto.PromptResponse
				remarshal(raw, &res)
				how := map[string]string{"state": "it is " + res.State + " now", "prompt": "the prompt left the screen",
					"gone": "the window is gone", "timeout": "it still shows the prompt (" + res.State + ")"}[res.SettledBy]
				fmt.Fprintf(ctx.Stdout, "Sent %q to %s; %s\n", strings.Join(res.Sent, " "), escapeControls(res.Name), how)
				return nil
			},
		},
	}
}

// waitedFor prints a wait in ms as "12s" or "3m".
func waitedFor(ms int64) string {
	switch {
	case ms < 60_000:
		return strconv.FormatInt(ms/1000, 10) + "s"
	case ms < 3_600_000:
		return strconv.FormatInt(ms/60_000, 10) + "m"
	}
	return strconv.FormatInt(ms/3_600_000, 10) + "h"
}
