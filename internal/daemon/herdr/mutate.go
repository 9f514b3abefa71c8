package herdr

import (
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// herdr's mutating methods that have a tuios counterpart, kept apart
// from api.go so the read side stays short. Each maps onto an existing
// verb where one exists, so the verb's own checks, events and retiling
// apply unchanged; what no verb does (a swap, marking a session active)
// is one of the core's setters.

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

func (h *Sock) mutate(call *herdrCall, m string, p herdrParams) (any, *Err) {
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
	return nil, errorf("unsupported", m+" is not supported by tuios")
}

// workspaceSession resolves workspace_id to its session.
func (h *Sock) workspaceSession(call *herdrCall, p herdrParams) (*core.SessionView, *Err) {
	id, herr := p.str("workspace_id", true)
	if herr != nil {
		return nil, herr
	}
	ss := h.herdrSession(call.gc, id)
	if ss == nil {
		return nil, errorf("workspace_not_found", "no workspace "+core.Clip(id, 64))
	}
	return ss, nil
}

func (h *Sock) workspaceClose(call *herdrCall, p herdrParams) (any, *Err) {
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
func (h *Sock) tabSlot(call *herdrCall, p herdrParams) (*core.SessionView, int, *Err) {
	id, herr := p.str("tab_id", true)
	if herr != nil {
		return nil, 0, herr
	}
	notFound := errorf("tab_not_found", "no tab "+core.Clip(id, 64))
	ws, num, ok := strings.Cut(id, ":t")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > core.Workspaces {
		return nil, 0, notFound
	}
	ss := h.herdrSession(call.gc, ws)
	if ss == nil {
		return nil, 0, notFound
	}
	if !slotIsTab(ss, n) {
		return nil, 0, notFound
	}
	return ss, n, nil
}

// slotIsTab is herdrView's rule for a slot being a tab.
func slotIsTab(ss *core.SessionView, n int) bool {
	if ss.WorkspaceNames[n] != "" || ss.Workspace == n {
		return true
	}
	for _, w := range ss.Windows {
		if w.Workspace == n {
			return true
		}
	}
	return false
}

// tabCreate opens a shell window on the first slot that is not a tab, so
// the new tab exists (a slot with a window is a tab) and has a pane, as a
// herdr tab always does.
func (h *Sock) tabCreate(call *herdrCall, p herdrParams) (any, *Err) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	if p.has("env") {
		return nil, errorf("unsupported", "env in a create is not supported by tuios")
	}
	label, herr := p.label("label")
	if herr != nil {
		return nil, herr
	}
	cwd, herr := p.str("cwd", false)
	if herr != nil {
		return nil, herr
	}
	free := 0
	for n := 1; n <= core.Workspaces && free == 0; n++ {
		if !slotIsTab(ss, n) {
			free = n
		}
	}
	name := ss.Name
	if free == 0 {
		return nil, errorf("tab_create_failed", "all "+strconv.Itoa(core.Workspaces)+" tabs of this workspace are in use")
	}
	res, herr := h.callVerb(call, "new-window", map[string]any{"session": name, "workspace": free, "no_focus": true, "cwd": cwd})
	if herr != nil {
		return nil, errorf("tab_create_failed", herr.Message)
	}
	if label != "" { // the name is set-workspace-name's, as tab.rename's
		if _, herr := h.callVerb(call, "set-workspace-name", map[string]any{"session": name, "workspace": free, "name": label}); herr != nil {
			return nil, errorf("tab_create_failed", herr.Message)
		}
	}
	var pane string
	if w, ok := h.core.Find(stringOf(res["window_id"])); ok {
		pane = herdrPaneID(ss.ID, w.ID)
	}
	return map[string]any{"type": "tab_created", "tab_id": herdrTabID(ss.ID, free), "pane_id": pane}, nil
}

// workspaceRename sets the session's display name (set-session-name: a
// relabel, not a rename of the session's address); a null or blank label
// clears it. herdr's event streams hear workspace_renamed, tuios
// subscribers session-renamed; the ids do not change.
func (h *Sock) workspaceRename(call *herdrCall, p herdrParams) (any, *Err) {
	ss, herr := h.workspaceSession(call, p)
	if herr != nil {
		return nil, herr
	}
	label, herr := p.label("label") // null clears
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "set-session-name", map[string]any{"session": ss.Name, "name": label}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

// tabRename names the slot through set-workspace-name: the name the
// attach layout and list-workspaces show, and the sessions file keeps.
func (h *Sock) tabRename(call *herdrCall, p herdrParams) (any, *Err) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	label, herr := p.label("label") // null clears, as pane.rename
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "set-workspace-name", map[string]any{"session": ss.Name, "workspace": n, "name": label}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

func (h *Sock) tabFocus(call *herdrCall, p herdrParams) (any, *Err) {
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
func (h *Sock) tabClose(call *herdrCall, p herdrParams) (any, *Err) {
	ss, n, herr := h.tabSlot(call, p)
	if herr != nil {
		return nil, herr
	}
	for _, w := range ss.Windows {
		if w.Workspace == n {
			h.core.CloseWindow(w.ID)
		}
	}
	if ss.WorkspaceNames[n] != "" {
		if _, herr := h.callVerb(call, "set-workspace-name", map[string]any{"session": ss.Name, "workspace": n, "name": ""}); herr != nil {
			return nil, herr
		}
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
func (h *Sock) paneSplit(call *herdrCall, p herdrParams) (any, *Err) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	if p.has("env") {
		return nil, errorf("unsupported", "env in a create is not supported by tuios")
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
		return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(dir, 32)+"`, expected one of `right`, `down`, `left`, `up`")
	}
	ratio, hasRatio, herr := p.f64("ratio")
	if herr != nil {
		return nil, herr
	}
	ss, ws := w.sv, w.Workspace
	if cwd == "" {
		cwd = w.Dir // a split starts where its pane is, as herdr's does
	}
	split := !ss.Floating && h.core.Shows(ss.Name)
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
		return nil, errorf("pane_split_failed", herr.Message)
	}
	nw := h.paneByID(stringOf(res["window_id"]))
	if nw == nil {
		// The new pane ended before it could be named: late, as herdr says.
		return nil, errorf("pane_split_failed", "the new pane closed before it was ready")
	}
	return map[string]any{"type": "pane_split", "pane_id": herdrPaneID(ss.ID, nw.ID), "tab_id": herdrTabID(ss.ID, ws)}, nil
}

// paneZoom zooms through run-command ToggleZoom; a request that would
// change nothing answers zoomed as it is with the reason.
func (h *Sock) paneZoom(call *herdrCall, p herdrParams) (any, *Err) {
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
		return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(mode, 32)+"`, expected one of `toggle`, `on`, `off`")
	}
	ss := w.sv
	zoomed := ss.Zoomed && ss.Focused == w.ID
	others := 0
	for _, x := range ss.Windows {
		if x.ID != w.ID && x.Workspace == w.Workspace && !x.Minimized {
			others++
		}
	}
	name := ss.Name
	unchanged := func(reason string) (any, *Err) {
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
	if ss.Zoomed != zoomed {
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

// The core's Neighbor finds the pane beside another; focus-window
// --direction uses the same function.

// paneNeighbors answers pane.neighbor (one direction), pane.edges (every
// direction: the neighbour's id, or null at an edge) and
// pane.focus_direction (focus-window on the neighbour).
func (h *Sock) paneNeighbors(call *herdrCall, m string, p herdrParams) (any, *Err) {
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
			return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(dir, 32)+"`, expected one of `left`, `right`, `up`, `down`")
		}
	}
	if m == "pane.edges" {
		edges := map[string]any{}
		for _, d := range herdrDirs {
			if n := h.core.Neighbor(w.ID, d); n != "" {
				edges[d] = herdrPaneID(w.sessionID, n)
			} else {
				edges[d] = nil
			}
		}
		return map[string]any{"type": "pane_edges", "pane_id": p.rawString("pane_id"), "edges": edges}, nil
	}
	n := h.core.Neighbor(w.ID, dir)
	var nid, nwin, sname string
	if n != "" {
		nid, nwin, sname = herdrPaneID(w.sessionID, n), n, w.Session
	}
	if m == "pane.neighbor" {
		var v any
		if n != "" {
			v = nid
		}
		return map[string]any{"type": "pane_neighbor", "pane_id": p.rawString("pane_id"), "direction": dir, "neighbor": v}, nil
	}
	if n == "" {
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
func (h *Sock) processInfo(call *herdrCall, p herdrParams) (any, *Err) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	self := false
	if own := call.place(); own != "" {
		if ow, _ := h.herdrWindow(call.gc, own); ow != nil && ow.ID == w.ID {
			self = true
		}
	}
	shell := w.Pane.Pid()
	res := map[string]any{"type": "pane_process_info", "pane_id": p.rawString("pane_id"), "shell": readProc(shell, self)}
	fg, err := w.Pane.ForegroundPgrp()
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
func (h *Sock) agentPrompt(call *herdrCall, p herdrParams) (any, *Err) {
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
		return nil, errorf(proto.CodeInvalidParams, "the prompt is blank")
	}
	switch st := h.core.Tracker().Arbiter().Get(w.ID).State; st {
	case agentstate.Working, agentstate.NeedsInput:
		return nil, errorf("agent_not_idle", "the agent is "+herdrStatus(st)+"; nothing was typed")
	}
	ctx, cancel := call.hangup()
	defer cancel()
	// Typed as the caller the method was admitted as (gate.go), through
	// the core's one write path.
	if perr := h.core.TypePrompt(ctx, call.gc, w.ID, text); perr != nil {
		return nil, herdrFromProto(perr)
	}
	return herdrOK, nil
}

// paneArg is the window a method's pane_id names (required).
func (h *Sock) paneArg(call *herdrCall, p herdrParams) (*pane, *Err) {
	id, herr := p.str("pane_id", true)
	if herr != nil {
		return nil, herr
	}
	return h.herdrWindow(call.gc, id)
}
