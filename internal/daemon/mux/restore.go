package mux

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux/layout"
	"github.com/tuios/tuios/internal/grant"
)

// Session restore: the daemon keeps a file of its sessions and windows
// (names, ids, workspaces, sizes, working directories, each workspace's
// splits) and, when it starts
// again, brings them back with a fresh shell in each window, started in
// the directory the window was last in and with TUIOS_RESTORED=1. Window
// and session ids come back, so a script holding one still finds its
// pane; mail, the stash and agent state do not (the agents page: state
// "does not survive a daemon restart"). A window that ran a program comes
// back as a shell, not as the program.
//
// The file is per socket, so a second daemon on another socket never
// restores the first one's sessions. It is written 500 ms after the layout
// last changed and once more when the daemon stops, before the panes are
// closed, so stopping does not read as every window closing. kill-session
// forgets a session; kill-server and a signal keep them all for the next
// start. [daemon] restore = false turns it off.

const (
	restoreVersion = 1
	restoreDelay   = 500 * time.Millisecond
	// maxRestoreBytes bounds the file read at start.
	maxRestoreBytes = 4 << 20
	// maxRestoreWindows bounds what one start brings back.
	maxRestoreWindows = 512
)

type savedLayout struct {
	Version  int            `json:"version"`
	Socket   string         `json:"socket"`
	Saved    time.Time      `json:"saved"`
	Sessions []savedSession `json:"sessions"`
}

type savedSession struct {
	Name      string         `json:"name"`
	ID        string         `json:"id"`
	Workspace int            `json:"workspace"`
	WSNames   map[int]string `json:"workspace_names,omitempty"`
	Display   string         `json:"display_name,omitempty"`
	Accent    string         `json:"accent,omitempty"`
	Cols      int            `json:"cols"`
	Rows      int            `json:"rows"`
	Focused   string         `json:"focused,omitempty"`
	Tiled     bool           `json:"tiled,omitempty"`
	Zoomed    bool           `json:"zoomed,omitempty"`
	Floating  bool           `json:"floating,omitempty"` // set-layout --tiling false
	Windows   []savedWindow  `json:"windows"`
	// Layouts are the workspaces' splits (layout.Saved), by window id.
	Layouts []savedWorkspaceLayout `json:"layouts,omitempty"`
}

type savedWorkspaceLayout struct {
	Workspace int           `json:"workspace"`
	Root      *layout.Saved `json:"root"`
}

