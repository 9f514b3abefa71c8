package daemon

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
	"github.com/tuios/tuios/review"
)

// compare-fan, verify-fan and keep-fan: what a person does with a fan's
// attempts once the agents are done. Each names the fan by one of its
// sessions (default: the caller's own), or by its group.

// Bounds of fan verify.
const (
	verifyMaxCommand = 4096
	verifyDefault    = 10 * time.Minute
)

// fanOf finds a fan's records from a session of it or its group. A pane
// caller must reach the session named, or be in the group or have
// started it.
func (s *Server) fanOf(cn *conn, t proto.FanTargetParams) (wtRecord, []wtRecord, *proto.Error) {
	var rec wtRecord
	switch {
	case t.Group != "":
		group := normGroup(t.Group)
		repoRoot := ""
		if t.Repo != "" {
			ctx, cancel := context.WithTimeout(cn.ctx, 10*time.Second)
			r, err := s.openRepo(ctx, cn, t.Repo)
			cancel()
			if err != nil {
				return rec, nil, err
			}
			repoRoot = r.Root
		}
		recs := s.wts.all(func(r *wtRecord) bool { return r.Group == group && (repoRoot == "" || r.Repo == repoRoot) })
		if len(recs) == 0 {
			return rec, nil, proto.Errorf(codeNotWorktree, "no fan has the group %q", group).
				WithHint(proto.Hint{Param: "group", Command: "tuios worktree ls", Detail: "worktree ls lists the worktrees and their groups"})
		}
		repos := map[string]bool{}
		for _, r := range recs {
			repos[r.Repo] = true
		}
		if len(repos) > 1 {
			return rec, nil, proto.Errorf(proto.CodeInvalidParams, "two repositories have a fan %q", group).
				WithHint(proto.Hint{Param: "repo", Detail: "name the repository with --repo, or name a session of the fan"})
		}
		rec = recs[0]
	default:
		name := t.Session
		if name == "" {
			s.mu.Lock()
			if w := s.callerWindow(cn); w != nil {
				name = w.session.Name
			}
			s.mu.Unlock()
		}
		if name == "" {
			return rec, nil, proto.Errorf(proto.CodeInvalidParams, "name a session of the fan").WithHint(proto.Hint{Param: "session", Command: "tuios worktree ls"})
		}
		var ok bool
		if rec, ok = s.wts.bySession(name); !ok {
			s.mu.Lock()
			_, err := s.findSession(cn, name)
			s.mu.Unlock()
			if err != nil {
				return rec, nil, err
			}
			return rec, nil, proto.Errorf(codeNotWorktree, "session %q is in no worktree tuios made", name).
				WithHint(proto.Hint{Param: "session", Command: "tuios worktree ls"})
		}
		if rec.Group == "" {
			return rec, nil, proto.Errorf(codeNotWorktree, "session %q is a worktree (%s) but in no fan", name, rec.Branch).
				WithHint(proto.Hint{Param: "session", Detail: "compare, verify and keep work on the attempts of a fan (tuios fan)"})
		}
	}
	if err := s.fanInReach(cn, rec); err != nil {
		return rec, nil, err
	}
	return rec, s.wts.group(rec.Repo, rec.Group), nil
}

// fanInReach: the person, a link and an admin pane reach every fan; a
// pane the fan it is in, or one a fan from its session started.
func (s *Server) fanInReach(cn *conn, rec wtRecord) *proto.Error {
	if !cn.callKnown || !cn.call.inside || cn.call.grants.Has(grant.Admin) && cn.call.restrict == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := cn.call
	if c.pane != nil {
		own := c.pane.session
		if rec.LaunchedBy == own.ID {
			return nil
		}
		if t := own.fan.Load(); t != nil && t.group == rec.Group && t.repo == rec.Repo {
			return nil
		}
	}
	if ss := s.sessions[rec.Session]; ss != nil && ss.ID == rec.SessionID {
		return s.gateTargetLocked(cn, ss, nil)
	}
	return s.outOfReach(cn.verbName, c, nil)
}

