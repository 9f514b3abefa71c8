package inbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/safetext"
)

// Persistence of the queue across a daemon restart.
const (
	// SaveVersion is the version Marshal writes and Unmarshal reads.
	SaveVersion = 1
	// MaxSaveBytes bounds what Unmarshal reads.
	MaxSaveBytes = 8 << 20
	// IDGap is how far ids jump after a restart: the file is saved
	// debounced, so ids issued after its last save must not come back.
	IDGap         = 4096
	maxFieldBytes = 512
)

type savedQueue struct {
	Version int         `json:"version"`
	Seq     uint64      `json:"seq"`
	NextID  uint64      `json:"next_id"`
	Items   []savedItem `json:"items"`
}

type savedItem struct {
	ID            string `json:"id"`
	Kind          Kind   `json:"kind"`
	Session       string `json:"session"`
	Window        string `json:"window"`
	Workspace     string `json:"workspace,omitempty"`
	Harness       string `json:"harness,omitempty"`
	Name          string `json:"name,omitempty"`
	Summary       string `json:"summary"`
	Since         int64  `json:"since"`
	Seq           uint64 `json:"seq"`
	CompletionSeq uint64 `json:"completion_seq,omitempty"`
	SnoozedUntil  int64  `json:"snoozed_until,omitempty"`
	MarkedUnread  bool   `json:"marked_unread,omitempty"`
}

// Marshal encodes what survives a restart: the seq, the id counter, and
// the finished and errored items, open or snoozed (with their wake time).
// Approvals, plans, questions and asks are not kept (the prompt dies with
// the daemon), nor mail (the rings die and ids restart), resume items
// (the restore reopens them), outbox items (the daemon rebuilds them from
// the outbox file) or the undo history. The embedder writes the bytes
// atomically (mode 0600); the queue touches no file.
func (q *Queue) Marshal() ([]byte, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := savedQueue{Version: SaveVersion, Seq: q.seq, NextID: q.nextID, Items: []savedItem{}}
	var keep []*entry
	for _, e := range q.byID {
		if e.Kind == KindFinished || e.Kind == KindErrored {
			keep = append(keep, e)
		}
	}
	slices.SortFunc(keep, func(a, b *entry) int { return cmpU64(a.num, b.num) })
	for _, e := range keep {
		s.Items = append(s.Items, savedItem{ID: e.ID, Kind: e.Kind, Session: e.Session, Window: e.Window,
			Workspace: e.Workspace, Harness: e.Harness, Name: e.Name, Summary: e.Summary, Since: e.Since, Seq: e.Seq,
			CompletionSeq: e.CompletionSeq, SnoozedUntil: e.SnoozedUntil, MarkedUnread: e.MarkedUnread})
	}
	return json.Marshal(s)
}

func corrupt(format string, args ...any) *Error {
	return refuse(CodeCorrupt, WhyCorrupt, "", "move the file aside; the Inbox starts empty without it",
		"saved queue: "+fmt.Sprintf(format, args...))
}

// Unmarshal loads what Marshal wrote into a queue that has not been used
// yet. keep says which panes came back after the restart (nil keeps all):
// items of any other pane are dropped. Seq and ids continue upward (ids
// IDGap past the saved counter); a snooze whose time has passed wakes
// now. Input that is not what Marshal writes (bad JSON, unknown fields, a
// kind that is not kept, two items for one key, an id or seq out of
// order, text the Inbox would not show) is refused with CodeCorrupt, a
// version newer than SaveVersion with WhyNewerVersion; a refusal loads
// nothing.
func (q *Queue) Unmarshal(data []byte, keep func(session, window string) bool) error {
	s, err := decodeSaved(data)
	if err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seq != 0 || q.nextID != 0 || len(q.byID) != 0 || len(q.panes) != 0 {
		return invalid(WhyNotFresh, "", "load the saved queue before any input", "the queue is in use already")
	}
	now := q.clock.Now().UnixNano()
	q.seq, q.nextID = s.Seq, s.NextID+IDGap
	var woke []*entry
	for _, it := range s.Items {
		if keep != nil && !keep(it.Session, it.Window) {
			continue
		}
		n, _ := strconv.ParseUint(it.ID, 10, 64)
		e := &entry{num: n, restored: true, Item: Item{ID: it.ID, Kind: it.Kind, Session: it.Session, Window: it.Window,
			Workspace: it.Workspace, Harness: it.Harness, Name: it.Name, Summary: it.Summary, Since: it.Since, Seq: it.Seq,
			CompletionSeq: it.CompletionSeq, SnoozedUntil: it.SnoozedUntil, MarkedUnread: it.MarkedUnread}}
		e.key = e.Item.Key()
		q.insert(e)
		if e.SnoozedUntil > 0 && e.SnoozedUntil <= now {
			woke = append(woke, e)
		}
	}
	var evs []Event
	for _, e := range woke {
		q.wake(&evs, e)
	}
	return nil
}

