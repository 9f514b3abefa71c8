package detect

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/transcript"
)

// join ties a pane to its harness's transcript. Its reader is used by one
// goroutine at a time, outside p.mu: busy says a read is out, again that
// another was asked for meanwhile (the reader then reads once more).
type join struct {
	r       *transcript.Reader
	harness string
	exact   bool // from a hook's transcript_path; a search never replaces it
	watched bool
	cancel  func()
	busy    bool
	again   bool
	missing int // the reader's Missing after its last read
}

// paneIO is the blocking work a locked section of a pane asked for. The
// section only records it (in p.work); it runs once p.mu is released.
type paneIO struct {
	cancels []func() // watches to cancel
	watch   *join    // start watching this join's file
	read    *join    // read this join's transcript
	search  *search  // look for the transcript of an attributed pane
	fg      bool     // read the foreground for new program status records
}

// search is a hookless transcript search, snapshotted under p.mu.
type search struct {
	gen      uint64 // the pane's generation when it was asked for
	shellPID int
	spec     TranscriptSpec
	home     string
	version  string
}

func (w *paneIO) empty() bool {
	return len(w.cancels) == 0 && w.watch == nil && w.read == nil && w.search == nil && !w.fg
}

// ioResult is what the unlocked part of the work found.
type ioResult struct {
	cancel   func()
	watchErr error
	obs      transcript.Observation
	ok       bool
	readErr  error
	missing  int
	path     string
	fg       Foreground
	fgErr    error
}

// unlock releases p.mu, then runs the work the locked section asked for.
func (p *Pane) unlock() {
	w := p.takeWork()
	p.mu.Unlock()
	p.run(w)
}

// takeWork hands over the queued work. A read of a join another goroutine
// is reading becomes a re-read by that goroutine. Called with p.mu held.
func (p *Pane) takeWork() paneIO {
	w := p.work
	p.work = paneIO{}
	if j := w.read; j != nil {
		switch {
		case j != p.join:
			w.read = nil
		case j.busy:
			j.again = true
			w.read = nil
		default:
			j.busy = true
		}
	}
	return w
}

// run does w without p.mu, then applies the results under p.mu, and
// repeats for any work the applying asked for. Called without p.mu.
func (p *Pane) run(w paneIO) {
	for !w.empty() {
		var r ioResult
		p.doIO(&w, &r)
		p.mu.Lock()
		p.applyIO(&w, &r)
		w = p.takeWork()
		p.mu.Unlock()
	}
}

// doIO is the blocking half: no lock is held.
func (p *Pane) doIO(w *paneIO, r *ioResult) {
	for _, c := range w.cancels {
		c()
	}
	if j := w.watch; j != nil {
		r.cancel, r.watchErr = p.t.opt.Watcher.Watch(j.r.Path(), func() { p.onTranscript(j) })
	}
	if s := w.search; s != nil {
		r.path = runSearch(p.t.det, s)
	}
	if j := w.read; j != nil {
		r.obs, r.ok, r.readErr = j.r.Read()
		r.missing = j.r.Missing()
	}
	if w.fg {
		r.fg, r.fgErr = p.t.det.Foreground(p.shellPID)
	}
}

// applyIO is the locked half: each result counts only if the pane is
// still the one that asked (not detached, the same join, the same
// generation).
func (p *Pane) applyIO(w *paneIO, r *ioResult) {
	if j := w.watch; j != nil && r.watchErr == nil {
		if p.join == j && !p.stopped {
			j.watched, j.cancel = true, r.cancel
		} else {
			p.work.cancels = append(p.work.cancels, r.cancel)
		}
	}
	if j := w.read; j != nil {
		j.busy = false
		if p.join == j && !p.stopped {
			j.missing = r.missing
			p.applyRead(j, r)
		}
		if j.again && p.join == j && !p.stopped {
			j.again = false
			p.work.read = j
		}
	}
	if s := w.search; s != nil {
		p.searching = false
		if r.path != "" && !p.stopped && p.gen == s.gen && p.join == nil {
			p.startJoin(r.path, false)
		}
	}
	if w.fg && !p.stopped {
		p.program.setGroups(r.fg, r.fgErr)
	}
}

