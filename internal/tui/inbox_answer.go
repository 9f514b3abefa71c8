package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Answers given from the Inbox's list itself (docs/inbox.md):
// ask-human questions (digits choose an answer), held approvals (1 once,
// 2 always, 3 deny, n deny with a reason, enter hands back), held plans
// (the same keys, the text shown whole under the list) and replies to a
// finished or errored agent (r). Every answer carries what the person
// read (the question, the held line, the plan's sha): the daemon applies
// nothing when that is no longer what it holds.

// Limits of what the person types in the Inbox.
const (
	maxDenyReason = 500      // bytes, one line: reply-approval's longest reason
	maxReplyText  = 16 << 10 // bytes: the most one reply queue entry holds
	// minPlanRows is the fewest rows the plan may be shown in for its
	// last line to count as read: a plan squeezed into one or two rows
	// of a tiny terminal was not read, and enter answers it in the pane.
	minPlanRows = 3
)

// denyDefault is the reason the model reads when the person gives none.
const denyDefault = "The user denied this from the tuios Inbox."

// planText is a held plan's text as get-approval gave it.
type planText struct {
	held    string // the hold's request id
	lines   []string
	sha     string
	loaded  bool
	shownAt time.Time // when its last line was first on screen; zero until then
}

// inboxInput is a line typed on the dock while the Inbox is open: a deny
// reason for a held row, or a reply to a finished or errored agent.
type inboxInput struct {
	reply  bool   // a reply (queue-prompt); else a deny reason
	sel    bool   // the selector line (inbox_snooze.go)
	answer bool   // a typed answer to the peeked prompt (Tab, inbox_prompt.go)
	mail   bool   // a reply in the mail thread read (mail_thread.go)
	was    string // the selector's line: the selector esc puts back
	it     item
	label  string
	text   []rune
	limit  int // bytes
}

// held reports whether a row is a hold the Inbox answers: an approval or
// a plan a hook waits on.
func held(it item) bool {
	return it.HeldID != "" && (it.Kind == "approval" || it.Kind == "plan")
}

// offers reports whether a hold takes a decision.
func offers(it item, decision string) bool {
	for _, o := range it.Options {
		if o == decision {
			return true
		}
	}
	return false
}