// decodeSaved reads and checks saved state without touching a queue.
func decodeSaved(data []byte) (*savedQueue, error) {
	if len(data) > MaxSaveBytes {
		return nil, corrupt("%d bytes, over %d", len(data), MaxSaveBytes)
	}
	var probe struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, corrupt("not JSON: %v", err)
	}
	if probe.Version == nil {
		return nil, corrupt("no version")
	}
	if *probe.Version > SaveVersion {
		e := corrupt("version %d is newer than this build reads (%d)", *probe.Version, SaveVersion)
		e.Why = WhyNewerVersion
		e.hint = "run the newer tuios, or move the file aside"
		return nil, e
	}
	if *probe.Version != SaveVersion {
		return nil, corrupt("unknown version %d", *probe.Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s savedQueue
	if err := dec.Decode(&s); err != nil {
		return nil, corrupt("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, corrupt("data after the end")
	}
	if s.NextID > 1<<62 || s.Seq > 1<<62 {
		return nil, corrupt("counters out of range")
	}
	if len(s.Items) > MaxOpen+MaxSnoozed {
		return nil, corrupt("%d items, over %d", len(s.Items), MaxOpen+MaxSnoozed)
	}
	ids := make(map[string]bool, len(s.Items))
	keys := make(map[Key]bool, len(s.Items))
	open, asleep := 0, 0
	var last uint64
	for i, it := range s.Items {
		n, err := strconv.ParseUint(it.ID, 10, 64)
		switch {
		case err != nil || n == 0 || strconv.FormatUint(n, 10) != it.ID:
			return nil, corrupt("item %d: id %q is not a number", i, it.ID)
		case n > s.NextID:
			return nil, corrupt("item %d: id %s was never issued (next_id %d)", i, it.ID, s.NextID)
		case n <= last:
			return nil, corrupt("item %d: ids out of order", i)
		case it.Kind != KindFinished && it.Kind != KindErrored:
			return nil, corrupt("item %d: a %q item is not kept across a restart", i, it.Kind)
		case it.Seq == 0 || it.Seq > s.Seq:
			return nil, corrupt("item %d: seq %d outside 1..%d", i, it.Seq, s.Seq)
		case it.Since <= 0:
			return nil, corrupt("item %d: no since", i)
		case it.SnoozedUntil < UntilChange:
			return nil, corrupt("item %d: snoozed_until %d", i, it.SnoozedUntil)
		case it.Session == "" || it.Window == "":
			return nil, corrupt("item %d: no session or window", i)
		case ids[it.ID]:
			return nil, corrupt("item %d: id %s twice", i, it.ID)
		}
		for _, f := range [...]string{it.Session, it.Window, it.Workspace, it.Harness, it.Name} {
			if len(f) > maxFieldBytes || !utf8.ValidString(f) || safetext.OneLine(f) != f {
				return nil, corrupt("item %d: a name the Inbox would not show", i)
			}
		}
		if CleanSummary(it.Summary) != it.Summary {
			return nil, corrupt("item %d: a summary the Inbox would not show", i)
		}
		last = n
		ids[it.ID] = true
		x := Item{Kind: it.Kind, Window: it.Window}
		if keys[x.Key()] {
			return nil, corrupt("item %d: two %s items for pane %s", i, it.Kind, it.Window)
		}
		keys[x.Key()] = true
		if it.SnoozedUntil != 0 {
			asleep++
		} else {
			open++
		}
	}
	if open > MaxOpen || asleep > MaxSnoozed {
		return nil, corrupt("%d open and %d snoozed items, over %d each", open, asleep, MaxOpen)
	}
	return &s, nil
}
