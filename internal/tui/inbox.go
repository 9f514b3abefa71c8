package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// digitDwell is how long the selected row must stand unchanged before a
// digit answers it: a row that moved under the person's finger is not
// the one they read.
const digitDwell = 400 * time.Millisecond

// riskWindow is how long a risky allow waits for its second press.
const riskWindow = 3 * time.Second

// item is one Inbox row, the fields of list-attention the overlay uses.
type item struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	Session string    `json:"session"`
	Window  string    `json:"window"`
	Harness string    `json:"harness"`
	Name    string    `json:"name"`
	Summary string    `json:"summary"`
	Since   int64     `json:"since"`
	Seq     uint64    `json:"seq"`
	Risk    []riskHit `json:"risk"`
	// Options are an ask's answers, or the decisions a hold takes
	// (once, always, deny).
	Options     []string `json:"options"`
	RequestID   string   `json:"request_id"` // an ask's question
	HeldID      string   `json:"held_id"`    // a hold's request: set while a hook holds it
	AlwaysScope []string `json:"always_scope"`
	PlanLines   int      `json:"plan_lines"`
	PlanSHA     string   `json:"plan_sha"`
	// Host, Stale and SeenAt: a linked host's item (inbox_hosts.go).
	Host   string `json:"host"`
	Stale  bool   `json:"stale"`
	SeenAt int64  `json:"seen_at"`
	// HeldFor and MessageID: held link mail, passed on with p; ForHost:
	// the machine an outbox row's mail waits for (inbox_mail.go).
	HeldFor   string `json:"held_for"`
	MessageID uint64 `json:"message_id"`
	ForHost   string `json:"for_host"`
	// SnoozedUntil: a snoozed item's wake time (unix ns), -1 until it
	// changes; 0 for an open item (inbox_snooze.go).
	SnoozedUntil int64 `json:"snoozed_until"`
}

// riskHit is one risk rule an approval's line matched.
type riskHit struct {
	Rule string `json:"rule"`
	Why  string `json:"why"`
	Text string `json:"text"`
}

// peek is peek-prompt's result.
type peek = proto.PromptPeek

// inbox is the overlay's state.
type inbox struct {
	items   []item
	counts  map[string]int
	loaded  bool
	sel     int
	stable  time.Time // since when the selected row (or peek) is unchanged
	selKey  string
	peek    *peek
	pending *riskPress // a risky allow waiting for its second press
	note    string

	top   int         // the first detail row shown (J/K scroll)
	plan  *planText   // the selected plan's text
	input *inboxInput // a line being typed: a deny reason or a reply
	sent  item        // the row the last answer was sent from, for the dock
	sentD string      // the decision sent from it
	want  string      // select this pane's question once the list comes
	// wantItem selects this item once the list comes (prefix o on an
	// item no pane shows: an ask-human question from a shell).
	wantItem string
	// snoozeFor: z on a rail agent row; its item is selected and z's
	// question asked once the list comes (rail_agent.go).
	snoozeFor *proto.AttachAgent

	// The list's views (inbox_snooze.go): all is the list as the daemon
	// sent it, items what is shown of it.
	all      []item
	snoozing *item     // z asked "for how long?" about this row
	snoozed  bool      // S: the snoozed items are listed too, under Snoozed
	only     string    // f: the one heading shown; "" for all
	selector string    // /: the selector the list is narrowed by
	selBad   bool      // the selector being typed was refused
	undoBy   time.Time // u undoes the last dismiss or snooze until then
	acted    string    // what the dock says once the daemon takes the mark

	thread *mailThread // the mail thread being read (mail_thread.go)
	box    *mailbox    // m: the whole mailbox (mail_box.go)

	peekAt  time.Time // when the peek was read (inbox_prompt.go)
	peekGen int       // the peek's wait tick; a newer peek stops the old
}

// riskPress is a first press on a risky allow.
type riskPress struct {
	key   string
	rules []string
	until time.Time
	msg   string // what the dock says while it waits
}

// groupOrder is the Inbox's headings in list order (the docs' words, the
// same as list-attention's): an ask-human question is under Questions
// with the pane's own, a finished turn under Done. Snoozed items, shown
// with S, come last under their own heading.
var groupOrder = [...]string{"Approvals", "Plans", "Questions", "Mail", "Errored", "Resume", "Done", "Waiting to send", "Settings", "Snoozed"}

