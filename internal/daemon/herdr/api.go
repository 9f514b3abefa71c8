package herdr

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// herdr's API over tuios's own tables (herdr's socket API): a herdr
// workspace is a tuios session ("w" + 12 hex of its id), a tab is one of
// its numbered workspaces ("<ws>:t<n>"), a pane a window ("<ws>:p" + 12
// hex of its id). Reads and waits are answered here; mutating methods go
// through the verbs tuios already has; what tuios has no counterpart for
// answers unsupported.

// Hex is the first 12 hex digits of a tuios id: what herdr's ids carry.
func Hex(id string) string {
	h := strings.ReplaceAll(id, "-", "")
	return h[:min(12, len(h))]
}

func herdrWorkspaceID(sessionID string) string { return "w" + Hex(sessionID) }
func herdrPaneID(sessionID, windowID string) string {
	return herdrWorkspaceID(sessionID) + ":p" + Hex(windowID)
}
func herdrTabID(sessionID string, n int) string {
	return herdrWorkspaceID(sessionID) + ":t" + strconv.Itoa(n)
}

// herdrNamesWindow says whether a pane id names window id: herdr's form
// (the part after ":p" is the window's 12-hex prefix), the raw window
// id, or at least 8 leading hex digits of it.
func herdrNamesWindow(paneID, id string) bool {
	if paneID == id {
		return true
	}
	part := paneID
	if _, after, ok := strings.Cut(paneID, ":p"); ok {
		part = after
	}
	part = strings.ReplaceAll(strings.ToLower(part), "-", "")
	full := strings.ReplaceAll(id, "-", "")
	return len(part) >= 8 && strings.HasPrefix(full, part)
}

// herdrSession finds the session a herdr workspace id names. A session
// the caller does not reach is as missing (the target check; gc nil:
// the daemon's own lookup).
func (h *Sock) herdrSession(gc core.Call, ws string) *core.SessionView {
	v := h.core.View(nil)
	for i := range v.Sessions {
		ss := &v.Sessions[i]
		if herdrWorkspaceID(ss.ID) == ws {
			if gc != nil && h.core.Target(gc, ss.Name, "") != nil {
				return nil
			}
			return ss
		}
	}
	return nil
}

// pane is a window a method names: as the view had it, its session's id,
// and a live handle on it.
type pane struct {
	core.WindowView
	sessionID string
	// sv is its session in the same view.
	sv *core.SessionView
}

// herdrID is the window's herdr pane id.
func (w *pane) herdrID() string { return herdrPaneID(w.sessionID, w.ID) }

// herdrWindow finds the window a pane id names, in any session (a pane id
// still finds a window moved to another session), through the target
// check for gc's method.
func (h *Sock) herdrWindow(gc core.Call, paneID string) (*pane, *Err) {
	w, herr := h.herdrFind(paneID)
	if herr != nil {
		return nil, herr
	}
	if err := h.core.Target(gc, "", w.ID); err != nil {
		return nil, herdrFromProto(err)
	}
	return w, nil
}

func (h *Sock) herdrFind(paneID string) (*pane, *Err) {
	var found *pane
	v := h.core.View(nil)
	for i := range v.Sessions {
		ss := &v.Sessions[i]
		for _, w := range ss.Windows {
			if herdrNamesWindow(paneID, w.ID) {
				if found != nil {
					return nil, errorf("pane_not_found", "pane id "+core.Clip(paneID, 64)+" names more than one pane; give more of it")
				}
				found = &pane{WindowView: w, sessionID: ss.ID, sv: ss}
			}
		}
	}
	if found == nil {
		return nil, errorf("pane_not_found", "no pane "+core.Clip(paneID, 64))
	}
	return found, nil
}

// paneByID is the window id (a full id) as the core has it now, or nil;
// its session (sv) is not filled in.
func (h *Sock) paneByID(id string) *pane {
	w, ok := h.core.Find(id)
	if !ok {
		return nil
	}
	return &pane{WindowView: w, sessionID: w.SessionID}
}

