package detect

import (
	"bytes"
	"sync"
	"sync/atomic"

	"github.com/tuios/tuios/agentstate"
)

// Bounds of the walk behind a wrapper.
const (
	// WalkDepth is the deepest level read below the leader (its children
	// are depth 1).
	WalkDepth = 4
	// WalkMembers is the most group members read behind one leader.
	WalkMembers = 24
	// walkStats bounds stat reads, including children in other groups.
	walkStats = 64
)

// statBufSize holds any /proc/<pid>/stat line.
const statBufSize = 1024

// DetectorOptions configures a Detector.
type DetectorOptions struct {
	// Registry holds the manifests; nil means none (only the name list).
	Registry *Registry
	// ExtraNames are added to the built-in name list (e.g. from
	// TUIOS_AGENT_BINARIES, see ParseNameList).
	ExtraNames []string
	// ProcRoot is where procfs is mounted; "" means /proc (Linux only).
	ProcRoot string
}

// Detector tells which agent runs in the foreground of a pane's shell. It
// is safe for concurrent use by many panes.
//
// It keeps, per shell pid, the last foreground leader and the open stat
// files of the shell and of that leader. A steady tick (same leader, still
// the same process: an open /proc/<pid>/stat stops reading once its
// process is reaped, so a reused pid is never mistaken for it; the same
// comm, so an exec is noticed, and for a leader that is no agent the same
// place for its argv and environment, so an exec that keeps the name is
// noticed too) reads only those two stat lines when
// the leader decided on its own (an agent, or a program that is neither
// agent nor wrapper). Behind a wrapper the group is walked again on every
// call, since what runs behind it may change. Call Forget when a pane
// closes and Close when done, to release the files.
type Detector struct {
	reg   *Registry
	names NameList
	sys   sysProc

	mu    sync.Mutex
	cache map[int]*entry
}

type entry struct {
	mu sync.Mutex
	// forgotten: dropped from the cache by Forget or Close. Whoever holds
	// mu when that happens closes the files on release, so Forget never
	// waits for a read in progress.
	forgotten   atomic.Bool
	dead        bool // its files are closed
	shell       statHandle
	leader      statHandle
	leaderPID   int
	leaderStart uint64
	leaderImage [2]uint64
	leaderComm  []byte
	fg          Foreground
	final       bool // result holds while the leader is unchanged
	result      Match
	// member is the agent found behind a wrapper leader: while it lives,
	// stays in the leader's group and keeps its comm, the result holds.
	member      statHandle
	memberStart uint64
	memberComm  []byte
	// view is the leader's predicate inputs; leaderNoMatch says its own
	// identity matched nothing (so a re-walk does not match it again).
	view          *procView
	leaderNoMatch bool
	hintRead      bool
	hint          Match
	hintOK        bool
}

// NewDetector returns a detector over the given manifests and names.
func NewDetector(opts DetectorOptions) *Detector {
	reg := opts.Registry
	if reg == nil {
		reg = NewRegistry()
	}
	return &Detector{reg: reg, names: NewNameList(opts.ExtraNames...), sys: newSysProc(opts.ProcRoot), cache: map[int]*entry{}}
}

// Registry is the detector's manifest registry.
func (d *Detector) Registry() *Registry { return d.reg }

// Names is the detector's name list.
func (d *Detector) Names() NameList { return d.names }

// Forget drops what the detector remembers about a pane's shell. It
// never waits for a Detect of the same shell that is still reading: that
// call closes the files when it returns.
func (d *Detector) Forget(shellPID int) {
	d.mu.Lock()
	e := d.cache[shellPID]
	delete(d.cache, shellPID)
	d.mu.Unlock()
	if e != nil {
		d.retire(e)
	}
}

// Close forgets every pane, without waiting for reads in progress. The
// detector stays usable.
func (d *Detector) Close() error {
	d.mu.Lock()
	c := d.cache
	d.cache = map[int]*entry{}
	d.mu.Unlock()
	for _, e := range c {
		d.retire(e)
	}
	return nil
}

