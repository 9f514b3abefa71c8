package inbox

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/review"
)

// Limits of what a Mirror keeps of each linked host it follows: another
// machine decides how much it sends, so every list is bounded here.
const (
	MaxHostItems    = 256     // mirrored items per host, apart from the local queue's MaxOpen
	MaxHostSessions = 512     // sessions cached per host
	MaxHostAgents   = 2048    // agent rows cached per host
	MaxHostLine     = 1 << 20 // one line read from a host's daemon
	// maxHostDismissed bounds the far ids dismissed here and still open
	// there; a far daemon holds at most MaxOpen open items.
	maxHostDismissed = MaxOpen
	maxFarIDBytes    = 64
	maxFarFieldBytes = 256
	maxFarRisk       = 16
)

// HostID is the id a mirrored item carries here: the host's name, a
// colon, and the id the item has on that host ("build:12"). Local ids have
// no colon, so the two never meet.
func HostID(host, farID string) string { return host + ":" + farID }

// SplitHostID reads a mirrored item's id; ok is false for a local id.
func SplitHostID(id string) (host, farID string, ok bool) {
	i := strings.IndexByte(id, ':')
	if i <= 0 || i == len(id)-1 {
		return "", "", false
	}
	return id[:i], id[i+1:], true
}

// HostState is what the Inbox shows about one followed host: whether its
// items are stale (the link is down), since when nothing was heard, and
// how many of its items are open.
type HostState struct {
	Host   string `json:"host"`
	Stale  bool   `json:"stale"`
	SeenAt int64  `json:"seen_at,omitempty"` // unix ns: the last time the host was heard
	Items  int    `json:"items"`             // mirrored items, open and not stale
	Mail   int    `json:"mail"`              // unread mail the host's mail items count
	Rev    uint64 `json:"rev"`               // the seq of the host's last mirrored change
}

// Mirror holds the items this daemon mirrors from the hosts it follows,
// kept apart from the local queue (MaxHostItems per host) but stamped
// with the queue's seq, so one seq orders every attention event the
// daemon publishes and a follower that replays from a seq misses nothing.
// Like Queue it starts no goroutine, arms no timer and does no I/O: the
// daemon feeds it listings (Sync), one far attention event at a time
// (Apply), the link going down (Down) and the host leaving the hosts
// table (Remove), and publishes the events every call returns.
//
// Dismiss and Snooze act here only: the far daemon keeps its item, and a
// person there still sees it. A mirrored item cannot be answered here:
// the daemon refuses and points at `tuios respond -w HOST:SESSION:WINDOW`.
type Mirror struct {
	mu    sync.Mutex // taken before the queue's, never after
	q     *Queue
	clock Clock
	hosts map[string]*hostRec
	undo  []mirrorUndo
}

// hostRec is one followed host.
type hostRec struct {
	items     map[string]*mirrored // by mirror id
	stale     bool
	seenAt    int64
	boot      string          // the boot_id of the host's queue last listed
	rev       uint64          // the seq of the host's last mirrored change
	dismissed map[string]Item // far id → the item as dismissed
}

// mirrored is one mirrored item.
type mirrored struct {
	Item
	farID string
}

type mirrorUndo struct {
	op  undoOp
	at  time.Time
	was mirrored
}

// NewMirror makes an empty mirror that stamps its events with q's seq. A
// nil clock is the wall clock.
func NewMirror(q *Queue, clock Clock) *Mirror {
	if clock == nil {
		clock = realClock{}
	}
	return &Mirror{q: q, clock: clock, hosts: map[string]*hostRec{}}
}

// nextSeq draws the next revision of the queue for a mirrored item's
// change: local and mirrored changes share one seq.
func (q *Queue) nextSeq() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.seq++
	return q.seq
}

func (m *Mirror) rec(host string) *hostRec {
	h := m.hosts[host]
	if h == nil {
		h = &hostRec{items: map[string]*mirrored{}, dismissed: map[string]Item{}}
		m.hosts[host] = h
	}
	return h
}

func (m *Mirror) emit(evs *[]Event, op Op, e *mirrored, closed Reason) {
	e.Seq = m.q.nextSeq()
	if h := m.hosts[e.Host]; h != nil {
		h.rev = e.Seq
	}
	it := e.Item
	it.Closed = closed
	*evs = append(*evs, Event{Op: op, Item: it})
}

