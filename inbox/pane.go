package inbox

import (
	"slices"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/review"
)

// Pane says where a pane is: what the daemon knows and an
// agentstate.Snapshot does not.
type Pane struct {
	ID        string // the window id; "" takes Snapshot.Pane
	Session   string
	Workspace string
	Name      string
	Harness   string // "" takes Snapshot.Harness
	// Worktree and Home let the risk rules tell a path outside the pane's
	// worktree; both may be empty.
	Worktree string
	Home     string
	// Risk is what the embedder's risk rules read in the approval the
	// pane waits on, beside its reported line: the daemon reads the
	// prompt's dialog whole from the screen and its history, so a command
	// a short tile pushed off the rows it reports is judged too. Unlike
	// the fields above, every Update takes it as given (nil: nothing
	// read). The approval item carries it with what Options.Risk reads in
	// the line, in rule order; a hold's own risk replaces both.
	Risk []review.Hit
}

// paneRec is what the queue remembers of a pane between inputs.
type paneRec struct {
	Pane
	known   bool // a state was reported
	state   agentstate.State
	blocked agentstate.Kind
	raw     string // the message as reported
	summary string // CleanSummary(raw)

	riskRaw, riskTree, riskHome string // what risk was read from
	risk                        []review.Hit
	given                       []review.Hit // Pane.Risk as the last Update gave it

	seq    uint64 // completion_seq last reported
	unread bool   // FinishedUnread last reported

	// items are the pane's items by slot (blocking, errored, finished,
	// resume), kept in step with the queue's maps by insert and remove.
	items [slotResume + 1]*entry

	blockDone bool // the blocking item was dismissed or answered on this needs_input
	errDone   bool // the errored item was dismissed on this errored
	hold      *Hold

	// doneRaw is the line the pane reported when its blocking item was
	// dismissed or answered: another approval line is a new request.
	doneRaw string
}

// touch returns the pane's record, made if new, with p's non-empty
// fields written over what it knew.
func (q *Queue) touch(p Pane) *paneRec {
	r := q.panes[p.ID]
	if r == nil {
		r = &paneRec{Pane: Pane{ID: p.ID}}
		q.panes[p.ID] = r
		for sl := slotBlocking; sl <= slotResume; sl++ {
			r.items[sl] = q.byKey[Key{slot: sl, id: p.ID}]
		}
	}
	set := func(dst *string, v string) {
		if v != "" && *dst != v {
			*dst = v
		}
	}
	set(&r.Session, p.Session)
	set(&r.Workspace, p.Workspace)
	set(&r.Name, p.Name)
	set(&r.Harness, p.Harness)
	set(&r.Worktree, p.Worktree)
	set(&r.Home, p.Home)
	return r
}

// base is an item about the pane with nothing said yet.
func (r *paneRec) base(k Kind) Item {
	return Item{Kind: k, Session: r.Session, Window: r.ID, Workspace: r.Workspace, Harness: r.Harness, Name: r.Name}
}

// blockingItem is what the pane's blocking item says now.
func (q *Queue) blockingItem(r *paneRec) Item {
	if h := r.hold; h != nil {
		it := r.base(h.Kind)
		it.Summary = h.Summary
		it.Options, it.AlwaysScope, it.Risk = h.Options, h.AlwaysScope, h.Risk
		if !h.Expires.IsZero() {
			it.Expires = h.Expires.UnixNano()
		}
		it.DenyMessage, it.PlanLines, it.PlanSHA, it.HeldID = h.DenyMessage, h.PlanLines, h.PlanSHA, h.RequestID
		return it
	}
	if r.blocked == agentstate.KindApproval {
		it := r.base(KindApproval)
		it.Summary = r.summary
		it.Risk = q.mergeRisk(q.riskOf(r), r.given) // risk.go
		return it
	}
	it := r.base(KindQuestion)
	it.Summary = r.summary
	return it
}

// riskOf reads the pane's approval line for risk rules, once per line.
func (q *Queue) riskOf(r *paneRec) []review.Hit {
	if q.risk == nil {
		return nil
	}
	if r.riskRaw == r.raw && r.riskTree == r.Worktree && r.riskHome == r.Home {
		return r.risk
	}
	r.riskRaw, r.riskTree, r.riskHome = r.raw, r.Worktree, r.Home
	r.risk = q.checkLine(safetext.OneLine(r.raw), r.Worktree, r.Home)
	return r.risk
}

