package daemon

import (
	"strconv"

	"github.com/tuios/tuios/internal/proto"
)

// herdr's layout methods that tuios can map (coordination spec §18.5):
// pane.swap, tab.move and workspace.focus. Swapping two panes swaps their
// tiles in the workspace's splits (layout.go) and their places in the
// window list; a herdr tab is a numbered workspace slot, so moving a tab swaps
// two slots; and an attach stream is bound to one session, so focusing a
// workspace can only mark the session a client already shows: no client
// is moved to another session (unsupported, said so).

// paneSwap answers pane.swap: the pane trades places with the neighbour
// in `direction`, or with the pane `target_pane_id` names (also read as
// other_pane_id). A swap that cannot happen answers changed:false with
// herdr's reason: no_neighbor, same_pane, not_found, cross_tab. Places
// exist only on a client's screen, so without an attached client showing
// the session it is no_client.
func (h *herdrSock) paneSwap(call *herdrCall, p herdrParams) (any, *herdrErr) {
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
		return nil, herdrErrorf(proto.CodeInvalidRequest, "unknown variant `"+clipText(dir, 32)+"`, expected one of `left`, `right`, `up`, `down`")
	}
	unchanged := func(reason string) (any, *herdrErr) {
		return map[string]any{"type": "pane_swap", "pane_id": p.rawString("pane_id"), "changed": false, "reason": reason}, nil
	}
	var other *Window
	if target != "" {
		tw, terr := h.s.herdrWindow(call.gc, target)
		if terr != nil {
			return unchanged("not_found")
		}
		other = tw
	}
	h.s.mu.Lock()
	ss := w.session
	if !h.s.attach.shows(ss) {
		h.s.mu.Unlock()
		return nil, herdrErrorf("no_client", "pane.swap needs a client attached to the pane's workspace (tuios attach "+clipText(ss.Name, 64)+"); none is")
	}
	switch {
	case other == nil:
		other = h.s.neighborOf(w, dir)
		if other == nil {
			h.s.mu.Unlock()
			return unchanged("no_neighbor")
		}
	case other == w:
		h.s.mu.Unlock()
		return unchanged("same_pane")
	case other.session != ss || other.workspace != w.workspace:
		h.s.mu.Unlock()
		return unchanged("cross_tab")
	}
	i, j := -1, -1
	for k, x := range ss.windows {
		switch x {
		case w:
			i = k
		case other:
			j = k
		}
	}
	if i < 0 || j < 0 { // one closed meanwhile
		h.s.mu.Unlock()
		return unchanged("not_found")
	}
	ss.windows[i], ss.windows[j] = ss.windows[j], ss.windows[i]
	syncLayouts(ss) // layout.go
	ss.layout(w.workspace).swap(w.ID, other.ID)
	res := map[string]any{"type": "pane_swap", "pane_id": herdrPaneID(ss, w), "other_pane_id": herdrPaneID(ss, other), "changed": true}
	name, a, b := ss.Name, w.ID, other.ID
	h.s.mu.Unlock()
	h.s.retile(ss)
	h.s.hub.publish(event{Type: "window-moved", Session: name, Window: a})
	h.s.hub.publish(event{Type: "window-moved", Session: name, Window: b})
	return res, nil
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
func (h *herdrSock) tabMove(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	if ws, herr := p.str("workspace_id", false); herr != nil {
		return nil, herr
	} else if ws != "" && ws != herdrWorkspaceID(ss) {
		return nil, herdrErrorf("unsupported", "moving a tab to another workspace is not supported by tuios (move its panes: tuios move-window)")
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
	if to < 1 || to > Workspaces {
		return nil, herdrErrorf(proto.CodeInvalidParams, "index must be 1 to "+strconv.Itoa(Workspaces)+" (tuios has that many tab slots)")
	}
	m := int(to)
	if m == n {
		return map[string]any{"type": "tab_moved", "tab_id": herdrTabID(ss, n), "changed": false}, nil
	}
	h.s.mu.Lock()
	var moved []string
	for _, w := range ss.windows {
		switch w.workspace {
		case n:
			w.workspace = m
			moved = append(moved, w.ID)
		case m:
			w.workspace = n
			moved = append(moved, w.ID)
		}
	}
	renumber := make([]int, Workspaces+1)
	for k := range renumber {
		renumber[k] = k
	}
	renumber[n], renumber[m] = m, n
	ss.moveLayouts(renumber) // layout.go: the tab's splits go with it
	if ss.wsNames == nil {
		ss.wsNames = map[int]string{}
	}
	an, bn := ss.wsNames[n], ss.wsNames[m]
	delete(ss.wsNames, n)
	delete(ss.wsNames, m)
	if an != "" {
		ss.wsNames[m] = an
	}
	if bn != "" {
		ss.wsNames[n] = bn
	}
	switch ss.workspace {
	case n:
		ss.workspace = m
	case m:
		ss.workspace = n
	}
	name := ss.Name
	res := map[string]any{"type": "tab_moved", "tab_id": herdrTabID(ss, m), "previous_tab_id": herdrTabID(ss, n), "changed": true}
	h.s.mu.Unlock()
	h.s.retile(ss)
	h.s.attach.layoutChanged()
	for _, id := range moved {
		h.s.hub.publish(event{Type: "window-moved", Session: name, Window: id})
	}
	return res, nil
}

// workspaceFocus answers workspace.focus. It needs an attached client
// (no_client otherwise). A client shows one session for as long as it is
// attached and the daemon cannot switch it, so focusing a session no
// client shows is unsupported; focusing one a client shows makes it the
// focused (most recently active) workspace.
func (h *herdrSock) workspaceFocus(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	if h.s.attach.n.Load() == 0 {
		return nil, herdrErrorf("no_client", "workspace.focus needs an attached client; none is (tuios attach "+clipText(ss.Name, 64)+")")
	}
	if !h.s.attach.shows(ss) {
		return nil, herdrErrorf("unsupported", "the attached clients show other sessions and tuios cannot switch a client's session; attach to it: tuios attach "+clipText(ss.Name, 64))
	}
	h.s.mu.Lock()
	ss.active = nowTime()
	h.s.mu.Unlock()
	return herdrOK, nil
}