// fromFar makes a far item safe to keep: it came from another machine,
// so every text is cut to one clean line, the summary cleaned as a local
// one is, and ids that could not be a far daemon's are refused. ok is
// false for an item that must not be mirrored: one that is itself
// mirrored there (its host is neither empty nor "local"), or one with no
// usable id.
func fromFar(host string, in Item) (mirrored, bool) {
	if in.Host != "" && in.Host != "local" {
		return mirrored{}, false // not re-mirrored onward
	}
	if !farIDOK(in.ID) {
		return mirrored{}, false
	}
	line := func(s string) string { return cut(safetext.OneLine(s), maxFarFieldBytes) }
	it := Item{
		ID: HostID(host, in.ID), Kind: Kind(line(string(in.Kind))), Host: host,
		Session: line(in.Session), Window: line(in.Window), Workspace: line(in.Workspace),
		Harness: line(in.Harness), Name: line(in.Name), Summary: CleanSummary(in.Summary),
		RequestID: line(in.RequestID), Expires: in.Expires, Since: in.Since,
		Thread: in.Thread, Count: max(in.Count, 0), CompletionSeq: in.CompletionSeq,
		MarkedUnread: in.MarkedUnread, DenyMessage: in.DenyMessage, PlanLines: max(in.PlanLines, 0),
		PlanSHA: line(in.PlanSHA), HeldID: line(in.HeldID), HeldFor: line(in.HeldFor), ForHost: line(in.ForHost),
	}
	if it.Kind == "" {
		return mirrored{}, false
	}
	for i, o := range in.Options {
		if i == MaxAskOptions {
			break
		}
		it.Options = append(it.Options, cut(CleanSummary(o), MaxOptionBytes))
	}
	for i, s := range in.AlwaysScope {
		if i == MaxAskOptions {
			break
		}
		it.AlwaysScope = append(it.AlwaysScope, line(s))
	}
	for i, r := range in.Risk {
		if i == maxFarRisk {
			break
		}
		it.Risk = append(it.Risk, review.Hit{Rule: line(r.Rule), Why: CleanSummary(r.Why), Text: CleanSummary(r.Text)})
	}
	return mirrored{Item: it, farID: in.ID}, true
}

