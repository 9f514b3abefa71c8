package daemon

import (
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
)

// herdr's mutating methods that have a tuios counterpart (coordination
// spec §18.5), kept apart from herdr_api.go so the read side stays short.
// Each maps onto an existing verb where one exists, so the verb's own
// checks, events and retiling apply unchanged.

// herdrMutates says whether a method is answered here; method() asks it
// before falling through to unsupported.
func herdrMutates(m string) bool {
	switch m {
	case "workspace.close", "workspace.rename", "tab.create", "tab.rename", "tab.focus", "tab.close",
		"pane.split", "pane.zoom", "pane.neighbor", "pane.edges", "pane.focus_direction",
		"pane.process_info", "agent.prompt", "agent.start",
		"pane.swap", "tab.move", "workspace.focus",
		"worktree.list", "worktree.create", "worktree.open", "worktree.remove":
		return true
	}
	return false
}

func (h *herdrSock) mutate(call *herdrCall, m string, p herdrParams) (any, *herdrErr) {
	switch m {
	case "workspace.close":
		return h.workspaceClose(call, p)
	case "tab.create":
		return h.tabCreate(call, p)
	case "tab.rename":
		return h.tabRename(call, p)
	case "tab.focus":
		return h.tabFocus(call, p)
	case "tab.close":
		return h.tabClose(call, p)
	case "workspace.rename":
		return h.workspaceRename(call, p)
	case "pane.split":
		return h.paneSplit(call, p)
	case "pane.zoom":
		return h.paneZoom(call, p)
	case "pane.neighbor", "pane.edges", "pane.focus_direction":
		return h.paneNeighbors(call, m, p)
	case "pane.process_info":
		return h.processInfo(call, p)
	case "agent.prompt":
		return h.agentPrompt(call, p)
	case "agent.start":
		return h.agentStart(call, p)
	case "pane.swap":
		return h.paneSwap(call, p)
	case "tab.move":
		return h.tabMove(call, p)
	case "workspace.focus":
		return h.workspaceFocus(call, p)
	case "worktree.list", "worktree.create", "worktree.open", "worktree.remove":
		return h.worktree(call, m, p)
	}
	return nil, herdrErrorf("unsupported", m+" is not supported by tuios")
}

// workspaceSession resolves workspace_id to its session.
func (h *herdrSock) workspaceSession(call *herdrCall, p herdrParams) (*Session, *herdrErr) {
	id, herr := p.str("workspace_id", true)
	if herr != nil {
		return nil, herr
	}
	ss := h.s.herdrSession(call.gc, id)
	if ss == nil {
		return nil, herdrErrorf("workspace_not_found", "no workspace "+clipText(id, 64))
	}
	return ss, nil
}

