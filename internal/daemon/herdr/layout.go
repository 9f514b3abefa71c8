package herdr

import (
	"strconv"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// herdr's layout methods that tuios can map: pane.swap, tab.move and
// workspace.focus. Swapping two panes swaps their tiles in the
// workspace's splits and their places in the window list (the core's
// SwapWindows); a herdr tab is a numbered workspace slot, so moving a tab
// swaps two slots (set-workspace-order); and an attach stream is bound to
// one session, so focusing a workspace can only mark the session a client
// already shows: no client is moved to another session (unsupported, said
// so).

// paneSwap answers pane.swap: the pane trades places with the neighbour
// in `direction`, or with the pane `target_pane_id` names (also read as
// other_pane_id). A swap that cannot happen answers changed:false with
// herdr's reason: no_neighbor, same_pane, not_found, cross_tab. Places
// exist only on a client's screen, so without an attached client showing
// the session it is no_client.
func (h *Sock) paneSwap(call *herdrCall, p herdrParams) (any, *Err) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	dir, herr := p.str("direction", false)
	if herr != nil {
		return nil, herr
	}
	var target string
	for _, f := range []string{"target_pane_id", "other_pane_id"} {
		if target, herr = p.str(f, false); herr != nil {
			return nil, herr
		}
		if target != "" {
			break
		}
	}
	if dir == "" && target == "" {
		return nil, herdrMissing("direction")
	}
	if dir != "" && !herdrDirection(dir) {
		return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(dir, 32)+"`, expected one of `left`, `right`, `up`, `down`")
	}
	unchanged := func(reason string) (any, *Err) {
		return map[string]any{"type": "pane_swap", "pane_id": p.rawString("pane_id"), "changed": false, "reason": reason}, nil
	}
	var other string
	if target != "" {
		tw, terr := h.herdrWindow(call.gc, target)
		if terr != nil {
			return unchanged("not_found")
		}
		other = tw.ID
	}
	if !h.core.Shows(w.Session) {
		return nil, errorf("no_client", "pane.swap needs a client attached to the pane's workspace (tuios attach "+core.Clip(w.Session, 64)+"); none is")
	}
	switch {
	case other == "":
		if other = h.core.Neighbor(w.ID, dir); other == "" {
			return unchanged("no_neighbor")
		}
	case other == w.ID:
		return unchanged("same_pane")
	}
	// The core swaps them under its lock (a window of another tab is
	// cross_tab, one closed meanwhile not_found), retiles and publishes
	// window-moved for both.
	if ok, reason := h.core.SwapWindows(w.ID, other); !ok {
		return unchanged(reason)
	}
	return map[string]any{"type": "pane_swap", "pane_id": herdrPaneID(w.sessionID, w.ID), "other_pane_id": herdrPaneID(w.sessionID, other), "changed": true}, nil
}

func herdrDirection(d string) bool {
	for _, x := range herdrDirs {
		if x == d {
			return true
		}
	}
	return false
}

// tabMove answers tab.move: the tab goes to slot `index` (1 to 9, also
// read as position), trading places with whatever held that slot; its
// windows, its name and, when it is showing, the showing slot go with it.
// A herdr tab id names a slot, so the moved tab's id changes: the answer
// gives the new one. Moving a tab to another workspace (session) is
// unsupported.
func (h *Sock) tabMove(call *herdrCall, p herdrParams) (any, *Err) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	if ws, herr := p.str("workspace_id", false); herr != nil {
		return nil, herr
	} else if ws != "" && ws != herdrWorkspaceID(ss.ID) {
		return nil, errorf("unsupported", "moving a tab to another workspace is not supported by tuios (move its panes: tuios move-window)")
	}
	var to uint64
	var has bool
	for _, f := range []string{"index", "position"} {
		if to, has, herr = p.u64(f); herr != nil {
			return nil, herr
		}
		if has {
			break
		}
	}
	if !has {
		return nil, herdrMissing("index")
	}
	if to < 1 || to > core.Workspaces {
		return nil, errorf(proto.CodeInvalidParams, "index must be 1 to "+strconv.Itoa(core.Workspaces)+" (tuios has that many tab slots)")
	}
	m := int(to)
	if m == n {
		return map[string]any{"type": "tab_moved", "tab_id": herdrTabID(ss.ID, n), "changed": false}, nil
	}
	// Slots n and m trade places through set-workspace-order: old
	// workspace order[i] becomes i+1.
	order := make([]int, max(n, m))
	for k := range order {
		order[k] = k + 1
	}
	order[n-1], order[m-1] = m, n
	if _, herr := h.callVerb(call, "set-workspace-order", map[string]any{"session": ss.Name, "order": order}); herr != nil {
		return nil, herr
	}
	return map[string]any{"type": "tab_moved", "tab_id": herdrTabID(ss.ID, m), "previous_tab_id": herdrTabID(ss.ID, n), "changed": true}, nil
}

// workspaceFocus answers workspace.focus. It needs an attached client
// (no_client otherwise). A client shows one session for as long as it is
// attached and the daemon cannot switch it, so focusing a session no
// client shows is unsupported; focusing one a client shows makes it the
// focused (most recently active) workspace.
func (h *Sock) workspaceFocus(call *herdrCall, p herdrParams) (any, *Err) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	if h.core.Attached() == 0 {
		return nil, errorf("no_client", "workspace.focus needs an attached client; none is (tuios attach "+core.Clip(ss.Name, 64)+")")
	}
	if !h.core.Shows(ss.Name) {
		return nil, errorf("unsupported", "the attached clients show other sessions and tuios cannot switch a client's session; attach to it: tuios attach "+core.Clip(ss.Name, 64))
	}
	h.core.Touch(ss.Name)
	return herdrOK, nil
}