// herdrStatus is herdr's agent_status for a tuios state.
func herdrStatus(st agentstate.State) string {
	switch st {
	case agentstate.Working:
		return "working"
	case agentstate.NeedsInput:
		return "blocked"
	case agentstate.Idle:
		return "idle"
	case agentstate.Done, agentstate.Errored:
		return "done"
	}
	return "unknown"
}

// herdrRollup is the status a tab or workspace shows: the first of
// blocked, done, working, idle, unknown that any pane has.
func herdrRollup(statuses []string) string {
	for _, want := range []string{"blocked", "done", "working", "idle"} {
		for _, s := range statuses {
			if s == want {
				return want
			}
		}
	}
	return "unknown"
}

// herdrAgentName is herdr's name for a tuios harness id.
func herdrAgentName(harness string) string {
	switch harness {
	case "claude-code":
		return "claude"
	case "gemini-cli":
		return "gemini"
	case "cursor-agent":
		return "cursor"
	case "antigravity":
		return "agy"
	case "qoder":
		return "qodercli"
	}
	return harness
}

// PaneInfo is a pane as herdr's answers describe it.
type PaneInfo struct {
	PaneID       string            `json:"pane_id"`
	TabID        string            `json:"tab_id"`
	WorkspaceID  string            `json:"workspace_id"`
	Label        string            `json:"label"`
	Title        string            `json:"title,omitempty"`
	Focused      bool              `json:"focused"`
	Cwd          string            `json:"cwd,omitempty"`
	AgentStatus  string            `json:"agent_status"`
	Agent        string            `json:"agent,omitempty"`
	Message      string            `json:"message,omitempty"`
	AgentSession map[string]string `json:"agent_session,omitempty"`
	Tokens       map[string]string `json:"tokens,omitempty"`
	Revision     uint64            `json:"revision"`
	Exited       bool              `json:"exited"`
}

type herdrTabInfo struct {
	TabID       string `json:"tab_id"`
	WorkspaceID string `json:"workspace_id"`
	Number      int    `json:"number"`
	Label       string `json:"label"`
	Focused     bool   `json:"focused"`
	Panes       int    `json:"pane_count"`
	AgentStatus string `json:"agent_status"`
}

type herdrWorkspaceInfo struct {
	WorkspaceID string `json:"workspace_id"`
	Label       string `json:"label"`
	Focused     bool   `json:"focused"`
	Tabs        int    `json:"tab_count"`
	Panes       int    `json:"pane_count"`
	AgentStatus string `json:"agent_status"`
}

// herdrView is the whole of herdr's model: the core's view, then filled
// from the arbiter and each pane without any lock of the core's.
type herdrView struct {
	workspaces []herdrWorkspaceInfo
	tabs       []herdrTabInfo
	panes      []PaneInfo
}

// herdrView is herdr's model of the sessions gc's caller reaches.
func (h *Sock) herdrView(gc core.Call) herdrView {
	view := h.core.View(gc)
	arb := h.core.Tracker().Arbiter()
	var recent *core.SessionView
	for i := range view.Sessions {
		if ss := &view.Sessions[i]; recent == nil || ss.Active.After(recent.Active) {
			recent = ss
		}
	}
	var v herdrView
	byTab := map[string][]string{}
	byWS := map[string][]string{}
	tabCount := map[string]int{}
	for i := range view.Sessions {
		ss := &view.Sessions[i]
		used := map[int]bool{}
		for _, w := range ss.Windows {
			used[w.Workspace] = true
			snap := arb.Get(w.ID)
			in := PaneInfo{PaneID: herdrPaneID(ss.ID, w.ID), TabID: herdrTabID(ss.ID, w.Workspace), WorkspaceID: herdrWorkspaceID(ss.ID),
				Label: w.DisplayName, Title: w.Title, Cwd: w.Dir, Focused: ss.Focused == w.ID}
			in.AgentStatus = herdrStatus(snap.State)
			in.Agent = herdrAgentName(snap.Harness)
			in.Message = snap.Message
			if snap.SessionID != "" {
				in.AgentSession = map[string]string{"kind": "id", "id": snap.SessionID}
			}
			in.Tokens = snap.Meta
			if t := snap.Meta["title"]; t != "" {
				in.Title = t
			}
			in.Revision, in.Exited = w.Pane.Revision()
			v.panes = append(v.panes, in)
			byTab[in.TabID] = append(byTab[in.TabID], in.AgentStatus)
			byWS[in.WorkspaceID] = append(byWS[in.WorkspaceID], in.AgentStatus)
		}
		for n := 1; n <= core.Workspaces; n++ {
			// A slot is a tab when it holds a window, has a name, or shows.
			if !used[n] && ss.WorkspaceNames[n] == "" && ss.Workspace != n {
				continue
			}
			id := herdrTabID(ss.ID, n)
			label := ss.WorkspaceNames[n]
			if label == "" {
				label = strconv.Itoa(n)
			}
			v.tabs = append(v.tabs, herdrTabInfo{TabID: id, WorkspaceID: herdrWorkspaceID(ss.ID), Number: n, Label: label, Focused: ss.Workspace == n})
			tabCount[herdrWorkspaceID(ss.ID)]++
		}
	}
	for i := range v.tabs {
		t := &v.tabs[i]
		t.Panes, t.AgentStatus = len(byTab[t.TabID]), herdrRollup(byTab[t.TabID])
	}
	for i := range view.Sessions {
		ss := &view.Sessions[i]
		id := herdrWorkspaceID(ss.ID)
		v.workspaces = append(v.workspaces, herdrWorkspaceInfo{WorkspaceID: id, Label: ss.Label(), Focused: ss == recent,
			Tabs: tabCount[id], Panes: len(byWS[id]), AgentStatus: herdrRollup(byWS[id])})
	}
	return v
}