func (h *herdrSock) workspaceClose(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "kill-session", map[string]any{"session": ss.Name}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

// tabSlot resolves tab_id ("<ws>:t<n>") to its session and slot. A slot
// that is not a tab today (empty, unnamed, not showing) is tab_not_found,
// as tab.get would say.
func (h *herdrSock) tabSlot(call *herdrCall, p herdrParams) (*Session, int, *herdrErr) {
	id, herr := p.str("tab_id", true)
	if herr != nil {
		return nil, 0, herr
	}
	notFound := herdrErrorf("tab_not_found", "no tab "+clipText(id, 64))
	ws, num, ok := strings.Cut(id, ":t")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > Workspaces {
		return nil, 0, notFound
	}
	ss := h.s.herdrSession(call.gc, ws)
	if ss == nil {
		return nil, 0, notFound
	}
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	if !slotIsTab(ss, n) {
		return nil, 0, notFound
	}
	return ss, n, nil
}

// slotIsTab is herdrView's rule for a slot being a tab. Called with s.mu held.
func slotIsTab(ss *Session, n int) bool {
	if ss.wsNames[n] != "" || ss.workspace == n {
		return true
	}
	for _, w := range ss.windows {
		if w.workspace == n {
			return true
		}
	}
	return false
}

// tabCreate opens a shell window on the first slot that is not a tab, so
// the new tab exists (a slot with a window is a tab) and has a pane, as a
// herdr tab always does.
func (h *herdrSock) tabCreate(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	if p.has("env") {
		return nil, herdrErrorf("unsupported", "env in a create is not supported by tuios")
	}
	label, herr := p.label("label")
	if herr != nil {
		return nil, herr
	}
	cwd, herr := p.str("cwd", false)
	if herr != nil {
		return nil, herr
	}
	h.s.mu.Lock()
	free := 0
	for n := 1; n <= Workspaces && free == 0; n++ {
		if !slotIsTab(ss, n) {
			free = n
		}
	}
	name := ss.Name
	h.s.mu.Unlock()
	if free == 0 {
		return nil, herdrErrorf("tab_create_failed", "all "+strconv.Itoa(Workspaces)+" tabs of this workspace are in use")
	}
	res, herr := h.callVerb(call, "new-window", map[string]any{"session": name, "workspace": free, "no_focus": true, "cwd": cwd})
	if herr != nil {
		return nil, herdrErrorf("tab_create_failed", herr.Message)
	}
	h.s.mu.Lock()
	if label != "" {
		if ss.wsNames == nil {
			ss.wsNames = map[int]string{}
		}
		ss.wsNames[free] = label
	}
	var pane string
	if w := h.s.windows[stringOf(res["window_id"])]; w != nil {
		pane = herdrPaneID(ss, w)
	}
	h.s.mu.Unlock()
	return map[string]any{"type": "tab_created", "tab_id": herdrTabID(ss, free), "pane_id": pane}, nil
}

// workspaceRename sets the session's display name (Session.displayName
// says why it is not a rename of the session); a null or blank label
// clears it. herdr's event streams hear workspace_renamed, tuios
// subscribers session-renamed; the ids do not change.
func (h *herdrSock) workspaceRename(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	label, herr := p.label("label") // null clears
	if herr != nil {
		return nil, herr
	}
	h.s.mu.Lock()
	ss.displayName = label
	name := ss.Name
	h.s.mu.Unlock()
	h.s.hub.publish(event{Type: evSessionRenamed, Session: name})
	return herdrOK, nil
}

// tabRename names the slot, as set-workspace-name does: the name the
// attach layout and list-workspaces show.
func (h *herdrSock) tabRename(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	label, herr := p.label("label") // null clears, as pane.rename
	if herr != nil {
		return nil, herr
	}
	h.s.mu.Lock()
	if ss.wsNames == nil {
		ss.wsNames = map[int]string{}
	}
	if label == "" {
		delete(ss.wsNames, n)
	} else {
		ss.wsNames[n] = label
	}
	name := ss.Name
	h.s.mu.Unlock()
	h.s.attach.layoutChanged() // attached clients draw the new name
	// and the sessions file keeps it (restore.go follows the event)
	h.s.hub.publish(event{Type: evWorkspaceRenamed, Session: name})
	return herdrOK, nil
}

func (h *herdrSock) tabFocus(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "select-workspace", map[string]any{"session": ss.Name, "workspace": n}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

// tabClose closes every window in the slot and drops its name, so the
// slot stops being a tab (unless it is the one showing).
func (h *herdrSock) tabClose(call *herdrCall, p herdrParams) (any, *herdrErr) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	h.s.mu.Lock()
	var wins []*Window
	for _, w := range ss.windows {
		if w.workspace == n {
			wins = append(wins, w)
		}
	}
	delete(ss.wsNames, n)
	h.s.mu.Unlock()
	for _, w := range wins {
		h.s.closeWindow(w)
	}
	return herdrOK, nil
}

// paneSplit splits the pane's tile (split-window) when a client shows
// its session with tiling on: direction right (the default) or down puts
// the new pane there, left or up on the other side, and ratio is the
// share the pane keeps (herdr's meaning), cut to 0.1 to 0.9 as herdr
// clamps it. With no client to measure a tile, or in a floating session,
// the new pane opens on the same tab (new-window) and is placed
// automatically.
func (h *herdrSock) paneSplit(call *herdrCall, p herdrParams) (any, *herdrErr) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	if p.has("env") {
		return nil, herdrErrorf("unsupported", "env in a create is not supported by tuios")
	}
	cwd, herr := p.str("cwd", false)
	if herr != nil {
		return nil, herr
	}
	dir, herr := p.str("direction", false)
	if herr != nil {
		return nil, herr
	}
	if dir == "" {
		dir = "right"
	}
	if !herdrDirection(dir) {
		return nil, herdrErrorf(proto.CodeInvalidRequest, "unknown variant `"+clipText(dir, 32)+"`, expected one of `right`, `down`, `left`, `up`")
	}
	ratio, hasRatio, herr := p.f64("ratio")
	if herr != nil {
		return nil, herr
	}
	h.s.mu.Lock()
	ss, ws := w.session, w.workspace
	if cwd == "" {
		cwd = w.dirNow() // a split starts where its pane is, as herdr's does
	}
	split := h.s.attach.shows(ss) && !ss.floating
	h.s.mu.Unlock()
	var res map[string]any
	if split {
		params := map[string]any{"session": ss.Name, "window": w.ID, "direction": dir, "cwd": cwd}
		if hasRatio {
			params["percent"] = min(max(int(math.Round((1-ratio)*100)), 10), 90)
		}
		res, herr = h.callVerb(call, "split-window", params)
	} else {
		res, herr = h.callVerb(call, "new-window", map[string]any{"session": ss.Name, "workspace": ws, "cwd": cwd})
	}
	if herr != nil {
		return nil, herdrErrorf("pane_split_failed", herr.Message)
	}
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	nw := h.s.windows[stringOf(res["window_id"])]
	if nw == nil {
		// The new pane ended before it could be named: late, as herdr says.
		return nil, herdrErrorf("pane_split_failed", "the new pane closed before it was ready")
	}
	return map[string]any{"type": "pane_split", "pane_id": herdrPaneID(ss, nw), "tab_id": herdrTabID(ss, ws)}, nil
}