// retire closes the files of an entry already out of the cache, now if
// nobody holds it, else on the holder's release.
func (d *Detector) retire(e *entry) {
	e.forgotten.Store(true)
	if e.mu.TryLock() {
		e.close(d.sys)
		e.mu.Unlock()
	}
}

// release unlocks an entry taken with lockEntry, closing its files when
// it was forgotten meanwhile. forgotten is set before retire tries the
// lock, so either retire gets the lock or the holder sees the flag here.
func (d *Detector) release(e *entry) {
	e.mu.Unlock()
	if e.forgotten.Load() && e.mu.TryLock() {
		e.close(d.sys)
		e.mu.Unlock()
	}
}

// lockEntry returns the pane's entry, locked and still in the cache (an
// entry that Forget or Close dropped meanwhile is never reused, so no file
// is opened into it).
func (d *Detector) lockEntry(shellPID int) *entry {
	for {
		d.mu.Lock()
		e := d.cache[shellPID]
		if e == nil {
			e = &entry{shell: statHandle{fd: -1}, leader: statHandle{fd: -1}, member: statHandle{fd: -1}}
			d.cache[shellPID] = e
		}
		d.mu.Unlock()
		e.mu.Lock()
		if !e.dead && !e.forgotten.Load() {
			return e
		}
		d.release(e)
	}
}

func (e *entry) close(s sysProc) {
	if e.dead {
		return
	}
	e.dead = true
	s.closeHandle(e.shell)
	e.dropLeader(s)
	e.shell = statHandle{fd: -1}
}

func (e *entry) dropMember(s sysProc) {
	s.closeHandle(e.member)
	e.member = statHandle{fd: -1}
	e.memberStart, e.memberComm = 0, nil
}

func (e *entry) dropLeader(s sysProc) {
	e.dropMember(s)
	s.closeHandle(e.leader)
	e.leader = statHandle{fd: -1}
	e.leaderPID, e.leaderStart, e.leaderImage, e.leaderComm = 0, 0, [2]uint64{}, nil
	e.final, e.hintRead, e.hintOK = false, false, false
	e.view, e.leaderNoMatch = nil, false
}

// ReadForeground reads the foreground process group of a shell from /proc
// (on darwin through sysctl): the terminal's tpgid from the shell's stat,
// then the leader's comm, argv and exe. A shell that is gone, a tpgid that
// is not positive and a leader that vanished between reads all give
// Running false with a nil error.
func ReadForeground(shellPID int) (Foreground, error) {
	return newSysProc("").foreground(shellPID)
}

// foreground is the uncached read.
func (s sysProc) foreground(shellPID int) (Foreground, error) {
	fg, _, err := s.foregroundN(shellPID)
	return fg, err
}

// foregroundN also returns the leader's thread count.
func (s sysProc) foregroundN(shellPID int) (Foreground, int, error) {
	fg := Foreground{ShellPID: shellPID}
	var buf [statBufSize]byte
	st, err := s.stat(shellPID, buf[:])
	if err != nil {
		if procGone(err) {
			return fg, 0, nil
		}
		return fg, 0, &Error{code: CodeProcUnreadable, Op: "read shell stat", PID: shellPID, Err: err}
	}
	if st.tpgid <= 0 {
		return fg, 0, nil
	}
	lst, err := s.stat(st.tpgid, buf[:])
	if err != nil || lst.state == 'Z' {
		return fg, 0, nil // vanished, or dead and not yet reaped
	}
	fg.Leader = s.describe(st.tpgid, lst)
	if fg.Leader.empty() {
		fg.Leader = ProcInfo{}
		return fg, 0, nil
	}
	fg.Running = true
	fg.AtShell = st.tpgid == shellPID
	fg.Cwd = s.cwd(st.tpgid)
	return fg, lst.nthreads, nil
}

