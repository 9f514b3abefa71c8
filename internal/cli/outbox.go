package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// outboxCommands are the outbox's verbs: what mail waits for other
// machines' links.
func outboxCommands() []Command {
	return []Command{{
		Name: "outbox", Summary: "list the mail waiting for other machines' links, host by host in sending order",
		Usage: "[--host NAME] [--json]",
		Help: "A message sent with -s HOST:SESSION --queue waits in this machine's outbox when the link to HOST is down, the far side did not answer " +
			"within 10 seconds, or earlier queued mail to HOST still waits (without --queue such a send is host_unreachable and nothing waits). It is kept on disk (it survives a restart) and sent in order when the link is back; " +
			"while the link is up a failed try is retried after 1 s, doubling to 30 s. At most 64 messages wait per host and 256 in all; " +
			"past that a send is refused with rate_limited, as it is at once when the far session already holds 32 unread messages or 32 notices from other machines. A message the far side refuses (its session is gone, its policy forbids mail) is dropped, " +
			"and the host's \"Waiting to send\" row in the Inbox says why until you dismiss it; dismissing the row discards the mail still waiting. " +
			"Each host shows its link state, what waits (ID, AGE, TO, MESSAGE: the subject or first line, cleaned) and its latest refusal.",
		Example: "tuios send-agent-message -s build:api -w worker --queue 'rebased, please retest'\ntuios outbox\ntuios outbox --host build --json",
		Flags: func(fs *FlagSet) {
			fs.String("host", "", "only this host")
			jsonFlag(fs)
		},
		Run: func(ctx *Context) error {
			if len(ctx.Args) > 0 {
				return usageError("tuios outbox [--host NAME] [--json]", "outbox takes no arguments, got %q", ctx.Args[0])
			}
			var raw map[string]any
			if err := call("list-outbox", params("host", str(ctx, "host")), &raw); err != nil {
				return err
			}
			if flagBool(ctx, "json") {
				return printJSON(ctx.Stdout, raw)
			}
			var res proto.OutboxList
			remarshal(raw, &res)
			printOutbox(ctx, res, time.Now())
			return nil
		},
	}}
}

func printOutbox(ctx *Context, res proto.OutboxList, now time.Time) {
	if len(res.Hosts) == 0 {
		fmt.Fprintln(ctx.Stdout, "Nothing waits to be sent.")
		return
	}
	for i, h := range res.Hosts {
		if i > 0 {
			fmt.Fprintln(ctx.Stdout)
		}
		head := fmt.Sprintf("%s (%s): %d waiting", h.Host, h.Status, h.Waiting)
		if h.NextRetry > 0 {
			head += ", next try in " + ageText(time.UnixMilli(h.NextRetry).Sub(now))
		}
		fmt.Fprintln(ctx.Stdout, escapeControls(head))
		if h.Refused != "" {
			// The far daemon's words: data from another machine.
			fmt.Fprintf(ctx.Stdout, "  refused: %s (dismiss the Inbox row to clear it and discard what waits)\n", escapeControls(oneLine(h.Refused, 200)))
		}
		if len(h.Messages) == 0 {
			continue
		}
		rows := [][]string{{"ID", "AGE", "TO", "MESSAGE"}}
		for _, m := range h.Messages {
			to := m.Session
			if m.To != "" {
				to += ":" + m.To
			}
			line := m.Subject
			if line == "" {
				line = m.Text
			}
			rows = append(rows, []string{fmt.Sprint(m.ID), ageText(now.Sub(time.Unix(0, m.QueuedAt))), escapeControls(to), escapeControls(oneLine(line, 60))})
		}
		w := colWidths(rows)
		for _, r := range rows {
			fmt.Fprintf(ctx.Stdout, "  %-*s %-*s %-*s %s\n", w[0], r[0], w[1], r[1], w[2], r[2], r[3])
		}
	}
}

// oneLine is s on one line (whitespace runs as one space), cut to max
// runes with an ellipsis.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}