// joinExact joins the pane to the file a hook named. It replaces a
// searched join; re-joining the same path keeps the read offset.
func (p *Pane) joinExact(path string) {
	path = filepath.Clean(path)
	if p.join != nil && p.join.r.Path() == path {
		p.join.exact = true
		return
	}
	p.dropJoin(false)
	p.startJoin(path, true)
}

// startJoin joins the pane to path; the watch and the first read run
// after the lock is released.
func (p *Pane) startJoin(path string, exact bool) {
	j := &join{r: transcript.NewReader(path), harness: p.harness, exact: exact}
	p.join = j
	p.gen++
	p.work.watch = j
	p.work.read = j
}

// onTranscript is the watcher's callback for a join's file.
func (p *Pane) onTranscript(j *join) {
	p.mu.Lock()
	if p.join == j && !p.stopped {
		p.work.read = j
	}
	p.unlock()
}

// applyRead publishes a read's turn at source transcript. It never
// asserts needs_input or idle. Three missing reads in a row end the join
// and yield its claim, and so does a path that is not a regular file.
func (p *Pane) applyRead(j *join, r *ioResult) {
	if err := r.readErr; err != nil {
		var te *transcript.Error
		switch {
		case errors.Is(err, fs.ErrNotExist) && r.missing >= transcriptMissingLimit:
			p.dropJoin(true)
		case errors.As(err, &te) && te.Code() == transcript.CodeNotRegular:
			p.dropJoin(true)
		}
		return
	}
	if !r.ok {
		return
	}
	state := agentstate.Working
	if r.obs.Turn == transcript.TurnDone {
		state = agentstate.Done
	}
	p.t.arb.Apply(p.id, agentstate.Report{State: state, Source: agentstate.SourceTranscript, Harness: j.harness})
}

// dropJoin ends the join; its watch is cancelled after the lock is
// released, and a read still out is discarded when it returns.
func (p *Pane) dropJoin(yield bool) {
	j := p.join
	if j == nil {
		return
	}
	if j.cancel != nil {
		p.work.cancels = append(p.work.cancels, j.cancel)
		j.cancel = nil
	}
	p.join = nil
	p.gen++
	if p.work.read == j {
		p.work.read = nil
	}
	if p.work.watch == j {
		p.work.watch = nil
	}
	if yield {
		p.t.arb.Yield(p.id, agentstate.SourceTranscript)
	}
}

// maintainJoin asks for a hookless, verified search for the transcript of
// an attributed pane, at most once per joinRetry and never while one is
// still out. Called with p.mu held; the search runs after it is released.
func (p *Pane) maintainJoin(m Match) {
	if p.join != nil || p.searching || p.m == nil || !p.m.Transcript.Enabled() || !m.Agent || m.HarnessID != p.m.ID {
		return
	}
	now := p.t.clock.Now()
	if !p.lastSearch.IsZero() && now.Sub(p.lastSearch) < joinRetry {
		return
	}
	p.lastSearch = now
	p.searching = true
	p.work.search = &search{gen: p.gen, shellPID: p.shellPID, spec: p.m.Transcript,
		home: p.t.opt.Home, version: baseName(m.Process.Exe)}
}

// runSearch reads the agent's working directory and searches its project
// directory. It returns "" when nothing verifies. No lock is held.
func runSearch(det *Detector, s *search) string {
	fg, err := det.Foreground(s.shellPID)
	if err != nil || fg.Cwd == "" {
		return ""
	}
	dir, ok := transcript.ProjectDir(s.spec.Dir, s.home, fg.Cwd)
	if !ok {
		return ""
	}
	path, err := transcript.Search(transcript.SearchOptions{
		Dir: dir, Glob: s.spec.Glob, Verify: s.spec.Verify,
		CWD: fg.Cwd, Version: s.version,
	})
	if err != nil {
		return ""
	}
	return path
}
