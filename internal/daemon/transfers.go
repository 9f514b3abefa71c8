package daemon

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// The transfers (tuios cp, tuios transfers): copies the daemon runs for
// its callers, so a copy keeps going after the CLI that started it
// returns. Each is one goroutine doing the I/O; the list is bounded
// (maxTransfersKept) and lives as long as the daemon.
//
// Locking: transfers.mu is a leaf. It guards the list and every
// transfer's state; no I/O runs under it. Bytes copied are an atomic, so
// the copy loop takes the lock only to look at its state between chunks.

const (
	// maxTransfersKept bounds the list: a new copy first drops the oldest
	// finished one, and is refused when every kept copy is unfinished.
	maxTransfersKept = 256
	// maxCopyEntries bounds the files and folders one recursive copy
	// walks, so a copy of / is refused before it starts.
	maxCopyEntries = 100000
	// copyChunk is what the loop copies between two looks at its state.
	copyChunk = 1 << 20
)

// Transfer states.
const (
	xferRunning   = "running"
	xferPaused    = "paused"
	xferDone      = "done"
	xferFailed    = "failed"
	xferCancelled = "cancelled"
)

func xferFinished(state string) bool {
	return state == xferDone || state == xferFailed || state == xferCancelled
}

// transferInfo is one transfer as list-transfers gives it.
// transferInfo is a copy as the wire shows it.
type transferInfo = proto.Transfer

type transfer struct {
	info transferInfo // all but Bytes, under transfers.mu
	done atomic.Int64
	// wake is signalled on pause, resume and cancel, so a paused or
	// throttled loop looks at its state again at once.
	wake chan struct{}
}

type transfers struct {
	mu   sync.Mutex
	list []*transfer
	next uint64
	// changed is closed and replaced when any transfer ends, for waits.
	changed chan struct{}
}

func newTransfers() *transfers { return &transfers{changed: make(chan struct{})} }

// copyPlan is a copy checked and ready: resolved ends and what to walk.
type copyPlan struct {
	src, dst  string // absolute; dst is the final path (inside an existing folder already joined)
	recursive bool
	bwlimit   int64
	startedBy string
	// within, when set, is the folder every file opened must stay in
	// (checked again on the open file, against a swap after the check).
	within string
}

// start adds a transfer and runs it. It fails only when the list is full
// of unfinished copies.
func (t *transfers) start(p copyPlan, stop <-chan struct{}) (transferInfo, error) {
	t.mu.Lock()
	if len(t.list) >= maxTransfersKept {
		for i, x := range t.list {
			if xferFinished(x.info.State) {
				t.list = append(t.list[:i], t.list[i+1:]...)
				break
			}
		}
	}
	if len(t.list) >= maxTransfersKept {
		t.mu.Unlock()
		return transferInfo{}, errTransfersFull
	}
	t.next++
	x := &transfer{wake: make(chan struct{}, 1), info: transferInfo{ID: "t" + strconv.FormatUint(t.next, 10), Src: p.src, Dst: p.dst,
		Recursive: p.recursive, State: xferRunning, BWLimit: p.bwlimit, StartedBy: p.startedBy, Started: time.Now().UnixMilli()}}
	t.list = append(t.list, x)
	info := x.info
	t.mu.Unlock()
	go t.run(x, p, stop)
	return info, nil
}

var errTransfersFull = errors.New("transfers full")
var errCancelled = errors.New("cancelled")

// run does the copy and records how it ended.
func (t *transfers) run(x *transfer, p copyPlan, stop <-chan struct{}) {
	c := &copier{t: t, x: x, p: p, stop: stop, begin: time.Now()}
	err := c.copy()
	t.mu.Lock()
	x.info.Ended = time.Now().UnixMilli()
	switch {
	case err == nil:
		x.info.State = xferDone
	case errors.Is(err, errCancelled):
		x.info.State = xferCancelled
	default:
		x.info.State, x.info.Error = xferFailed, err.Error()
	}
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
}

