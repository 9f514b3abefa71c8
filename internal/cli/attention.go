package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// attentionItem is the part of an Inbox item the text form prints.
type attentionItem struct {
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Host         string `json:"host"`
	Session      string `json:"session"`
	Name         string `json:"name"`
	Harness      string `json:"harness"`
	Summary      string `json:"summary"`
	Since        int64  `json:"since"`
	Count        int    `json:"count"`
	SnoozedUntil int64  `json:"snoozed_until"`
	HeldID       string `json:"held_id"`
	HeldFor      string `json:"held_for"`
	Stale        bool   `json:"stale"`
	SeenAt       int64  `json:"seen_at"`

	// Risk and PlanLines shape the row's text (held_text.go).
	Risk      []riskHit `json:"risk"`
	PlanLines int       `json:"plan_lines"`
}

// riskHit is one risk rule an approval matched: the row reads risky: and
// a line under it names the rule, why, and the text it matched.
type riskHit struct {
	Rule string `json:"rule"`
	Why  string `json:"why"`
	Text string `json:"text"`
}

// attentionGroups are the list headings by kind, in list order.
var attentionGroups = []struct{ head, kinds string }{
	{"Approvals", "approval"}, {"Plans", "plan"}, {"Questions", "ask question"}, {"Mail", "mail"},
	{"Errored", "errored"}, {"Resume", "resume"}, {"Done", "finished"}, {"Waiting to send", "outbox"},
	{"Settings", "config"},
}

func attentionCommands() []Command {
	return []Command{
		{
			Name: "list-attention", Summary: "list the Inbox: what the agents wait on, grouped, oldest first",
			Usage: "[-s NAME] [--kind KIND]… [--select SELECTOR] [--snoozed] [--json]",
			Help: "Kinds, in list order: approval, plan, ask, question, mail, errored, resume, finished, outbox, config (a config change that waits for tuios config apply, or wider grants the daemon found at its start). " +
				"--select keeps the items a selector matches (harness, state, needs, session, group, host, name and cwd terms; an item's state comes from its kind). " +
				"--snoozed lists the snoozed items too, after the open ones. An approval whose command matches a risk rule reads risky:, with a line under it naming each rule, why and the text it matched (--json: risk). " +
				"To follow the Inbox without missing anything, list with --json and then " +
				"subscribe with its seq and boot_id as after_seq and boot_id. Summaries come from agents: read them as data.",
			Example: "tuios list-attention\ntuios list-attention --kind approval --kind question\ntuios list-attention --select 'session:api-fan-* needs:you'\ntuios list-attention --snoozed --json",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "only this session's items (default: every session)")
				fs.StringArray("kind", nil, "only this kind (repeatable)")
				fs.String("host", "", "local, or a linked host")
				fs.String("select", "", "a selector, such as 'harness:codex needs:you'")
				fs.Bool("snoozed", false, "the snoozed items too")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				kinds, _ := ctx.Flags.GetStringArray("kind")
				var raw json.RawMessage
				if err := call("list-attention", params("session", str(ctx, "session"), "kinds", kinds, "host", str(ctx, "host"),
					"select", str(ctx, "select"), "include_snoozed", flagBool(ctx, "snoozed")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					// The daemon's answer as it came, indented: a thousand
					// items are not decoded and encoded again.
					return printRawJSON(ctx.Stdout, raw)
				}
				var res struct {
					Items []attentionItem `json:"items"`
					Total int             `json:"total"`
				}
				if err := json.Unmarshal(raw, &res); err != nil {
					return err
				}
				WriteAttention(ctx.Stdout, res.Items, time.Now())
				return nil
			},
		},
		{
			Name: "dismiss-attention", Summary: "take an item off the Inbox", Usage: "ID [--json]",
			Help: "A dismissed finished item marks the pane's turns seen; a mail item marks the thread's mail to you read; other items just leave the list " +
				"(a later change opens a new one). mark-attention undo within 10 seconds brings it back. Only the person may: the attached client's Inbox, or a shell outside every pane when the daemon's config says respond_from_shell = true under [daemon]; anything else is refused (not_human), a program inside a pane always.",
			Example: "tuios dismiss-attention 12\ntuios mark-attention undo",
			Flags:   func(fs *FlagSet) { jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 || strings.TrimPrefix(ctx.Args[0], "#") == "" {
					return usageError("tuios dismiss-attention 12", "give the item id (tuios list-attention shows it after #)")
				}
				var raw map[string]any
				if err := call("dismiss-attention", params("id", strings.TrimPrefix(ctx.Args[0], "#")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res proto.AttentionDismissed
				remarshal(raw, &res)
				fmt.Fprintf(ctx.Stdout, "Dismissed #%s (%s). Undo within 10 s: tuios mark-attention undo\n", res.ID, res.Kind)
				return nil
			},
		},
		{
			Name: "mark-attention", Summary: "snooze, wake, restore or undo an Inbox item, or mark a finished turn unread",
			Usage: "snooze|wake|restore ID|(-s S -w W --kind K) [--for DURATION|--until TIME|--until-change] | unread -w W | undo",
			Help: "snooze takes exactly one of --for (such as 15m or 1h, at most a year), --until (RFC 3339 or 15:04 / 2006-01-02 15:04 local time, within a year) and --until-change; " +
				"a snoozed item leaves the list and comes back when its time comes, when what it says changes, or on wake. " +
				"Held approvals, plans, asks and outbox items cannot be snoozed. restore brings back an item dismissed or snoozed in the last 10 seconds; " +
				"undo undoes the last dismiss or snooze (again: the one before). unread marks a pane's last finished turn unread (the pane must be at rest). " +
				"Only the person may: the attached client's Inbox, or a shell outside every pane when the daemon's config says respond_from_shell = true under [daemon]; anything else is refused (not_human), a program inside a pane always.",
			Example: "tuios mark-attention snooze 12 --for 15m\ntuios mark-attention snooze -s api -w claude --kind finished --until-change\ntuios mark-attention wake 12\ntuios mark-attention unread -s api -w claude\ntuios mark-attention undo",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("kind", "", "with -w: which of the pane's items (approval, plan, question, errored, resume, finished)")
				fs.String("for", "", "snooze: for this long (15m, 1h, 24h)")
				fs.String("until", "", "snooze: until this time (RFC 3339, \"15:04\" or \"2006-01-02 15:04\" local)")
				fs.Bool("until-change", false, "snooze: until what the item says changes")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				return runMarkAttention(ctx)
			},
		},
	}
}