// farIDOK accepts an id a daemon could have issued: 1 to 64 letters,
// digits, '-', '_' or '.'.
func farIDOK(id string) bool {
	if id == "" || len(id) > maxFarIDBytes {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// reopens reports whether a far item dismissed here says something new
// enough to come back, as a local item would open again: another kind,
// a new finished turn, more unread mail, a hook starting or ending a hold.
func reopens(was, now *Item) bool {
	switch {
	case was.Kind != now.Kind, was.HeldID != now.HeldID:
		return true
	case now.Kind == KindFinished:
		return now.CompletionSeq != was.CompletionSeq
	case now.Kind == KindMail || now.Kind == KindOutbox:
		return now.Count > was.Count
	}
	return false
}

// Sync replaces what the mirror holds of host with a listing of the
// host's own Inbox (list-attention with host "local" there) and the
// listing's boot_id: every item is fresh again; items the listing no
// longer has close (resolved); the first MaxHostItems in list order are
// kept. An item keeps its mirror id, since and snooze across listings of
// one boot. Another boot_id is another start of that queue, whose ids
// may repeat: everything held of the old one closes first and what was
// dismissed here is forgotten.
func (m *Mirror) Sync(host, bootID string, items []Item) []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := m.rec(host)
	now := m.clock.Now().UnixNano()
	h.stale, h.seenAt = false, now
	var evs []Event
	if bootID != h.boot {
		if h.boot != "" {
			for _, id := range sortedIDs(h.items) {
				m.emit(&evs, OpClose, h.items[id], ReasonResolved)
				delete(h.items, id)
			}
			clear(h.dismissed)
		}
		h.boot = bootID
	}
	keep := map[string]bool{}
	var fresh []mirrored
	for _, in := range items {
		e, ok := fromFar(host, in)
		if !ok || keep[e.ID] {
			continue
		}
		keep[e.ID] = true
		if was, gone := h.dismissed[e.farID]; gone {
			if !reopens(&was, &e.Item) {
				continue
			}
			delete(h.dismissed, e.farID)
		}
		fresh = append(fresh, e)
	}
	for id := range h.dismissed {
		if !keep[HostID(host, id)] {
			delete(h.dismissed, id) // closed there: a new item there is new here
		}
	}
	sortMirrored(fresh)
	if len(fresh) > MaxHostItems {
		fresh = fresh[:MaxHostItems]
	}
	inList := map[string]bool{}
	for _, e := range fresh {
		inList[e.ID] = true
	}
	// Closes first, so the cap is never passed on the way.
	for _, id := range sortedIDs(h.items) {
		if !inList[id] {
			e := h.items[id]
			delete(h.items, id)
			m.emit(&evs, OpClose, e, ReasonResolved)
		}
	}
	for i := range fresh {
		m.put(&evs, h, fresh[i])
	}
	return evs
}

// Apply takes one attention event of host (op and the item after it, as
// the host's subscribe stream carries them). An item mirrored there, or
// with an id no daemon issues, is ignored. An open past MaxHostItems
// closes the host's item listed last (finished first, oldest first) as
// evicted.
func (m *Mirror) Apply(host string, op Op, in Item) []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := m.rec(host)
	h.seenAt = m.clock.Now().UnixNano()
	e, ok := fromFar(host, in)
	if !ok {
		return nil
	}
	var evs []Event
	if op == OpClose {
		delete(h.dismissed, e.farID)
		if cur := h.items[e.ID]; cur != nil {
			delete(h.items, e.ID)
			// The far reason, when it is one this side knows; a snooze
			// there leaves its listing, so here it is resolved (it
			// comes back as an open when it wakes there).
			r := in.Closed
			if r == ReasonSnoozed || !slices.Contains(Reasons(), r) {
				r = ReasonResolved
			}
			m.emit(&evs, OpClose, cur, r)
		}
		return evs
	}
	if was, gone := h.dismissed[e.farID]; gone {
		if !reopens(&was, &e.Item) {
			h.dismissed[e.farID] = e.Item
			return nil
		}
		delete(h.dismissed, e.farID)
	}
	m.put(&evs, h, e)
	return evs
}

// put opens or updates one mirrored item (fresh), evicting past the cap.
func (m *Mirror) put(evs *[]Event, h *hostRec, e mirrored) {
	cur := h.items[e.ID]
	switch {
	case cur == nil:
		n := &mirrored{Item: e.Item, farID: e.farID}
		h.items[n.ID] = n
		m.emit(evs, OpOpen, n, "")
		for len(h.items) > MaxHostItems {
			var victim *mirrored
			for _, o := range h.items {
				if o != n && (victim == nil || mirrorEvictBefore(o, victim)) {
					victim = o
				}
			}
			delete(h.items, victim.ID)
			m.emit(evs, OpClose, victim, ReasonEvicted)
		}
	case cur.Snoozed():
		snooze := cur.SnoozedUntil
		woke := wakes(&cur.Item, &e.Item)
		setMirrored(cur, e.Item)
		if woke {
			m.emit(evs, OpOpen, cur, "")
		} else {
			cur.SnoozedUntil = snooze
		}
	case !sameContent(&cur.Item, &e.Item) || cur.Since != e.Since:
		setMirrored(cur, e.Item)
		m.emit(evs, OpUpdate, cur, "")
	}
}

// setMirrored copies what a far item says over a mirrored one, keeping
// its seq; the since is the far one's. The item is fresh and awake.
func setMirrored(cur *mirrored, it Item) {
	it.Seq = cur.Seq
	cur.Item = it
}

func mirrorEvictBefore(a, b *mirrored) bool {
	if fa, fb := a.Kind == KindFinished, b.Kind == KindFinished; fa != fb {
		return fa
	}
	if a.Since != b.Since {
		return a.Since < b.Since
	}
	return a.ID < b.ID
}

// Heard notes that host answered just now (any line of its stream): it
// is what seen_at says once the link drops.
func (m *Mirror) Heard(host string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rec(host).seenAt = m.clock.Now().UnixNano()
}