// groupOf is the heading a row is listed under.
func groupOf(it item) string {
	if it.SnoozedUntil != 0 {
		return "Snoozed"
	}
	switch it.Kind {
	case "approval":
		return "Approvals"
	case "plan":
		return "Plans"
	case "ask", "question":
		return "Questions"
	case "mail":
		return "Mail"
	case "errored":
		return "Errored"
	case "resume":
		return "Resume"
	case "finished":
		return "Done"
	case "outbox":
		return "Waiting to send"
	case "config":
		return "Settings"
	}
	return "Other"
}

// kindGlyph is the one-cell mark a row of a kind starts with: the state
// glyph the rail draws for what it stands for (▲ an agent waits on the
// person, × errored, ■ a finished turn), and shapes of their own for mail
// (◆), a conversation to resume (↻), mail waiting to be sent (→) and a
// config change (≡). None
// is an emoji, all are one cell wide; --ascii-only draws letters.
func kindGlyph(kind string, ascii bool) string {
	g, a := "·", "."
	switch kind {
	case "approval", "plan", "ask", "question":
		g, a = "▲", "!"
	case "mail":
		g, a = "◆", "@"
	case "errored":
		g, a = "×", "x"
	case "resume":
		g, a = "↻", "r"
	case "finished":
		g, a = "■", "#"
	case "outbox":
		g, a = "→", ">"
	case "config":
		g, a = "≡", "="
	}
	if ascii {
		return a
	}
	return g
}

// groupKinds are the item kinds listed under a heading.
func groupKinds(group string) []string {
	switch group {
	case "Approvals":
		return []string{"approval"}
	case "Plans":
		return []string{"plan"}
	case "Questions":
		return []string{"ask", "question"}
	case "Mail":
		return []string{"mail"}
	case "Errored":
		return []string{"errored"}
	case "Resume":
		return []string{"resume"}
	case "Done":
		return []string{"finished"}
	case "Waiting to send":
		return []string{"outbox"}
	case "Settings":
		return []string{"config"}
	}
	return nil
}

func groupRank(group string) int {
	for i, g := range groupOrder {
		if g == group {
			return i
		}
	}
	return len(groupOrder) - 1 // Other: before Snoozed, which sorts apart
}

// needsYouKinds are the kinds prefix o jumps to.
func needsYouKinds() []string {
	return []string{"approval", "plan", "ask", "question", "mail", "errored", "resume"}
}

func (m *Model) openInbox() {
	m.inbox = &inbox{stable: m.clock.Now()}
	m.refreshInbox()
}

func (m *Model) refreshInbox() {
	m.call("list-attention", m.inbox.listParams(), "inbox:list") // inbox_snooze.go
}

// selected is the selected row.
func (in *inbox) selected() (item, bool) {
	if in.sel < 0 || in.sel >= len(in.items) {
		return item{}, false
	}
	return in.items[in.sel], true
}

// touch restarts the dwell when what is selected changed.
func (m *Model) touch() {
	in := m.inbox
	key := ""
	if it, ok := in.selected(); ok {
		key = it.ID + "/" + strconv.FormatUint(it.Seq, 10)
	}
	if in.peek != nil {
		key += "/" + in.peek.PromptID
	}
	if key != in.selKey {
		if strings.SplitN(key, "/", 2)[0] != strings.SplitN(in.selKey, "/", 2)[0] {
			in.top = 0
		}
		in.selKey, in.stable = key, m.clock.Now()
		m.dropPending()
		m.fetchPlan()
	}
}

func (m *Model) inboxMove(d int) {
	in := m.inbox
	in.sel = min(max(in.sel+d, 0), max(len(in.items)-1, 0))
	in.peek = nil
	m.dropPending()
	m.touch()
}

// ready reports whether digits may act now, and if not, how long is left.
func (m *Model) ready() (bool, time.Duration) {
	left := digitDwell - m.clock.Now().Sub(m.inbox.stable)
	return left <= 0, left
}