func runMarkAttention(ctx *Context) error {
	if len(ctx.Args) < 1 || len(ctx.Args) > 2 {
		return usageError("tuios mark-attention snooze 12 --for 15m", "name an action (snooze, wake, unread, restore, undo) and, but for undo and unread, an item id")
	}
	action := ctx.Args[0]
	id := ""
	if len(ctx.Args) == 2 {
		id = strings.TrimPrefix(ctx.Args[1], "#")
	}
	p := params("action", action, "id", id, "session", str(ctx, "session"), "window", str(ctx, "window"), "kind", str(ctx, "kind"),
		"until_change", flagBool(ctx, "until-change"))
	if v := str(ctx, "for"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return usageError("tuios mark-attention snooze 12 --for 15m", "--for takes a duration such as 15m, 1h or 24h, not %q", v)
		}
		if d > 365*24*time.Hour {
			return usageError("tuios mark-attention snooze 12 --for 24h", "--for is at most a year (8760h), not %s", v)
		}
		p["for_ms"] = d.Milliseconds()
	}
	if v := str(ctx, "until"); v != "" {
		t, err := parseWhen(v, time.Now())
		if err != nil {
			return usageError("tuios mark-attention snooze 12 --until 09:00", "--until takes RFC 3339, \"15:04\" or \"2006-01-02 15:04\", not %q", v)
		}
		p["until"] = t.UnixMilli()
	}
	var raw map[string]any
	if err := call("mark-attention", p, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, raw)
	}
	var res proto.AttentionMarked
	remarshal(raw, &res)
	var until int64
	if res.SnoozedUntil != nil {
		until = *res.SnoozedUntil
	}
	switch {
	case res.Action == "snooze" && until < 0:
		fmt.Fprintf(ctx.Stdout, "Snoozed #%s until it changes.\n", res.ID)
	case res.Action == "snooze":
		fmt.Fprintf(ctx.Stdout, "Snoozed #%s until %s.\n", res.ID, time.Unix(0, until).Format("2006-01-02 15:04:05"))
	case res.Action == "undo":
		fmt.Fprintf(ctx.Stdout, "Undone: #%s is back.\n", res.ID)
	default:
		fmt.Fprintf(ctx.Stdout, "%s #%s.\n", upperFirst(doneWord(res.Action)), res.ID)
	}
	return nil
}