// Down marks host's items stale (its link is down): each says stale and
// seen_at (the last time the host was heard), drops out of the counts,
// and raises no alert until a listing makes it fresh again. A host
// already down changes nothing.
func (m *Mirror) Down(host string) []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := m.hosts[host]
	if h == nil || h.stale {
		if h == nil {
			h = m.rec(host)
			h.stale = true
		}
		return nil
	}
	h.stale = true
	if h.seenAt == 0 {
		h.seenAt = m.clock.Now().UnixNano()
	}
	var evs []Event
	for _, id := range sortedIDs(h.items) {
		e := h.items[id]
		e.Stale, e.SeenAt = true, h.seenAt
		if !e.Snoozed() {
			m.emit(&evs, OpUpdate, e, "")
		}
	}
	return evs
}

// Remove forgets host (it left the hosts table): its items close
// (host_removed).
func (m *Mirror) Remove(host string) []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := m.hosts[host]
	if h == nil {
		return nil
	}
	delete(m.hosts, host)
	var evs []Event
	for _, id := range sortedIDs(h.items) {
		m.emit(&evs, OpClose, h.items[id], ReasonHostRemoved)
	}
	return evs
}

// Hosts says, per followed host in name order, whether its items are
// stale and how many are open.
func (m *Mirror) Hosts() []HostState {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]HostState, 0, len(m.hosts))
	for name, h := range m.hosts {
		st := HostState{Host: name, Stale: h.stale, Rev: h.rev}
		if h.stale {
			st.SeenAt = h.seenAt
		}
		for _, e := range h.items {
			if e.Snoozed() || h.stale {
				continue
			}
			st.Items++
			if e.Kind == KindMail {
				st.Mail += max(e.Count, 1)
			}
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b HostState) int { return strings.Compare(a.Host, b.Host) })
	return out
}

// Known reports whether host is followed (has been synced, applied to or
// marked down, and not removed).
func (m *Mirror) Known(host string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hosts[host] != nil
}

// List returns the mirrored items opt picks, of host only when host is
// not "", in list order (snoozed ones after when asked), and the counts
// of that host's (or every host's) open fresh items per kind. Stale items
// are listed but not counted.
func (m *Mirror) List(host string, opt ListOptions) (items []Item, counts map[Kind]int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	counts = map[Kind]int{}
	var picked []mirrored
	for name, h := range m.hosts {
		if host != "" && name != host {
			continue
		}
		for _, e := range h.items {
			if !e.Snoozed() && !e.Stale {
				counts[e.Kind]++
			}
			if e.Snoozed() && !opt.IncludeSnoozed {
				continue
			}
			if opt.Session != "" && e.Session != opt.Session || len(opt.Kinds) > 0 && !slices.Contains(opt.Kinds, e.Kind) {
				continue
			}
			if opt.Filter != nil && !opt.Filter(e.Item) {
				continue
			}
			picked = append(picked, *e)
		}
	}
	sortMirrored(picked)
	items = make([]Item, len(picked))
	for i, e := range picked {
		items[i] = e.Item
	}
	return items, counts
}

// Merge puts local and mirrored items (each in list order) into one list
// in list order: grouped, open before snoozed, oldest first, ties broken
// local first, then by host and id.
func Merge(local, mirrored []Item) []Item {
	out := make([]Item, 0, len(local)+len(mirrored))
	i, j := 0, 0
	for i < len(local) && j < len(mirrored) {
		if cmpListed(&mirrored[j], &local[i]) < 0 {
			out = append(out, mirrored[j])
			j++
		} else {
			out = append(out, local[i])
			i++
		}
	}
	out = append(out, local[i:]...)
	return append(out, mirrored[j:]...)
}

// cmpListed orders two items as the list does; local before mirrored on
// a tie.
func cmpListed(a, b *Item) int {
	ra, rb := a.Kind.groupRank(), b.Kind.groupRank()
	if a.Snoozed() {
		ra += len(groups)
	}
	if b.Snoozed() {
		rb += len(groups)
	}
	switch {
	case ra != rb:
		return ra - rb
	case a.Since != b.Since:
		if a.Since < b.Since {
			return -1
		}
		return 1
	case (a.Host == "") != (b.Host == ""):
		if a.Host == "" {
			return -1
		}
		return 1
	case a.Host != b.Host:
		return strings.Compare(a.Host, b.Host)
	}
	return cmpIDs(a.ID, b.ID)
}

