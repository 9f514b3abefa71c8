package cli

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// heldPeek is peek-prompt's "held" object: the pane's prompt is held in
// the Inbox, so its screen shows nothing to read.
type heldPeek struct {
	RequestID   string   `json:"request_id"`
	Kind        string   `json:"kind"`
	Summary     string   `json:"summary"`
	AlwaysScope []string `json:"always_scope"`
	PlanLines   int      `json:"plan_lines"`
	ExpiresMS   int64    `json:"expires_in_ms"`
}

// writeHeldPeek prints a held prompt: the request, the Inbox's numbered
// answers, and the two ways to answer it. It reports false when raw is
// not a held prompt.
func writeHeldPeek(out io.Writer, raw map[string]any, session, window string) bool {
	var res struct {
		proto.PromptPeek
		Held *heldPeek `json:"held"`
	}
	remarshal(raw, &res)
	h := res.Held
	if h == nil {
		return false
	}
	what := "approval"
	if h.Kind == "plan" {
		what = "plan"
	}
	fmt.Fprintf(out, "%s (%s) waits %s: its %s is held in the Inbox (the hold ends in %s)\n", escapeControls(res.Name), escapeControls(res.Harness),
		waitedFor(res.WaitingMS), what, waitedFor(h.ExpiresMS))
	summary := escapeControls(h.Summary)
	if len(res.Risk) > 0 {
		summary = "risky: " + summary
	}
	fmt.Fprintf(out, "  %s\n", summary)
	for _, l := range h.AlwaysScope {
		fmt.Fprintf(out, "  always adds: %s\n", escapeControls(l))
	}
	for _, o := range res.Options {
		fmt.Fprintf(out, "  %d. %s\n", o.N, escapeControls(o.Label))
	}
	if len(res.Risk) > 0 {
		fmt.Fprintf(out, "risky: %s (allowing needs --risk-ack %q)\n", strings.Join(res.Risk, ", "), strings.Join(res.Risk, ","))
	}
	target := "-w " + window
	if session != "" {
		target = "-s " + session + " " + target
	}
	fmt.Fprintf(out, "prompt %s; answer it in the Inbox (the prefix key then i), or with tuios respond %s --prompt-id %s %s\n",
		res.PromptID, target, res.PromptID, strings.Join(res.Actions, "|"))
	if h.Kind == "plan" {
		fmt.Fprintln(out, "a plan is approved in the Inbox, where it is shown whole; respond can only keep it planning (deny)")
	}
	return true
}

// heldResponse prints respond's result for a held prompt; false when the
// result is not one.
func heldResponse(out io.Writer, raw map[string]any) bool {
	var res struct {
		Name     string `json:"name"`
		HeldID   string `json:"held_id"`
		Decision string `json:"decision"`
		State    string `json:"state"`
	}
	remarshal(raw, &res)
	if res.HeldID == "" {
		return false
	}
	fmt.Fprintf(out, "Answered the held prompt of %s: %s; it is %s now\n", escapeControls(res.Name), res.Decision, res.State)
	return true
}

// planLength matches a plan row's own length, as the hook writes it.
var planLength = regexp.MustCompile(`\(\d+ lines?\)$`)

// itemText is the text of an Inbox row: a risky approval reads
// "risky: ...", as in the attach client, and a plan is its title and
// length, once.
func itemText(it attentionItem) string {
	s := it.Summary
	if len(it.Risk) > 0 {
		// "risky:" in place of a screen rule's kind word, else in front.
		s = "risky: " + strings.TrimPrefix(s, "approval: ")
	}
	if it.Kind == "plan" && it.PlanLines > 0 && !planLength.MatchString(s) {
		unit := " lines)"
		if it.PlanLines == 1 {
			unit = " line)"
		}
		s += " (" + strconv.Itoa(it.PlanLines) + unit
	}
	return s
}

// riskLine is the line under a risky row that names one rule: "risky:
// recursive delete: deletes a tree of files without asking (rm -rf
// build/)". Its text came from an agent.
func riskLine(h riskHit) string {
	l := "risky: " + h.Rule
	if h.Why != "" {
		l += ": " + h.Why
	}
	if h.Text != "" {
		l += " (" + h.Text + ")"
	}
	return l
}