type savedWindow struct {
	ID        string `json:"id"`
	Name      string `json:"name,omitempty"`
	Workspace int    `json:"workspace"`
	Minimized bool   `json:"minimized,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	// The agent conversation the pane held, for resuming it: kept on the
	// window, never as state.
	AgentSessionID string `json:"agent_session_id,omitempty"`
	AgentHarness   string `json:"agent_harness,omitempty"`
	AgentLive      bool   `json:"agent_live,omitempty"`
	// Grants are the pane's own grants (--grants, set-pane-grants); ""
	// when it holds the default.
	Grants string `json:"grants,omitempty"`
}

// Restorer keeps the sessions file.
type Restorer struct {
	s    *Table
	path string // "" keeps nothing

	mu     sync.Mutex
	timer  agentstate.Timer
	frozen bool

	// writing is held by one save from reading the sessions to renaming
	// the file: a debounced save that read them before the daemon began
	// to stop would otherwise write its older copy over the final one.
	// Only saves wait on it.
	writing sync.Mutex
	written bool // the final save wrote; under writing
}

// newRestorer is s's sessions file under dir ("" keeps none, as does
// [daemon] restore = false).
func newRestorer(s *Table, dir string) *Restorer {
	r := &Restorer{s: s}
	if dir != "" && s.opt.Config.RestoreSessions() {
		sum := sha256.Sum256([]byte(s.opt.Socket))
		r.path = filepath.Join(dir, "sessions", hex.EncodeToString(sum[:6])+".json")
	}
	return r
}

// Path is the sessions file ("" when none is kept).
func (r *Restorer) Path() string { return r.path }

// changed arms the debounced save.
func (r *Restorer) changed() {
	if r.path == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil || r.frozen {
		return
	}
	r.timer = r.s.clock.AfterFunc(restoreDelay, func() { go r.Save(false) })
}

// Save writes the file now. final freezes it: the windows closing as the
// daemon stops must not be written as a person closing them.
func (r *Restorer) Save(final bool) {
	if r.path == "" {
		return
	}
	r.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	if r.frozen {
		r.mu.Unlock()
		return
	}
	r.frozen = final
	r.mu.Unlock()
	r.writing.Lock()
	defer r.writing.Unlock()
	if r.written {
		return
	}
	r.written = final
	b, err := json.MarshalIndent(r.s.layoutToSave(final), "", " ")
	if err == nil {
		err = atomicfile.WriteFile(r.path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	}
	if err != nil {
		r.s.opt.Log.Errorf("restore: saving %s: %v", r.path, err)
	}
}

// layoutToSave copies the sessions under s.mu, then reads each pane's
// directory and agent without it; final (the save as the daemon stops)
// reads each pane's foreground first.
func (s *Table) layoutToSave(final bool) savedLayout {
	type winRef struct {
		w   *Window
		out *savedWindow
	}
	out := savedLayout{Version: restoreVersion, Socket: s.opt.Socket, Saved: time.Now().UTC()}
	var refs []winRef
	s.mu.Lock()
	for _, ss := range s.sessionsSorted() {
		sv := savedSession{Name: ss.Name, ID: ss.ID, Workspace: ss.workspace, Cols: ss.cols, Rows: ss.rows, Tiled: ss.tiled, Zoomed: ss.zoomed, Floating: ss.floating, Display: ss.displayName, Accent: ss.accent}
		if len(ss.wsNames) > 0 {
			sv.WSNames = map[int]string{}
			for k, v := range ss.wsNames {
				sv.WSNames[k] = v
			}
		}
		if ss.focused != nil {
			sv.Focused = ss.focused.ID
		}
		if f := ss.focused; f != nil && f.popup != nil && f.popup.back != nil { // popup.go: a popup is not kept
			sv.Focused = f.popup.back.ID
		}
		for _, w := range ss.windows {
			if w.popup != nil { // popup.go: a restart would bring back a shell, which is not the popup
				continue
			}
			sw := savedWindow{ID: w.ID, Name: w.name, Workspace: w.workspace, Minimized: w.minimized, Cwd: w.cwd}
			if w.granted {
				sw.Grants = w.grants.String()
			}
			sv.Windows = append(sv.Windows, sw)
		}
		syncLayoutsLocked(ss) // layout.go
		for i, t := range ss.layouts {
			if t != nil && t.Len() > 0 {
				sv.Layouts = append(sv.Layouts, savedWorkspaceLayout{Workspace: i + 1, Root: t.Save()})
			}
		}
		out.Sessions = append(out.Sessions, sv)
	}
	for i := range out.Sessions {
		for j := range out.Sessions[i].Windows {
			sw := &out.Sessions[i].Windows[j]
			refs = append(refs, winRef{s.windows[sw.ID], sw})
		}
	}
	s.mu.Unlock()
	for _, ref := range refs {
		if ref.w == nil {
			continue
		}
		if d := ref.w.DirNow(); d != "" {
			ref.out.Cwd = d
		} else if d, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", ref.w.proc.Pid())); err == nil {
			ref.out.Cwd = d
		}
		if final && ref.w.pane != nil {
			// The reads after output come a while apart while an agent
			// is in front: an agent quit just before the daemon stopped
			// must not be saved as running (and offered for resuming).
			ref.w.pane.ReadForeground()
		}
		snap := s.tracker.Arbiter().Get(ref.w.ID)
		ref.out.AgentSessionID = snap.SessionID
		ref.out.AgentHarness = snap.ConversationHarness()
		ref.out.AgentLive = snap.State != agentstate.None || snap.Harness != ""
		if snap.SessionID == "" { // the id from before a restart stays on the window, not live
			s.mu.Lock()
			ref.out.AgentSessionID, ref.out.AgentHarness = ref.w.resumeID, ref.w.resumeHarness
			s.mu.Unlock()
		}
	}
	return out
}

// Restore brings back the sessions of the file, once, before the daemon
// takes its first request, and returns the windows that came back. A
// file that cannot be trusted is set aside.
func (r *Restorer) Restore() []core.Restored {
	if r.path == "" {
		return nil
	}
	b, why := ReadStateFile(r.path, r.s.opt.UID, maxRestoreBytes)
	if b == nil && why == "" {
		return nil
	}
	var l savedLayout
	if why == "" {
		if err := json.Unmarshal(b, &l); err != nil {
			why = err.Error()
		} else if l.Version != restoreVersion {
			why = fmt.Sprintf("version %d, not %d", l.Version, restoreVersion)
		}
	}
	if why != "" {
		SetAside(r.s.opt.Log, r.s.clock, "restore", r.path, why, "started with no sessions")
		return nil
	}
	n := 0
	var back []core.Restored
	for _, sv := range l.Sessions {
		if !validName(sv.Name) {
			continue
		}
		n += r.s.restoreSession(sv, maxRestoreWindows-n, &back)
	}
	if n > 0 {
		r.s.opt.Logf("restore: brought back %d windows in %d sessions from %s", n, len(l.Sessions), r.path)
	}
	return back
}

// validName refuses what a file edited by hand could hold that no verb
// would ever have made.
func validName(name string) bool {
	return name != "" && len(name) <= 256 && !strings.ContainsAny(name, "\x00\n:")
}

// restoreSession starts one saved session's windows, adds each to out,
// and returns how many.
func (s *Table) restoreSession(sv savedSession, room int, out *[]core.Restored) int {
	s.mu.Lock()
	ss, err := s.newSessionLocked(sv.Name)
	if err != nil {
		s.mu.Unlock()
		return 0
	}
	if isID(sv.ID) {
		ss.ID = sv.ID
	}
	ss.cols, ss.rows = clampSize(sv.Cols, 80), clampSize(sv.Rows, 24)
	ss.tiled, ss.zoomed, ss.floating = sv.Tiled, sv.Zoomed, sv.Floating
	if sv.Workspace >= 1 && sv.Workspace <= Workspaces {
		ss.workspace = sv.Workspace
	}
	// The file is outside input: what a verb would refuse is dropped.
	if checkLabel(sv.Display) == nil {
		ss.displayName = sv.Display
	}
	if validAccent(sv.Accent) {
		ss.accent = sv.Accent
	}
	for k, v := range sv.WSNames {
		if k >= 1 && k <= Workspaces && checkLabel(v) == nil {
			ss.wsNames[k] = v
		}
	}
	s.mu.Unlock()
	n := 0
	back := map[string]*Window{} // saved id -> the window that came back for it
	for _, sw := range sv.Windows {
		if n >= room {
			break
		}
		s.mu.Lock()
		taken := !isID(sw.ID) || s.windows[sw.ID] != nil
		s.mu.Unlock()
		spec := windowSpec{name: sw.Name, cwd: sw.Cwd, workspace: sw.Workspace, noFocus: true, restored: true}
		if sw.Grants != "" {
			if g, err := grant.Parse(sw.Grants); err == nil {
				spec.grants, spec.granted = g, true
			} else { // a word that is no grant: the pane holds nothing rather than a guess
				spec.granted = true
				s.opt.Log.About(sw.ID, sv.Name).Warnf("restore: window %s of %s: grants %q: %v; it holds none", sw.ID, sv.Name, sw.Grants, err)
			}
		}
		if !taken {
			spec.id = sw.ID
		}
		if spec.workspace < 1 || spec.workspace > Workspaces {
			spec.workspace = 0
		}
		if fi, err := os.Stat(spec.cwd); err != nil || !fi.IsDir() {
			spec.cwd = "" // gone since: the shell starts where the daemon runs
		}
		w, perr := s.startWindow(ss, spec)
		if perr != nil {
			s.opt.Log.About(sw.ID, sv.Name).Warnf("restore: window %s of %s: %s", sw.ID, sv.Name, perr.Message)
			continue
		}
		n++
		back[sw.ID] = w
		*out = append(*out, core.Restored{Window: w.ID, AgentSessionID: sw.AgentSessionID, Harness: sw.AgentHarness, Live: sw.AgentLive})
		s.mu.Lock()
		// The conversation it held stays on it, for resume-agent, until
		// its agent reports another (internal/daemon/resume).
		w.resumeID, w.resumeHarness = sw.AgentSessionID, sw.AgentHarness
		w.minimized = sw.Minimized
		if sw.ID == sv.Focused {
			ss.focused = w
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	if sv.Workspace >= 1 && sv.Workspace <= Workspaces {
		ss.workspace = sv.Workspace
	}
	restoreLayoutsLocked(ss, sv.Layouts, back)
	s.mu.Unlock()
	s.Retile(ss)
	return n
}

// restoreLayoutsLocked puts back the workspaces' splits, each leaf naming a
// window that came back on that workspace; what the file claims beyond
// that is dropped (layout.Load), and windows a tree does not name are
// placed automatically. Called with s.mu held.
func restoreLayoutsLocked(ss *Session, saved []savedWorkspaceLayout, back map[string]*Window) {
	for _, sl := range saved {
		ws := sl.Workspace
		if ws < 1 || ws > Workspaces {
			continue
		}
		t := layout.Load(sl.Root, func(id string) (string, bool) {
			w := back[id]
			if w == nil || w.workspace != ws || w.popup != nil || indexOf(ss.windows, w) < 0 {
				return "", false
			}
			return w.ID, true
		}, 2*maxRestoreWindows)
		if t != nil {
			ss.layouts[ws-1] = t
		}
	}
	syncLayoutsLocked(ss)
}

func clampSize(n, def int) int {
	if n < 1 || n > 1000 {
		return def
	}
	return n
}

// isID is the shape newID makes.
func isID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i, c := range id {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// ReadStateFile reads a file the daemon wrote under its state dir. It
// returns nil and "" when there is none, and why it cannot be trusted
// when it is not this user's, not private, not regular or too big.
func ReadStateFile(path string, uid int, max int64) ([]byte, string) {
	return atomicfile.ReadPrivate(path, uid, max)
}

// SetAside moves a state file that was refused out of the way, so it is
// kept for a person to look at and never overwritten silently.
func SetAside(log core.Log, clock agentstate.Clock, what, path, why, then string) {
	aside, err := atomicfile.SetAside(path, clock.Now())
	if err != nil {
		log.Errorf("%s: refused %s (%s) and could not move it aside: %v; %s", what, path, why, err, then)
		return
	}
	log.Warnf("%s: refused %s (%s); moved it to %s and %s", what, path, why, aside, then)
}

// FollowLayout saves the sessions file after every change of the layout:
// an internal subscriber on the event hub, so every verb that changes a
// session or a window is covered without each remembering to save.
func (r *Restorer) FollowLayout() {
	if r.path == "" {
		return
	}
	sub := r.s.hub.Subscribe(core.Filter{Types: map[string]bool{
		"session-created": true, "session-closed": true, "window-created": true, "window-closed": true,
		"window-moved": true, "window-retitled": true, "window-focused": true, "window-minimized": true,
		"window-restored": true, "workspace-switched": true, core.EvSessionRenamed: true, core.EvWorkspaceRenamed: true, "gap": true,
	}}, 64)
	go func() {
		for range sub.C() {
			r.changed()
		}
	}()
}
