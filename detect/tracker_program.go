package detect

import (
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
	"golang.org/x/sys/unix"
)

// programStatus holds a pane's OSC 7501 records (the Program Status
// protocol): each report replaces its record whole; the most urgent record
// is the pane's state at source program.
type programStatus struct {
	seen    bool // a 7501 report arrived since the last full reset
	records []programRecord
	owned   bool // the last summary was applied
}

type programRecord struct {
	vt.ProgramStatus
	at   time.Time
	pgid int // the foreground group that reported it, when not the shell
	// needGroup: pgid is read (from /proc) after the pane's lock is
	// released; see setGroups.
	needGroup bool
}

// urgency orders record states: the most urgent one is the summary.
func urgency(state string) int {
	switch state {
	case "blocked":
		return 5
	case "error":
		return 4
	case "working":
		return 3
	case "done":
		return 2
	case "idle":
		return 1
	}
	return 0
}

func (p *Pane) programReport(st vt.ProgramStatus, now time.Time) {
	if st.Query {
		return // the screen answers the support query itself
	}
	ps := &p.program
	ps.seen = true
	if st.State == "clear" {
		ps.remove(func(r *programRecord) bool {
			return st.ID == "" || r.ID == st.ID || strings.HasPrefix(r.ID, st.ID+"/")
		})
	} else {
		rec := programRecord{ProgramStatus: st, at: now}
		// A record from a foreground job other than the shell ends when
		// that job's process group is gone (checked on the tick), so a
		// crashed program cannot leave working behind. The group is read
		// once the pane's lock is released.
		if p.shellPID > 0 {
			rec.needGroup = true
			p.work.fg = true
		}
		ps.remove(func(r *programRecord) bool { return r.ID == st.ID })
		ps.records = append(ps.records, rec)
	}
	ps.publish(p)
}

// setGroups gives the records that arrived since the last foreground
// read the group that was in the foreground: a job other than the shell.
func (ps *programStatus) setGroups(fg Foreground, err error) {
	for i := range ps.records {
		r := &ps.records[i]
		if !r.needGroup {
			continue
		}
		r.needGroup = false
		if err == nil && fg.Running && !fg.AtShell {
			r.pgid = fg.Leader.PID
		}
	}
}

func (ps *programStatus) remove(drop func(*programRecord) bool) bool {
	kept := ps.records[:0]
	removed := false
	for i := range ps.records {
		if drop(&ps.records[i]) {
			removed = true
			continue
		}
		kept = append(kept, ps.records[i])
	}
	ps.records = kept
	return removed
}

// publish applies the summary record, or, when none remain and the
// program source owns the pane, reports none at program rank and yields
// so the detector and the screen look again.
func (ps *programStatus) publish(p *Pane) {
	a := p.t.arb
	if len(ps.records) == 0 {
		if b := a.Brief(p.id); b.Claimed && b.Source == agentstate.SourceProgram {
			a.Apply(p.id, agentstate.Report{State: agentstate.None, Source: agentstate.SourceProgram})
			a.Yield(p.id, agentstate.SourceProgram)
		}
		ps.owned = false
		return
	}
	best := &ps.records[0]
	for i := range ps.records {
		r := &ps.records[i]
		u, bu := urgency(r.State), urgency(best.State)
		switch {
		case u > bu:
			best = r
		case u == bu && (r.ID == "") != (best.ID == ""):
			if r.ID == "" {
				best = r // the root among equals
			}
		case u == bu && !r.at.Before(best.at) && (r.ID == "") == (best.ID == ""):
			best = r // then the newest
		}
	}
	rep := agentstate.Report{Source: agentstate.SourceProgram, Harness: p.harness}
	switch best.State {
	case "working":
		rep.State = agentstate.Working
	case "blocked":
		rep.State = agentstate.NeedsInput
		switch best.Kind {
		case "permission":
			rep.Kind = agentstate.KindApproval
		case "question":
			rep.Kind = agentstate.KindQuestion
		case "auth":
			rep.Kind = agentstate.KindAuth
		}
	case "done":
		rep.State = agentstate.Done
	case "error":
		rep.State = agentstate.Errored
	default:
		rep.State = agentstate.Idle
	}
	switch {
	case best.Title != "" && best.Msg != "":
		rep.Message = best.Title + ": " + best.Msg
	case best.Title != "":
		rep.Message = best.Title
	default:
		rep.Message = best.Msg
	}
	ps.owned = a.Apply(p.id, rep).Applied
}

// prompt: a new shell prompt (OSC 133 A); live work records end.
func (ps *programStatus) prompt(p *Pane) { ps.exited(p) }

// exited: the pane's process ended; live work records end with it.
func (ps *programStatus) exited(p *Pane) {
	if ps.remove(func(r *programRecord) bool {
		return r.State == "working" || r.State == "blocked" || r.State == "idle"
	}) {
		ps.publish(p)
	}
}

// typed: the person typed; finished and failed records have been seen.
func (ps *programStatus) typed(p *Pane) {
	if ps.remove(func(r *programRecord) bool { return r.State == "done" || r.State == "error" }) {
		ps.publish(p)
	}
}

// reset: a full reset (RIS) ends every record and lets OSC 9;4 count again.
func (ps *programStatus) reset(p *Pane) {
	ps.seen = false
	if len(ps.records) > 0 {
		ps.records = ps.records[:0]
		ps.publish(p)
	}
}

// sweepGroups ends records whose reporting process group has no process
// left (kill(-pgid, 0) answers ESRCH: a signal-0 probe, which never
// blocks, so it runs under the pane's lock).
func (ps *programStatus) sweepGroups(p *Pane) {
	if len(ps.records) == 0 {
		return
	}
	if ps.remove(func(r *programRecord) bool {
		return r.pgid > 1 && unix.Kill(-r.pgid, 0) == unix.ESRCH
	}) {
		ps.publish(p)
	}
}
