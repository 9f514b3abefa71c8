package daemon

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
)

// The worktrees tuios made (docs/agents.md, fan and worktrees): one record
// per session made by worktree new, worktree pull or fan, kept in
// worktrees/worktrees.json under the state dir (0600, written atomically
// after each change) so a restart keeps them, and a session that comes back
// keeps its fan group. The git side is package worktree; this file keeps
// only who is whose.
//
// A record outlives its session (worktree ls shows the worktree with its
// session closed) and goes with worktree rm, or with fan keep for the
// attempts it removes. Its worktree folder may vanish behind tuios's back:
// the record then reads gone, found by looking at the folder (no git).
//
// The fan group: every session of one fan carries a tag (Session.fan)
// with the fan's stem and repository, and the session id of the pane's
// session that started it. The tag is what the target check reads
// (caller.reaches): a pane reaches its own session, the sessions of its
// fan group, and the sessions a fan from its session started.
//
// Locking: wts.mu is a leaf. Nothing is taken under it; records leave it
// as copies. No git runs under any lock.

// maxWorktreesFile bounds the records file read at start.
const maxWorktreesFile = 16 << 20

// wtRecord is one worktree tuios made and the session in it.
type wtRecord struct {
	Session   string `json:"session"`
	SessionID string `json:"session_id"`
	// Repo is the main checkout's folder; RepoName its base name.
	Repo     string `json:"repo"`
	RepoName string `json:"repo_name"`
	Worktree string `json:"worktree"`
	Branch   string `json:"branch"`
	// Base is the base as recorded: the branch the main checkout had
	// for a fan made from HEAD, else the ref given, else the commit.
	Base    string `json:"base"`
	BaseSHA string `json:"base_sha"`
	// Group is the fan's stem (fan/add-retry); "" for worktree new.
	Group   string `json:"group,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
	// Agent is the agent string as given ("" for a shell), Command the
	// argv it ran, Window the agent's window.
	Agent   string `json:"agent,omitempty"`
	Command string `json:"command,omitempty"`
	Window  string `json:"window,omitempty"`
	// The first prompt: pending, held, sent, not_sent or stalled ("" for
	// none).
	PromptStatus  string `json:"prompt_status,omitempty"`
	PromptNote    string `json:"prompt_note,omitempty"`
	PromptReadyBy string `json:"prompt_ready_by,omitempty"`
	// LaunchedBy is the session id of the pane that made it ("" for the
	// person).
	LaunchedBy string               `json:"launched_by,omitempty"`
	Created    int64                `json:"created"`
	Check      *proto.WorktreeCheck `json:"check,omitempty"`
	// PulledFrom is HOST:SESSION for a worktree pull.
	PulledFrom string `json:"pulled_from,omitempty"`
}

// fanTag is a session's place in the worktrees: immutable once set.
type fanTag struct {
	group      string // the fan's stem; "" outside a fan
	repo       string // the main checkout
	launchedBy string // the session id of the pane that started it
	worktree   string
}

// worktrees is the table of records.
type worktrees struct {
	s    *Server
	path string // "" keeps nothing

	mu       sync.Mutex
	recs     []*wtRecord
	reserved map[string]string // names being made: branch@repo, session, folder → who
}

func newWorktrees(s *Server) *worktrees {
	w := &worktrees{s: s, reserved: map[string]string{}}
	if s.opt.StateDir != "" {
		w.path = filepath.Join(s.opt.StateDir, "worktrees", "worktrees.json")
	}
	return w
}

type worktreesFile struct {
	Version   int         `json:"version"`
	Worktrees []*wtRecord `json:"worktrees"`
}

// load reads the records once the sessions came back, and tags the
// sessions that did. Called from comeBack, before any caller is served.
func (t *worktrees) load() {
	if t.path == "" {
		return
	}
	b, why := readStateFile(t.path, t.s.uid, maxWorktreesFile)
	var f worktreesFile
	if why == "" && b != nil {
		if err := json.Unmarshal(b, &f); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		setAside(t.s, "worktrees", t.path, why, "started with no worktree records (the worktrees themselves are untouched)")
		return
	}
	t.mu.Lock()
	for _, r := range f.Worktrees {
		if r != nil && r.SessionID != "" && r.Worktree != "" {
			t.recs = append(t.recs, r)
		}
	}
	recs := t.copiesLocked(nil)
	t.mu.Unlock()
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	for _, r := range recs {
		if ss := t.s.sessions[r.Session]; ss != nil && ss.ID == r.SessionID {
			ss.fan.Store(r.tag())
		}
	}
}

func (r *wtRecord) tag() *fanTag {
	return &fanTag{group: r.Group, repo: r.Repo, launchedBy: r.LaunchedBy, worktree: r.Worktree}
}

// saveLocked writes the records; a failure is logged, they stay in
// memory.
func (t *worktrees) saveLocked() {
	if t.path == "" {
		return
	}
	b, err := json.MarshalIndent(worktreesFile{Version: 1, Worktrees: t.recs}, "", " ")
	if err == nil {
		err = writeFileAtomic(t.path, b)
	}
	if err != nil {
		t.s.opt.Logf("worktrees: saving %s: %v", t.path, err)
	}
}

// copiesLocked copies the records keep accepts (nil: all), oldest first.
func (t *worktrees) copiesLocked(keep func(*wtRecord) bool) []wtRecord {
	var out []wtRecord
	for _, r := range t.recs {
		if keep == nil || keep(r) {
			c := *r
			if r.Check != nil {
				ck := *r.Check
				c.Check = &ck
			}
			out = append(out, c)
		}
	}
	return out
}

// all copies the records keep accepts.
func (t *worktrees) all(keep func(*wtRecord) bool) []wtRecord {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.copiesLocked(keep)
}

// bySession is the record of a session (by name, the live one first).
func (t *worktrees) bySession(name string) (wtRecord, bool) {
	t.s.mu.Lock()
	id := ""
	if ss := t.s.sessions[name]; ss != nil {
		id = ss.ID
	}
	t.s.mu.Unlock()
	recs := t.all(func(r *wtRecord) bool { return r.Session == name })
	for _, r := range recs {
		if r.SessionID == id {
			return r, true
		}
	}
	if len(recs) > 0 {
		return recs[len(recs)-1], true
	}
	return wtRecord{}, false
}

// group is a fan's attempts, in attempt order.
func (t *worktrees) group(repo, group string) []wtRecord {
	recs := t.all(func(r *wtRecord) bool { return r.Group == group && r.Repo == repo })
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Attempt < recs[j].Attempt })
	return recs
}

// add keeps new records and saves.
func (t *worktrees) add(recs ...*wtRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs = append(t.recs, recs...)
	t.saveLocked()
}

// update changes the record of a session id and saves; false when there
// is none.
func (t *worktrees) update(sessionID string, edit func(*wtRecord)) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range t.recs {
		if r.SessionID == sessionID {
			edit(r)
			t.saveLocked()
			return true
		}
	}
	return false
}

// forget drops the record of a session id and saves.
func (t *worktrees) forget(sessionID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs = slices.DeleteFunc(t.recs, func(r *wtRecord) bool { return r.SessionID == sessionID })
	t.saveLocked()
}

// reserve holds names while a worktree is made, so two calls cannot make
// the same branch, session or folder at once: the second is refused at
// once, never kept waiting. It returns the name already held, if any.
func (t *worktrees) reserve(names []string, who string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range names {
		if _, held := t.reserved[n]; held {
			return n, false
		}
	}
	for _, n := range names {
		t.reserved[n] = who
	}
	return "", true
}

func (t *worktrees) release(names []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range names {
		delete(t.reserved, n)
	}
}

// fanReach says whether a pane's session own reaches session ss through
// the worktrees: ss is in own's fan group, or a fan from own started it.
// Reads only the tags (atomics): safe under s.mu.
func fanReach(own, ss *Session) bool {
	if own == nil || ss == nil || own == ss {
		return own == ss && own != nil
	}
	t := ss.fan.Load()
	if t == nil {
		return false
	}
	if t.launchedBy != "" && t.launchedBy == own.ID {
		return true
	}
	o := own.fan.Load()
	return o != nil && o.group != "" && o.group == t.group && o.repo == t.repo
}

// groupOf is a session's fan group ("" for none).
func groupOf(ss *Session) string {
	if ss == nil {
		return ""
	}
	if t := ss.fan.Load(); t != nil {
		return t.group
	}
	return ""
}

// normGroup reads a group as a person writes it: fan/x or x.
func normGroup(g string) string {
	g = strings.TrimSpace(g)
	if g == "" || strings.HasPrefix(g, worktree.FanPrefix) {
		return g
	}
	return worktree.FanPrefix + g
}

// fanGroupRuleLocked: a pane without admin reads its fan group and the sessions
// a fan from it started (fanReach); writing there (typing, notes, the
// queue, starting agents) needs the fan grant as well. Called with s.mu
// held, after reaches.
func fanGroupRuleLocked(verb string, a access, c caller, ss *Session) *proto.Error {
	if !c.inside || c.link || c.own || c.pane == nil || ss == nil || c.pane.session == ss || c.grants.Has(grant.Admin) {
		return nil
	}
	if !a.types() && a.grants()&^grant.Read == 0 {
		return nil // a read
	}
	if c.grants.Has(grant.Fan) {
		return nil
	}
	return proto.Errorf(proto.CodeForbidden, "%s is refused for this pane: session %q is in its fan group, and writing there needs the fan grant (write covers only its own session)",
		verb, ss.Name).WithHint(grantHint(grant.Fan, c))
}