func (m *Model) inboxKey(k tea.Key, name string) tea.Cmd {
	in := m.inbox
	if in.input != nil {
		return m.inputKey(k, name)
	}
	if in.thread != nil {
		m.threadKey(name) // mail_thread.go
		return nil
	}
	if in.box != nil {
		m.boxKey(name) // mail_box.go
		return nil
	}
	if in.peek != nil {
		return m.peekKey(name)
	}
	if in.snoozing != nil { // z asked for how long (inbox_snooze.go)
		m.snoozeChoice(name)
		return nil
	}
	it, have := in.selected()
	// A risky first press waits for the same key only: any other key
	// takes it back, so a stray key never turns into an allow.
	if in.pending != nil && name != in.pending.key {
		m.dropPending()
	}
	if have && it.Host != "" && m.hostItemKey(it, name) { // inbox_hosts.go: answered on its host
		return nil
	}
	if have && len(name) == 1 && name[0] >= '1' && name[0] <= '9' {
		return m.digitKey(it, name)
	}
	switch m.keys.inbox[name] {
	case InDown:
		m.inboxMove(1)
		return nil
	case InUp:
		m.inboxMove(-1)
		return nil
	case InTop:
		m.inboxMove(-len(in.items))
		return nil
	case InBottom:
		m.inboxMove(len(in.items))
		return nil
	case InClose:
		m.dropPending()
		m.inbox = nil
		return nil
	case InGo:
		if have && readsThread(it) { // mail_thread.go: enter reads the mail
			m.openThread(it, false)
			return nil
		}
		if have && it.Kind == "config" { // a config change is no pane to go to: say what applies it
			m.dock = "run tuios config apply in a terminal outside tuios to apply it; d dismisses the item"
			return nil
		}
		if have && held(it) {
			// Enter gives a held prompt back to its pane, then goes
			// there: the harness shows it again and the person
			// answers it in place. The calls go out in order, so
			// the hand-back lands before the focus would end the
			// hold as viewed.
			m.reply(it, "ask", "", proto.ReplyApprovalParams{})
		}
		if have {
			m.dropPending()
			m.inbox = nil
			win := it.Window
			if heldMail(it) {
				win = "" // a link sender's label names no pane here: its session only
			}
			m.goTo(it.Session, win)
		}
		return nil
	case InPeek:
		if have && readsThread(it) {
			m.openThread(it, false)
			return nil
		}
		if have && it.Window != "" && !held(it) {
			m.call("peek-prompt", proto.PeekPromptParams{Session: it.Session, Window: it.Window}, "inbox:peek")
		}
		return nil
	case InDismiss:
		if have {
			in.acted = "Dismissed " + rowName(it)
			m.call("dismiss-attention", proto.DismissAttentionParams{ID: it.ID, HumanNonce: m.nonce}, "inbox:act")
		}
		return nil
	case InSnooze:
		if have {
			m.snoozeKey(it) // inbox_snooze.go: asks for how long, or wakes a snoozed row
		}
		return nil
	case InUndo:
		in.acted = "Undone"
		m.call("mark-attention", proto.MarkAttentionParams{Action: "undo", HumanNonce: m.nonce}, "inbox:act")
		return nil
	case InSnoozed:
		m.toggleSnoozed()
		return nil
	case InKind:
		m.cycleKind()
		return nil
	case InSelect:
		m.openSelector()
		return nil
	case InReview:
		if have {
			m.reviewItem(it) // review.go: over the Inbox; esc comes back to it
		}
		return nil
	case InPageDown:
		m.inboxMove(10)
		return nil
	case InPageUp:
		m.inboxMove(-10)
		return nil
	case InDetailDown, InDetailUp:
		d := 1
		if m.keys.inbox[name] == InDetailUp {
			d = -1
		}
		_, cols, rows, _ := m.geometry()
		in.top = max(in.top, 0) + d
		in.top = m.inboxFrame(cols, rows).top
		return nil
	case InReason:
		if have && held(it) {
			m.openDenyReason(it)
		}
		return nil
	case InReply:
		if have && (it.Kind == "finished" || it.Kind == "errored") {
			m.openReply(it)
		}
		if have && readsThread(it) {
			m.openThread(it, true) // mail_thread.go: the reply line opens once it is read
		}
		return nil
	case InRelease:
		if have && heldMail(it) { // inbox_mail.go
			return m.releaseHeld(it)
		}
		return nil
	case InResume:
		if have && it.Kind == "resume" {
			m.resumeRow(it) // inbox_resume.go: types the resume command, closes the row
		}
		return nil
	case InMailbox:
		m.openBox() // mail_box.go: the whole mailbox
		return nil
	}
	switch name {
	case "down", "ctrl+n":
		m.inboxMove(1)
	case "up", "ctrl+p":
		m.inboxMove(-1)
	case "esc":
		m.dropPending()
		m.inbox = nil
	}
	return nil
}