// cmpIDs orders ids numerically where they are numbers ("host:9" before
// "host:10").
func cmpIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func sortMirrored(es []mirrored) {
	slices.SortFunc(es, func(a, b mirrored) int { return cmpListed(&a.Item, &b.Item) })
}

func sortedIDs(m map[string]*mirrored) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, cmpIDs)
	return ids
}

// find returns the mirrored item with id and its host.
func (m *Mirror) find(id string) (*hostRec, *mirrored) {
	host, _, ok := SplitHostID(id)
	if !ok {
		return nil, nil
	}
	h := m.hosts[host]
	if h == nil {
		return nil, nil
	}
	return h, h.items[id]
}

// Get returns the mirrored item with id, open, stale or snoozed.
func (m *Mirror) Get(id string) (Item, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, e := m.find(id); e != nil {
		return e.Item, true
	}
	return Item{}, false
}

func (m *Mirror) unknown(id string) *Error {
	for i := len(m.undo) - 1; i >= 0; i-- {
		if u := m.undo[i]; u.op == undoDismiss && u.was.ID == id {
			return invalid(WhyDismissed, "id", "a dismiss can be undone for 10 seconds (Undo)",
				fmt.Sprintf("item %s was dismissed already", id))
		}
	}
	return invalid(WhyUnknownID, "id", "list the items, snoozed ones included, for their ids", fmt.Sprintf("no item has the id %q", id))
}

func (m *Mirror) pushUndo(u mirrorUndo) {
	if len(m.undo) == UndoDepth {
		m.undo = slices.Delete(m.undo, 0, 1)
	}
	m.undo = append(m.undo, u)
}

// Dismiss takes a mirrored item off this machine's list (dismissed). It
// stays on its host: nothing is marked seen or read there, no hold there
// ends. It stays off here while the host's item says the same thing (a
// new finished turn, more mail or another kind brings it back). Refusals
// are Dismiss's.
func (m *Mirror) Dismiss(id string) (Dismissed, []Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, e := m.find(id)
	if e == nil {
		return Dismissed{}, nil, m.unknown(id)
	}
	if len(h.dismissed) < maxHostDismissed {
		h.dismissed[e.farID] = e.Item
	}
	delete(h.items, id)
	m.pushUndo(mirrorUndo{op: undoDismiss, at: m.clock.Now(), was: *e})
	var evs []Event
	m.emit(&evs, OpClose, e, ReasonDismissed)
	return Dismissed{ID: e.ID, Kind: e.Kind, Session: e.Session, Host: e.Host}, evs, nil
}

// Snooze puts a mirrored item to sleep here only, as Queue.Snooze does
// for a local one (the same refusals): it wakes when its time comes
// (Tick), when the host's item says something new, or on Wake.
func (m *Mirror) Snooze(id string, s Snooze) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, e := m.find(id)
	if e == nil {
		return nil, m.unknown(id)
	}
	if !e.Snoozable() {
		return nil, invalid(WhyNotSnoozable, "id", "an agent or the mail waits on it: answer it on its host or dismiss it",
			fmt.Sprintf("%s items cannot be snoozed", e.Kind))
	}
	until, err := snoozeUntil(m.clock.Now(), s)
	if err != nil {
		return nil, err
	}
	m.pushUndo(mirrorUndo{op: undoSnooze, at: m.clock.Now(), was: *e})
	e.SnoozedUntil = until
	var evs []Event
	m.emit(&evs, OpClose, e, ReasonSnoozed)
	return evs, nil
}

// Wake brings a snoozed mirrored item back now.
func (m *Mirror) Wake(id string) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, e := m.find(id)
	if e == nil {
		return nil, m.unknown(id)
	}
	if !e.Snoozed() {
		return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is not snoozed", id))
	}
	var evs []Event
	e.SnoozedUntil = 0
	m.emit(&evs, OpOpen, e, "")
	return evs, nil
}

