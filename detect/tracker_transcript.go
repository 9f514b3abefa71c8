package detect

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect/transcript"
)

// join ties a pane to its harness's transcript. Its reader is used by one
// goroutine at a time, outside p.mu: busy says a read is out, again that
// another was asked for meanwhile (the reader then reads once more).
//
// A join with no reader is still looking for its file (hunt): a hookless
// pane attributed to a harness with a transcript gets one at the tick, and
// it searches then, every joinRetry after, and whenever the directory the
// file will appear in changes (watched is then set, and cancel ends that
// directory watch). It is never read; a search that finds its file
// replaces it with a real join, and so does a hook's transcript_path.
//
// Joins rank by how they were made: a hook's transcript_path (exact)
// replaces any other and nothing replaces it but another; the agent's
// session file (session) replaces a searched join and is followed when
// the session changes; a search (neither) only ends a hunt.
type join struct {
	r       *transcript.Reader // nil while the join is a hunt
	harness string
	exact   bool // from a hook's transcript_path
	session bool // named by the agent's session file
	watched bool
	cancel  func()
	busy    bool
	again   bool
	missing int // the reader's Missing after its last read
	hunt    *hunt
	track   *track // nil for an exact join
}

// hunt is the state of a join that is still a search.
type hunt struct {
	dir string // the directory watched for the file ("" when none)
}

// track is what a hookless pane keeps while it looks for or follows its
// transcript: it passes from a hunt to the join the hunt finds, from join
// to join as the agent's session moves, and back to a hunt when the
// session names a transcript not written yet. It ends with the last of
// them (dropJoin), or when a hook's exact join takes over.
type track struct {
	again bool   // a change was seen while a search was out
	io    huntIO // owned by the one search out (p.searching), never locked
	// pid is the agent process whose session file is read (0: none yet).
	// Once a valid one was read, it is watched: sessPath, whose watch
	// sessCancel ends.
	pid        int
	sessPath   string
	sessCancel func()
	// seen is when the tracker first saw the process pid: until it has
	// run SessionFileWait, a missing session file is waited for, not searched
	// around (see runSearch).
	seen time.Time
}

// huntIO is what a hunt's searches keep from one to the next: the file
// verdicts (so a change in the directory rereads only the files that
// changed) and the versions read for the agent's process.
type huntIO struct {
	cache    transcript.SearchCache
	proc     ProcInfo
	versions []string
	read     bool // versions were read for proc
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

// search is a hookless transcript search, snapshotted under p.mu. A hunt
// searches by the session file, then by verification; a joined pane only
// reads the session file, to follow it.
type search struct {
	gen          uint64 // the pane's generation when it was asked for
	j            *join  // the hunt or join that asked
	tr           *track // its track
	hunting      bool   // j is a hunt
	shellPID     int
	spec         TranscriptSpec
	home         string
	proc         ProcInfo // the agent's process, whose install gives the version
	packages     []string // the harness's npm packages (argv_path)
	io           *huntIO  // the track's state, this search's alone while it runs
	watching     string   // the directory the hunt watches now
	sessWatching string   // the session file watched now
	young        bool     // the agent was first seen less than SessionFileWait ago
}

func (w *paneIO) empty() bool {
	return len(w.cancels) == 0 && w.watch == nil && w.read == nil && w.search == nil && !w.fg
}

// ioResult is what the unlocked part of the work found.
type ioResult struct {
	cancel    func()
	watchErr  error
	obs       transcript.Observation
	ok        bool
	readErr   error
	missing   int
	found     found
	dirWatch  func() // the cancel of a new directory watch on found.dir
	sessWatch func() // the cancel of a new watch on found.sessPath
	fg        Foreground
	fgErr     error
}

// found is what a search found.
type found struct {
	path     string // the transcript to join; "" for none
	session  bool   // path is named by the agent's session file
	pending  bool   // the session file names a transcript not written yet
	id       string // the session the agent's session file names ("" when none)
	early    bool   // no session file yet, and the agent is young: search again soon
	dir      string // the directory to watch for the file ("" when none)
	sessPath string // the agent's valid session file, to watch ("" when none)
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
		case j != p.join || j.r == nil:
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
		f := runSearch(p.t.det, s)
		r.found = f
		tr := s.tr
		if f.path == "" && f.dir != "" && f.dir != s.watching && (s.hunting || f.pending) {
			r.dirWatch, _ = p.t.opt.Watcher.WatchDir(f.dir, func() { p.onProjectDir(tr) })
		}
		if f.sessPath != "" && f.sessPath != s.sessWatching {
			r.sessWatch, _ = p.t.opt.Watcher.Watch(f.sessPath, func() { p.onSessionFile(tr) })
		}
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
		p.applySearch(s, r)
	}
	if w.fg && !p.stopped {
		p.program.setGroups(r.fg, r.fgErr)
	}
}