// rowsOf reads each attempt as it is now: its agent's state, whether its
// folder is still there, and (changes) what it changed against the base.
func (s *Server) rowsOf(ctx context.Context, recs []wtRecord, changes bool) []proto.FanRow {
	rows := make([]proto.FanRow, len(recs))
	arb := s.tracker.Arbiter()
	for i, r := range recs {
		row := proto.FanRow{Attempt: r.Attempt, Session: r.Session, Branch: r.Branch, Worktree: r.Worktree, Agent: r.Agent, WindowID: r.Window,
			PromptStatus: r.PromptStatus, Check: r.Check}
		if row.Agent == "" {
			row.Agent = "shell"
		}
		s.mu.Lock()
		ss := s.sessions[r.Session]
		row.SessionOpen = ss != nil && ss.ID == r.SessionID
		_, alive := s.windows[r.Window]
		s.mu.Unlock()
		switch {
		case !row.SessionOpen:
			row.State = "closed"
		case alive:
			row.State = arb.Get(r.Window).State.String()
		default:
			row.State = agentstate.None.String()
		}
		if _, err := os.Stat(r.Worktree); err != nil {
			row.Gone = true
		}
		rows[i] = row
	}
	if !changes {
		return rows
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range rows {
		if rows[i].Gone {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			d, err := review.ComputeDiff(ctx, review.DiffOptions{Dir: rows[i].Worktree, Base: recs[i].BaseSHA, Stat: true, Env: s.opt.Env})
			if err != nil {
				rows[i].ChangesError = attn.ReviewError(err).Message
				return
			}
			rows[i].Files, rows[i].Added, rows[i].Removed, rows[i].ChangesRead = d.Totals.Files, d.Totals.Added, d.Totals.Removed, true
		}()
	}
	wg.Wait()
	return rows
}

func (s *Server) compareFan(cn *conn, p *proto.CompareFanParams) (any, *proto.Error) {
	rec, recs, err := s.fanOf(cn, p.FanTargetParams)
	if err != nil {
		return nil, err
	}
	rows := s.rowsOf(cn.ctx, recs, !p.NoChanges)
	return proto.FanCompare{Type: "fan_compare", Group: rec.Group, Repo: rec.Repo, RepoName: rec.RepoName, Base: rec.Base,
		BaseSHA: rec.BaseSHA, Attempts: rows, Untrusted: true}, nil
}

// verifyScript runs the check, then says how it ended on the window's
// last line.
const verifyScript = `sh -c "$1"; s=$?; if [ "$s" -eq 0 ]; then printf '\n[verify passed]\n'; else printf '\n[verify failed: exit %d]\n' "$s"; fi; exit "$s"`

func (s *Server) verifyFan(cn *conn, p *proto.VerifyFanParams) (any, *proto.Error) {
	if strings.TrimSpace(p.Command) == "" || strings.ContainsRune(p.Command, 0) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the check is empty: give the command after --").
			WithHint(proto.Hint{Param: "command", Command: "tuios fan verify SESSION -- go test ./..."})
	}
	rec, recs, err := s.fanOf(cn, p.FanTargetParams)
	if err != nil {
		return nil, err
	}
	timeout := verifyDefault
	if p.Timeout > 0 {
		timeout = time.Duration(p.Timeout) * time.Millisecond
	}
	now := s.clock.Now().UnixNano()
	type started struct {
		row *proto.VerifyRow
		rec wtRecord
		w   *Window
	}
	var runs []started
	rows := make([]proto.VerifyRow, len(recs))
	for i, r := range recs {
		rows[i] = proto.VerifyRow{Session: r.Session, Branch: r.Branch}
		row := &rows[i]
		s.mu.Lock()
		ss := s.sessions[r.Session]
		if ss != nil && ss.ID != r.SessionID {
			ss = nil
		}
		var old *Window
		if r.Check != nil {
			old = s.windows[r.Check.Window]
		}
		s.mu.Unlock()
		if _, serr := os.Stat(r.Worktree); serr != nil {
			row.Status, row.Note = "skipped", "the worktree is gone"
			continue
		}
		if ss == nil {
			row.Status, row.Note = "skipped", "the attempt's session is closed"
			continue
		}
		if old != nil && old.session == ss {
			s.closeWindow(old) // the last check's window, kept when it failed
		}
		s.mu.Lock()
		name := freeNameLocked(ss, "verify")
		s.mu.Unlock()
		w, werr := s.startWindow(ss, windowSpec{name: name, argv: []string{"/bin/sh", "-c", verifyScript, "verify", p.Command}, cwd: r.Worktree,
			noFocus: true, granted: true, stays: true})
		if werr != nil {
			row.Status, row.Note = "skipped", werr.Message
			continue
		}
		row.Status, row.WindowID = "running", w.ID
		s.wts.update(r.SessionID, func(x *wtRecord) {
			x.Check = &proto.WorktreeCheck{Command: clipText(p.Command, 200), Status: "running", Window: w.ID, At: now}
		})
		runs = append(runs, started{row: row, rec: r, w: w})
	}
	var rowsMu sync.Mutex // the rows, written as checks end, read for the answer
	finish := func(st started, status string, code int, note string) {
		if status == "passed" {
			s.closeWindow(st.w)
		}
		rowsMu.Lock()
		st.row.Status, st.row.Exit, st.row.Kept = status, code, status != "passed"
		if note != "" {
			st.row.Note = note
		}
		rowsMu.Unlock()
		s.wts.update(st.rec.SessionID, func(x *wtRecord) {
			if x.Check != nil && x.Check.Window == st.w.ID {
				x.Check.Status, x.Check.Exit = status, code
				if status == "passed" {
					x.Check.Window = ""
				}
			}
		})
	}
	expired := make(chan struct{})
	t := s.clock.AfterFunc(timeout, func() { close(expired) })
	var wg sync.WaitGroup
	for _, st := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-st.w.exitCh:
				st.w.mu.Lock()
				code := st.w.exitStatus.Code
				st.w.mu.Unlock()
				if code == 0 {
					finish(st, "passed", 0, "")
				} else {
					finish(st, "failed", code, "")
				}
			case <-expired:
				finish(st, "timeout", -1, "still running after "+timeout.String()+": its window stays open")
			case <-s.done:
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); t.Stop(); close(done) }()
	res := proto.FanVerify{Type: "fan_verify", Group: rec.Group, Repo: rec.Repo, Command: p.Command, Waited: !p.NoWait}
	if !p.NoWait {
		select {
		case <-done:
		case <-cn.closed:
			return nil, proto.Errorf(proto.CodeTimeout, "the caller hung up; the checks go on (tuios fan compare shows how they end)")
		}
	} else {
		// The rows are answered as they stand; the checks end on their own.
		rowsMu.Lock()
		cp := make([]proto.VerifyRow, len(rows))
		copy(cp, rows)
		rowsMu.Unlock()
		res.Attempts = cp
		return res, nil
	}
	failed := 0
	for _, r := range rows {
		if r.Status == "failed" || r.Status == "timeout" {
			failed++
		}
	}
	res.Attempts, res.Failed = rows, failed
	return res, nil
}

