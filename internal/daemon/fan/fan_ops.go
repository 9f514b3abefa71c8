package fan

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/worktree"
	"github.com/tuios/tuios/review"
)

// compare-fan, verify-fan and keep-fan: what a person does with a fan's
// attempts once the agents are done. Each names the fan by one of its
// sessions (default: the caller's own), or by its group.

// verifyDefault is how long fan verify waits for the checks by default.
const verifyDefault = 10 * time.Minute

// fanOf finds a fan's records from a session of it or its group. A pane
// caller must reach the session named, or be in the group or have
// started it.
func (t *Worktrees) fanOf(c core.Call, target proto.FanTargetParams) (record, []record, *proto.Error) {
	var rec record
	switch {
	case target.Group != "":
		group := normGroup(target.Group)
		repoRoot := ""
		if target.Repo != "" {
			ctx, cancel := context.WithTimeout(c.Context(), 10*time.Second)
			r, err := OpenRepo(ctx, t.h, c, target.Repo)
			cancel()
			if err != nil {
				return rec, nil, err
			}
			repoRoot = r.Root
		}
		recs := t.all(func(r *record) bool { return r.Group == group && (repoRoot == "" || r.Repo == repoRoot) })
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
		name := target.Session
		if name == "" {
			name = t.h.FanCaller(c).Session
		}
		if name == "" {
			return rec, nil, proto.Errorf(proto.CodeInvalidParams, "name a session of the fan").WithHint(proto.Hint{Param: "session", Command: "tuios worktree ls"})
		}
		var ok bool
		if rec, ok = t.bySession(name); !ok {
			if err := t.h.UnknownSession(name); err != nil {
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
	if err := t.inReach(c, rec); err != nil {
		return rec, nil, err
	}
	return rec, t.group(rec.Repo, rec.Group), nil
}

// changesError is why an attempt's changes could not be read.
func changesError(err error) string {
	var de *review.DiffError
	if errors.As(err, &de) {
		return de.Message
	}
	return err.Error()
}

// rowsOf reads each attempt as it is now: its agent's state, whether its
// folder is still there, and (changes) what it changed against the base.
func (t *Worktrees) rowsOf(ctx context.Context, recs []record, changes bool) []proto.FanRow {
	h := t.h
	rows := make([]proto.FanRow, len(recs))
	arb := h.Tracker().Arbiter()
	for i, r := range recs {
		row := proto.FanRow{Attempt: r.Attempt, Session: r.Session, Branch: r.Branch, Worktree: r.Worktree, Agent: r.Agent, WindowID: r.Window,
			PromptStatus: r.PromptStatus, Check: r.Check}
		if row.Agent == "" {
			row.Agent = "shell"
		}
		sv, open := h.FindSession(r.Session)
		row.SessionOpen = open && sv.ID == r.SessionID
		_, alive := h.Find(r.Window)
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
	env := h.Options().Env
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
			d, err := review.ComputeDiff(ctx, review.DiffOptions{Dir: rows[i].Worktree, Base: recs[i].BaseSHA, Stat: true, Env: env})
			if err != nil {
				rows[i].ChangesError = changesError(err)
				return
			}
			rows[i].Files, rows[i].Added, rows[i].Removed, rows[i].ChangesRead = d.Totals.Files, d.Totals.Added, d.Totals.Removed, true
		}()
	}
	wg.Wait()
	return rows
}

func (t *Worktrees) compareFan(c core.Call, p *proto.CompareFanParams) (any, *proto.Error) {
	rec, recs, err := t.fanOf(c, p.FanTargetParams)
	if err != nil {
		return nil, err
	}
	rows := t.rowsOf(c.Context(), recs, !p.NoChanges)
	return proto.FanCompare{Type: "fan_compare", Group: rec.Group, Repo: rec.Repo, RepoName: rec.RepoName, Base: rec.Base,
		BaseSHA: rec.BaseSHA, Attempts: rows, Untrusted: true}, nil
}

// verifyScript runs the check, then says how it ended on the window's
// last line.
const verifyScript = `sh -c "$1"; s=$?; if [ "$s" -eq 0 ]; then printf '\n[verify passed]\n'; else printf '\n[verify failed: exit %d]\n' "$s"; fi; exit "$s"`

func (t *Worktrees) verifyFan(c core.Call, p *proto.VerifyFanParams) (any, *proto.Error) {
	h := t.h
	if strings.TrimSpace(p.Command) == "" || strings.ContainsRune(p.Command, 0) {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the check is empty: give the command after --").
			WithHint(proto.Hint{Param: "command", Command: "tuios fan verify SESSION -- go test ./..."})
	}
	rec, recs, err := t.fanOf(c, p.FanTargetParams)
	if err != nil {
		return nil, err
	}
	timeout := verifyDefault
	if p.Timeout > 0 {
		timeout = time.Duration(p.Timeout) * time.Millisecond
	}
	now := h.Clock().Now().UnixNano()
	type started struct {
		row *proto.VerifyRow
		rec record
		w   core.WindowView
	}
	var runs []started
	rows := make([]proto.VerifyRow, len(recs))
	for i, r := range recs {
		rows[i] = proto.VerifyRow{Session: r.Session, Branch: r.Branch}
		row := &rows[i]
		sv, open := h.FindSession(r.Session)
		open = open && sv.ID == r.SessionID
		var old core.WindowView
		oldOK := false
		if r.Check != nil {
			old, oldOK = h.Find(r.Check.Window)
		}
		if _, serr := os.Stat(r.Worktree); serr != nil {
			row.Status, row.Note = "skipped", "the worktree is gone"
			continue
		}
		if !open {
			row.Status, row.Note = "skipped", "the attempt's session is closed"
			continue
		}
		if oldOK && old.SessionID == r.SessionID {
			h.CloseWindow(old.ID) // the last check's window, kept when it failed
		}
		w, werr := h.StartWindow(r.SessionID, core.WindowSpec{Name: "verify", FreeName: true, Argv: []string{"/bin/sh", "-c", verifyScript, "verify", p.Command},
			Dir: r.Worktree, NoFocus: true, Granted: true, Stays: true})
		if werr != nil {
			row.Status, row.Note = "skipped", werr.Message
			continue
		}
		row.Status, row.WindowID = "running", w.ID
		t.update(r.SessionID, func(x *record) {
			x.Check = &proto.WorktreeCheck{Command: core.Clip(p.Command, 200), Status: "running", Window: w.ID, At: now}
		})
		runs = append(runs, started{row: row, rec: r, w: w})
	}
	var rowsMu sync.Mutex // the rows, written as checks end, read for the answer
	finish := func(st started, status string, code int, note string) {
		if status == "passed" {
			h.CloseWindow(st.w.ID)
		}
		rowsMu.Lock()
		st.row.Status, st.row.Exit, st.row.Kept = status, code, status != "passed"
		if note != "" {
			st.row.Note = note
		}
		rowsMu.Unlock()
		t.update(st.rec.SessionID, func(x *record) {
			if x.Check != nil && x.Check.Window == st.w.ID {
				x.Check.Status, x.Check.Exit = status, code
				if status == "passed" {
					x.Check.Window = ""
				}
			}
		})
	}
	expired := make(chan struct{})
	timer := h.Clock().AfterFunc(timeout, func() { close(expired) })
	var wg sync.WaitGroup
	for _, st := range runs {
		wg.Add(1)
		t.running.Add(1)
		go func() {
			defer t.running.Done()
			defer wg.Done()
			select {
			case <-st.w.Pane.Exited():
				if code, _ := st.w.Pane.ExitCode(); code == 0 {
					finish(st, "passed", 0, "")
				} else {
					finish(st, "failed", code, "")
				}
			case <-expired:
				finish(st, "timeout", -1, "still running after "+timeout.String()+": its window stays open")
			case <-h.Done():
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); timer.Stop(); close(done) }()
	res := proto.FanVerify{Type: "fan_verify", Group: rec.Group, Repo: rec.Repo, Command: p.Command, Waited: !p.NoWait}
	if !p.NoWait {
		select {
		case <-done:
		case <-c.Context().Done():
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

func (t *Worktrees) keepFan(c core.Call, p *proto.KeepFanParams) (any, *proto.Error) {
	if p.Stash && p.Force {
		return nil, proto.Errorf(proto.CodeInvalidParams, "give --stash or --force, not both").WithHint(proto.Hint{Param: "stash"})
	}
	if !p.Merge && (p.Mode != "" || p.Into != "") {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--squash, --ff-only and --into go with --merge").WithHint(proto.Hint{Param: "merge"})
	}
	rec, recs, err := t.fanOf(c, proto.FanTargetParams{Session: p.Session})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(c.Context(), GitWait)
	defer cancel()
	repo, err := OpenRepo(ctx, t.h, c, rec.Repo)
	if err != nil {
		return nil, err
	}
	if _, serr := os.Stat(rec.Worktree); serr != nil {
		return nil, proto.Errorf(codeNotWorktree, "the kept attempt's worktree %s is gone", rec.Worktree).
			WithHint(proto.Hint{Detail: "keep another attempt (tuios fan compare), or bring the branch " + rec.Branch + " back by hand"})
	}
	// Every refusal first: the others' changes.
	var others []record
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
		t.h.KillSession(o.Session, o.SessionID) // still the one the record made
		t.forget(o.SessionID)
		removed = append(removed, kr)
	}
	res.Removed = removed
	return res, nil
}
