package attention

import (
	"sort"
	"strings"
	"unicode"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/review"
)

// The risk of the prompt a pane waits on. The risk rules judge the command
// the prompt asks about whatever the pane's tile shows: the line the pane
// reported (a hook's "approve Bash: rm -rf build/" names the call whole),
// and the prompt's dialog read whole from the screen and its history
// (detect.ReadDialog over vt's LastLines: the rows a short tile pushed up,
// the rows a narrow tile wrapped). An approval whose dialog cannot be read
// whole, and whose line does not name the call, gets the "cut short" hit:
// allowing it needs the person to acknowledge what they have not read.
// peek-prompt, respond and the Inbox item (so list-attention and the
// client's row and rail) all read it here.

// whyNotWhole is the "cut short" hit's reason when the dialog's top is off
// the pane's screen and history.
const whyNotWhole = "the prompt's command is not on the pane's screen whole, so a risky part may be hidden: open the pane or make it taller, then read it again"

// readPrompt reads the prompt on the pane's screen with its harness's
// rules, and its dialog whole. ok is false when no harness is known or no
// rule reads a prompt.
func (r *Prompts) readPrompt(pane core.Pane, harness string) (man *detect.Manifest, p detect.Prompt, d detect.WholeDialog, ok bool) {
	reg := r.h.Tracker().Detector().Registry()
	if reg == nil || harness == "" {
		return nil, p, d, false
	}
	if man, ok = reg.Lookup(harness); !ok {
		return nil, p, d, false
	}
	sc := pane.Tracked().Screen()
	if p, ok = detect.ReadPrompt(man, sc.Tail(man.Screen.ReadLines())); !ok {
		return man, p, d, false
	}
	d = detect.ReadDialog(p, sc.LastLines(detect.MaxDialogLines), !sc.AltScreen())
	return man, p, d, true
}

// paneRoot is the directory a prompt's paths are judged from, as the held
// approvals judge theirs (holds.go): the pane's directory as it last
// reported it, else the directory it started in.
func (r *Prompts) paneRoot(pane core.Pane) string {
	if d := pane.Dir(); d != "" {
		return d
	}
	dir, _, _ := r.h.StartedIn(pane.ID())
	return dir
}

// promptHits runs the risk rules over what a prompt asks: the reported
// line, and the dialog's body, each row and each run of rows together (an
// agent wraps a long command over rows of its own). notWhole says the
// hits carry "cut short" because the dialog could not be read whole.
func (r *Prompts) promptHits(line string, p detect.Prompt, d detect.WholeDialog, root, home string) (hits []review.Hit, notWhole bool) {
	if r.risk == nil {
		return nil, false
	}
	set := map[string]review.Hit{}
	add := func(req review.Request) {
		req.Worktree, req.Home = root, home
		for _, h := range r.risk.Check(req) {
			if _, had := set[h.Rule]; !had {
				h.Text = inbox.CleanSummary(h.Text)
				set[h.Rule] = h
			}
		}
	}
	named := false // the line names the call whole: "approve <Tool>: <what>"
	if req, ok := review.RequestFromLine(line); ok && strings.TrimSpace(line) != "" {
		named = req.Tool != "" && !req.CutShort
		add(req)
	}
	var run []string
	flush := func() {
		if len(run) > 1 {
			add(review.Request{Command: strings.Join(run, " ")})
		}
		run = run[:0]
	}
	for _, l := range d.Body {
		t := strings.TrimFunc(l, func(r rune) bool {
			return unicode.IsSpace(r) || r == 0xa0 || r >= 0x2500 && r <= 0x259F || r == '❯' || r == '›'
		})
		if t == "" || len(detect.PromptOptions([]string{t})) > 0 {
			flush()
			continue
		}
		if req, ok := review.RequestFromLine(t); ok {
			add(req)
		}
		run = append(run, t)
	}
	flush()
	if p.Kind == agentstate.KindApproval && !d.Whole && !named {
		if _, had := set[review.RuleCutShort]; !had {
			set[review.RuleCutShort] = review.Hit{Rule: review.RuleCutShort, Why: whyNotWhole}
			notWhole = true
		}
	}
	return r.inRuleOrder(set), notWhole
}

// inRuleOrder lists the hits in the rules' hit order, "cut short" last.
func (r *Prompts) inRuleOrder(set map[string]review.Hit) []review.Hit {
	if len(set) == 0 {
		return nil
	}
	out := make([]review.Hit, 0, len(set))
	for _, name := range append(r.risk.Rules(), review.RuleCutShort) {
		if h, ok := set[name]; ok {
			out = append(out, h)
			delete(set, name)
		}
	}
	rest := make([]string, 0, len(set))
	for name := range set {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, set[name])
	}
	return out
}

// ruleNames are the hits' rule names, in their order.
func ruleNames(hits []review.Hit) []string {
	if len(hits) == 0 {
		return nil
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Rule
	}
	return out
}

// ApprovalRisk is the risk of the approval pane waits on, for its Inbox
// item (the risk column): nil unless the pane is on needs_input blocked
// by an approval. It takes no lock of this package's, so the Inbox may
// call it holding its own.
func (r *Prompts) ApprovalRisk(pane core.Pane, snap agentstate.Snapshot) []review.Hit {
	if r == nil || r.h == nil || snap.State != agentstate.NeedsInput || snap.BlockedBy() != agentstate.KindApproval {
		return nil
	}
	_, p, d, ok := r.readPrompt(pane, snap.Harness)
	if !ok {
		// Nothing on the screen reads as a prompt (a hook said it first):
		// the line alone.
		p, d = detect.Prompt{}, detect.WholeDialog{Whole: true}
	}
	hits, _ := r.promptHits(snap.Message, p, d, r.paneRoot(pane), r.home)
	return hits
}

// Risky are the rule names of each local pane's risky approval, as the
// Inbox's items carry them: the rail's word is risky.
func (a *Store) Risky() map[string][]string {
	risky := map[string][]string{}
	for _, it := range a.List(inbox.ListOptions{Kinds: []inbox.Kind{inbox.KindApproval}}).Items {
		if it.Window != "" && it.Host == "" && len(it.Risk) > 0 {
			risky[it.Window] = ruleNames(it.Risk)
		}
	}
	return risky
}

// sameNumbers: a and b offer the same option numbers, in the same order.
func sameNumbers(a, b []detect.PromptOption) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].N != b[i].N {
			return false
		}
	}
	return true
}