func (s *Server) keepFan(cn *conn, p *proto.KeepFanParams) (any, *proto.Error) {
	if p.Stash && p.Force {
		return nil, proto.Errorf(proto.CodeInvalidParams, "give --stash or --force, not both").WithHint(proto.Hint{Param: "stash"})
	}
	if !p.Merge && (p.Mode != "" || p.Into != "") {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--squash, --ff-only and --into go with --merge").WithHint(proto.Hint{Param: "merge"})
	}
	rec, recs, err := s.fanOf(cn, proto.FanTargetParams{Session: p.Session})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(cn.ctx, wtGitWait)
	defer cancel()
	repo, err := s.openRepo(ctx, cn, rec.Repo)
	if err != nil {
		return nil, err
	}
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		return nil, proto.Errorf(codeNotWorktree, "the kept attempt's worktree %s is gone", rec.Worktree).
			WithHint(proto.Hint{Detail: "keep another attempt (tuios fan compare), or bring the branch " + rec.Branch + " back by hand"})
	}
	// Every refusal first: the others' changes.
	var others []wtRecord
	var dirty []string
	for _, o := range recs {
		if o.SessionID == rec.SessionID {
			continue
		}
		others = append(others, o)
		if _, serr := os.Stat(o.Worktree); serr != nil {
			continue
		}
		ch, e := repo.Status(ctx, o.Worktree)
		if e != nil {
			return nil, wtError(e)
		}
		if ch.Dirty() && !p.Stash && !p.Force {
			dirty = append(dirty, o.Session+" ("+strings.Join(ch.Paths, ", ")+")")
		}
	}
	if len(dirty) > 0 {
		return nil, proto.Errorf(codeWorktreeDirty, "the attempts to remove have uncommitted changes: %s; nothing was kept or removed", strings.Join(dirty, "; ")).
			WithHint(proto.Hint{Param: "stash", Detail: "--stash keeps them in git stash (tuios: BRANCH), --force throws them away"})
	}
	res := proto.FanKept{Type: "fan_kept", Kept: rec.Session, Branch: rec.Branch, Group: rec.Group, Worktree: rec.Worktree}
	if p.Merge {
		into := p.Into
		if into == "" {
			if ok, _ := repo.BranchExists(ctx, rec.Base); !ok {
				return nil, proto.Errorf(proto.CodeInvalidParams, "the fan's base %q is no branch to merge into", rec.Base).
					WithHint(proto.Hint{Param: "into", Detail: "name the branch with --into"})
			}
			into = rec.Base
		}
		mode := p.Mode
		if mode == "" {
			mode = worktree.MergeNoFF
		}
		k, e := repo.Keep(ctx, worktree.KeepOptions{Worktree: rec.Worktree, Branch: rec.Branch, Into: into, Mode: mode})
		if e != nil {
			return nil, wtError(e)
		}
		res.Merged = &k
	}
	removed := []proto.FanRemoval{}
	for _, o := range others {
		kr := proto.FanRemoval{Session: o.Session, Branch: o.Branch}
		rm, e := repo.Remove(ctx, o.Worktree, worktree.RemoveOptions{Stash: p.Stash, Force: p.Force, StashMessage: "tuios: " + o.Branch})
		kr.Removed = rm
		if e != nil {
			kr.Error = wtError(e).Message
			removed = append(removed, kr)
			continue
		}
		s.closeRecordSession(o)
		s.wts.forget(o.SessionID)
		removed = append(removed, kr)
	}
	res.Removed = removed
	return res, nil
}

// closeRecordSession closes a record's session if it is still the one the
// record made.
func (s *Server) closeRecordSession(r wtRecord) {
	s.mu.Lock()
	ss := s.sessions[r.Session]
	s.mu.Unlock()
	if ss != nil && ss.ID == r.SessionID {
		s.killSession(ss)
	}
}
