package tui

import (
	"encoding/json"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The Inbox's views of its list and snoozing (the docs' "Snoozing, undo
// and unread" and "Opening it"):
//
//   - z asks for how long: 1 for 15 minutes, 2 for an hour, 3 until 9:00
//     tomorrow, 4 until it changes; esc cancels. The daemon keeps the
//     snooze (mark-attention), so every client stops showing the item.
//   - S lists the snoozed items too, under a Snoozed heading; z on one
//     wakes it now.
//   - f shows one heading at a time, cycling through the ones the list
//     has, then all again.
//   - / narrows the list with a selector typed on the dock line: the
//     daemon reads it (list-attention's select), so the Inbox and
//     `tuios list-attention --select` agree on what it means.
//   - u undoes the last dismiss or snooze for 10 seconds.

// undoWindow is how long the daemon keeps a dismiss or snooze undoable.
const undoWindow = 10 * time.Second

// snoozeChoices are z's answers, in the order of their digits.
var snoozeChoices = [...]string{"15 minutes", "an hour", "until 9:00 tomorrow", "until it changes"}

// listed makes the rows shown from the list the daemon sent: all of it,
// or only f's heading.
func (in *inbox) listed() {
	if in.only == "" {
		in.items = in.all
		return
	}
	in.items = nil
	for _, it := range in.all {
		if groupOf(it) == in.only {
			in.items = append(in.items, it)
		}
	}
}

// waiting is how many open (not snoozed) items the list holds.
func (in *inbox) waiting() int {
	n := 0
	for _, it := range in.all {
		if it.SnoozedUntil == 0 {
			n++
		}
	}
	return n
}

// groupCount is the number a heading shows: the daemon's count of its
// kinds (it counts what a long list leaves out), or what is listed when
// that is more, as for a selector the counts do not follow.
func (in *inbox) groupCount(group string) int {
	n := 0
	for _, it := range in.all {
		if groupOf(it) == group {
			n++
		}
	}
	if group == "Snoozed" || in.narrowed() {
		return n
	}
	c := 0
	for _, k := range groupKinds(group) {
		c += in.counts[k]
	}
	return max(c, n)
}

// narrowed reports whether a selector narrows the list, in force or
// being typed.
func (in *inbox) narrowed() bool {
	return in.selector != "" || in.input != nil && in.input.sel && len(in.input.text) > 0
}

// listParams are list-attention's params for the view the person chose.
func (in *inbox) listParams() proto.ListAttentionParams {
	p := proto.ListAttentionParams{IncludeSnoozed: in.snoozed, Select: in.selector}
	if x := in.input; x != nil && x.sel {
		p.Select = string(x.text)
	}
	return p
}

// snoozable reports whether z may snooze a row: an agent is not waiting
// on it. A held approval or plan, an ask-human question and mail waiting
// to be sent cannot be snoozed (the daemon refuses them too).
func snoozable(it item) bool {
	switch {
	case it.SnoozedUntil != 0:
		return false
	case it.Kind == "ask", it.Kind == "outbox", it.Kind == "plan", held(it):
		return false
	}
	return true
}

// snoozeKey is z on a row: a snoozed row wakes now; another asks for how
// long.
func (m *Model) snoozeKey(it item) {
	in := m.inbox
	switch {
	case it.SnoozedUntil != 0:
		m.markAttention(it, proto.MarkAttentionParams{Action: "wake"}, "Woke "+rowName(it))
	case snoozable(it):
		in.snoozing = &it
		in.note = "Snooze " + rowName(it) + " for how long?"
	default:
		in.note = "an agent is waiting on this one: it cannot be snoozed"
	}
}

// snoozeChoice answers z's question: a digit snoozes, esc cancels, any
// other key is ignored so a stray key snoozes nothing.
func (m *Model) snoozeChoice(name string) {
	in := m.inbox
	it := *in.snoozing
	now := m.clock.Now()
	p := proto.MarkAttentionParams{Action: "snooze"}
	switch name {
	case "1":
		p.ForMS = (15 * time.Minute).Milliseconds()
	case "2":
		p.ForMS = time.Hour.Milliseconds()
	case "3":
		p.Until = nineTomorrow(now).UnixMilli()
	case "4":
		p.UntilChange = true
	case "esc", "q", "ctrl+c":
		in.snoozing, in.note = nil, ""
		return
	default:
		return
	}
	in.snoozing, in.note = nil, ""
	m.markAttention(it, p, fmt.Sprintf("Snoozed %s %s", rowName(it), snoozeWords(name)))
}

// snoozeWords is what a snooze digit stands for, as the dock says it.
func snoozeWords(digit string) string {
	i := int(digit[0] - '1')
	if i < 2 {
		return "for " + snoozeChoices[i]
	}
	return snoozeChoices[i]
}

// nineTomorrow is 9:00 local time on the day after now.
func nineTomorrow(now time.Time) time.Time {
	y, mo, d := now.Date()
	return time.Date(y, mo, d+1, 9, 0, 0, 0, now.Location())
}

// markAttention sends a mark-attention for a row as the person; done is
// what the dock says once the daemon took it.
func (m *Model) markAttention(it item, p proto.MarkAttentionParams, done string) {
	p.ID, p.HumanNonce = it.ID, m.nonce
	m.inbox.acted = done
	m.call("mark-attention", p, "inbox:act")
}

// actReply is what a dismiss, snooze, wake or undo came back with: the
// dock says what was done, the list is read again, and u is offered for
// as long as the daemon keeps it undoable.
func (m *Model) actReply(r replyMsg) tea.Cmd {
	in := m.inbox
	done := in.acted
	in.acted = ""
	m.refreshInbox()
	if r.err != nil {
		in.note = clean(r.err.Error())
		return nil
	}
	// mark-attention's answer, or dismiss-attention's (which names no
	// action): only the action is read.
	var res proto.AttentionMarked
	json.Unmarshal(r.raw, &res)
	in.note = ""
	switch res.Action {
	case "undo", "wake", "restore":
		in.undoBy = time.Time{}
	default: // snooze, or dismiss-attention's answer (no action)
		in.undoBy = m.clock.Now().Add(undoWindow)
		if done != "" {
			done += " (u undoes)"
		}
	}
	if done != "" {
		m.say("%s", done)
	}
	if in.undoBy.IsZero() {
		return nil
	}
	return after(undoWindow) // the footer drops u when it lapses
}

// canUndo reports whether u still undoes something.
func (m *Model) canUndo() bool {
	return !m.inbox.undoBy.IsZero() && m.clock.Now().Before(m.inbox.undoBy)
}

// rowName names a row in the dock: session/name, or the session alone.
func rowName(it item) string {
	return hostWho(it)
}

// toggleSnoozed is S: the snoozed items are listed too, or no longer.
func (m *Model) toggleSnoozed() {
	in := m.inbox
	in.snoozed = !in.snoozed
	if !in.snoozed && in.only == "Snoozed" {
		in.only = ""
	}
	m.refreshInbox()
}

// cycleKind is f: the next heading the list has, alone, then all again.
func (m *Model) cycleKind() {
	in := m.inbox
	var have []string
	for _, it := range in.all {
		if g := groupOf(it); len(have) == 0 || have[len(have)-1] != g {
			have = append(have, g)
		}
	}
	next := ""
	if in.only == "" {
		if len(have) > 0 {
			next = have[0]
		}
	} else {
		for i, g := range have {
			if g == in.only && i+1 < len(have) {
				next = have[i+1]
			}
		}
		// A heading that emptied meanwhile: go on from where it stood.
		if next == "" && !containsStr(have, in.only) {
			for _, g := range have {
				if groupRank(g) > groupRank(in.only) {
					next = g
					break
				}
			}
		}
	}
	in.only = next
	in.listed()
	in.sel = 0
	in.peek = nil
	m.touch()
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// openSelector is /: a selector line on the dock, holding the selector in
// force, which narrows the list as it is typed.
func (m *Model) openSelector() {
	in := m.inbox
	m.dropPending()
	in.input = &inboxInput{sel: true, label: "Select (harness:, needs:, session:, name:, cwd: …): ", text: []rune(in.selector), limit: 1024, was: in.selector}
	in.selBad = false
}

// selectorEdited reads the list again for the selector as typed so far.
func (m *Model) selectorEdited() {
	m.refreshInbox()
}

// selectorDone is enter or esc on the selector line: enter keeps what was
// typed (unless the daemon refused it: the line stays, the note says
// why), esc puts back the selector that was in force.
func (m *Model) selectorDone(keep bool) {
	in := m.inbox
	x := in.input
	if keep && in.selBad {
		return
	}
	in.input = nil
	if keep {
		in.selector = string(x.text)
	} else {
		in.selector = x.was
	}
	in.selBad = false
	in.note = ""
	in.sel = 0
	m.refreshInbox()
}

// snoozeKeys is the footer while z asks for how long.
func snoozeKeys() string {
	return "1 15 minutes  2 an hour  3 until 9:00 tomorrow  4 until it changes  esc cancel"
}

// viewKeys are the footer's keys for the list's views, after the row's.
func (m *Model) viewKeys() []string {
	in := m.inbox
	var k []string
	if m.canUndo() {
		k = append(k, "u undo")
	}
	if len(in.all) > 0 || in.only != "" {
		k = append(k, "f kind")
	}
	k = append(k, "/ select")
	if in.snoozed {
		k = append(k, "S hide snoozed")
	} else {
		k = append(k, "S snoozed")
	}
	return k
}

// viewTitle is what the header adds for the view in force.
func (in *inbox) viewTitle() string {
	s := ""
	if in.only != "" {
		s += "  only " + in.only
	}
	if in.selector != "" {
		s += "  select: " + clean(in.selector)
	}
	if in.snoozed {
		s += "  snoozed shown"
	}
	return s
}

// emptyText is what an empty list says.
func (in *inbox) emptyText() string {
	switch {
	case in.only != "":
		return " Nothing under " + in.only + ". f shows the next kind."
	case in.narrowed():
		return " Nothing matches the selector."
	case in.snoozed:
		return " Nothing waits for you, and nothing is snoozed."
	}
	return " Nothing waits for you."
}

// selectorKey edits the selector line: every change reads the list again.
func (m *Model) selectorKey(k tea.Key, name string) tea.Cmd {
	x := m.inbox.input
	before := string(x.text)
	switch name {
	case "enter":
		m.selectorDone(true)
		return nil
	case "esc", "ctrl+c":
		m.selectorDone(false)
		return nil
	default:
		x.edit(k, name)
	}
	if string(x.text) != before {
		m.selectorEdited()
	}
	return nil
}

// snoozedSummary is a snoozed row's summary with when it wakes.
func snoozedSummary(it item, summary string) string {
	switch {
	case it.SnoozedUntil < 0:
		return summary + "  [until it changes]"
	case it.SnoozedUntil > 0:
		return summary + "  [until " + time.Unix(0, it.SnoozedUntil).Format("Jan 2 15:04") + "]"
	}
	return summary
}