// snapshot is the transfer's info as of now. Called with t.mu held.
func (x *transfer) snapshotLocked() transferInfo {
	in := x.info
	in.Bytes = x.done.Load()
	return in
}

// visible is every transfer the caller may see: all for the person and
// an admin pane (mine == ""), else the ones pane mine started.
func (t *transfers) visible(mine string) []transferInfo {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []transferInfo{}
	for _, x := range t.list {
		if mine == "" || x.info.StartedBy == mine {
			out = append(out, x.snapshotLocked())
		}
	}
	return out
}

// pick finds the named transfers among those the caller sees; a name it
// does not see is reported as missing, as if absent. No names: every
// visible one. Called with t.mu held.
func (t *transfers) pickLocked(ids []string, mine string) (got []*transfer, missing string) {
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

// control pauses, resumes or cancels: a finished transfer is left as it
// is. It returns the transfers after the change.
func (t *transfers) control(ids []string, mine, action string) ([]transferInfo, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	got, missing := t.pickLocked(ids, mine)
	if missing != "" {
		return nil, missing
	}
	out := []transferInfo{}
	for _, x := range got {
		if !xferFinished(x.info.State) {
			switch action {
			case "pause":
				x.info.State = xferPaused
			case "resume":
				x.info.State = xferRunning
			case "cancel":
				x.info.State = xferCancelled // the loop sees it and stops; run records the end
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

// clear drops finished transfers (the named ones, or every visible one).
func (t *transfers) clear(ids []string, mine string) (int, string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	got, missing := t.pickLocked(ids, mine)
	if missing != "" {
		return 0, missing
	}
	drop := map[*transfer]bool{}
	for _, x := range got {
		if xferFinished(x.info.State) && x.info.Ended != 0 {
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

// wait blocks until every named transfer has ended, or done closes.
func (t *transfers) wait(ids []string, mine string, done <-chan struct{}) ([]transferInfo, string, bool) {
	for {
		t.mu.Lock()
		got, missing := t.pickLocked(ids, mine)
		if missing != "" {
			t.mu.Unlock()
			return nil, missing, false
		}
		all := true
		out := make([]transferInfo, 0, len(got))
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

// copier runs one transfer.
type copier struct {
	t     *transfers
	x     *transfer
	p     copyPlan
	stop  <-chan struct{}
	begin time.Time
	// paused is how long the copy stood paused, left out of the rate.
	paused time.Duration
}

// copyEntry is one thing a copy makes at the destination.
type copyEntry struct {
	rel  string // relative to the source root ("" for the root)
	mode fs.FileMode
	size int64
}

func (c *copier) copy() error {
	entries, total, err := c.walk()
	if err != nil {
		return err
	}
	c.t.mu.Lock()
	c.x.info.Total, c.x.info.Files = total, 0
	c.t.mu.Unlock()
	for _, e := range entries {
		dst := filepath.Join(c.p.dst, e.rel)
		src := filepath.Join(c.p.src, e.rel)
		switch {
		case e.mode.IsDir():
			if fi, err := os.Lstat(dst); err == nil {
				if !fi.IsDir() { // a symlink here would carry the copy out of its folder
					return fmt.Errorf("%s exists and is not a folder", dst)
				}
			} else if err := os.Mkdir(dst, 0o755); err != nil {
				return err
			}
		case e.mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			os.Remove(dst)
			if err := os.Symlink(target, dst); err != nil {
				return err
			}
		default:
			if err := c.file(src, dst, e.mode); err != nil {
				return err
			}
			c.t.mu.Lock()
			c.x.info.Files++
			c.t.mu.Unlock()
		}
	}
	return nil
}

// walk lists what to copy: the source file, or with recursive its tree
// (symlinks inside are copied as links, never followed; devices, fifos and
// sockets are left out).
func (c *copier) walk() ([]copyEntry, int64, error) {
	fi, err := os.Stat(c.p.src)
	if err != nil {
		return nil, 0, err
	}
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return nil, 0, fmt.Errorf("%s is not a regular file", c.p.src)
		}
		return []copyEntry{{mode: fi.Mode(), size: fi.Size()}}, fi.Size(), nil
	}
	var out []copyEntry
	var total int64
	err = filepath.WalkDir(c.p.src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if len(out) >= maxCopyEntries {
			return fmt.Errorf("%s holds more than %d files and folders, more than one copy takes", c.p.src, maxCopyEntries)
		}
		rel, _ := filepath.Rel(c.p.src, path)
		if rel == "." {
			rel = ""
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		m := info.Mode()
		if m.IsDir() || m.IsRegular() || m&fs.ModeSymlink != 0 {
			out = append(out, copyEntry{rel: rel, mode: m, size: info.Size()})
			if m.IsRegular() {
				total += info.Size()
			}
		}
		return nil
	})
	return out, total, err
}

// file copies one file through a temporary file beside dst, renamed over
// it once whole: a failed or cancelled copy leaves no half file.
func (c *copier) file(src, dst string, mode fs.FileMode) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := c.stillWithin(in, src); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tuios-cp-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := c.stillWithin(tmp, dst); err != nil {
		return err
	}
	chunk := c.chunk()
	for {
		if err := c.gate(); err != nil {
			return err
		}
		// io.CopyN between two files lets the kernel copy
		// (copy_file_range on Linux), a chunk at a time.
		n, err := io.CopyN(tmp, in, chunk)
		c.x.done.Add(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if err := tmp.Chmod(mode.Perm()); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return err
	}
	ok = true
	return nil
}

// stillWithin checks an open file's real path against the folder the
// copy must stay in, so a folder swapped for a symlink after the check
// cannot carry it out. Where /proc cannot name the file (not Linux) the
// check before the copy is what holds.
func (c *copier) stillWithin(f *os.File, name string) error {
	if c.p.within == "" {
		return nil
	}
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil
	}
	if !inside(real, c.p.within) {
		return fmt.Errorf("%s resolves to %s, outside %s", name, real, c.p.within)
	}
	return nil
}

// chunk is what is copied between two looks at the state: a quarter
// second's worth under a low bwlimit, so the rate is smooth.
func (c *copier) chunk() int64 {
	if c.p.bwlimit > 0 && c.p.bwlimit < copyChunk*4 {
		return max(c.p.bwlimit/4, 512)
	}
	return copyChunk
}

// gate runs between chunks: it stops a cancelled copy, holds a paused
// one, and holds a throttled one until its rate allows the next chunk.
func (c *copier) gate() error {
	for {
		c.t.mu.Lock()
		state := c.x.info.State
		c.t.mu.Unlock()
		var wait <-chan time.Time
		switch state {
		case xferCancelled:
			return errCancelled
		case xferPaused:
			// wait for a wake
		default:
			if c.p.bwlimit <= 0 {
				return nil
			}
			due := time.Duration(float64(c.x.done.Load()) / float64(c.p.bwlimit) * float64(time.Second))
			ahead := due - (time.Since(c.begin) - c.paused)
			if ahead <= 0 {
				return nil
			}
			tm := time.NewTimer(ahead)
			defer tm.Stop()
			wait = tm.C
		}
		at := time.Now()
		select {
		case <-c.x.wake:
			if state == xferPaused {
				c.paused += time.Since(at)
			}
		case <-wait:
			return nil
		case <-c.stop:
			return errors.New("the daemon stopped")
		}
	}
}

// inside reports whether path is folder or under it (both clean and
// absolute).
func inside(path, folder string) bool {
	if folder == "/" {
		return filepath.IsAbs(path)
	}
	return path == folder || len(path) > len(folder) && path[:len(folder)] == folder && path[len(folder)] == filepath.Separator
}
