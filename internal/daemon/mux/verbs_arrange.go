package mux

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux/layout"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// The arrangement verbs: focus, move, rename/minimize, close, the
// workspace switch's neighbours, run-command, and the three that need a
// client's geometry (focus by direction, split-window, set-layout). Each
// answers what it changed, with the state before beside the state after,
// so a script never has to list windows again to learn what happened.

// runCommands are the commands run-command knows, by tape name; each is
// also known by its keymap name (keymapName).
var runCommands = map[string]string{
	"CloseWindow":    "close the window",
	"NewWindow":      "open a new window with the shell",
	"FocusNext":      "focus the next window on the current workspace",
	"FocusPrev":      "focus the previous window on the current workspace",
	"ToggleMinimize": "minimize or restore the window",
	"ToggleZoom":     "let the focused window fill the session's area, or tile it again",
	"NextWorkspace":  "switch to the next workspace",
	"PrevWorkspace":  "switch to the previous workspace",
}

// keymapName is a tape name in the keymap's spelling: ToggleZoom is
// toggle_zoom. The two spellings are one command (seed: "The escape
// hatch"), so the table keeps one and derives the other.
func keymapName(tape string) string {
	var b strings.Builder
	for i, r := range tape {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tapeName resolves either spelling to the tape name; "" when neither.
func tapeName(name string) string {
	if _, ok := runCommands[name]; ok {
		return name
	}
	for n := range runCommands {
		if keymapName(n) == name {
			return n
		}
	}
	return ""
}

func runCommandNames() []string {
	names := make([]string, 0, len(runCommands))
	for n := range runCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// needsClientLocked refuses a verb that measures the screen when no client
// shows the session: its geometry is the attached client's (seed: "What
// needs a client attached"). Called with s.mu held.
func (s *Table) needsClientLocked(ss *Session, what string) *proto.Error {
	if s.attach.Shows(ss) {
		return nil
	}
	return proto.Errorf(proto.CodeNeedsClient, "%s needs a client attached to session %q, and none is", what, ss.Name).
		WithHint(proto.Hint{Command: "tuios attach -t " + ss.Name, Detail: "focus-window NAME, --relative and move-window work detached"})
}

// cycleFromLocked is the window after (or before) w among the windows on w's
// workspace that are not minimized, in list order; w when it is alone.
// Called with s.mu held.
func cycleFromLocked(ss *Session, w *Window, back bool) *Window {
	var ring []*Window
	at := 0
	for _, x := range ss.windows {
		if x.workspace != w.workspace || ((x.minimized || x.popup != nil) && x != w) { // popups are not in the cycle (popup.go)
			continue
		}
		if x == w {
			at = len(ring)
		}
		ring = append(ring, x)
	}
	if len(ring) == 0 {
		return w
	}
	d := 1
	if back {
		d = len(ring) - 1
	}
	return ring[(at+d)%len(ring)]
}

// refocusLocked gives the focus to a window on the shown workspace when the
// focused one left it (moved away), so keys never go to a pane nobody
// sees. Called with s.mu held.
func refocusLocked(ss *Session) {
	if ss.focused != nil && ss.focused.workspace == ss.workspace {
		return
	}
	for _, x := range ss.windows {
		if x.workspace == ss.workspace {
			ss.focused = x
		}
	}
}

func focusedID(ss *Session) string {
	if ss.focused == nil {
		return ""
	}
	return ss.focused.ID
}

// ArrangeVerbs adds the verbs that arrange windows to the verb table:
// focus, move, rename, minimize, close, run-command, split-window,
// set-layout and the like.
func (s *Table) ArrangeVerbs(add AddFunc) {
	p, h := handler(s.focusWindow)
	add("focus-window", drpc.Arranges, "Focus a window (switching to its workspace), the next or previous on its workspace (relative), or the one beside it on screen (direction, needs a client)",
		"window_focused", `{"verb":"focus-window","params":{"window":"build"}}`, p, h)

	p, h = handler(s.moveWindow)
	add("move-window", drpc.Arranges, "Move a window to another workspace (follow: and show that workspace with the window focused)", "window_moved",
		`{"verb":"move-window","params":{"window":"build","workspace":2,"follow":true}}`, p, h)

	p, h = handler(s.setWindow)
	add("set-window", drpc.Arranges, "Rename, minimize or restore a window", "window", `{"verb":"set-window","params":{"window":"0","name":"build"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.WindowParams) (any, *proto.Error) {
		s.mu.Lock()
		ss, w, err := s.target(cn, p.Session, p.Window)
		var name string
		var ws int
		if err == nil {
			name, ws = w.DisplayName(), w.workspace
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.EndWindow(w)
		s.mu.Lock()
		focused := focusedID(ss)
		s.mu.Unlock()
		return proto.WindowClosed{Type: "window_closed", Session: ss.Name, WindowID: w.ID, Name: name, Workspace: ws,
			FocusedWindowID: focused}, nil
	})
	add("close-window", drpc.Opens, "Close a window and end its process", "window_closed", `{"verb":"close-window","params":{"window":"build"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.RunCommandParams) (any, *proto.Error) {
		if p.List {
			out := []proto.Command{}
			for _, n := range runCommandNames() {
				out = append(out, proto.Command{Name: n, KeymapName: keymapName(n), Description: runCommands[n]})
			}
			return proto.CommandList{Type: "command_list", Commands: out}, nil
		}
		return s.runCommand(cn, p)
	})
	add("run-command", drpc.Arranges, "Run a window-manager command by its tape name (ToggleZoom) or keymap name (toggle_zoom); list: the commands", "command_result or command_list",
		`{"verb":"run-command","params":{"command":"CloseWindow","window":"build"}}`, p, h)

	p, h = handler(s.splitWindow)
	add("split-window", drpc.Opens, "Split a window's tile: the new window takes half of it (percent), side by side (vertical, tmux's -h) or stacked (horizontal, tmux's -v). Needs a client attached and tiling on",
		"window_created", `{"verb":"split-window","params":{"session":"work","window":"build","direction":"vertical","name":"logs"}}`, p, h)

	p, h = handler(s.setLayout)
	add("set-layout", drpc.Arranges, "Turn a session's tiling on or off, or even out the splits of the workspace on screen. Needs a client attached",
		"layout_set", `{"verb":"set-layout","params":{"session":"work","tiling":true,"equalize":true}}`, p, h)
}

func (s *Table) focusWindow(cn Call, p *proto.FocusWindowParams) (any, *proto.Error) {
	if p.Relative != "" && p.Direction != "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "--relative and --direction cannot be combined").
			WithHint(proto.Hint{Detail: "give one of them"})
	}
	s.mu.Lock()
	var ss *Session
	var w *Window
	var err *proto.Error
	if p.Window == "" && (p.Relative != "" || p.Direction != "") {
		// Cycling and stepping start from what the session shows as
		// focused, not from the caller's own pane.
		if ss, err = s.session(cn, p.Session); err == nil {
			if w = ss.focused; w == nil {
				err = proto.Errorf(proto.CodeNoWindows, "session %q has no windows", ss.Name).
					WithHint(proto.Hint{Command: "tuios new-window -s " + ss.Name})
			}
		}
	} else {
		ss, w, err = s.target(cn, p.Session, p.Window)
	}
	if err == nil && p.Direction != "" {
		err = s.needsClientLocked(ss, "focus-window --direction")
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	res := proto.WindowFocused{Type: "window_focused", Session: ss.Name, PreviousWindowID: focusedID(ss),
		PreviousWorkspace: ss.workspace}
	switch {
	case p.Direction != "":
		n := s.neighborOfLocked(w, p.Direction)
		if n == nil {
			reason := "no_neighbor"
			if ss.zoomed {
				reason = "zoomed"
			}
			// Nothing moves: the answer is the focus as it stays, and
			// the window the step started from.
			res.WindowID, res.Workspace = focusedID(ss), ss.workspace
			if ss.focused != nil {
				res.Name = ss.focused.DisplayName()
			}
			from := w.DisplayName()
			res.FromWindowID, res.FromName = w.ID, &from
			res.Reason, res.Direction = reason, p.Direction
			s.mu.Unlock()
			return res, nil
		}
		w = n
		res.Direction = p.Direction
	case p.Relative != "":
		w = cycleFromLocked(ss, w, p.Relative == "prev")
		res.Relative = p.Relative
	}
	changed := ss.focused != w || ss.workspace != w.workspace || w.minimized
	restored := w.minimized
	res.Restored = &restored
	ss.focused, ss.workspace, w.minimized = w, w.workspace, false
	ss.active = nowTime()
	res.WindowID, res.Name, res.Workspace, res.Changed = w.ID, w.DisplayName(), w.workspace, changed
	s.mu.Unlock()
	s.Retile(ss)
	s.hub.Publish(core.Event{Type: "window-focused", Session: ss.Name, Window: w.ID})
	return res, nil
}

func (s *Table) moveWindow(cn Call, p *proto.MoveWindowParams) (any, *proto.Error) {
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	prevWS, prevShown := w.workspace, ss.workspace
	w.workspace = p.Workspace
	if p.Follow {
		ss.workspace, ss.focused, w.minimized = p.Workspace, w, false
		ss.active = nowTime()
	} else {
		refocusLocked(ss)
	}
	res := proto.WindowMoved{Type: "window_moved", Session: ss.Name, WindowID: w.ID, Name: w.DisplayName(),
		Workspace: p.Workspace, PreviousWorkspace: prevWS, Changed: prevWS != p.Workspace, Followed: p.Follow,
		CurrentWorkspace: ss.workspace, PreviousCurrentWorkspace: prevShown, FocusedWindowID: focusedID(ss)}
	s.mu.Unlock()
	s.Retile(ss)
	s.hub.Publish(core.Event{Type: "window-moved", Session: ss.Name, Window: w.ID})
	if p.Follow && prevShown != p.Workspace {
		s.hub.Publish(core.Event{Type: "workspace-switched", Session: ss.Name})
	}
	return res, nil
}

func (s *Table) setWindow(cn Call, p *proto.SetWindowParams) (any, *proto.Error) {
	if p.Name == nil && p.Minimize == nil {
		return nil, proto.Errorf(proto.CodeInvalidParams, "nothing to set: give --name, --minimize or --restore").
			WithHint(proto.Hint{Detail: "in the protocol: name, or minimize true/false"})
	}
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err == nil && p.Name != nil {
		err = nameTakenLocked(ss, *p.Name, w) // resolve.go
	}
	if err == nil && p.Minimize != nil && *p.Minimize {
		err = notPopup(w, "minimized") // popup.go
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	res := proto.WindowSet{Type: "window", PreviousName: w.name, PreviousMinimized: w.minimized, Changed: []string{}}
	if p.Name != nil {
		w.name = strings.TrimSpace(*p.Name)
		if w.name != res.PreviousName {
			res.Changed = append(res.Changed, "name")
		}
	}
	if p.Minimize != nil {
		w.minimized = *p.Minimize
		if w.minimized != res.PreviousMinimized {
			res.Changed = append(res.Changed, "minimized")
		}
	}
	res.Window = s.windowRowLocked(w)
	s.mu.Unlock()
	if p.Name != nil {
		s.hub.Publish(core.Event{Type: "window-retitled", Session: ss.Name, Window: w.ID})
		s.d.InboxUpdate(w.ID) // its Inbox rows show the new name
	}
	if p.Minimize != nil {
		s.Retile(ss)
		typ := "window-restored"
		if *p.Minimize {
			typ = "window-minimized"
		}
		s.hub.Publish(core.Event{Type: typ, Session: ss.Name, Window: w.ID})
	}
	return res, nil
}

func (s *Table) runCommand(cn Call, p *proto.RunCommandParams) (any, *proto.Error) {
	if strings.TrimSpace(p.Command) == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "name a command; tuios run-command --list shows them").
			WithHint(proto.Hint{Param: "command", Accepted: runCommandNames()})
	}
	tape := tapeName(p.Command)
	if tape == "" {
		names := runCommandNames()
		var both []string
		for _, n := range names {
			both = append(both, n, keymapName(n))
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "unknown command %q", core.Clip(p.Command, 64)).
			WithHint(proto.Hint{Param: "command", Accepted: names, DidYouMean: core.NearestWord(p.Command, both),
				Detail: "each command is also known by its keymap name (toggle_zoom for ToggleZoom)"})
	}
	done := func(ss *Session) (any, *proto.Error) {
		return proto.CommandResult{Type: "command_result", Command: tape, KeymapName: keymapName(tape), Session: ss.Name, Ran: true}, nil
	}
	switch tape {
	case "NewWindow":
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		g, granted, _ := s.d.NewGrants(cn, "") // daemon's verbs_grants.go: never more than a pane holds
		if _, err := s.startWindow(ss, windowSpec{grants: g, granted: granted}); err != nil {
			return nil, err
		}
		return done(ss)
	case "NextWorkspace", "PrevWorkspace":
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err == nil {
			d := 1
			if tape == "PrevWorkspace" {
				d = Workspaces - 1
			}
			ss.workspace = (ss.workspace-1+d)%Workspaces + 1
		}
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		s.Retile(ss)
		s.hub.Publish(core.Event{Type: "workspace-switched", Session: ss.Name})
		return done(ss)
	}
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	switch tape {
	case "CloseWindow":
		s.mu.Unlock()
		s.EndWindow(w)
		return done(ss)
	case "ToggleMinimize":
		if err := notPopup(w, "minimized"); err != nil { // popup.go
			s.mu.Unlock()
			return nil, err
		}
		w.minimized = !w.minimized
	case "ToggleZoom":
		// Zoom acts on the window named (default: the focused one), so
		// it is focused first: what fills the area is what was asked.
		if err := notPopup(w, "zoomed"); err != nil { // popup.go: it has no tile to fill the area with
			s.mu.Unlock()
			return nil, err
		}
		ss.zoomed = !ss.zoomed
		if ss.zoomed {
			ss.focused, ss.workspace, w.minimized = w, w.workspace, false
		}
	case "FocusNext", "FocusPrev":
		// As focus-window --relative, from the window named.
		n := cycleFromLocked(ss, w, tape == "FocusPrev")
		ss.focused, ss.workspace, n.minimized = n, n.workspace, false
	}
	s.mu.Unlock()
	s.Retile(ss)
	return done(ss)
}

// splitAt is what split-window asks of the tree: the target's tile
// split in dir, the new window after it (right or below) or before it,
// taking pct percent.
type splitAt struct {
	target *Window
	dir    layout.Dir
	before bool
	pct    int
}

// splitSide reads split-window's direction: vertical is a vertical line
// between side-by-side tiles (vim's :vsplit, tmux's -h), horizontal a
// horizontal one between stacked tiles (tmux's -v); the four sides say
// where the new window goes.
func splitSide(direction string) (dir layout.Dir, before bool, side string) {
	switch direction {
	case "horizontal", "down":
		return layout.Stacked, false, "down"
	case "up":
		return layout.Stacked, true, "up"
	case "left":
		return layout.SideBySide, true, "left"
	}
	return layout.SideBySide, false, "right"
}

// roomToSplitLocked refuses a split that would leave either tile under the
// minimum, or nest the tree too deep. The target's tile is measured as
// it is when shown (restored if minimized, unzoomed), and the tree keeps
// that measure for the split. Called with s.mu held, the trees in step.
func roomToSplitLocked(ss *Session, at *splitAt) *proto.Error {
	w := at.target
	t := ss.layoutLocked(w.workspace)
	r := targetTileLocked(ss, w)
	name := w.DisplayName()
	if !t.CanSplit(w.ID, at.dir) {
		return proto.Errorf("no_space", "window %s is nested %d splits deep, the most a workspace holds", core.Clip(name, 64), layout.MaxDepth).
			WithHint(proto.Hint{Command: "tuios set-layout -s " + ss.Name + " --equalize", Detail: "split a window higher up, or close some"})
	}
	keep, give := layout.SplitSizes(r, at.dir, at.pct)
	least, unit, how, other := layout.MinCols, "columns", "side by side", "horizontal"
	if at.dir == layout.Stacked {
		least, unit, how, other = layout.MinRows, "rows (a title row and a pane row)", "stacked", "vertical"
	}
	if r.W == 0 || keep < least || give < least {
		return proto.Errorf("no_space", "window %s's tile (%dx%d) is too small to split %s", core.Clip(name, 64), r.W, r.H, how).
			WithHint(proto.Hint{Detail: fmt.Sprintf("each part needs %d %s: split it %s, split a bigger window, close or minimize one, or make the terminal larger", least, unit, other)})
	}
	return nil
}

// targetTileLocked is w's tile with w shown and focused: the one split-window
// divides. Called with s.mu held.
func targetTileLocked(ss *Session, w *Window) rect {
	var shown []*Window
	for _, x := range ss.windows {
		if x.workspace == w.workspace && x.popup == nil && (!x.minimized || x == w) {
			shown = append(shown, x)
		}
	}
	return placeTreeLocked(ss, w.workspace, shown, w.ID).Rects[w.ID]
}

// splitForLocked splits the target's tile for the new window nw, which has just
// joined the session; a zoomed session unzooms and a minimized target is
// restored, so the split is seen (tmux unzooms too). When the target has
// gone or no longer has room, nw is placed automatically instead. Called
// with s.mu held, from startWindow.
func splitForLocked(ss *Session, at *splitAt, nw *Window) {
	w := at.target
	// Not syncLayoutsLocked here: it would place nw automatically first.
	if indexOf(ss.windows, w) < 0 || w.workspace != nw.workspace || roomToSplitLocked(ss, at) != nil {
		return // syncLayoutsLocked places it
	}
	if ss.layoutLocked(w.workspace).Split(w.ID, nw.ID, at.dir, at.before, at.pct) {
		w.minimized = false
		if w.workspace == ss.workspace {
			ss.zoomed = false
		}
	}
}

// splitWindow opens a window in part of the target's tile (splitForLocked) and
// lists it right after the target.
func (s *Table) splitWindow(cn Call, p *proto.SplitWindowParams) (any, *proto.Error) {
	dir, before, side := splitSide(p.Direction)
	pct := p.Percent
	if pct == 0 {
		pct = 50
	}
	s.mu.Lock()
	ss, w, err := s.target(cn, p.Session, p.Window)
	if err == nil {
		err = s.needsClientLocked(ss, "split-window")
	}
	if err == nil && ss.floating {
		err = proto.Errorf(proto.CodeTilingOff, "split-window needs tiling on, and session %q floats its windows", ss.Name).
			WithHint(proto.Hint{Command: "tuios set-layout -s " + ss.Name + " --tiling true", Detail: "or open a floating window with tuios new-window"})
	}
	if err == nil {
		err = notPopup(w, "split") // popup.go: it has no tile
	}
	if err == nil {
		err = nameTakenLocked(ss, p.Name, nil) // resolve.go
	}
	at := &splitAt{target: w, dir: dir, before: before, pct: pct}
	if err == nil {
		syncLayoutsLocked(ss)
		err = roomToSplitLocked(ss, at)
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	ws, cwd := w.workspace, p.Cwd
	if cwd == "" {
		cwd = w.DirNow() // a split starts where its pane is
	}
	s.mu.Unlock()
	g, granted, _ := s.d.NewGrants(cn, "") // daemon's verbs_grants.go: never more than a pane holds
	nw, err := s.startWindow(ss, windowSpec{name: p.Name, argv: p.Argv, cwd: cwd, workspace: ws, noFocus: p.NoFocus, grants: g, granted: granted, split: at})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	moved := false
	if at := indexOf(ss.windows, w); at >= 0 {
		if from := indexOf(ss.windows, nw); from > at+1 {
			copy(ss.windows[at+2:from+1], ss.windows[at+1:from])
			ss.windows[at+1] = nw
			moved = true
		}
	}
	s.mu.Unlock()
	if moved { // the list order, not the tiles: startWindow placed it
		s.hub.Publish(core.Event{Type: "window-moved", Session: ss.Name, Window: nw.ID})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	direction := "vertical"
	if dir == layout.Stacked {
		direction = "horizontal"
	}
	return proto.WindowCreated{Type: "window_created", WindowID: nw.ID, Name: nw.DisplayName(), Session: ss.Name,
		Workspace: nw.workspace, Index: indexOf(ss.windows, nw), SplitFrom: w.ID, Direction: direction, Side: side,
		PID: nw.proc.Pid(), Focused: ss.focused == nw, Width: nw.cols, Height: nw.rows, Unplaced: !nw.placed}, nil
}

func indexOf(ws []*Window, w *Window) int {
	for i, x := range ws {
		if x == w {
			return i
		}
	}
	return -1
}

func tilingMode(ss *Session) string {
	if ss.floating {
		return "floating"
	}
	return "tiled"
}

func (s *Table) setLayout(cn Call, p *proto.SetLayoutParams) (any, *proto.Error) {
	if p.Tiling == nil && !p.Equalize {
		return nil, proto.Errorf(proto.CodeInvalidParams, "nothing to set: give --tiling true|false or --equalize").
			WithHint(proto.Hint{Detail: "in the protocol: tiling, or equalize true"})
	}
	s.mu.Lock()
	ss, err := s.session(cn, p.Session)
	if err == nil {
		err = s.needsClientLocked(ss, "set-layout")
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	before := map[*Window]rect{}
	for _, w := range ss.windows {
		before[w] = w.placementLocked()
	}
	prev := tilingMode(ss)
	if p.Tiling != nil {
		ss.floating = !*p.Tiling
	}
	if p.Equalize {
		on, _ := onScreen(ss)
		ss.layoutLocked(ss.workspace).Equalize()
		if ss.floating {
			// Floating keeps places, so even tiles are given once here
			// and then kept like any other place.
			placed := placeTreeLocked(ss, ss.workspace, on, focusedID(ss))
			for _, w := range on {
				if r := placed.Rects[w.ID]; r.W > 0 {
					w.tile, w.placed = r, true
				}
			}
		}
	}
	s.mu.Unlock()
	s.Retile(ss)
	s.mu.Lock()
	moved := []string{}
	for _, w := range ss.windows {
		if b, ok := before[w]; ok && b != w.placementLocked() {
			moved = append(moved, w.ID)
		}
	}
	res := proto.LayoutSet{Type: "layout_set", Session: ss.Name, Tiling: tilingMode(ss), PreviousTiling: prev,
		Equalized: p.Equalize, MovedWindows: moved, Changed: prev != tilingMode(ss) || len(moved) > 0}
	s.mu.Unlock()
	s.rest.changed() // restore.go: the splits are kept; places are not an event, retile told the attached clients
	return res, nil
}