// joinExact joins the pane to the file a hook named. It replaces any
// other join, and ends the hookless track (the hook names the next file
// itself); re-joining the same path keeps the read offset.
func (p *Pane) joinExact(path string) {
	path = filepath.Clean(path)
	if j := p.join; j != nil && j.r != nil && j.r.Path() == path {
		j.exact, j.session = true, false
		if j.track != nil {
			p.endTrack(j.track)
			j.track = nil
		}
		return
	}
	p.startJoin(path, true, false)
}

// startJoin joins the pane to path, ending the join or hunt it had: an
// exact join ends the track, any other takes it over. The watch and the
// first read run after the lock is released.
func (p *Pane) startJoin(path string, exact, session bool) {
	tr := p.unjoin(false)
	if tr != nil && exact {
		p.endTrack(tr)
		tr = nil
	}
	j := &join{r: transcript.NewReader(path), harness: p.harness, exact: exact, session: session && !exact, track: tr}
	p.join = j
	p.gen++
	p.work.watch = j
	p.work.read = j
}

// rehunt replaces the pane's join with a hunt on the same track.
func (p *Pane) rehunt(yield bool) {
	tr := p.unjoin(yield)
	p.join = &join{harness: p.harness, hunt: &hunt{}, track: tr}
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

// dropJoin ends the join (or the hunt) and its track; their watches are
// cancelled after the lock is released, and a read or search still out is
// discarded when it returns.
func (p *Pane) dropJoin(yield bool) {
	if tr := p.unjoin(yield); tr != nil {
		p.endTrack(tr)
	}
}

// unjoin ends the join (or the hunt) and hands back its track, still
// running.
func (p *Pane) unjoin(yield bool) *track {
	j := p.join
	if j == nil {
		return nil
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
	tr := j.track
	j.track = nil
	return tr
}

// endTrack ends a track: its session file is no longer watched.
func (p *Pane) endTrack(tr *track) {
	p.unwatchSession(tr)
	tr.pid = 0
}

// unwatchSession stops watching the track's session file.
func (p *Pane) unwatchSession(tr *track) {
	if tr.sessCancel != nil {
		p.work.cancels = append(p.work.cancels, tr.sessCancel)
		tr.sessCancel = nil
	}
	tr.sessPath = ""
}

// maintainJoin keeps a hookless pane looking for its transcript, and
// following its agent's session: an attributed pane whose detected agent
// is its harness's, with no join, gets a hunt, which searches at most once
// per joinRetry from here (a change in its directory searches sooner, see
// onProjectDir). With a session file in the manifest, a new agent process
// (a new pid) is looked up at once, and a joined pane whose session file
// is not watched reads it every joinRetry (a watched one on its change,
// see onSessionFile). A hunt ends when the agent leaves; a join stays
// (the attribution ends it). Called with p.mu held, on the detection
// tick; the search runs after the lock is released.
func (p *Pane) maintainJoin(m Match) {
	j := p.join
	if j != nil && j.exact {
		return // a hook named the file
	}
	if p.m == nil || !p.m.Transcript.Enabled() || !m.Agent || m.HarnessID != p.m.ID {
		switch {
		case j != nil && j.r == nil:
			p.dropJoin(false) // the agent left: stop looking
		case j != nil && j.track != nil:
			p.unwatchSession(j.track)
			j.track.pid = 0
		}
		return
	}
	bySession := p.m.Transcript.SessionFile != ""
	if j == nil {
		j = &join{harness: p.harness, hunt: &hunt{}, track: &track{}}
		p.join = j
	}
	tr := j.track
	if bySession && tr.pid != m.Process.PID {
		// A new agent process: its session file names its transcript.
		p.unwatchSession(tr)
		tr.pid, tr.seen = m.Process.PID, p.t.clock.Now()
		p.askSearch(m.Process, true)
		return
	}
	if j.r != nil {
		if bySession && tr.sessCancel == nil {
			p.askSearch(m.Process, false) // no watch on the session file: look every joinRetry
		}
		return
	}
	p.askSearch(m.Process, false)
}

// onProjectDir is the watcher's callback for a hunt's directory: a
// transcript may have appeared or grown. It searches now (after the
// watcher's debounce) rather than at the next joinRetry.
func (p *Pane) onProjectDir(tr *track) {
	p.mu.Lock()
	if j := p.join; j != nil && j.track == tr && j.r == nil && !p.stopped && p.m != nil {
		if m := p.Foreground(); m.Agent && m.HarnessID == p.m.ID {
			p.askSearch(m.Process, true)
		}
	}
	p.unlock()
}

// onSessionFile is the watcher's callback for the agent's session file:
// it was written (the session may have changed: /clear, /resume), made or
// removed. It reads it again now.
func (p *Pane) onSessionFile(tr *track) {
	p.mu.Lock()
	if j := p.join; j != nil && j.track == tr && !p.stopped && p.m != nil {
		if m := p.Foreground(); m.Agent && m.HarnessID == p.m.ID && m.Process.PID == tr.pid {
			p.askSearch(m.Process, true)
		}
	}
	p.unlock()
}

// askSearch queues a search for the pane's hunt or hookless join. One
// search is out at a time: a change seen meanwhile is searched for when
// it returns. now skips the joinRetry spacing (a change in a watched
// file or directory, a new agent process). Called with p.mu held, with a
// join or hunt that has a track.
func (p *Pane) askSearch(proc ProcInfo, now bool) {
	j := p.join
	tr := j.track
	if p.searching {
		tr.again = tr.again || now
		return
	}
	t := p.t.clock.Now()
	if !now && !p.lastSearch.IsZero() && t.Sub(p.lastSearch) < joinRetry {
		return
	}
	p.lastSearch = t
	p.searching = true
	s := &search{gen: p.gen, j: j, tr: tr, hunting: j.r == nil, shellPID: p.shellPID, spec: p.m.Transcript,
		home: p.t.opt.Home, proc: proc, packages: p.m.Detect.ArgvPath, io: &tr.io, sessWatching: tr.sessPath,
		young: !tr.seen.IsZero() && t.Sub(tr.seen) < SessionFileWait}
	if j.hunt != nil {
		s.watching = j.hunt.dir
	}
	p.work.search = s
}

// applySearch is the locked half of a search, applied only while the
// track that asked still runs. A new watch on the session file is kept by
// the track; the session's transcript joins the pane (replacing a hunt, a
// searched join or the join of an earlier session), a verified file ends
// a hunt, and a session whose transcript is not written yet turns a join
// back into a hunt for it (a searched join the session file contradicts
// yields what it reported). A new directory watch is kept by the hunt.
// What changed while the search was out (or a hunt begun meanwhile) is
// searched for now.
func (p *Pane) applySearch(s *search, r *ioResult) {
	p.searching = false
	j, tr, f := s.j, s.tr, r.found
	if f.early {
		p.lastSearch = time.Time{} // the next tick searches again
	}
	live := !p.stopped && p.join != nil && p.join.track == tr
	if r.sessWatch != nil {
		if live && tr.pid == s.proc.PID {
			if tr.sessCancel != nil {
				p.work.cancels = append(p.work.cancels, tr.sessCancel)
			}
			tr.sessCancel, tr.sessPath = r.sessWatch, f.sessPath
			// What changed between the read and the new watch sent no
			// event to it: read once more, now that it is in place.
			tr.again = true
		} else {
			p.work.cancels = append(p.work.cancels, r.sessWatch)
		}
	}
	fresh := p.join != j // the pane's join changed while the search was out
	dirKept := false
	bySession := f.session || f.pending
	if live && p.join == j && p.gen == s.gen && (tr.pid == s.proc.PID || !bySession) {
		if bySession && f.id != "" {
			// The agent's own session file says which session runs:
			// the pane's, as a hook would have said (agent_session_id
			// and resume-agent read it on a pane with no hooks).
			p.t.arb.SetSession(p.id, p.harness, f.id)
		}
		switch {
		case f.path != "" && j.r != nil && j.r.Path() == f.path:
			j.session = j.session || f.session
		case f.path != "" && (f.session || j.r == nil):
			p.startJoin(f.path, false, f.session)
		case f.pending && j.r != nil:
			p.rehunt(!j.session)
		}
		if h := p.join; r.dirWatch != nil && h.r == nil && h.track == tr {
			if h.cancel != nil {
				p.work.cancels = append(p.work.cancels, h.cancel)
			}
			h.cancel, h.watched, h.hunt.dir = r.dirWatch, true, f.dir
			// As for the session file: search once more, now that the
			// directory's watch is in place.
			tr.again = true
			dirKept = true
		}
	}
	if r.dirWatch != nil && !dirKept {
		p.work.cancels = append(p.work.cancels, r.dirWatch)
	}
	h := p.join
	if h == nil || h.track == nil || p.stopped || p.m == nil {
		return
	}
	if h.track.again || (fresh && h.r == nil) {
		h.track.again = false
		if m := p.Foreground(); m.Agent && m.HarnessID == p.m.ID {
			p.askSearch(m.Process, true)
		}
	}
}

// runSearch looks for the agent's transcript. With a session file in the
// manifest it reads the agent's first: a valid one decides (the
// transcript of the session it names, found by the session's id wherever
// it lies, or pending while that is not written yet, watching the
// project directory the session's folder names), whatever else verifies
// and whatever the pane's folder is called. Otherwise a hunt searches:
// it reads the agent's working directory and the version of its install
// and returns the one file in the project directory that verifies. With
// no file, the directory to watch for one: the project directory, or
// while that does not exist yet the nearest existing parent (at most
// huntUp levels up, never above home), "" when none. A joined pane's
// search reads only the session file. No lock is held: this is where the
// /proc reads, the package.json reads and the transcript and session
// file reads of a search happen.
func runSearch(det *Detector, s *search) found {
	var f found
	if s.spec.SessionFile != "" {
		// A valid session file is watched from then on, so a new session
		// (/clear, /resume) is followed on its change.
		if sessPath, sess, ok := agentSession(det.sys, s.spec.SessionFile, s.home, s.proc); ok {
			f.sessPath, f.id = sessPath, sess.ID
			path, expected, err := sess.Locate(s.spec.Dir, s.home, s.spec.Glob)
			var te *transcript.Error
			switch {
			case err == nil:
				f.path, f.session = path, true
				return f
			case errors.As(err, &te) && te.Code() == transcript.CodeNotExist:
				f.pending = true
				if expected != "" {
					f.dir = watchTarget(expected, s.home)
				}
				return f
			}
			// Two copies of the session's transcript: a hunt verifies.
		} else if s.young && s.hunting {
			// Claude Code writes its session file as it starts; a
			// search now could take an earlier session's transcript
			// for this one's. Watch for the file instead.
			if sp, ok := transcript.SessionPath(s.spec.SessionFile, s.home, s.proc.PID); ok {
				f.dir = watchTarget(filepath.Dir(sp), s.home)
			}
			f.early = true
			return f
		}
	}
	if !s.hunting {
		return f
	}
	fg, err := det.Foreground(s.shellPID)
	if err != nil || fg.Cwd == "" {
		return f
	}
	dir, ok := transcript.ProjectDir(s.spec.Dir, s.home, fg.Cwd)
	if !ok {
		return f
	}
	hs := s.io
	if !hs.read || !sameProcess(hs.proc, s.proc) {
		hs.proc, hs.read = s.proc, true
		hs.versions = installVersions(det.sys, s.proc, s.packages)
	}
	// A transcript last written before the agent started is an earlier
	// session's, however well it verifies. The start is known to a tick
	// and never later than it was: a file written in the tick the agent
	// started in may be an earlier session's too, and no agent writes
	// its transcript within a tick of its start.
	since := det.sys.started(s.proc.PID)
	if !since.IsZero() {
		since = since.Add(startTick)
	}
	path, err := transcript.Search(transcript.SearchOptions{
		Dir: dir, Glob: s.spec.Glob, Verify: s.spec.Verify,
		CWD: fg.Cwd, Versions: hs.versions, Cache: &hs.cache,
		Since: since,
	})
	if err == nil {
		f.path = path
		return f
	}
	f.dir = watchTarget(dir, s.home)
	return f
}

// startTick is the grain of a process's start time (sysProc.started):
// USER_HZ ticks, 100 a second on every Linux Go runs on.
const startTick = 10 * time.Millisecond

// huntUp bounds how far above a missing project directory a hunt watches:
// ~/.claude/projects on a first run in a directory, ~/.claude or home
// itself on a first run at all (Claude Code makes ~/.claude as it starts,
// and a detection tick may come first).
const huntUp = 3

// watchTarget is dir if it exists, else its nearest existing parent at
// most huntUp levels up and not above home; "" when there is none.
func watchTarget(dir, home string) string {
	for i := 0; i <= huntUp; i++ {
		if st, err := os.Stat(dir); err == nil {
			if st.IsDir() {
				return dir
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir || (home != "" && !within(up, home)) {
			return ""
		}
		dir = up
	}
	return ""
}

// within says path is root or below it.
func within(path, root string) bool {
	root = filepath.Clean(root)
	path = filepath.Clean(path)
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator)) || root == string(filepath.Separator)
}

// sameProcess says two readings are of the same process, unchanged.
func sameProcess(a, b ProcInfo) bool {
	return a.PID == b.PID && a.Exe == b.Exe && slices.Equal(a.Argv, b.Argv)
}

// sessionKids bounds the children of an interpreter looked at for a
// session file: npm's fallback launcher (node …/cli-wrapper.cjs) runs the
// agent's binary as its child, and the child writes the file.
const sessionKids = 4

// agentSession reads the session file of the agent process p (the
// manifest's session_file for its pid), or, when p is an interpreter with
// none, the first valid one of its direct children's. It returns the file
// and the session when one is valid (see sessionOf). No lock is held: it
// reads files and /proc.
func agentSession(sys sysProc, pattern, home string, p ProcInfo) (string, transcript.Session, bool) {
	if path, ok := transcript.SessionPath(pattern, home, p.PID); ok {
		if s, ok := sessionOf(sys, path, p.PID); ok {
			return path, s, true
		}
	}
	if !isInterpreter(p) {
		return "", transcript.Session{}, false
	}
	var buf [statBufSize]byte
	st, err := sys.stat(p.PID, buf[:])
	if err != nil {
		return "", transcript.Session{}, false
	}
	for i, k := range sys.children(p.PID, st.nthreads, nil) {
		if i == sessionKids {
			break
		}
		if path, ok := transcript.SessionPath(pattern, home, k); ok {
			if s, ok := sessionOf(sys, path, k); ok {
				return path, s, true
			}
		}
	}
	return "", transcript.Session{}, false
}

// sessionOf reads the session file at path for process pid. It is valid
// when it says pid wrote it and, on Linux, when its procStart (if any) is
// the start time of the process that has pid now: a file a killed process
// left behind is not taken for the process that reused its pid.
func sessionOf(sys sysProc, path string, pid int) (transcript.Session, bool) {
	s, err := transcript.ReadSession(path)
	if err != nil || s.PID != pid {
		return transcript.Session{}, false
	}
	if runtime.GOOS == "linux" && s.ProcStart != "" {
		var buf [statBufSize]byte
		st, err := sys.stat(pid, buf[:])
		if err != nil || strconv.FormatUint(st.start, 10) != s.ProcStart {
			return transcript.Session{}, false
		}
	}
	return s, true
}