// peekKey answers the peeked prompt with the answers it has (inbox_prompt.go):
// 1-9 choose an option it shows, a approve, A approve always, d deny;
// esc/q/space go back, enter goes to the pane, r reads it again. A key the
// prompt does not offer does nothing. An allow of a risky prompt waits for
// a second press; choosing a refusal ("No, …") is a deny: one press.
func (m *Model) peekKey(name string) tea.Cmd {
	in := m.inbox
	pk := in.peek
	var answer string // a, A, d or the digit of an option
	switch m.keys.in(ModePeek, name) {
	case pkDigit:
		answer = name
	case PkGo:
		m.inbox = nil
		m.goTo(pk.Session, pk.Window)
		return nil
	case PkReread:
		m.call("peek-prompt", proto.PeekPromptParams{Session: pk.Session, Window: pk.Window}, "inbox:peek")
		return nil
	case PkBack:
		in.peek, in.pending = nil, nil
		in.note = ""
		m.touch()
		return nil
	case PkType:
		m.openTypedAnswer() // inbox_prompt.go
		return nil
	case PkApprove:
		answer = "a"
	case PkAlways:
		answer = "A"
	case PkDeny:
		answer = "d"
	}
	allow, offered := peekAllows(pk, answer)
	if !offered {
		in.pending = nil
		return nil
	}
	var action, value string
	switch answer {
	case "a":
		action = "approve"
	case "A":
		action = "approve_always"
	case "d":
		action = "deny"
	default:
		action, value = "choose", answer
	}
	if ok, left := m.ready(); !ok {
		in.note = "read it first: answers work in a moment"
		return after(left)
	}
	params := proto.RespondParams{Session: pk.Session, Window: pk.Window, Action: action, Value: value,
		PromptID: pk.PromptID, HumanNonce: m.nonce}
	if p := in.pending; p != nil {
		if allow && p.key == name && !m.clock.Now().After(p.until) {
			params.RiskAck = p.rules
			in.pending = nil
			m.call("respond", params, "inbox:respond:"+name)
			return nil
		}
		in.pending = nil
	}
	if allow && len(pk.Risk) > 0 {
		m.armRisk(name, pk.Risk)
		return after(riskWindow)
	}
	in.note = ""
	m.call("respond", params, "inbox:respond:"+name)
	return nil
}

// armRisk waits for the second press of a risky allow.
func (m *Model) armRisk(key string, rules []string) {
	until := m.clock.Now().Add(riskWindow)
	m.inbox.pending = &riskPress{key: key, rules: rules, until: until}
	m.inbox.note = fmt.Sprintf("risky: %s. Press %s again by %s to allow", listWords(cleanAll(rules), 4), key, until.Format("15:04:05"))
}

func cleanAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = clean(v)
	}
	return out
}

// inboxTimer runs when a dwell or a double press may have ended: the
// view redraws, and a timer is armed again only while one is running.
func (m *Model) inboxTimer() tea.Cmd {
	if m.inbox == nil {
		return nil
	}
	if p := m.inbox.pending; p != nil && m.clock.Now().After(p.until) {
		m.dropPending()
		m.inbox.note = ""
	}
	if ok, _ := m.ready(); ok && m.inbox.pending == nil {
		m.inbox.note = ""
	}
	return nil
}

// goTo focuses a pane, switching session when it is another one's.
func (m *Model) goTo(session, window string) {
	if session != "" && session != m.session {
		m.switchSession(session)
		m.call("focus-window", proto.FocusWindowParams{Session: session, Window: window}, "")
		return
	}
	if window != "" {
		m.focusWindow(window)
	}
}

func (m *Model) inboxReply(r replyMsg) tea.Cmd {
	if m.inbox == nil {
		return nil
	}
	in := m.inbox
	switch {
	case r.tag == "inbox:list":
		if r.err != nil {
			in.note = clean(r.err.Error())
			in.selBad = in.input != nil && in.input.sel // enter keeps no refused selector
			return nil
		}
		if in.selBad {
			in.selBad, in.note = false, ""
		}
		var res struct {
			Items  []item         `json:"items"`
			Counts map[string]int `json:"counts"`
		}
		json.Unmarshal(r.raw, &res)
		sel, _ := in.selected()
		// By heading, oldest first under each: an ask-human question and
		// a pane's question share Questions, whatever the daemon's order.
		sort.SliceStable(res.Items, func(i, j int) bool {
			a, b := res.Items[i], res.Items[j]
			if ga, gb := groupRank(groupOf(a)), groupRank(groupOf(b)); ga != gb {
				return ga < gb
			}
			return a.Since < b.Since
		})
		in.all, in.counts, in.loaded = res.Items, res.Counts, true
		in.listed() // inbox_snooze.go: f's one kind, a selector being typed
		in.sel = min(in.sel, max(len(in.items)-1, 0))
		for i, it := range in.items {
			if it.ID == sel.ID || in.want != "" && it.Kind == "ask" && it.Window == in.want {
				in.sel = i
			}
		}
		for i, it := range in.items {
			if in.wantItem != "" && it.ID == in.wantItem {
				in.sel = i
			}
		}
		in.want, in.wantItem = "", ""
		m.snoozeWanted() // rail_agent.go: z on a rail agent row
		m.touch()
	case r.tag == "inbox:peek":
		if r.err != nil {
			in.note = clean(r.err.Error())
			return nil
		}
		var pk peek
		json.Unmarshal(r.raw, &pk)
		in.peek = &pk
		in.note = ""
		m.touch()
		return m.peekArrived() // inbox_prompt.go: the wait counts up
	case r.tag == "inbox:act":
		return m.actReply(r) // inbox_snooze.go
	case r.tag == "inbox:ask":
		m.askReply(r)
	case r.tag == "inbox:reply":
		return m.approvalReply(r)
	case r.tag == "inbox:plan":
		m.planReply(r)
	case r.tag == "inbox:queue":
		m.queueReply(r)
	case r.tag == "inbox:release":
		m.releaseReply(r) // inbox_mail.go
	case r.tag == "inbox:threadmark":
		m.threadMarked(r) // mail_thread.go
	case r.tag == "inbox:thread":
		m.threadReply(r)
	case r.tag == "inbox:mailsent":
		m.mailSentReply(r)
	case r.tag == "inbox:box":
		m.boxReply(r) // mail_box.go
	case r.tag == "inbox:resume":
		m.resumeReply(r) // inbox_resume.go
	case len(r.tag) > 14 && r.tag[:14] == "inbox:respond:":
		return m.respondReply(r, r.tag[14:])
	}
	return nil
}