// Detect reads a pane's foreground and matches it: the leader on
// its own identity (manifests in lookup order, then the name list); if
// nothing matched and the leader wraps, the members of its group behind
// it; then the TUIOS_AGENT hint on the leader. The returned Match shares
// slices with the detector's cache: treat it as read-only.
func (d *Detector) Detect(shellPID int) (Match, error) {
	e := d.lockEntry(shellPID)
	defer d.release(e)
	var buf [statBufSize]byte
	if e.shell.fd < 0 {
		h, err := d.sys.openHandle(shellPID)
		if err != nil {
			d.drop(shellPID, e)
			if procGone(err) {
				return Match{}, nil
			}
			return Match{}, &Error{code: CodeProcUnreadable, Op: "open shell stat", PID: shellPID, Err: err}
		}
		e.shell = h
	}
	st, err := d.sys.readHandle(e.shell, buf[:])
	if err != nil {
		d.drop(shellPID, e)
		if procGone(err) {
			return Match{}, nil
		}
		return Match{}, &Error{code: CodeProcUnreadable, Op: "read shell stat", PID: shellPID, Err: err}
	}
	tpgid := st.tpgid
	if tpgid <= 0 {
		e.dropLeader(d.sys)
		return Match{}, nil
	}
	if tpgid == e.leaderPID && e.leader.fd >= 0 {
		lst, err := d.sys.readHandle(e.leader, buf[:])
		if err == nil && lst.start == e.leaderStart && lst.state != 'Z' && bytes.Equal(lst.comm, e.leaderComm) &&
			((e.final && e.result.Agent) || lst.image() == e.leaderImage) {
			if e.final {
				return e.result, nil
			}
			if e.member.fd >= 0 {
				mst, err := d.sys.readHandle(e.member, buf[:])
				if err == nil && mst.start == e.memberStart && mst.state != 'Z' && mst.pgrp == e.leaderPID &&
					bytes.Equal(mst.comm, e.memberComm) {
					return e.result, nil
				}
				e.dropMember(d.sys)
			}
			m := d.evaluate(e.fg, lst.nthreads, nil, e)
			d.keepMember(e, m, buf[:])
			return m, nil
		}
	}
	// First look at this leader.
	e.dropLeader(d.sys)
	lst, err := d.sys.stat(tpgid, buf[:])
	if err != nil || lst.state == 'Z' {
		return Match{}, nil // vanished, or dead and not yet reaped
	}
	fg := Foreground{ShellPID: shellPID, Leader: d.sys.describe(tpgid, lst), AtShell: tpgid == shellPID}
	if fg.Leader.empty() {
		return Match{}, nil
	}
	fg.Running = true
	// A process caught inside execve already has its new comm and exe but
	// not yet its argv (nor environment): answer for now, remember nothing,
	// and look again next tick.
	if len(fg.Leader.Argv) == 0 {
		return d.evaluate(fg, lst.nthreads, nil, nil), nil
	}
	im := lst.image() // before buf is read again
	if h, err := d.sys.openHandle(tpgid); err == nil {
		// Re-read through the handle so the cached start time belongs to
		// the process the handle is bound to, and keep only a reading of
		// the program it runs now: a process caught as it execs (the fork
		// that starts an agent) can be described as its old program and
		// re-read as its new one, and a cache keyed by the new comm and
		// image but holding the old view would answer every later read
		// from the old one while the agent runs (the pane stuck at none).
		if hst, err := d.sys.readHandle(h, buf[:]); err == nil && hst.start == lst.start &&
			hst.image() == im && string(bytes.TrimSpace(hst.comm)) == fg.Leader.Comm {
			e.leader = h
			e.leaderPID = tpgid
			e.leaderStart = hst.start
			e.leaderImage = hst.image()
			e.leaderComm = append([]byte(nil), hst.comm...)
			e.fg = fg
		} else {
			d.sys.closeHandle(h)
		}
	}
	m := d.evaluate(fg, lst.nthreads, nil, e)
	if e.leaderPID == tpgid {
		lv := newView(fg.Leader)
		if !lv.wraps || (m.Agent && len(m.Via) == 0 && m.Identity != agentstate.IdentityHint) {
			e.final, e.result = true, m
		} else {
			d.keepMember(e, m, buf[:])
		}
	}
	return m, nil
}