// herdrUnsupported says whether tuios answers a method with unsupported:
// herdr has it, tuios has nothing it maps onto.
func herdrUnsupported(m string) bool {
	for _, pre := range []string{"server.", "plugin.", "integration.", "client.", "layout.", "agent.view.", "worktree."} {
		if strings.HasPrefix(m, pre) {
			return true
		}
	}
	switch m {
	case "workspace.move", "workspace.move_block", "workspace.report_metadata", "agent.rename", "agent.explain",
		"pane.resize", "pane.move", "pane.scroll", "pane.clear", "pane.copy", "pane.select", "pane.selection",
		"pane.open_link", "pane.links":
		return true
	}
	return false
}

// method runs one herdr method.
func (h *Sock) method(call *herdrCall, m string, p herdrParams) (any, *Err) {
	if h.core.Options().AgentsOff && (strings.HasPrefix(m, "pane.report") || m == "pane.release_agent" || strings.HasPrefix(m, "agent.")) {
		return nil, errorf("agents_disabled", "[agents] enabled = false: this daemon tracks no agents")
	}
	// Every method is admitted as the tuios verb it does the work of,
	// by that verb's declaration in the core's verb table, and its targets pass the
	// same target check (herdrWindow, herdrSession, herdrView).
	if herr := h.admit(call, m); herr != nil {
		return nil, herr
	}
	switch m {
	case "ping":
		return map[string]any{"type": "pong", "version": herdrVersion, "protocol": herdrProtocol, "server": "tuios"}, nil
	case "pane.report_agent":
		return h.reportAgent(call, p)
	case "pane.report_agent_session":
		return h.reportSession(call, p)
	case "pane.release_agent":
		return h.releaseAgent(call, p)
	case "pane.report_metadata":
		return h.reportMetadata(call, p)
	case "notification.show":
		return h.notificationShow(call, p)
	case "session.snapshot":
		v := h.herdrView(call.gc)
		return map[string]any{"type": "session_snapshot", "version": herdrVersion, "protocol": herdrProtocol, "server": "tuios",
			"workspaces": orEmpty(v.workspaces), "tabs": orEmpty(v.tabs), "panes": orEmpty(v.panes), "splits": []any{}}, nil
	case "workspace.list":
		return map[string]any{"type": "workspace_list", "workspaces": orEmpty(h.herdrView(call.gc).workspaces)}, nil
	case "workspace.get":
		id, herr := p.str("workspace_id", true)
		if herr != nil {
			return nil, herr
		}
		for _, ws := range h.herdrView(call.gc).workspaces {
			if ws.WorkspaceID == id {
				return map[string]any{"type": "workspace_info", "workspace": ws}, nil
			}
		}
		return nil, errorf("workspace_not_found", "no workspace "+core.Clip(id, 64))
	case "tab.list":
		ws, herr := p.str("workspace_id", false)
		if herr != nil {
			return nil, herr
		}
		out := []herdrTabInfo{}
		for _, t := range h.herdrView(call.gc).tabs {
			if ws == "" || t.WorkspaceID == ws {
				out = append(out, t)
			}
		}
		return map[string]any{"type": "tab_list", "tabs": out}, nil
	case "tab.get":
		id, herr := p.str("tab_id", true)
		if herr != nil {
			return nil, herr
		}
		for _, t := range h.herdrView(call.gc).tabs {
			if t.TabID == id {
				return map[string]any{"type": "tab_info", "tab": t}, nil
			}
		}
		return nil, errorf("tab_not_found", "no tab "+core.Clip(id, 64))
	case "pane.list", "agent.list":
		ws, herr := p.str("workspace_id", false)
		if herr != nil {
			return nil, herr
		}
		tab, herr := p.str("tab_id", false)
		if herr != nil {
			return nil, herr
		}
		out := []PaneInfo{}
		for _, pi := range h.herdrView(call.gc).panes {
			if (ws == "" || pi.WorkspaceID == ws) && (tab == "" || pi.TabID == tab) && (m == "pane.list" || pi.Agent != "" || pi.AgentStatus != "unknown") {
				out = append(out, pi)
			}
		}
		if m == "agent.list" {
			return map[string]any{"type": "agent_list", "agents": out}, nil
		}
		return map[string]any{"type": "pane_list", "panes": out}, nil
	case "pane.get", "agent.get", "pane.current":
		var w *pane
		if m == "pane.current" {
			if own := call.place(); own != "" {
				w, _ = h.herdrWindow(call.gc, own)
			}
			if w == nil {
				return nil, errorf("pane_not_found", "the caller runs in no pane of this daemon")
			}
		} else {
			id, herr := p.str("pane_id", true)
			if herr != nil {
				return nil, herr
			}
			if w, herr = h.herdrWindow(call.gc, id); herr != nil {
				return nil, herr
			}
		}
		for _, pi := range h.herdrView(call.gc).panes {
			if herdrNamesWindow(pi.PaneID, w.ID) {
				if m == "agent.get" {
					return map[string]any{"type": "agent_info", "agent": pi}, nil
				}
				return map[string]any{"type": "pane_info", "pane": pi}, nil
			}
		}
		return nil, errorf("pane_not_found", "the pane closed")
	case "pane.layout":
		return h.layout(p)
	case "pane.read", "agent.read":
		return h.read(call, p)
	case "pane.wait_for_output":
		return h.waitOutput(call, p)
	case "agent.wait", "events.wait":
		return h.waitAgent(call, m, p)
	case "events.subscribe":
		return h.subscribe(call, p)
	case "pane.send_text", "pane.send_input":
		return h.sendText(call, p)
	case "pane.send_keys", "agent.send_keys":
		return h.viaVerb(call, p, "send-keys", "keys")
	case "pane.rename":
		return h.rename(call, p)
	case "pane.close":
		return h.viaVerb(call, p, "close-window", "")
	case "pane.focus", "agent.focus":
		return h.viaVerb(call, p, "focus-window", "")
	case "workspace.create":
		if p.has("env") {
			return nil, errorf("unsupported", "env in a create is not supported by tuios")
		}
		label, herr := p.str("label", false)
		if herr != nil {
			return nil, herr
		}
		res, herr := h.callVerb(call, "new-session", map[string]any{"name": label})
		if herr != nil {
			return nil, herr
		}
		if ss, ok := h.core.FindSession(stringOf(res["session"])); ok {
			return map[string]any{"type": "workspace_created", "workspace_id": herdrWorkspaceID(ss.ID)}, nil
		}
		return map[string]any{"type": "workspace_created"}, nil
	}
	if herdrMutates(m) { // mutate.go: methods mapped onto tuios verbs
		return h.mutate(call, m, p)
	}
	if strings.HasPrefix(m, "pane.graphics.") {
		return nil, errorf("unknown_method", "unknown method "+core.Clip(m, 64))
	}
	if herdrUnsupported(m) {
		return nil, errorf("unsupported", m+" is not supported by tuios")
	}
	return nil, errorf(proto.CodeInvalidRequest, "unknown variant `"+core.Clip(m, 64)+"`")
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// callVerb runs a tuios verb for a herdr call, as the caller: placed in
// its pane, its wait ended when it hangs up.
func (h *Sock) callVerb(call *herdrCall, verb string, params map[string]any) (map[string]any, *Err) {
	ctx, cancel := call.hangup()
	defer cancel()
	own := call.place() // before inside is read: place sets both
	res, perr := h.core.Do(ctx, core.Peer{PID: call.peer, Placement: core.Placement{Pane: own, Inside: call.inside}, Conn: call.c}, verb, params)
	if perr != nil {
		return nil, herdrFromProto(perr)
	}
	return res, nil
}

// herdrFromProto turns a tuios error into herdr's shape.
func herdrFromProto(e *proto.Error) *Err {
	code := e.Code
	switch code {
	case proto.CodeWindowNotFound:
		code = "pane_not_found"
	case proto.CodeSessionNotFound:
		code = "workspace_not_found"
	}
	return errorf(code, e.Message)
}

// paneTarget resolves pane_id to the window's session and id for a verb.
func (h *Sock) paneTarget(call *herdrCall, p herdrParams) (session, window string, herr *Err) {
	id, herr := p.str("pane_id", true)
	if herr != nil {
		return "", "", herr
	}
	w, herr := h.herdrWindow(call.gc, id)
	if herr != nil {
		return "", "", herr
	}
	return w.Session, w.ID, nil
}

// viaVerb maps a pane method onto a tuios verb taking the pane and, when
// field is set, one string param of the same name.
func (h *Sock) viaVerb(call *herdrCall, p herdrParams, verb, field string) (any, *Err) {
	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	params := map[string]any{"session": session, "window": window}
	if field != "" {
		v, herr := p.str(field, true)
		if herr != nil {
			return nil, herr
		}
		params[field] = v
	}
	if _, herr := h.callVerb(call, verb, params); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

func (h *Sock) rename(call *herdrCall, p herdrParams) (any, *Err) {
	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	label, herr := p.str("label", false) // null clears
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "set-window", map[string]any{"session": session, "window": window, "name": label}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

// sendText types text as a paste: control characters other than tab and
// newline are removed, and so are bracket markers a tool supplied.
func (h *Sock) sendText(call *herdrCall, p herdrParams) (any, *Err) {
	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	text, herr := p.str("text", true)
	if herr != nil {
		return nil, herr
	}
	text = strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(text)
	text = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, text)
	if _, herr := h.callVerb(call, "send-text", map[string]any{"session": session, "window": window, "text": text}); herr != nil {
		return nil, herr
	}
	return herdrOK, nil
}

// read answers pane.read: the last `recent` lines (default 80, at most
// 1000) of the pane's text, scrollback included.
func (h *Sock) read(call *herdrCall, p herdrParams) (any, *Err) {
	w, herr := h.paneArg(call, p)
	if herr != nil {
		return nil, herr
	}
	n, has, herr := p.u64("lines")
	if herr != nil {
		return nil, herr
	}
	if !has {
		n = 80
	}
	n = min(max(n, 1), 1000)
	text := w.Pane.Tracked().Screen().Capture(vt.CaptureOptions{Scrollback: true, Lines: int(n)})
	pid := w.herdrID()
	return map[string]any{"type": "pane_read", "pane_id": pid, "source": "recent", "text": text, "detection": "visible"}, nil
}

// waitOutput answers pane.wait_for_output through wait-for window-output.
// match is a substring, or a regular expression with regex: true.
func (h *Sock) waitOutput(call *herdrCall, p herdrParams) (any, *Err) {
	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	match, herr := p.str("match", false)
	if herr != nil {
		return nil, herr
	}
	if match == "" {
		if match, herr = p.str("pattern", true); herr != nil {
			return nil, herr
		}
	}
	isRegex, herr := p.boolean("regex")
	if herr != nil {
		return nil, herr
	}
	if !isRegex {
		match = regexp.QuoteMeta(match)
	}
	timeout, herr := p.timeout(30000)
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "wait-for", map[string]any{"session": session, "window": window, "condition": "window-output",
		"pattern": match, "timeout": timeout}); herr != nil {
		return nil, herr
	}
	return map[string]any{"type": "output_matched", "pane_id": p.rawString("pane_id")}, nil
}

// herdrStates are the tuios states a herdr agent_status stands for.
func herdrStates(status string) (string, bool) {
	switch status {
	case "working":
		return "working", true
	case "blocked":
		return "needs_input", true
	case "idle":
		return "idle", true
	case "done":
		return "done,errored", true
	case "unknown":
		return "unknown,none", true
	}
	return "", false
}

// waitAgent answers agent.wait and events.wait through wait-for
// agent-state: until the pane's agent_status is one of `status` (a
// string or a list; default any change away from the current one).
func (h *Sock) waitAgent(call *herdrCall, m string, p herdrParams) (any, *Err) {
	session, window, herr := h.paneTarget(call, p)
	if herr != nil {
		return nil, herr
	}
	var want []string
	for _, f := range []string{"status", "until", "agent_status"} {
		if !p.has(f) {
			continue
		}
		var one string
		if json.Unmarshal(p[f], &one) == nil {
			want = append(want, one)
		} else if json.Unmarshal(p[f], &want) != nil {
			return nil, herdrBadType(f, "a status or a list of statuses")
		}
		break
	}
	if len(want) == 0 {
		cur := herdrStatus(h.core.Tracker().Arbiter().Get(window).State)
		for _, st := range []string{"working", "blocked", "idle", "done", "unknown"} {
			if st != cur {
				want = append(want, st)
			}
		}
	}
	var until []string
	for _, st := range want {
		t, ok := herdrStates(st)
		if !ok {
			return nil, errorf(proto.CodeInvalidParams, "unknown agent_status "+strconv.Quote(core.Clip(st, 32)))
		}
		until = append(until, t)
	}
	timeout, herr := p.timeout(30000)
	if herr != nil {
		return nil, herr
	}
	if _, herr := h.callVerb(call, "wait-for", map[string]any{"session": session, "window": window, "condition": "agent-state",
		"until": strings.Join(until, ","), "timeout": timeout}); herr != nil {
		return nil, herr
	}
	var pid string
	if w, ok := h.core.Find(window); ok {
		pid = herdrPaneID(w.SessionID, w.ID)
	}
	data := map[string]any{"pane_id": pid, "agent_status": herdrStatus(h.core.Tracker().Arbiter().Get(window).State)}
	if m == "events.wait" {
		return map[string]any{"type": "event", "event": "pane_agent_status_changed", "data": data}, nil
	}
	return mergeMaps(map[string]any{"type": "agent_status"}, data), nil
}

func mergeMaps(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// rawString is a string field's value, "" when absent or not a string.
func (p herdrParams) rawString(name string) string {
	s, _ := p.str(name, false)
	return s
}

// stringOf is v when it is a string, else "".
func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// layout answers pane.layout: each pane of a tab (default: the caller's
// session's shown tab) with its rectangle; splits are not modelled.
func (h *Sock) layout(p herdrParams) (any, *Err) {
	tab, herr := p.str("tab_id", false)
	if herr != nil {
		return nil, herr
	}
	type rectInfo struct {
		PaneID string `json:"pane_id"`
		X      int    `json:"x"`
		Y      int    `json:"y"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
	}
	out := []rectInfo{}
	for _, ss := range h.core.View(nil).Sessions {
		for _, w := range ss.Windows {
			id := herdrTabID(ss.ID, w.Workspace)
			if tab != "" && id != tab || tab == "" && w.Workspace != ss.Workspace || w.Minimized {
				continue
			}
			out = append(out, rectInfo{PaneID: herdrPaneID(ss.ID, w.ID), X: w.X, Y: w.Y, Width: w.Width, Height: w.Height})
		}
	}
	return map[string]any{"type": "pane_layout", "tab_id": tab, "panes": out, "splits": []any{}}, nil
}