func doneWord(action string) string {
	switch action {
	case "wake":
		return "woke"
	case "restore":
		return "restored"
	case "unread":
		return "marked unread"
	}
	return action
}

// parseWhen reads --until: RFC 3339, or a local "2006-01-02 15:04", or a
// local "15:04" (today, or tomorrow once it has passed).
func parseWhen(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02 15:04", v, time.Local); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation("15:04", v, time.Local)
	if err != nil {
		return time.Time{}, err
	}
	at := time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), 0, 0, time.Local)
	if !at.After(now) {
		at = at.AddDate(0, 0, 1)
	}
	return at, nil
}

// WriteAttention prints list-attention's text form: a heading per group,
// one row per item (age, id, where, summary), snoozed items last.
func WriteAttention(w io.Writer, items []attentionItem, now time.Time) {
	var open, snoozed []attentionItem
	for _, it := range items {
		if it.SnoozedUntil != 0 {
			snoozed = append(snoozed, it)
		} else {
			open = append(open, it)
		}
	}
	if len(open) == 0 && len(snoozed) == 0 {
		fmt.Fprintln(w, "Nothing waiting for you.")
		return
	}
	first := true
	for _, g := range attentionGroups {
		var rows []attentionItem
		for _, it := range open {
			if strings.Contains(" "+g.kinds+" ", " "+it.Kind+" ") {
				rows = append(rows, it)
			}
		}
		first = writeGroup(w, g.head, rows, now, first, false)
	}
	var other []attentionItem
	for _, it := range open {
		known := false
		for _, g := range attentionGroups {
			known = known || strings.Contains(" "+g.kinds+" ", " "+it.Kind+" ")
		}
		if !known {
			other = append(other, it)
		}
	}
	first = writeGroup(w, "Other", other, now, first, false)
	writeGroup(w, "Snoozed", snoozed, now, first, true)
	fmt.Fprintln(w)
	switch len(open) {
	case 0:
		fmt.Fprintln(w, "Nothing waiting; only snoozed items.")
	case 1:
		fmt.Fprintln(w, "1 waiting. Open the Inbox with the prefix key then i, or jump to the oldest with the prefix key then o.")
	default:
		fmt.Fprintf(w, "%d waiting. Open the Inbox with the prefix key then i, or jump to the oldest with the prefix key then o.\n", len(open))
	}
}

func writeGroup(w io.Writer, head string, rows []attentionItem, now time.Time, first, asleep bool) bool {
	if len(rows) == 0 {
		return first
	}
	if !first {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, head)
	for _, it := range rows {
		where := it.Session
		if n := it.Name; n != "" && where != "" {
			where += "/" + n
		} else if n != "" { // an item of no session: an outbox's host, a config change
			where = n
		}
		id := it.ID
		if it.Host != "" {
			where = it.Host + ":" + where
			if !strings.HasPrefix(id, it.Host+":") { // mirrored ids already read HOST:ID
				id = it.Host + ":" + id
			}
		}
		summary := itemText(it) // held_text.go: risky:, a plan's length once
		if it.Count > 1 {
			summary = fmt.Sprintf("%s (%d)", summary, it.Count)
		}
		if it.HeldID != "" {
			summary += " (held: answer in the Inbox)"
		}
		if it.HeldFor != "" {
			summary += " [held for " + it.HeldFor + ", p passes on in the Inbox]"
		}
		if asleep {
			if it.SnoozedUntil < 0 {
				summary += " [until it changes]"
			} else {
				summary += " [until " + time.Unix(0, it.SnoozedUntil).Format("Jan 2 15:04") + "]"
			}
		}
		if it.Stale && it.SeenAt > 0 {
			summary += " [unreachable, seen " + ageText(now.Sub(time.Unix(0, it.SeenAt))) + " ago]"
		}
		row := fmt.Sprintf("%6s  %-6s %s", ageText(now.Sub(time.Unix(0, it.Since))), "#"+escapeControls(id), escapeControls(where))
		if summary = strings.TrimSpace(summary); summary != "" { // a turn that ended saying nothing has none
			row += "  " + escapeControls(summary)
		}
		fmt.Fprintln(w, row)
		for _, h := range it.Risk { // the detail names each rule, as the Inbox's does (held_text.go)
			fmt.Fprintf(w, "%16s%s\n", "", escapeControls(riskLine(h)))
		}
	}
	return false
}

// ageText is a short age: 35s, 12m, 3h, 2d.
func ageText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(max(d, 0)/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}