// paneZoom zooms through run-command ToggleZoom; a request that would
// change nothing answers zoomed as it is with the reason.
func (h *herdrSock) paneZoom(call *herdrCall, p herdrParams) (any, *herdrErr) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	mode, herr := p.str("mode", false)
	if herr != nil {
		return nil, herr
	}
	if mode == "" {
		mode = "toggle"
	}
	if mode != "toggle" && mode != "on" && mode != "off" {
		return nil, herdrErrorf(proto.CodeInvalidRequest, "unknown variant `"+clipText(mode, 32)+"`, expected one of `toggle`, `on`, `off`")
	}
	h.s.mu.Lock()
	ss := w.session
	zoomed := ss.zoomed && ss.focused == w
	others := 0
	for _, x := range ss.windows {
		if x != w && x.workspace == w.workspace && !x.minimized {
			others++
		}
	}
	name := ss.Name
	h.s.mu.Unlock()
	unchanged := func(reason string) (any, *herdrErr) {
		return map[string]any{"type": "pane_zoom", "pane_id": p.rawString("pane_id"), "zoomed": zoomed, "changed": false, "reason": reason}, nil
	}
	want := !zoomed
	switch {
	case mode == "on" && zoomed:
		return unchanged("already_zoomed")
	case mode == "off" && !zoomed:
		return unchanged("already_unzoomed")
	case want && others == 0:
		return unchanged("single_pane")
	}
	if ss.zoomed != zoomed {
		// Another window of the session is zoomed: unzoom it first, so the
		// toggle below zooms this one rather than just unzooming.
		if _, herr := h.callVerb(call, "run-command", map[string]any{"command": "ToggleZoom", "session": name}); herr != nil {
			return nil, herr
		}
	}
	if _, herr := h.callVerb(call, "run-command", map[string]any{"command": "ToggleZoom", "session": name, "window": w.ID}); herr != nil {
		return nil, herr
	}
	return map[string]any{"type": "pane_zoom", "pane_id": p.rawString("pane_id"), "zoomed": want, "changed": true}, nil
}

// herdrDirs are herdr's direction names in the order edges lists them.
var herdrDirs = []string{"left", "right", "up", "down"}

// neighborOf (layout.go) finds the pane beside another; focus-window
// --direction uses the same function.

// paneNeighbors answers pane.neighbor (one direction), pane.edges (every
// direction: the neighbour's id, or null at an edge) and
// pane.focus_direction (focus-window on the neighbour).
func (h *herdrSock) paneNeighbors(call *herdrCall, m string, p herdrParams) (any, *herdrErr) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	var dir string
	if m != "pane.edges" {
		if dir, herr = p.str("direction", true); herr != nil {
			return nil, herr
		}
		known := false
		for _, d := range herdrDirs {
			known = known || d == dir
		}
		if !known {
			return nil, herdrErrorf(proto.CodeInvalidRequest, "unknown variant `"+clipText(dir, 32)+"`, expected one of `left`, `right`, `up`, `down`")
		}
	}
	h.s.mu.Lock()
	ss := w.session
	if m == "pane.edges" {
		edges := map[string]any{}
		for _, d := range herdrDirs {
			if n := h.s.neighborOf(w, d); n != nil {
				edges[d] = herdrPaneID(ss, n)
			} else {
				edges[d] = nil
			}
		}
		h.s.mu.Unlock()
		return map[string]any{"type": "pane_edges", "pane_id": p.rawString("pane_id"), "edges": edges}, nil
	}
	n := h.s.neighborOf(w, dir)
	var nid, nwin, sname string
	if n != nil {
		nid, nwin, sname = herdrPaneID(ss, n), n.ID, ss.Name
	}
	h.s.mu.Unlock()
	if m == "pane.neighbor" {
		var v any
		if n != nil {
			v = nid
		}
		return map[string]any{"type": "pane_neighbor", "pane_id": p.rawString("pane_id"), "direction": dir, "neighbor": v}, nil
	}
	if n == nil {
		return map[string]any{"type": "pane_focus_direction", "changed": false, "reason": "no_neighbor"}, nil
	}
	if _, herr := h.callVerb(call, "focus-window", map[string]any{"session": sname, "window": nwin}); herr != nil {
		return nil, herr
	}
	return map[string]any{"type": "pane_focus_direction", "changed": true, "pane_id": nid}, nil
}

