package fan

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
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
// The fan group: every session of one fan carries a tag (core.FanTag, by
// session id) with the fan's stem and repository, and the session id of
// the pane's session that started it. The tag is what the core's target
// check reads (core.Fans.Tag): a pane reaches its own session, the
// sessions of its fan group, and the sessions a fan from its session
// started. Session ids are never reused, so a record's tag names only the
// session it made, live or closed.
//
// Locking: Worktrees.mu is a leaf. Nothing is taken under it; records
// leave it as copies. The tags are an immutable map swapped whole under
// it and read without it. No git runs under any lock.

// maxWorktreesFile bounds the records file read at start.
const maxWorktreesFile = 16 << 20

// record is one worktree tuios made and the session in it.
type record struct {
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

func (r *record) tag() *core.FanTag {
	return &core.FanTag{Group: r.Group, Repo: r.Repo, LaunchedBy: r.LaunchedBy, Worktree: r.Worktree}
}

type worktreesFile struct {
	Version int       `json:"version"`
	Records []*record `json:"worktrees"`
}

// load reads the records, and the tags of their sessions, once the
// daemon holds its socket: before the sessions come back and any caller
// is served.
func (t *Worktrees) load() {
	if t.path == "" {
		return
	}
	opt := t.h.Options()
	b, why := atomicfile.ReadPrivate(t.path, opt.UID, maxWorktreesFile)
	var recs []*record
	if why == "" && b != nil {
		var err error
		if recs, err = parseRecords(b); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		t.setAside(why)
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tags := maps.Clone(*t.tags.Load())
	for _, r := range recs {
		t.recs = append(t.recs, r)
		tags[r.SessionID] = r.tag()
	}
	t.tags.Store(&tags)
}

// parseRecords reads the records file: the records that name a session
// and a worktree.
func parseRecords(b []byte) ([]*record, error) {
	var f worktreesFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	var out []*record
	for _, r := range f.Records {
		if r != nil && r.SessionID != "" && r.Worktree != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// setAside moves a records file that was refused out of the way, so it is
// kept for a person to look at and never overwritten silently.
func (t *Worktrees) setAside(why string) {
	const what, then = "worktrees", "started with no worktree records (the worktrees themselves are untouched)"
	aside, err := atomicfile.SetAside(t.path, t.h.Clock().Now())
	if err != nil {
		t.h.Log().Errorf("%s: refused %s (%s) and could not move it aside: %v; %s", what, t.path, why, err, then)
		return
	}
	t.h.Log().Warnf("%s: refused %s (%s); moved it to %s and %s", what, t.path, why, aside, then)
}

// saveLocked writes the records; a failure is logged, they stay in
// memory.
func (t *Worktrees) saveLocked() {
	if t.path == "" {
		return
	}
	b, err := json.MarshalIndent(worktreesFile{Version: 1, Records: t.recs}, "", " ")
	if err == nil {
		err = atomicfile.WriteFile(t.path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	}
	if err != nil {
		t.h.Log().Infof("worktrees: saving %s: %v", t.path, err)
	}
}

// copiesLocked copies the records keep accepts (nil: all), oldest first.
func (t *Worktrees) copiesLocked(keep func(*record) bool) []record {
	var out []record
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
func (t *Worktrees) all(keep func(*record) bool) []record {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.copiesLocked(keep)
}

// bySession is the record of a session (by name, the live one first).
func (t *Worktrees) bySession(name string) (record, bool) {
	id := ""
	if sv, ok := t.h.FindSession(name); ok {
		id = sv.ID
	}
	recs := t.all(func(r *record) bool { return r.Session == name })
	for _, r := range recs {
		if r.SessionID == id {
			return r, true
		}
	}
	if len(recs) > 0 {
		return recs[len(recs)-1], true
	}
	return record{}, false
}

// group is a fan's attempts, in attempt order.
func (t *Worktrees) group(repo, group string) []record {
	recs := t.all(func(r *record) bool { return r.Group == group && r.Repo == repo })
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Attempt < recs[j].Attempt })
	return recs
}

// add keeps new records and saves.
func (t *Worktrees) add(recs ...*record) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs = append(t.recs, recs...)
	t.saveLocked()
}

// update changes the record of a session id and saves; false when there
// is none.
func (t *Worktrees) update(sessionID string, edit func(*record)) bool {
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

// forget drops the record of a session id, and its tag, and saves.
func (t *Worktrees) forget(sessionID string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs = slices.DeleteFunc(t.recs, func(r *record) bool { return r.SessionID == sessionID })
	t.setTagLocked(sessionID, nil)
	t.saveLocked()
}

// setTag gives the session whose id is sessionID its tag (nil: none).
func (t *Worktrees) setTag(sessionID string, tag *core.FanTag) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.setTagLocked(sessionID, tag)
}

func (t *Worktrees) setTagLocked(sessionID string, tag *core.FanTag) {
	old := *t.tags.Load()
	if _, had := old[sessionID]; !had && tag == nil {
		return
	}
	tags := maps.Clone(old)
	if tag == nil {
		delete(tags, sessionID)
	} else {
		tags[sessionID] = tag
	}
	t.tags.Store(&tags)
}

// Tag is the tag of the session whose id is sessionID (core.Fans): read
// without a lock.
func (t *Worktrees) Tag(sessionID string) *core.FanTag {
	return (*t.tags.Load())[sessionID]
}

// reserve holds names while a worktree is made, so two calls cannot make
// the same branch, session or folder at once: the second is refused at
// once, never kept waiting. It returns the name already held, if any.
func (t *Worktrees) reserve(names []string, who string) (string, bool) {
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

func (t *Worktrees) release(names []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range names {
		delete(t.reserved, n)
	}
}

// normGroup reads a group as a person writes it: fan/x or x.
func normGroup(g string) string {
	g = strings.TrimSpace(g)
	if g == "" || strings.HasPrefix(g, worktree.FanPrefix) {
		return g
	}
	return worktree.FanPrefix + g
}

// recordsPath is where the records are kept ("" for nowhere).
func recordsPath(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "worktrees", "worktrees.json")
}