func (m *Model) respondReply(r replyMsg, key string) tea.Cmd {
	in := m.inbox
	var pe *proto.Error
	allow, _ := peekAllows(in.peek, key)
	if errors.As(r.err, &pe) && pe.Code == "risk_unacknowledged" && in.peek != nil && allow {
		var rules []string
		if pe.Hint != nil {
			rules = pe.Hint.Accepted
		}
		m.armRisk(key, rules)
		return after(riskWindow)
	}
	if r.err != nil {
		in.note = clean(r.err.Error())
		return nil
	}
	var res struct {
		Sent    string `json:"sent"`
		State   string `json:"state"`
		Window  string `json:"window"`
		Message string `json:"message"`
	}
	json.Unmarshal(r.raw, &res)
	name := res.Window
	if in.peek != nil {
		name = in.peek.Name
	}
	sent := res.Sent
	if sent == "" {
		sent = key
	}
	if res.State == "needs_input" {
		// Read the moment the keys went in: the agent has not taken
		// them yet, so "needs input now" would be stale at once.
		m.say("Sent %q to %s", clean(sent), clean(name))
	} else {
		m.say("Sent %q to %s; it is %s now", clean(sent), clean(name), stateWord(res.State))
	}
	in.peek, in.pending, in.note = nil, nil, ""
	m.refreshInbox()
	return nil
}

// oldestReply jumps to the oldest item that needs the person; prefix o
// again goes to the next one.
func (m *Model) oldestReply(r replyMsg) tea.Cmd {
	if r.err != nil {
		m.say("inbox: %s", r.err.Error())
		return nil
	}
	var res struct {
		Items []item `json:"items"`
	}
	json.Unmarshal(r.raw, &res)
	res.Items = oldestHosts(res.Items) // inbox_hosts.go: a stale host's rows are skipped
	if len(res.Items) == 0 {
		m.say("nothing needs you")
		return nil
	}
	sort.SliceStable(res.Items, func(i, j int) bool { return res.Items[i].Since < res.Items[j].Since })
	it := res.Items[m.oldestAt%len(res.Items)]
	m.oldestAt++
	m.oldestArmed = true // o again goes to the next
	if it.Host != "" {   // another machine's pane: said, not gone to
		m.say("%s: %s: %s (tuios attach --host %s %s)", clean(it.Host), clean(it.Name), clean(it.Summary), clean(it.Host), clean(it.Session))
		return nil
	}
	if it.Window == "" {
		// No pane to go to (an ask-human question asked from a shell):
		// the Inbox opens on it, where a digit answers it.
		m.openInbox()
		m.inbox.wantItem = it.ID
		m.say("%s: %s", itemSource(it), clean(it.Summary))
		return nil
	}
	m.goTo(it.Session, it.Window)
	m.say("%s: %s", itemSource(it), clean(it.Summary))
	return nil
}

// itemSource names where an item comes from for the dock: its pane's
// name, else who asked (a question from a shell outside every pane).
func itemSource(it item) string {
	if n := clean(it.Name); n != "" {
		return n
	}
	if it.Kind == "ask" || it.Kind == "question" {
		if s := clean(it.Session); s != "" {
			return "question from a shell (" + s + ")"
		}
		return "question from a shell"
	}
	return clean(it.Kind)
}