// procInfo is one process of a pane.
type procInfo struct {
	Pid     int      `json:"pid"`
	Name    string   `json:"name"`
	Argv    []string `json:"argv,omitempty"`
	Cmdline string   `json:"cmdline,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
}

// readProc reads a process's name and, when full, its argv and cwd (which
// can hold secrets, hence only to the pane itself).
func readProc(pid int, full bool) procInfo {
	dir := "/proc/" + strconv.Itoa(pid)
	pi := procInfo{Pid: pid}
	if b, err := os.ReadFile(dir + "/comm"); err == nil {
		pi.Name = strings.TrimSpace(string(b))
	}
	if full {
		if b, err := os.ReadFile(dir + "/cmdline"); err == nil {
			pi.Argv = strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
			pi.Cmdline = strings.Join(pi.Argv, " ")
		}
		pi.Cwd, _ = os.Readlink(dir + "/cwd")
	}
	return pi
}

// pgrpMembers are the pids whose process group is pgrp (field 5 of
// /proc/<pid>/stat, read after the parenthesised name, which may hold
// spaces).
func pgrpMembers(pgrp int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state, ppid, pgrp, ...
		if len(f) >= 3 && f[2] == strconv.Itoa(pgrp) {
			out = append(out, pid)
		}
	}
	return out
}

// processInfo answers pane.process_info: the shell and the foreground
// group. Grants do not exist yet, so argv, cmdline and cwd go only to the
// pane itself (the GRANTS comment in method() is where others join).
func (h *herdrSock) processInfo(call *herdrCall, p herdrParams) (any, *herdrErr) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	self := false
	if own := call.place(); own != "" {
		if ow, _ := h.s.herdrWindow(call.gc, own); ow == w {
			self = true
		}
	}
	shell := w.proc.Pid()
	res := map[string]any{"type": "pane_process_info", "pane_id": p.rawString("pane_id"), "shell": readProc(shell, self)}
	fg, err := w.proc.ForegroundPgrp()
	if err != nil {
		res["foreground"] = []procInfo{}
		return res, nil
	}
	res["foreground_pgid"] = fg
	group := []procInfo{}
	for _, pid := range pgrpMembers(fg) {
		group = append(group, readProc(pid, self))
	}
	res["foreground"] = group
	return res, nil
}

// agentPrompt types a prompt the way ask-agent does (typePrompt: the
// harness's paste and submit keys) but does not wait for the reply;
// an agent mid-turn or on a prompt is not typed into.
func (h *herdrSock) agentPrompt(call *herdrCall, p herdrParams) (any, *herdrErr) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	text, herr := p.str("prompt", false)
	if herr != nil {
		return nil, herr
	}
	if text == "" {
		if text, herr = p.str("text", true); herr != nil {
			return nil, herr
		}
	}
	if strings.TrimSpace(text) == "" {
		return nil, herdrErrorf(proto.CodeInvalidParams, "the prompt is blank")
	}
	switch st := h.s.tracker.Arbiter().Get(w.ID).State; st {
	case agentstate.Working, agentstate.NeedsInput:
		return nil, herdrErrorf("agent_not_idle", "the agent is "+herdrStatus(st)+"; nothing was typed")
	}
	ctx, cancel := call.hangup()
	defer cancel()
	// Typed as the caller the method was admitted as (herdr_gate.go).
	own := call.place() // before inside is read: place sets both
	cn := &conn{s: h.s, c: call.c, peer: call.peer, placed: true, placedID: own, inside: call.inside, ctx: ctx, closed: ctx.Done(),
		call: call.gc.call, callKnown: true, acc: call.gc.acc, verbName: call.gc.verbName}
	if _, _, _, perr := h.s.typePrompt(cn, w, w.pane.Screen(), text); perr != nil {
		return nil, herdrFromProto(perr)
	}
	return herdrOK, nil
}

// paneArg is the window a method's pane_id names (required).
func (h *herdrSock) paneArg(call *herdrCall, p herdrParams) (*Window, *herdrErr) {
	id, herr := p.str("pane_id", true)
	if herr != nil {
		return nil, herr
	}
	return h.s.herdrWindow(call.gc, id)
}