// keepMember remembers the agent a walk found behind the leader, so the
// next tick only re-reads its stat line.
func (d *Detector) keepMember(e *entry, m Match, buf []byte) {
	if !m.Agent || len(m.Via) == 0 || e.leaderPID == 0 {
		return
	}
	h, err := d.sys.openHandle(m.Process.PID)
	if err != nil {
		return
	}
	st, err := d.sys.readHandle(h, buf)
	if err != nil || st.pgrp != e.leaderPID || st.state == 'Z' || string(st.comm) != m.Process.Comm {
		d.sys.closeHandle(h)
		return
	}
	e.member, e.memberStart, e.memberComm, e.result = h, st.start, append([]byte(nil), st.comm...), m
}

func (d *Detector) drop(shellPID int, e *entry) {
	e.close(d.sys)
	d.mu.Lock()
	if d.cache[shellPID] == e {
		delete(d.cache, shellPID)
	}
	d.mu.Unlock()
}

// Foreground reads a pane's foreground without matching it.
func (d *Detector) Foreground(shellPID int) (Foreground, error) { return d.sys.foreground(shellPID) }

// MatchProcess matches one process on its own identity only (no walk, no
// hint): manifests in lookup order, then the name list.
func (d *Detector) MatchProcess(p ProcInfo) Match {
	m := Match{Running: !p.empty(), Process: p}
	if h, rule, id := d.identify(newView(p), nil); id != agentstate.IdentityNone {
		m.Agent, m.HarnessID, m.Rule, m.Identity = true, h, rule, id
	}
	return m
}

// trace records what a match read and compared, for Explain.
type trace struct {
	leader      *procView
	listRefused []string
	walked      bool
	group       []GroupMember
	hint        string
	hintPID     int
	noProbe     bool // explain one process: no walk, no environment read
}

// identify matches one process on its own identity.
func (d *Detector) identify(v *procView, t *trace) (harness, rule string, id agentstate.Identity) {
	for _, m := range d.reg.list {
		if r, _ := matchManifest(m, v, false); r != "" {
			return m.ID, r, agentstate.IdentityManifest
		}
	}
	r, refused := d.names.match(v, d.reg)
	if t != nil {
		t.listRefused = append(t.listRefused, refused...)
	}
	if r != "" {
		return "", r, agentstate.IdentityList
	}
	return "", "", agentstate.IdentityNone
}

// evaluate runs the pipeline over a read foreground.
func (d *Detector) evaluate(fg Foreground, nthreads int, t *trace, e *entry) Match {
	m := Match{Running: fg.Running, AtShell: fg.AtShell, Process: fg.Leader}
	if !fg.Running {
		return m
	}
	cached := e != nil && e.view != nil && e.leaderPID == fg.Leader.PID
	var lv *procView
	if cached {
		lv = e.view
	} else {
		lv = newView(fg.Leader)
	}
	if t != nil {
		t.leader = lv
	}
	if !cached || !e.leaderNoMatch {
		if h, rule, id := d.identify(lv, t); id != agentstate.IdentityNone {
			m.Agent, m.HarnessID, m.Rule, m.Identity = true, h, rule, id
			return m
		}
		if e != nil && e.leaderPID == fg.Leader.PID {
			e.view, e.leaderNoMatch = lv, true
		}
	}
	if t != nil && t.noProbe {
		return m
	}
	if lv.wraps && canWalk {
		w := walker{d: d, pgid: fg.Leader.PID, t: t}
		if t != nil {
			t.walked = true
		}
		w.chain = append(w.chain, fg.Leader.Label())
		if found := w.visit(fg.Leader.PID, nthreads, 1); found != nil {
			return *found
		}
	}
	// TUIOS_AGENT hint on the leader's environment.
	var hm Match
	var ok bool
	if e != nil && e.hintRead && e.leaderPID == fg.Leader.PID {
		hm, ok = e.hint, e.hintOK
	} else {
		hm, ok = d.hintMatch(fg, t)
		if e != nil && e.leaderPID == fg.Leader.PID {
			e.hintRead, e.hint, e.hintOK = true, hm, ok
		}
	}
	if ok {
		return hm
	}
	return m
}

