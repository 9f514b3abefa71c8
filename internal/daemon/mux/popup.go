package mux

import (
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// A popup is a window that runs one command in a floating frame centred
// over the session's tiles (seed: "A popup for one command"). It is a
// window like any other (list-windows, send-text, capture-pane and
// close-window reach it), except that:
//   - it takes no tile: retile places it at its own rectangle, sized
//     from --width and --height in the session's area (layout.go);
//   - focus-window --relative and FocusNext/FocusPrev never land on it
//     (cycleFromLocked), and it cannot be minimized (set-window, ToggleMinimize)
//     nor zoomed (ToggleZoom): it has no tile to hide or to grow;
//   - while one is open on the workspace on screen, the attached client's
//     keys go to it (the layout names it focused), whatever a script
//     focused since: it covers the tiles, so typing anywhere else would
//     go to a pane the person cannot see;
//   - it closes when its command exits, and the focus goes back to the
//     window that had it when the popup opened;
//   - the restore file does not keep it: a restart would bring back a
//     shell, which is not the popup.
//
// Its rectangle includes a one-cell frame on every side, so its pane is
// two cells narrower and two rows shorter than the rectangle.

// popup is what a window that is a popup keeps beyond any window. Its
// fields are guarded by the server's lock.
type popup struct {
	width, height popupDim
	// back is the window that had the focus when the popup opened: it
	// gets it again when the popup closes, if it is still there.
	back *Window
}

// popupDim is one of --width and --height: cells, or a percentage of the
// session's area.
type popupDim struct {
	n   int
	pct bool
}

// The defaults (seed: "The defaults are 80% and 60%") and the smallest
// popup: a frame around at least 10x3 cells of pane, unless the area
// itself is smaller.
const (
	defaultPopupWidthPct  = 80
	defaultPopupHeightPct = 60
	minPopupCols          = 12
	minPopupRows          = 5
)

// parsePopupDim reads "60" (cells) or "60%" (of the area); "" is def.
func parsePopupDim(s, flag string, def popupDim) (popupDim, *proto.Error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	d := popupDim{}
	num := s
	if strings.HasSuffix(s, "%") {
		d.pct, num = true, strings.TrimSuffix(s, "%")
	}
	n, err := strconv.Atoi(num)
	bad := err != nil || n < 1 || (d.pct && n > 100) || (!d.pct && n > 1000) || strings.HasPrefix(num, "+")
	if bad {
		return d, proto.Errorf(proto.CodeInvalidParams, "%s %q is neither cells (1 to 1000) nor a share of the area (1%% to 100%%)", flag, core.Clip(s, 32)).
			WithHint(proto.Hint{Param: strings.TrimPrefix(flag, "--"), Detail: "for example " + flag + " 60 or " + flag + " 60%"})
	}
	d.n = n
	return d, nil
}

// cells is the dimension in an area of size cells, before clamping.
func (d popupDim) cells(area int) int {
	if d.pct {
		return (area*d.n + 50) / 100
	}
	return d.n
}

// popupRect is the popup's rectangle, frame included, centred in a
// cols x rows area: its size cut to the area and raised to the minimum
// (which the area also cuts).
func popupRect(p *popup, cols, rows int) rect {
	cols, rows = max(cols, 1), max(rows, 1)
	w := min(max(p.width.cells(cols), minPopupCols), cols)
	h := min(max(p.height.cells(rows), minPopupRows), rows)
	return rect{X: (cols - w) / 2, Y: (rows - h) / 2, W: w, H: h}
}

// popupPane is the pane inside a popup's rectangle: the frame takes a
// cell on each side.
func popupPane(r rect) (cols, rows int) {
	return max(r.W-2, 1), max(r.H-2, 1)
}

// placePopupsLocked gives every popup of the session its rectangle in the
// current area and returns the resizes that follow. retile calls it with
// s.mu held.
func placePopupsLocked(ss *Session) []resizeJob {
	var jobs []resizeJob
	for _, w := range ss.windows {
		if w.popup == nil {
			continue
		}
		r := popupRect(w.popup, ss.cols, ss.rows)
		w.tile, w.placed = r, true
		if pc, pr := popupPane(r); pc != w.cols || pr != w.rows {
			w.cols, w.rows = pc, pr
			jobs = append(jobs, resizeJob{w, pc, pr})
		}
	}
	return jobs
}

// topPopupLocked is the popup drawn on top on the workspace on screen (the
// last opened), nil when there is none. Called with s.mu held.
func topPopupLocked(ss *Session) *Window {
	var top *Window
	for _, w := range ss.windows {
		if w.popup != nil && w.workspace == ss.workspace {
			top = w
		}
	}
	return top
}

// appendPopups adds the popups of the workspace on screen to a layout,
// after the tiles (so a client draws them over), and names the top one
// focused: the person's keys go to what covers the tiles. Called with
// s.mu held, from buildLayout.
func appendPopups(ss *Session, lay *proto.AttachLayout, wins []*Window, index, tileAt map[*Window]int) []*Window {
	for i, w := range ss.windows {
		if w.popup == nil || w.workspace != ss.workspace || !w.placed {
			continue
		}
		_, exited := w.term.Printed()
		r := w.tile
		name := w.DisplayName()
		if w.name == "" {
			// The frame says what runs in it, the whole command line.
			name = core.Clip(strings.Join(w.argv, " "), 120)
		}
		tileAt[w] = len(lay.Windows)
		lay.Windows = append(lay.Windows, proto.AttachWindow{ID: w.ID, Index: i, Name: name, Title: w.Title(),
			X: r.X, Y: r.Y, Width: r.W, Height: r.H, Exited: exited, Popup: true})
		wins = append(wins, w)
	}
	if top := topPopupLocked(ss); top != nil && top.placed {
		lay.Focused = top.ID
	}
	return wins
}

// popupReturnLocked is the window a closing popup gives the focus back to: the
// one that had it when the popup opened, if it is still in the session
// and not minimized. nil when w is not a popup or that window is gone.
// Called with s.mu held, after w left ss.windows.
func popupReturnLocked(ss *Session, w *Window) *Window {
	if w.popup == nil || w.popup.back == nil {
		return nil
	}
	back := w.popup.back
	if indexOf(ss.windows, back) < 0 || back.minimized {
		return nil
	}
	return back
}

// notPopup refuses what a popup cannot do (be minimized).
func notPopup(w *Window, what string) *proto.Error {
	if w.popup == nil {
		return nil
	}
	return proto.Errorf(proto.CodeInvalidParams, "window %s is a popup, and a popup cannot be %s", w.ID[:8], what).
		WithHint(proto.Hint{Command: "tuios close-window -w " + w.ID[:8], Detail: "a popup lives as long as its command; close it, or let the command exit"})
}

// PopupVerbs adds popup to the verb table.
func (s *Table) PopupVerbs(add AddFunc) {
	p, h := handler(s.openPopup)
	add("popup", drpc.Opens, "Run one command in a floating pane centred over the session's tiles; it closes when the command exits. Needs a client attached",
		"popup_opened", `{"verb":"popup","params":{"session":"work","width":"60","height":"20","argv":["fzf"]}}`, p, h)
}

func (s *Table) openPopup(cn Call, p *proto.PopupParams) (any, *proto.Error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "name the command to run in the popup").
			WithHint(proto.Hint{Param: "argv", Detail: "put it after --: tuios popup -s work -- fzf"})
	}
	pp := &popup{}
	var err *proto.Error
	if pp.width, err = parsePopupDim(p.Width, "--width", popupDim{defaultPopupWidthPct, true}); err != nil {
		return nil, err
	}
	if pp.height, err = parsePopupDim(p.Height, "--height", popupDim{defaultPopupHeightPct, true}); err != nil {
		return nil, err
	}
	s.mu.Lock()
	ss, err := s.session(cn, p.Session)
	if err == nil && !s.attach.Shows(ss) {
		// A popup floats over what a client draws; with none, there is
		// nothing to float over, and nobody to answer it.
		err = proto.Errorf(proto.CodeNeedsClient, "popup needs a client attached to session %q, and none is", ss.Name).
			WithHint(proto.Hint{Command: "tuios attach -t " + ss.Name, Detail: "to run the command with nobody attached, open a window: tuios new-window -s " + ss.Name + " -- COMMAND"})
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	pp.back = ss.focused
	r := popupRect(pp, ss.cols, ss.rows)
	cols, rows := popupPane(r)
	s.mu.Unlock()
	g, granted, _ := s.d.NewGrants(cn, "") // daemon's verbs_grants.go: never more than a pane holds
	w, err := s.startWindow(ss, windowSpec{argv: p.Argv, cwd: p.Cwd, cols: cols, rows: rows, popup: pp, grants: g, granted: granted})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	at := w.placementLocked()
	return proto.PopupOpened{Type: "popup_opened", WindowID: w.ID, Session: ss.Name, Workspace: w.workspace,
		Width: at.W, Height: at.H, X: at.X, Y: at.Y, PID: w.proc.Pid(), Focused: ss.focused == w,
		PreviousWindowID: idOf(pp.back)}, nil
}

func idOf(w *Window) string {
	if w == nil {
		return ""
	}
	return w.ID
}