func (q *Queue) checkLine(line, worktree, home string) []review.Hit {
	if q.risk == nil {
		return nil
	}
	req, ok := review.RequestFromLine(line)
	if !ok {
		return nil
	}
	req.Worktree, req.Home = worktree, home
	hits := q.risk.Check(req)
	if len(hits) == 0 {
		return nil
	}
	for i := range hits {
		hits[i].Text = CleanSummary(hits[i].Text)
	}
	return hits
}

// finishedItem is what the pane's finished item says; a turn that just
// finished (rose) sets its completion_seq, else the item keeps the
// highest it said (a restored item's came from the engine before the
// restart).
func (r *paneRec) finishedItem(e *entry, rose bool) Item {
	it := r.base(KindFinished)
	it.Summary = r.summary
	it.CompletionSeq = r.seq
	if e != nil {
		it.MarkedUnread = e.MarkedUnread
		if !rose {
			it.CompletionSeq = max(it.CompletionSeq, e.CompletionSeq)
		}
	}
	return it
}

// Update takes a pane's state, as an agentstate.Snapshot, and opens,
// updates and closes the pane's items:
//
//   - needs_input opens the blocking item: approval when the pane is
//     blocked by an approval (risk read from its line), else question; a
//     hook's hold makes it the held approval or plan. A new kind, message
//     or name updates it, keeping its id and since. Leaving needs_input
//     closes it (resolved).
//   - errored opens the errored item; leaving errored closes it (resolved).
//   - a completion_seq that rose as the pane came to rest (idle or done),
//     with the turn unread, opens the finished item; the turn being marked
//     seen closes it (seen); working, needs_input or errored close it
//     (resolved).
//   - working or needs_input close the resume item (resolved).
//
// A snoozed item is updated asleep and wakes only when the report says
// something it did not (a new kind or line, a new turn); when its fact
// ends it is dropped with the reason. An update that changes nothing
// returns no event.
func (q *Queue) Update(p Pane, s agentstate.Snapshot) []Event {
	if p.ID == "" {
		p.ID = s.Pane
	}
	if p.ID == "" {
		return nil
	}
	if p.Harness == "" {
		p.Harness = s.Harness
	}
	state := s.State
	if !state.Valid() {
		state = agentstate.None
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.clock.Now()
	r := q.touch(p)
	r.given = slices.Clone(p.Risk)
	first := !r.known
	r.known, r.state, r.blocked = true, state, s.BlockedBy()
	if s.Message != r.raw {
		r.raw, r.summary = s.Message, CleanSummary(s.Message)
	}
	var evs []Event
	id := r.ID

	if state != agentstate.None {
		for _, e := range [...]*entry{r.items[slotErrored], r.items[slotFinished]} {
			if e != nil {
				e.restored = false
			}
		}
	}

	// The blocking key.
	if state == agentstate.NeedsInput {
		ended := ""
		if r.hold != nil && (r.blocked == agentstate.KindQuestion || r.blocked == agentstate.KindAuth) {
			ended, r.hold = r.hold.RequestID, nil // the block turned into a question
		}
		if r.blockDone && r.blocked == agentstate.KindApproval && r.raw != r.doneRaw {
			r.blockDone = false // the agent asks for something else now: a new item
		}
		if !r.blockDone {
			n := len(evs)
			c := q.blockingItem(r)
			e := q.putOn(&evs, r.items[slotBlocking], BlockingKey(id), &c, now)
			e.notice = false
			if ended != "" && len(evs) > n {
				evs[len(evs)-1].HoldEnded = ended
			}
		}
	} else {
		r.blockDone = false
		if e := r.items[slotBlocking]; e != nil && (!e.notice || state != e.noticeState) {
			q.endEntry(&evs, e, ReasonResolved)
		}
		r.hold = nil
	}

	// The errored key.
	if state == agentstate.Errored {
		if !r.errDone {
			it := r.base(KindErrored)
			it.Summary = r.summary
			q.putOn(&evs, r.items[slotErrored], PaneKey(KindErrored, id), &it, now)
		}
	} else {
		r.errDone = false
		if e := r.items[slotErrored]; e != nil && !e.restored {
			q.endEntry(&evs, e, ReasonResolved)
		}
	}

	// The finished key.
	switch e := r.items[slotFinished]; state {
	case agentstate.Working, agentstate.NeedsInput, agentstate.Errored:
		q.endEntry(&evs, e, ReasonResolved)
	case agentstate.Idle, agentstate.Done:
		switch {
		case s.CompletionSeq > r.seq && s.FinishedUnread:
			r.seq = s.CompletionSeq
			it := r.finishedItem(e, true)
			if e != nil && e.asleep() { // a new turn is news, whatever its number
				setContent(&e.Item, it)
				q.wake(&evs, e)
			} else {
				q.putOn(&evs, e, PaneKey(KindFinished, id), &it, now)
			}
		case e != nil && !first && r.unread && !s.FinishedUnread:
			q.endEntry(&evs, e, ReasonSeen)
		case e != nil:
			r.seq = max(r.seq, s.CompletionSeq)
			it := r.finishedItem(e, false)
			q.putOn(&evs, e, PaneKey(KindFinished, id), &it, now)
		}
	}
	r.seq, r.unread = s.CompletionSeq, s.FinishedUnread

	// The resume key.
	if e := r.items[slotResume]; e != nil {
		if state == agentstate.Working || state == agentstate.NeedsInput {
			q.endEntry(&evs, e, ReasonResolved)
		} else {
			it := e.Item
			it.Session, it.Workspace, it.Harness, it.Name = r.Session, r.Workspace, r.Harness, r.Name
			q.putOn(&evs, e, e.key, &it, now)
		}
	}
	return evs
}

// NoticeStalled is the question a stalled queued message opens.
func NoticeStalled(name string) string {
	return "your queued message was typed but " + name + " did not take it: look at the pane"
}

// Notice opens a question on the pane's blocking key for something its
// owner saw that is not a state: a queued message the agent did not take
// (NoticeStalled), a pane waiting at a screen no rule recognises. A pane
// already on needs_input has its own item and is left alone. The
// notice closes (resolved) when the pane reports a state other than the
// one it had when the notice opened; needs_input turns it into the
// pane's own item, keeping its id and since.
func (q *Queue) Notice(p Pane, summary string) []Event {
	if p.ID == "" {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.touch(p)
	if r.state == agentstate.NeedsInput {
		return nil
	}
	bk := BlockingKey(p.ID)
	if e := q.byKey[bk]; e != nil && !e.notice {
		return nil
	}
	var evs []Event
	it := r.base(KindQuestion)
	it.Summary = CleanSummary(summary)
	e := q.put(&evs, bk, it, q.clock.Now())
	e.notice, e.noticeState = true, r.state
	return evs
}

// Resume opens the pane's resume item after a restore: the summary is the
// exact command that resumes its conversation. Working or needs_input
// close it (resolved); so does Close(PaneKey(KindResume, pane),
// ReasonResolved) when the command is typed.
func (q *Queue) Resume(p Pane, command string) []Event {
	if p.ID == "" {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.touch(p)
	var evs []Event
	it := r.base(KindResume)
	it.Summary = CleanSummary(command)
	q.put(&evs, PaneKey(KindResume, p.ID), it, q.clock.Now())
	return evs
}

// Seen says an attached client focused the pane: its finished item closes
// (seen), a snoozed one is dropped. Call it beside agentstate's MarkSeen:
// a turn marked unread from the Inbox is unread only here.
func (q *Queue) Seen(pane string) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	if r := q.panes[pane]; r != nil {
		r.unread = false
	}
	var evs []Event
	q.end(&evs, PaneKey(KindFinished, pane), ReasonSeen)
	return evs
}

// PaneClosed closes every item of the pane (window_closed), its
// questions to the person included; mail is kept (the message is still
// unread). The queue forgets the pane.
func (q *Queue) PaneClosed(pane string) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	var evs []Event
	for _, k := range [...]Kind{KindQuestion, KindErrored, KindFinished, KindResume} {
		q.end(&evs, PaneKey(k, pane), ReasonWindowClosed)
	}
	var asks []*entry
	for _, e := range q.byID {
		if e.Kind == KindAsk && e.Window == pane {
			asks = append(asks, e)
		}
	}
	q.endAll(&evs, asks, ReasonWindowClosed)
	delete(q.panes, pane)
	return evs
}

// SessionClosed closes every item of the session (session_closed), mail
// and questions included, and forgets its panes.
func (q *Queue) SessionClosed(session string) []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	var evs []Event
	var gone []*entry
	for _, e := range q.byID {
		if e.Session == session && e.Kind != KindOutbox {
			gone = append(gone, e)
		}
	}
	q.endAll(&evs, gone, ReasonSessionClosed)
	for id, r := range q.panes {
		if r.Session == session {
			delete(q.panes, id)
		}
	}
	for k := range q.mailMark {
		if k.id == session {
			delete(q.mailMark, k)
		}
	}
	return evs
}

// endAll ends entries in the order they opened.
func (q *Queue) endAll(evs *[]Event, es []*entry, reason Reason) {
	slices.SortFunc(es, func(a, b *entry) int { return cmpU64(a.num, b.num) })
	for _, e := range es {
		q.end(evs, e.key, reason)
	}
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