// hintMatch reads TUIOS_AGENT from the leader's environment. The value must
// name a manifest by id or by a program name it detects (comm or argv0).
func (d *Detector) hintMatch(fg Foreground, t *trace) (Match, bool) {
	val, ok := d.sys.env(fg.Leader.PID, "TUIOS_AGENT")
	if !ok {
		return Match{}, false
	}
	if t != nil {
		t.hint, t.hintPID = val, fg.Leader.PID
	}
	m := d.resolveHint(val)
	if m == nil {
		return Match{}, false
	}
	return Match{Agent: true, HarnessID: m.ID, Identity: agentstate.IdentityHint, Rule: "TUIOS_AGENT=" + val,
		Process: fg.Leader, Running: true, AtShell: fg.AtShell}, true
}

func (d *Detector) resolveHint(val string) *Manifest {
	v := baseName(val)
	if v == "" {
		return nil
	}
	if m, ok := d.reg.Lookup(v); ok {
		return m
	}
	for _, m := range d.reg.list {
		if nameIn(m.Detect.Comm, v) || nameIn(m.Detect.Argv0, v) {
			return m
		}
	}
	return nil
}

// GroupMember is one process read behind a wrapper.
type GroupMember struct {
	PID     int      `json:"pid"`
	Depth   int      `json:"depth"`
	Comm    string   `json:"comm"`
	Argv    []string `json:"argv"`
	Exe     string   `json:"exe,omitempty"`
	Matched bool     `json:"matched"`
	Rule    string   `json:"rule,omitempty"`
}

// walker walks the foreground group depth-first behind a wrapper leader:
// children of every thread, only members of the leader's group, members
// with neither comm nor argv skipped, at most WalkDepth levels and
// WalkMembers members. Every member is walked, not only wrappers.
type walker struct {
	d     *Detector
	pgid  int
	read  int
	stats int
	t     *trace
	chain []string
	kids  [][]int // reused child lists per depth
}

func (w *walker) visit(pid, nthreads, depth int) *Match {
	if depth > WalkDepth {
		return nil
	}
	for len(w.kids) < depth {
		w.kids = append(w.kids, nil)
	}
	kids := w.d.sys.children(pid, nthreads, w.kids[depth-1][:0])
	w.kids[depth-1] = kids
	var buf [statBufSize]byte
	for i := 0; i < len(kids); i++ {
		kid := w.kids[depth-1][i]
		if w.read >= WalkMembers || w.stats >= walkStats {
			return nil
		}
		w.stats++
		st, err := w.d.sys.stat(kid, buf[:])
		if err != nil || st.pgrp != w.pgid {
			continue
		}
		p := w.d.sys.describe(kid, st)
		if p.empty() {
			continue
		}
		w.read++
		v := newView(p)
		h, rule, id := w.d.identify(v, w.t)
		if w.t != nil {
			w.t.group = append(w.t.group, GroupMember{PID: kid, Depth: depth, Comm: p.Comm, Argv: p.Argv, Exe: p.Exe,
				Matched: id != agentstate.IdentityNone, Rule: rule})
		}
		if id != agentstate.IdentityNone {
			return &Match{Agent: true, HarnessID: h, Rule: rule, Identity: id, Process: p,
				Via: append([]string(nil), w.chain...), Running: true}
		}
		if depth < WalkDepth {
			w.chain = append(w.chain, p.Label())
			found := w.visit(kid, st.nthreads, depth+1)
			w.chain = w.chain[:len(w.chain)-1]
			if found != nil {
				return found
			}
		}
	}
	return nil
}