// riskRules are a row's risk rule names, each once, in rule order: what
// risk_ack must name.
func riskRules(it item) []string {
	var out []string
	for _, h := range it.Risk {
		if !contains(out, h.Rule) {
			out = append(out, h.Rule)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// holdDecision is the decision a digit stands for on a hold.
func holdDecision(name string) string {
	switch name {
	case "1":
		return "once"
	case "2":
		return "always"
	case "3":
		return "deny"
	}
	return ""
}

// digitKey answers the selected row with a digit: an ask's option, or a
// hold's decision. Digits act only once the row has stood unchanged for
// the dwell, and a plan's allow only once its last line was on screen.
func (m *Model) digitKey(it item, name string) tea.Cmd {
	in := m.inbox
	n := int(name[0] - '0')
	switch {
	case it.Kind == "ask":
		if n > len(it.Options) || it.RequestID == "" {
			return nil
		}
		if ok, left := m.ready(); !ok {
			in.note = "read it first: answers work in a moment"
			return after(left)
		}
		in.sent = it
		// The question goes along as the person read it: if the item
		// now says something else, the daemon applies nothing.
		m.call("answer-ask", proto.AnswerAskParams{RequestID: it.RequestID, Answer: it.Options[n-1],
			HumanNonce: m.nonce, Question: it.Summary}, "inbox:ask")
		return nil
	case held(it):
		decision := holdDecision(name)
		if decision == "" || !offers(it, decision) {
			return nil
		}
		allow := decision != "deny"
		if ok, left := m.ready(); !ok {
			in.note = "read it first: answers work in a moment"
			return after(left)
		}
		var extra proto.ReplyApprovalParams // a plan's sha, a risky allow's rules
		if it.Kind == "plan" && allow {
			ok, left := m.planRead(it)
			if !ok {
				if left > 0 {
					return after(left)
				}
				in.note = "read the plan to its last line first (" + m.keys.first(InDetailDown) + " scrolls)"
				return nil
			}
			extra.PlanSHA = in.plan.sha
		}
		if rules := riskRules(it); allow && len(rules) > 0 {
			if p := in.pending; p == nil || p.key != name || m.clock.Now().After(p.until) {
				m.armHeldRisk(it, name, rules)
				return after(riskWindow)
			}
			extra.RiskAck = in.pending.rules
			m.dropPending()
		}
		m.reply(it, decision, "", extra)
	}
	return nil
}

// armHeldRisk makes a risky allow wait for its second press: the first
// sends nothing, and the dock says what a second press would allow.
func (m *Model) armHeldRisk(it item, key string, rules []string) {
	until := m.clock.Now().Add(riskWindow)
	what := clean(it.Summary)
	if key == "2" && len(it.AlwaysScope) > 0 {
		what = "always " + strings.Join(cleanAll(it.AlwaysScope), "; ")
	} else {
		var texts []string
		for _, h := range it.Risk {
			if t := clean(h.Text); t != "" && !contains(texts, t) {
				texts = append(texts, t)
			}
		}
		if len(texts) > 0 {
			what = strings.Join(texts, "; ")
		}
	}
	msg := fmt.Sprintf("Press %s again by %s to allow %s (risky: %s)", key, until.Format("15:04:05"), what, strings.Join(cleanAll(rules), ", "))
	m.inbox.pending = &riskPress{key: key, rules: rules, until: until, msg: clean(msg)}
	m.dock = m.inbox.pending.msg
}

// dropPending takes back a risky first press, and its line in the dock.
func (m *Model) dropPending() {
	in := m.inbox
	if in == nil || in.pending == nil {
		return
	}
	if in.pending.msg != "" && m.dock == in.pending.msg {
		m.dock = ""
	}
	in.pending = nil
}

// reply sends reply-approval for a held row, with what extra carries (a
// plan's sha, a risky allow's rules): summary is the line the person
// decided from, so a hold now on another line is left alone.
func (m *Model) reply(it item, decision, message string, extra proto.ReplyApprovalParams) {
	params := extra
	params.RequestID, params.Decision, params.Message = it.HeldID, decision, message
	params.HumanNonce, params.Summary = m.nonce, it.Summary
	m.inbox.sent, m.inbox.sentD = it, decision
	m.call("reply-approval", params, "inbox:reply")
}

// approvalReply tells the dock what reply-approval did.
func (m *Model) approvalReply(r replyMsg) tea.Cmd {
	in := m.inbox
	it := in.sent
	var pe *proto.Error
	if errors.As(r.err, &pe) && pe.Code == "risk_unacknowledged" && pe.Hint != nil {
		// The daemon matched other rules than the row showed: the
		// rules it names take a second press like any risky allow.
		it.Risk = nil
		for _, rule := range pe.Hint.Accepted {
			it.Risk = append(it.Risk, riskHit{Rule: rule})
		}
		key := "1"
		if in.sentD == "always" {
			key = "2"
		}
		m.armHeldRisk(it, key, pe.Hint.Accepted)
		m.refreshInbox()
		return after(riskWindow)
	}
	if r.err != nil {
		m.say("%s: %s", clean(it.Name), r.err.Error())
		m.refreshInbox()
		return nil
	}
	var res struct {
		Decision string `json:"decision"`
		Applied  bool   `json:"applied"`
		Reason   string `json:"reason"`
	}
	json.Unmarshal(r.raw, &res)
	name := clean(it.Name)
	switch {
	case res.Applied && res.Decision == "ask":
		m.say("Gave %s's prompt back to its pane", name)
	case res.Applied && res.Decision == "once":
		m.say("Allowed %s once: %s", name, clean(it.Summary))
	case res.Applied && res.Decision == "always":
		m.say("Always allowed for %s: %s", name, clean(it.Summary))
	case res.Applied && res.Decision == "deny":
		m.say("Denied %s: %s", name, clean(it.Summary))
	case res.Reason == "changed":
		m.say("Nothing sent: %s's request changed. Read it again.", name)
	default:
		m.say("%s was already answered (%s)", name, clean(firstOf(res.Decision, res.Reason)))
	}
	in.note = ""
	m.refreshInbox()
	return nil
}

// askReply tells the dock what answer-ask did.
func (m *Model) askReply(r replyMsg) {
	it := m.inbox.sent
	if r.err != nil {
		m.say("answer: %s", r.err.Error())
		m.refreshInbox()
		return
	}
	var res struct {
		Applied bool   `json:"applied"`
		Reason  string `json:"reason"`
		Answer  string `json:"answer"`
	}
	json.Unmarshal(r.raw, &res)
	switch {
	case res.Applied:
		m.say("Answered %q to %s: %s", clean(res.Answer), clean(firstOf(it.Name, it.Session)), clean(it.Summary))
	case res.Reason == "changed":
		m.say("Nothing sent: the question changed. Read it again.")
	case res.Answer != "":
		m.say("Already answered %q", clean(res.Answer))
	default:
		m.say("Not answered: the question %s", clean(res.Reason))
	}
	m.inbox.note = ""
	m.refreshInbox()
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// fetchPlan reads the selected plan's text when it is not the one held.
func (m *Model) fetchPlan() {
	in := m.inbox
	it, ok := in.selected()
	if !ok || it.Kind != "plan" || it.HeldID == "" {
		return
	}
	if p := in.plan; p != nil && p.held == it.HeldID && (!p.loaded || p.sha == it.PlanSHA) {
		return
	}
	in.plan = &planText{held: it.HeldID}
	in.top = 0
	m.call("get-approval", proto.GetApprovalParams{RequestID: it.HeldID}, "inbox:plan")
}

func (m *Model) planReply(r replyMsg) {
	in := m.inbox
	var res struct {
		RequestID string `json:"request_id"`
		Plan      string `json:"plan"`
		PlanSHA   string `json:"plan_sha"`
	}
	if r.err != nil {
		in.note = "plan: " + clean(r.err.Error())
		return
	}
	json.Unmarshal(r.raw, &res)
	if in.plan == nil || in.plan.held != res.RequestID {
		return // another row was selected meanwhile
	}
	text := strings.TrimRight(strings.ReplaceAll(res.Plan, "\r\n", "\n"), "\n")
	in.plan.lines = strings.Split(text, "\n")
	in.plan.sha, in.plan.loaded = res.PlanSHA, true
}

// planRead reports whether a plan's allow may act: its text is the one
// loaded, its last line has been on screen, and the dwell has passed
// since. left > 0 says how long until it may.
func (m *Model) planRead(it item) (bool, time.Duration) {
	p := m.inbox.plan
	if p == nil || !p.loaded || p.held != it.HeldID || p.shownAt.IsZero() {
		return false, 0
	}
	left := digitDwell - m.clock.Now().Sub(p.shownAt)
	return left <= 0, left
}

// notePlanShown marks the selected plan's last line as read when the
// frame that follows this message shows it, and wakes the model when
// the dwell after it ends, so the footer and the keys catch up.
func (m *Model) notePlanShown() tea.Cmd {
	in := m.inbox
	if in == nil || in.peek != nil || in.plan == nil || !in.plan.loaded || !in.plan.shownAt.IsZero() {
		return nil
	}
	it, ok := in.selected()
	if !ok || it.HeldID != in.plan.held {
		return nil
	}
	_, cols, rows, _ := m.geometry()
	f := m.inboxFrame(cols, rows)
	if f.detailRows < minPlanRows || f.top+f.detailRows < len(f.detail) {
		return nil
	}
	in.plan.shownAt = m.clock.Now()
	return after(digitDwell)
}

// waitingOnPrompt reports whether a pane waits on the person: it is on
// needs_input, or holds a prompt or an open question in the Inbox. A
// reply typed into it now would land in the prompt.
func (m *Model) waitingOnPrompt(session, window string) bool {
	for _, a := range m.layout.Agents {
		if a.Window == window && a.Session == session && a.State == "needs_input" {
			return true
		}
	}
	if session == m.session {
		if w, ok := m.windowByID(window); ok && w.State == "needs_input" {
			return true
		}
	}
	if m.inbox != nil {
		for _, it := range m.inbox.items {
			if it.Window == window && it.Session == session {
				switch it.Kind {
				case "approval", "plan", "question", "ask":
					return true
				}
			}
		}
	}
	return false
}

// openReply opens the reply line for a finished or errored agent, or
// says why not.
func (m *Model) openReply(it item) {
	name := clean(firstOf(it.Name, it.Window))
	if m.waitingOnPrompt(it.Session, it.Window) {
		m.say("%s is waiting on a prompt. Answer it first (space to peek).", name)
		return
	}
	word := "done"
	if it.Kind == "errored" {
		word = "errored"
	}
	when := word
	if a := age(m.clock.Now(), it.Since); a != "" {
		when += " " + a
	}
	m.inbox.input = &inboxInput{reply: true, it: it, label: fmt.Sprintf("Reply to %s (%s): ", name, when), limit: maxReplyText}
}

// openDenyReason opens the reason line for a deny (keep planning, on a
// plan).
func (m *Model) openDenyReason(it item) {
	if !offers(it, "deny") {
		return
	}
	label := "Deny, because: "
	if it.Kind == "plan" {
		label = "Keep planning, because: "
	}
	m.dropPending()
	m.inbox.input = &inboxInput{it: it, label: label, limit: maxDenyReason}
}

// inputKey edits the dock's line: enter sends, esc cancels.
func (m *Model) inputKey(k tea.Key, name string) tea.Cmd {
	in := m.inbox
	x := in.input
	if x.sel {
		return m.selectorKey(k, name) // inbox_snooze.go
	}
	if x.answer && name == "enter" {
		in.input = nil
		m.sendTypedAnswer(strings.TrimSpace(clean(string(x.text)))) // inbox_prompt.go
		return nil
	}
	if x.mail && name == "enter" {
		in.input = nil
		m.sendMailReply(strings.TrimSpace(string(x.text))) // mail_thread.go
		return nil
	}
	switch name {
	case "enter":
		in.input = nil
		text := strings.TrimSpace(clean(string(x.text)))
		if x.reply {
			if text == "" {
				return nil
			}
			in.sent = x.it
			m.call("queue-prompt", proto.QueuePromptParams{Session: x.it.Session, Window: x.it.Window,
				Text: text, HumanNonce: m.nonce}, "inbox:queue")
			return nil
		}
		if text == "" {
			text = denyDefault
		}
		m.reply(x.it, "deny", text, proto.ReplyApprovalParams{})
	case "esc", "ctrl+c":
		in.input = nil
	default:
		x.edit(k, name)
	}
	return nil
}

// edit applies a line-editing key (backspace, ctrl+u, typed text) to the
// line; every line the client reads from the person shares it.
func (x *inboxInput) edit(k tea.Key, name string) {
	switch name {
	case "backspace", "ctrl+h":
		if len(x.text) > 0 {
			x.text = x.text[:len(x.text)-1]
		}
	case "ctrl+u":
		x.text = x.text[:0]
	default:
		if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) {
			x.add(k.Text) // one line, escapes dropped
		}
	}
}

// add appends typed or pasted text up to the limit: escape sequences,
// control and format characters are dropped, any other space becomes a
// plain one, so the line stays one line. Enter collapses the spaces.
func (x *inboxInput) add(s string) {
	for _, r := range ansi.Strip(s) {
		switch {
		case unicode.IsSpace(r):
			r = ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == unicode.ReplacementChar:
			continue
		}
		if len(string(x.text))+utf8.RuneLen(r) > x.limit {
			return
		}
		x.text = append(x.text, r)
	}
}

func (m *Model) queueReply(r replyMsg) {
	name := clean(firstOf(m.inbox.sent.Name, m.inbox.sent.Window))
	if r.err != nil {
		m.say("reply to %s: %s", name, r.err.Error())
		return
	}
	var res proto.PromptQueued
	json.Unmarshal(r.raw, &res)
	m.say("Queued for %s: typed when it is ready (%d in line)", name, max(res.Position, 1))
}
