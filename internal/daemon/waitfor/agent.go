package waitfor

import (
	"context"
	"errors"
	"sort"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// waitAgent is wait-for agent-state: one window, any window of a session,
// or (select) the first pane a selector matches.
func (f *Feature) waitAgent(ctx context.Context, c core.Call, p *proto.WaitParams, result *proto.WaitResult, timedOut func(string) *proto.Error) (any, *proto.Error) {
	if p.Select != "" {
		return f.waitSelect(ctx, c, p, result, timedOut)
	}
	set, err := agentstate.ParseStateSet(p.Until)
	if err != nil {
		se, _ := err.(*agentstate.StateError)
		h := proto.Hint{Param: "until", Accepted: stateNames()}
		if se != nil {
			h.DidYouMean = se.DidYouMean
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "until: unknown state").WithHint(h)
	}
	result.State = set.String()
	arb := f.h.Tracker().Arbiter()
	if p.Window != "" {
		w, perr := f.h.Window(c, p.Session, p.Window)
		if perr != nil {
			return nil, perr
		}
		snap, werr := arb.Wait(ctx, w.ID, set)
		switch {
		case errors.Is(werr, agentstate.ErrPaneRemoved):
			return nil, proto.Errorf(proto.CodeWindowNotFound, "the window closed while waited on")
		case werr != nil:
			return nil, timedOut("agent state " + set.String())
		}
		result.Window, result.State = w.ID, snap.State.String()
		return result, nil
	}
	// Any window in the session: subscribe first, then check, so a change
	// between the two cannot be missed.
	ss, perr := f.h.Session(c, p.Session)
	if perr != nil {
		return nil, perr
	}
	sub := arb.Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	defer sub.Close()
	check := func() (string, agentstate.State, bool) {
		now, ok := f.h.FindSession(ss.Name)
		if !ok || now.ID != ss.ID { // it closed: it has no windows
			return "", 0, false
		}
		for _, w := range now.Windows {
			if st := arb.Brief(w.ID).State; set.Has(st) && (st != agentstate.None) {
				return w.ID, st, true
			}
		}
		return "", 0, false
	}
	for {
		if id, st, ok := check(); ok {
			result.Window, result.State = id, st.String()
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("agent state " + set.String())
		case <-sub.C:
		}
	}
}

// waitSelect is wait-for agent-state with a selector: the first pane the
// selector matches whose state is in until, in every session or the one
// named.
func (f *Feature) waitSelect(ctx context.Context, c core.Call, p *proto.WaitParams, result *proto.WaitResult, timedOut func(string) *proto.Error) (any, *proto.Error) {
	if p.Window != "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "select and window do not go together").WithHint(proto.Hint{Param: "select"})
	}
	sel, perr := core.ParseSelect(p.Select)
	if perr != nil {
		return nil, perr
	}
	var set agentstate.StateSet
	if p.Until != "" {
		var err error
		if set, err = agentstate.ParseStateSet(p.Until); err != nil {
			return nil, proto.Errorf(proto.CodeInvalidParams, "until: unknown state").WithHint(proto.Hint{Param: "until", Accepted: stateNames()})
		}
		result.State = set.String()
	}
	only := "" // the id of the one session named; "" for every session
	if p.Session == "" {
		if err := f.h.Wide(c, "select and no session"); err != nil {
			return nil, err
		}
	} else {
		ss, err := f.h.Session(c, p.Session)
		if err != nil {
			return nil, err
		}
		only = ss.ID
	}
	result.Select = sel.String()
	arb := f.h.Tracker().Arbiter()
	sub := arb.Subscribe(agentstate.SubscribeOptions{Buffer: 256})
	defer sub.Close()
	type seat struct {
		id string
		f  inbox.SelectorFields
	}
	check := func() (string, agentstate.State, bool) {
		// Every session: the reach was checked above (Wide, or the one
		// session's target check), as it was when the wait began.
		var seats []seat
		for _, ss := range f.h.View(nil).Sessions {
			if only != "" && ss.ID != only {
				continue
			}
			for _, w := range ss.Windows {
				seats = append(seats, seat{id: w.ID, f: inbox.SelectorFields{Session: ss.Name, Name: w.DisplayName}})
			}
		}
		if len(seats) > 0 {
			cwds := f.h.PaneCwds()
			for i := range seats {
				seats[i].f.Cwd = cwds[seats[i].id]
			}
		}
		sort.Slice(seats, func(i, j int) bool { return seats[i].id < seats[j].id })
		for _, st := range seats {
			b := arb.Brief(st.id)
			if b.State == agentstate.None || set != 0 && !set.Has(b.State) {
				continue
			}
			st.f.Harness, st.f.State = b.Harness, b.State
			if sel.Match(&st.f) {
				return st.id, b.State, true
			}
		}
		return "", 0, false
	}
	for {
		if id, st, ok := check(); ok {
			result.Window, result.State = id, st.String()
			return result, nil
		}
		select {
		case <-ctx.Done():
			return nil, timedOut("a pane matching " + sel.String())
		case <-sub.C:
		}
	}
}

func stateNames() []string {
	var out []string
	for _, s := range agentstate.States() {
		out = append(out, s.String())
	}
	return out
}