// Restore wakes a snoozed mirrored item, or brings back one dismissed in
// the last UndoWindow if its host still has it.
func (m *Mirror) Restore(id string) ([]Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, e := m.find(id); e != nil {
		if !e.Snoozed() {
			return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is open", id))
		}
		var evs []Event
		e.SnoozedUntil = 0
		m.emit(&evs, OpOpen, e, "")
		return evs, nil
	}
	u, err := takeDismissed(&m.undo, id, m.clock.Now(), func(u mirrorUndo) (undoOp, string, time.Time) { return u.op, u.was.ID, u.at })
	if err != nil {
		return nil, err
	}
	return m.restore(u)
}

// restore undoes one entry. A dismissed item comes back as its host last
// said it, if the host still has it.
func (m *Mirror) restore(u mirrorUndo) ([]Event, error) {
	h, e := m.find(u.was.ID)
	var evs []Event
	if u.op == undoSnooze {
		if e == nil {
			return nil, invalid(WhyFactEnded, "id", "", fmt.Sprintf("item %s is gone: what it was about ended", u.was.ID))
		}
		if !e.Snoozed() {
			return nil, invalid(WhyNotSnoozed, "id", "", fmt.Sprintf("item %s is awake already", u.was.ID))
		}
		e.SnoozedUntil = 0
		m.emit(&evs, OpOpen, e, "")
		return evs, nil
	}
	if h == nil {
		return nil, invalid(WhyFactEnded, "id", "", fmt.Sprintf("item %s is about something that has ended", u.was.ID))
	}
	last, ok := h.dismissed[u.was.farID]
	if !ok {
		return nil, invalid(WhyFactEnded, "id", "", fmt.Sprintf("item %s is about something that has ended", u.was.ID))
	}
	delete(h.dismissed, u.was.farID)
	n := &mirrored{Item: last, farID: u.was.farID}
	n.Stale, n.SeenAt, n.SnoozedUntil, n.Closed = h.stale, 0, 0, ""
	if h.stale {
		n.SeenAt = h.seenAt
	}
	h.items[n.ID] = n
	m.emit(&evs, OpOpen, n, "")
	return evs, nil
}

// NextWake is the earliest time a timed snooze of a mirrored item ends;
// the zero time when none.
func (m *Mirror) NextWake() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	var next int64
	for _, h := range m.hosts {
		for _, e := range h.items {
			next = soonerWake(next, e.SnoozedUntil)
		}
	}
	return wakeTime(next)
}

// Tick wakes every mirrored item whose snooze ended at or before now.
func (m *Mirror) Tick(now time.Time) []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	var evs []Event
	for _, host := range m.hostNames() {
		h := m.hosts[host]
		for _, id := range sortedIDs(h.items) {
			if e := h.items[id]; e.SnoozedUntil > 0 && e.SnoozedUntil <= now.UnixNano() {
				e.SnoozedUntil = 0
				m.emit(&evs, OpOpen, e, "")
			}
		}
	}
	return evs
}

func (m *Mirror) hostNames() []string {
	names := make([]string, 0, len(m.hosts))
	for n := range m.hosts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// lastUndo is when the newest undoable act here was made (zero: none).
func (m *Mirror) lastUndo() time.Time {
	if len(m.undo) == 0 {
		return time.Time{}
	}
	return m.undo[len(m.undo)-1].at
}

// lastUndo is when the queue's newest undoable act was made.
func (q *Queue) lastUndo() time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.undo) == 0 {
		return time.Time{}
	}
	return q.undo[len(q.undo)-1].at
}

// Undo undoes the newest dismiss or snooze, local or mirrored: u in the
// Inbox undoes what the person did last, whichever list it was on.
func (m *Mirror) Undo() ([]Event, error) {
	m.mu.Lock()
	mine := m.lastUndo()
	m.mu.Unlock()
	if mine.IsZero() || m.q.lastUndo().After(mine) {
		return m.q.Undo()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.undo[len(m.undo)-1]
	m.undo = m.undo[:len(m.undo)-1]
	if m.clock.Now().Sub(u.at) > UndoWindow {
		m.undo = m.undo[:0]
		return nil, invalid(WhyTooLate, "", "undo works for 10 seconds", "the last dismiss or snooze is more than 10 seconds old")
	}
	return m.restore(u)
}
