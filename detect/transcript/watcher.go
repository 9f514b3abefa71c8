package transcript

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// Debounce is how long a watch waits after an event before it calls back,
// so a burst of appends becomes one read.
const Debounce = 150 * time.Millisecond

// ErrClosed is returned by Watch after Close (and by a nil Watcher): an
// *Error with CodeClosed. Compare with errors.Is.
var ErrClosed error = &Error{code: CodeClosed}

// WatcherOptions configure a Watcher.
type WatcherOptions struct {
	// Clock arms the debounce timers. Nil is the real clock.
	Clock agentstate.Clock
	// Debounce overrides the 150 ms burst window (tests).
	Debounce time.Duration
}

// Watcher calls back when watched files change. One Watcher serves the
// whole process: it holds one inotify descriptor and one goroutine, and
// watches directories, not files, reference counted, so the tenth pane in
// a project adds nothing and a watch survives the file being replaced.
//
// A nil *Watcher is valid and watches nothing: Watch returns an error and
// the caller falls back to reading on the pane's output.
type Watcher struct {
	opt WatcherOptions

	mu     sync.Mutex
	dirs   map[string]*dirWatch // by directory
	files  map[string][]*watch  // by absolute file path
	wholes map[string][]*watch  // WatchDir watches, by absolute directory
	closed bool
	sys    sysWatcher
}

type dirWatch struct {
	refs int
	wd   int
}

type watch struct {
	w     *Watcher
	path  string
	fn    func()
	timer agentstate.Timer
	dead  bool
	whole bool // a WatchDir watch: path is the directory
}

// sysWatcher is the platform's notification source.
type sysWatcher interface {
	add(dir string) (int, error)
	remove(wd int)
	close() error
}

// NewWatcher starts the watcher. On platforms without inotify it returns
// an error; callers degrade to reading on output.
func NewWatcher(opt WatcherOptions) (*Watcher, error) {
	if opt.Clock == nil {
		opt.Clock = agentstate.RealClock{}
	}
	if opt.Debounce <= 0 {
		opt.Debounce = Debounce
	}
	w := &Watcher{opt: opt, dirs: map[string]*dirWatch{}, files: map[string][]*watch{}, wholes: map[string][]*watch{}}
	sys, err := newSysWatcher(w.event)
	if err != nil {
		return nil, err
	}
	w.sys = sys
	return w, nil
}

// Watch calls fn (after the debounce) whenever path is written, created,
// renamed or removed. The returned cancel stops it and drops the directory
// watch when it was the last one there.
func (w *Watcher) Watch(path string, fn func()) (cancel func(), err error) {
	if w == nil {
		return nil, ErrClosed
	}
	path, err = filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return w.add(filepath.Dir(path), &watch{w: w, path: path, fn: fn})
}

// WatchDir calls fn (after the debounce) whenever any entry directly in
// dir is written, created, renamed or removed: a transcript that does not
// exist yet, or a project directory being made. dir must exist. The
// returned cancel stops it, as for Watch.
func (w *Watcher) WatchDir(dir string, fn func()) (cancel func(), err error) {
	if w == nil {
		return nil, ErrClosed
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return w.add(dir, &watch{w: w, path: dir, fn: fn, whole: true})
}

func (w *Watcher) add(dir string, x *watch) (cancel func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	d := w.dirs[dir]
	if d == nil {
		wd, err := w.sys.add(dir)
		if err != nil {
			return nil, err
		}
		d = &dirWatch{wd: wd}
		w.dirs[dir] = d
	}
	d.refs++
	if x.whole {
		w.wholes[dir] = append(w.wholes[dir], x)
	} else {
		w.files[x.path] = append(w.files[x.path], x)
	}
	return func() { w.unwatch(x, dir) }, nil
}

func (w *Watcher) unwatch(x *watch, dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if x.dead {
		return
	}
	x.dead = true
	if x.timer != nil {
		x.timer.Stop()
	}
	byPath := w.files
	if x.whole {
		byPath = w.wholes
	}
	list := byPath[x.path]
	for i, y := range list {
		if y == x {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(byPath, x.path)
	} else {
		byPath[x.path] = list
	}
	if d := w.dirs[dir]; d != nil {
		if d.refs--; d.refs == 0 {
			delete(w.dirs, dir)
			if !w.closed {
				w.sys.remove(d.wd)
			}
		}
	}
}

// event is called by the platform reader for a change to the file at path.
// It arms (or pushes back) the one-shot debounce timer of each watch of
// that file and of each WatchDir watch of its directory; no timer exists
// for a watch that saw no event.
func (w *Watcher) event(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, x := range w.files[path] {
		w.arm(x)
	}
	for _, x := range w.wholes[filepath.Dir(path)] {
		w.arm(x)
	}
}

func (w *Watcher) arm(x *watch) {
	if x.timer == nil {
		x.timer = w.opt.Clock.AfterFunc(w.opt.Debounce, x.fire)
	} else {
		x.timer.Reset(w.opt.Debounce)
	}
}

func (x *watch) fire() {
	x.w.mu.Lock()
	dead := x.dead
	x.w.mu.Unlock()
	if !dead {
		x.fn()
	}
}

// Dirs is how many directories are watched.
func (w *Watcher) Dirs() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.dirs)
}

// Close stops the watcher and its goroutine. Later Watch calls fail with
// ErrClosed; it is safe to call more than once.
func (w *Watcher) Close() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	for _, byPath := range []map[string][]*watch{w.files, w.wholes} {
		for _, list := range byPath {
			for _, x := range list {
				x.dead = true
				if x.timer != nil {
					x.timer.Stop()
				}
			}
		}
	}
	w.files = map[string][]*watch{}
	w.wholes = map[string][]*watch{}
	w.dirs = map[string]*dirWatch{}
	w.mu.Unlock()
	return w.sys.close()
}
