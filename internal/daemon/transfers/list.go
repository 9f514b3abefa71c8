package transfers

import (
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

const (
	// MaxKept bounds the list: a new copy first drops the oldest finished
	// one, and is refused when every kept copy is unfinished.
	MaxKept = 256
	// maxEntries bounds the files and folders one recursive copy walks,
	// so a copy of / is refused before it starts.
	maxEntries = 100000
	// chunkSize is what the loop copies between two looks at its state.
	chunkSize = 1 << 20
)

// A copy's states, as proto.Transfer's State has them.
const (
	StateRunning   = "running"
	StatePaused    = "paused"
	StateDone      = "done"
	StateFailed    = "failed"
	StateCancelled = "cancelled"
)

// Finished says whether a copy in state has ended.
func Finished(state string) bool {
	return state == StateDone || state == StateFailed || state == StateCancelled
}

// transfer is one copy in the list.
type transfer struct {
	info proto.Transfer // all but Bytes, under copies.mu
	done atomic.Int64
	// wake is signalled on pause, resume and cancel, so a paused or
	// throttled loop looks at its state again at once.
	wake chan struct{}
}

// copies is the list of copies the daemon runs. Its lock is a leaf: it guards the
// list and every copy's state, and no I/O runs under it; bytes copied
// are an atomic, so the copy loop takes the lock only to look at its
// state between chunks.
type copies struct {
	mu   sync.Mutex
	list []*transfer
	next uint64
	// changed is closed and replaced when any copy ends, for waits.
	changed chan struct{}
	// running counts the copy goroutines, for Shutdown.
	running sync.WaitGroup
}

func newCopies() *copies { return &copies{changed: make(chan struct{})} }

// plan is a copy checked and ready: resolved ends and what to walk.
type plan struct {
	src, dst  string // absolute; dst is the final path (inside an existing folder already joined)
	recursive bool
	bwlimit   int64
	startedBy string
	// within, when set, is the folder every file opened must stay in
	// (checked again on the open file, against a swap after the check).
	within string
}

var (
	errFull      = errors.New("transfers full")
	errCancelled = errors.New("cancelled")
)

// start adds a copy and runs it until it ends or stop closes. It fails
// only when the list is full of unfinished copies.
func (t *copies) start(p plan, stop <-chan struct{}) (proto.Transfer, error) {
	t.mu.Lock()
	if len(t.list) >= MaxKept {
		for i, x := range t.list {
			if Finished(x.info.State) {
				t.list = append(t.list[:i], t.list[i+1:]...)
				break
			}
		}
	}
	if len(t.list) >= MaxKept {
		t.mu.Unlock()
		return proto.Transfer{}, errFull
	}
	t.next++
	x := &transfer{wake: make(chan struct{}, 1), info: proto.Transfer{ID: "t" + strconv.FormatUint(t.next, 10), Src: p.src, Dst: p.dst,
		Recursive: p.recursive, State: StateRunning, BWLimit: p.bwlimit, StartedBy: p.startedBy, Started: time.Now().UnixMilli()}}
	t.list = append(t.list, x)
	info := x.info
	t.running.Add(1)
	t.mu.Unlock()
	go t.run(x, p, stop)
	return info, nil
}

// run does the copy and records how it ended.
func (t *copies) run(x *transfer, p plan, stop <-chan struct{}) {
	defer t.running.Done()
	c := &copier{t: t, x: x, p: p, stop: stop, begin: time.Now()}
	err := c.copy()
	t.mu.Lock()
	x.info.Ended = time.Now().UnixMilli()
	switch {
	case err == nil:
		x.info.State = StateDone
	case errors.Is(err, errCancelled):
		x.info.State = StateCancelled
	default:
		x.info.State, x.info.Error = StateFailed, err.Error()
	}
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
}

// snapshotLocked is the copy's info as of now. Called with t.mu held.
func (x *transfer) snapshotLocked() proto.Transfer {
	in := x.info
	in.Bytes = x.done.Load()
	return in
}

// visible is every copy the caller may see: all for the person and an
// admin pane (mine == ""), else the ones pane mine started.
func (t *copies) visible(mine string) []proto.Transfer {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []proto.Transfer{}
	for _, x := range t.list {
		if mine == "" || x.info.StartedBy == mine {
			out = append(out, x.snapshotLocked())
		}
	}
	return out
}

// pickLocked finds the named copies among those the caller sees; a name
// it does not see is reported as missing, as if absent. No names: every
// visible one. Called with t.mu held.
func (t *copies) pickLocked(ids []string, mine string) (got []*transfer, missing string) {
	for _, id := range ids {
		var hit *transfer
		for _, x := range t.list {
			if x.info.ID == id && (mine == "" || x.info.StartedBy == mine) {
				hit = x
			}
		}
		if hit == nil {
			return nil, id
		}
		got = append(got, hit)
	}
	if len(ids) == 0 {
		for _, x := range t.list {
			if mine == "" || x.info.StartedBy == mine {
				got = append(got, x)
			}
		}
	}
	return got, ""
}

// control pauses, resumes or cancels: a finished copy is left as it is.
// It returns the copies after the change.
func (t *copies) control(ids []string, mine, action string) ([]proto.Transfer, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	got, missing := t.pickLocked(ids, mine)
	if missing != "" {
		return nil, missing
	}
	out := []proto.Transfer{}
	for _, x := range got {
		if !Finished(x.info.State) {
			switch action {
			case "pause":
				x.info.State = StatePaused
			case "resume":
				x.info.State = StateRunning
			case "cancel":
				x.info.State = StateCancelled // the loop sees it and stops; run records the end
			}
			select {
			case x.wake <- struct{}{}:
			default:
			}
		}
		out = append(out, x.snapshotLocked())
	}
	return out, ""
}

// clear drops finished copies (the named ones, or every visible one).
func (t *copies) clear(ids []string, mine string) (int, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	got, missing := t.pickLocked(ids, mine)
	if missing != "" {
		return 0, missing
	}
	drop := map[*transfer]bool{}
	for _, x := range got {
		if Finished(x.info.State) && x.info.Ended != 0 {
			drop[x] = true
		}
	}
	keep := t.list[:0]
	for _, x := range t.list {
		if !drop[x] {
			keep = append(keep, x)
		}
	}
	clear(t.list[len(keep):])
	t.list = keep
	return len(drop), ""
}

// wait blocks until every named copy has ended, or done closes.
func (t *copies) wait(ids []string, mine string, done <-chan struct{}) ([]proto.Transfer, string, bool) {
	for {
		t.mu.Lock()
		got, missing := t.pickLocked(ids, mine)
		if missing != "" {
			t.mu.Unlock()
			return nil, missing, false
		}
		all := true
		out := make([]proto.Transfer, 0, len(got))
		for _, x := range got {
			all = all && x.info.Ended != 0
			out = append(out, x.snapshotLocked())
		}
		ch := t.changed
		t.mu.Unlock()
		if all {
			return out, "", true
		}
		select {
		case <-ch:
		case <-done:
			return out, "", false
		}
	}
}
