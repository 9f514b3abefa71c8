package mux

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux/layout"
	"github.com/tuios/tuios/internal/daemon/mux/term"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// Workspaces is how many numbered workspaces a session has.
const Workspaces = core.Workspaces

// The bounds on a window's size a client may ask for (1 to 1000 cells
// each way, as vt.MaxCols and vt.MaxRows) are in the params' struct tags,
// where list-verbs and validation read them.
const (
	// inputCap bounds the bytes queued for one pane's input: terminal
	// replies beyond it are dropped, and send-text waits for room.
	inputCap = 1 << 20
)

// Session is a named set of windows. Its fields are guarded by the
// server's lock.
type Session struct {
	Name      string
	ID        string
	created   time.Time
	active    time.Time // most recently used
	windows   []*Window // list order: the index list-windows prints
	focused   *Window
	workspace int
	wsNames   map[int]string
	cols      int // the area the windows are tiled into (layout.go)
	rows      int
	zoomed    bool // the focused window fills the area
	tiled     bool // a client has shown it: its windows are tiled (layout.go)
	floating  bool // set-layout --tiling false: windows keep their places (layout.go)
	// displayName and accent are labels for people, set with
	// set-session-name and set-session-accent (verbs_session_meta.go) or
	// herdr's workspace.rename; "" shows the name and no colour. The
	// name stays the address: it is a key of mail, stash, the Inbox and
	// every shell's TUIOS_SESSION, so a rename relabels.
	displayName string
	accent      string

	tileMu sync.Mutex // one retile at a time; taken before s.mu, never under it

	// layouts are each workspace's splits (layout.go); nil until used.
	layouts [Workspaces]*layout.Tree
}

// Window is one pane: a process on a PTY, its screen, its tracked state.
// The placement fields (name, workspace, minimized) are guarded by the
// server's lock; its terminal (mux/term) keeps its output and exit.
type Window struct {
	ID        string
	session   *Session
	name      string // given by a person or a script; "" for the automatic name (window_name.go)
	workspace int
	minimized bool
	cols      int // the pane's size: its tile less the title row
	rows      int
	tile      rect // its place in the session's area, once placed
	placed    bool
	argv      []string
	program   bool // started with an argv rather than the shell
	cwd       string
	created   time.Time
	// resumeID and resumeHarness are the agent conversation the pane held
	// before a restart (internal/daemon/resume), kept until its agent
	// reports another.
	resumeID      string
	resumeHarness string
	// popup is set for a window that floats over the tiles (popup.go).
	popup *popup
	// grants are what a program in the pane may do through TUIOS, when
	// granted says they were given to it (--grants, set-pane-grants);
	// otherwise it holds [agents.permissions]'s default (grantsOfLocked).
	grants  grant.Set
	granted bool
	// startGrants is what TUIOS_PANE_GRANTS told the pane's process.
	startGrants string
	// protocol is acp or codex for a pane whose process is tuios
	// agent-proto (start-agent --protocol): it reports its own state and
	// holds its permission requests for the Inbox without config.
	protocol string

	// term is the pane's terminal (mux/term): its process, input queue,
	// tracked screen, output and exit. proc, in and pane are its, kept
	// here for the many readers.
	term *term.Term
	proc *pty.Process
	in   *pty.Input // every write to the pane's input, in order
	pane *detect.Pane
	// token is the pane's TUIOS_PANE_TOKEN (daemon's boundary.go).
	token string
	srv   *Table

	// title and dir are the screen's title and OSC 7 directory, copied
	// after each chunk (printed) so listings read them without any pane
	// lock.
	title atomic.Pointer[string]
	dir   atomic.Pointer[string]
	// auto is the automatic name: what runs in the foreground, read
	// after output (window_name.go). nameMu guards the read's pacing.
	auto       atomic.Pointer[string]
	nameMu     sync.Mutex
	nameAt     time.Time
	nameTimer  *time.Timer
	nameArmed  bool
	nameClosed bool

	// inputsClosed: the pane is closing, and its input is passed to no
	// client any more (daemon's attach_input.go; the attach hub's lock guards it).
	inputsClosed bool

	typedAt atomic.Int64 // unix ns of the last typing into the pane
	// sinceTyped counts what the pane printed since: an echo is small,
	// and output past attachEchoMax is a flood, paced (daemon's attach_echo.go).
	sinceTyped atomic.Int64
	// atPrompt follows the arbiter: the pane is on needs_input. The
	// target check reads it under s.mu; the write path asks the arbiter.
	atPrompt atomic.Bool
}

// Title is the pane's title as last drawn.
func (w *Window) Title() string {
	if t := w.title.Load(); t != nil {
		return *t
	}
	return ""
}

// DirNow is the pane's working directory as last reported (OSC 7).
func (w *Window) DirNow() string {
	if d := w.dir.Load(); d != nil {
		return *d
	}
	return ""
}

// What the rest of the daemon reads of a window goes through these
// methods, never its fields (TestTableLockStaysInTheTable): the fields
// are the table's, and move with it.

// Session is the session the window is in.
func (w *Window) Session() *Session { return w.session }

// Term is the pane's terminal; Proc, Input and Tracked are its process,
// input queue and tracked screen.
func (w *Window) Term() *term.Term      { return w.term }
func (w *Window) Proc() *pty.Process    { return w.proc }
func (w *Window) Input() *pty.Input     { return w.in }
func (w *Window) Tracked() *detect.Pane { return w.pane }

// Protocol is acp or codex for a pane start-agent --protocol opened, ""
// for any other.
func (w *Window) Protocol() string { return w.protocol }

// StartDir is the directory the window was started in ("" for the
// daemon's).
func (w *Window) StartDir() string { return w.cwd }

// AtPrompt reports whether the pane is on needs_input, as the events hook
// last set it (SetAtPrompt): the target check reads it under s.mu.
func (w *Window) AtPrompt() bool       { return w.atPrompt.Load() }
func (w *Window) SetAtPrompt(yes bool) { w.atPrompt.Store(yes) }

// Typed records that the pane was typed into at (unix ns), with printed
// bytes printed since; an older typing than the last recorded is
// ignored unless always. LastTyped reads them; Printed adds output.
func (w *Window) Typed(at, printed int64, always bool) {
	if always || at > w.typedAt.Load() {
		w.sinceTyped.Store(printed)
		w.typedAt.Store(at)
	}
}
func (w *Window) LastTyped() (at, printed int64) { return w.typedAt.Load(), w.sinceTyped.Load() }

// CloseInputs marks the pane as closing for the attach hub: no input is
// passed to a client any more. Both are called with the hub's lock held.
func (w *Window) CloseInputs()       { w.inputsClosed = true }
func (w *Window) InputsClosed() bool { return w.inputsClosed }

// DisplayName is the window's name: the one it was given, else its
// automatic name (window_name.go), never its title. Called with s.mu held.
func (w *Window) DisplayName() string {
	if w.name != "" {
		return w.name
	}
	if n := w.autoName(); n != "" {
		return n
	}
	return "window " + w.ID[:8]
}

// newSessionLocked creates an empty session. Called with s.mu held.
func (s *Table) newSessionLocked(name string) (*Session, *proto.Error) {
	if name == "" {
		for i := 0; ; i++ {
			name = fmt.Sprint(i)
			if s.sessions[name] == nil {
				break
			}
		}
	}
	if s.sessions[name] != nil {
		return nil, proto.Errorf(proto.CodeSessionExists, "a session named %q already exists", name).
			WithHint(proto.Hint{Available: s.sessionNames(), Detail: "pick another name"})
	}
	now := time.Now()
	ss := &Session{Name: name, ID: newID(), created: now, active: now, workspace: 1, wsNames: map[int]string{}, cols: 80, rows: 24}
	s.sessions[name] = ss
	s.order = append(s.order, ss)
	s.hub.Publish(core.Event{Type: "session-created", Session: name})
	return ss, nil
}

func (s *Table) sessionNames() []string {
	var out []string
	for _, ss := range s.sessionsSorted() {
		out = append(out, ss.Name)
	}
	return out
}

// windowSpec says how to start a window.
type windowSpec struct {
	name      string
	argv      []string
	cwd       string
	workspace int
	noFocus   bool
	cols      int
	rows      int
	// id is the window's id when it comes back after a restart ("" is a
	// new one); restored tells its shell so (TUIOS_RESTORED=1).
	id       string
	restored bool
	popup    *popup // popup.go: open it as a popup
	// split, when set, splits this window's tile for the new one
	// (split-window, verbs_arrange.go).
	split *splitAt
	// grants, when granted, are the pane's own (--grants, a restored
	// window's); otherwise it holds the default.
	grants  grant.Set
	granted bool
	// protocol is acp or codex for a pane start-agent --protocol opened
	// (its process is tuios agent-proto).
	protocol string
	// stays keeps a program's window open after it exits, with its final
	// screen, as a shell's is kept (fan verify's failed checks).
	stays bool
}

// startWindow starts a window in ss. Called without s.mu held. A session
// killed while the window started gets no window: the process is ended
// and the caller told.
func (s *Table) startWindow(ss *Session, spec windowSpec) (*Window, *proto.Error) {
	argv := spec.argv
	if len(argv) == 0 {
		argv = []string{s.opt.Shell}
	}
	s.mu.Lock()
	if spec.cols <= 0 {
		spec.cols = ss.cols
	}
	if spec.rows <= 0 {
		spec.rows = ss.rows
	}
	sessName, sessID, tab := ss.Name, ss.ID, spec.workspace
	if tab <= 0 {
		tab = ss.workspace
	}
	s.mu.Unlock()
	id := spec.id
	if id == "" {
		id = newID()
	}
	token := newPaneToken()
	vars := map[string]string{
		"TUIOS_ENV": "1", "TUIOS_SOCKET": s.opt.Socket, "TUIOS_PANE_ID": id, "TUIOS_WINDOW_ID": id,
		"TUIOS_SESSION": sessName, "TUIOS_HOST": s.opt.Host, "TERM": "xterm-256color", PaneTokenEnv: token,
	}
	if spec.restored {
		vars["TUIOS_RESTORED"] = "1"
	}
	held := s.d.Permissions().Def
	if spec.granted {
		held = spec.grants
	}
	vars["TUIOS_PANE_GRANTS"] = held.String()
	s.d.PaneStartVars(vars, sessID, id, tab, argv, len(spec.argv) > 0) // daemon's host.go: what features add (herdr's variables)
	env := paneEnv(withoutHerdrIDs(s.opt.Env), vars)
	listed := s.panes.StartsWindow(id) // daemon's boundary.go: its processes may call before it is listed
	defer listed()
	w := &Window{
		ID: id, session: ss, name: spec.name, cols: spec.cols, rows: spec.rows, argv: argv, program: len(spec.argv) > 0 && !spec.stays, cwd: spec.cwd, protocol: spec.protocol,
		created: time.Now(), popup: spec.popup, srv: s,
		grants: spec.grants, granted: spec.granted, startGrants: vars["TUIOS_PANE_GRANTS"],
		token: token,
	}
	t, err := term.Start(term.Options{ID: id, Start: pty.Options{Argv: argv, Dir: spec.cwd, Env: env, Cols: spec.cols, Rows: spec.rows},
		InputMax: inputCap, Tracker: s.tracker, Scrollback: 3000, OnEvent: func(ev vt.Event) { s.d.ScreenEvent(w, ev) }, // daemon's attach_stream.go
		Starting: s.opt.Reaper.Starts, // daemon's reaper.go: its shell's exit status is pty's, never the reaper's
		Waited:   s.opt.Reaper.Reaped,
		OnOutput: w.printed, OnExit: w.exited})
	if err != nil {
		e := proto.Errorf(proto.CodeCommandFailed, "cannot start the window: %v", err)
		if h := startHint(err); h != "" { // starthint.go
			e.Hint = &proto.Hint{Detail: h}
		}
		return nil, e
	}
	w.term, w.proc, w.in, w.pane = t, t.Proc(), t.Input(), t.Tracked()
	// Placed from here on: a process of the pane that calls before the
	// window is listed is already inside it.
	s.panes.AddShell(w.proc.Pid(), id)
	s.panes.AddToken(token, id)
	if n := argvName(argv); n != "" {
		w.auto.Store(&n) // until the foreground is first read
	}

	s.mu.Lock()
	if s.closed || s.sessions[ss.Name] != ss {
		s.mu.Unlock()
		w.Close()
		return nil, proto.Errorf(proto.CodeSessionNotFound, "session %q closed while the window started", ss.Name)
	}
	ws := spec.workspace
	if ws <= 0 {
		ws = ss.workspace
	}
	w.workspace = ws
	ss.windows = append(ss.windows, w)
	s.windows[id] = w
	if spec.split != nil {
		splitForLocked(ss, spec.split, w) // verbs_arrange.go: in the same hold, so no retile places it first
	}
	if !spec.noFocus || ss.focused == nil {
		ss.focused = w
		ss.workspace = ws
	}
	ss.active = time.Now()
	s.mu.Unlock()
	s.Retile(ss)
	s.hub.Publish(core.Event{Type: "window-created", Session: ss.Name, Window: id})
	t.Run()
	return w, nil
}

// paneEnv is base with the pane's variables set (replacing any inherited
// ones, so a nested daemon's panes name the right socket).
func paneEnv(base []string, set map[string]string) []string {
	out := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k := kv
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				k = kv[:i]
				break
			}
		}
		if _, ok := set[k]; ok {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}

// printed is the pane's output hook (term.Options.OnOutput), on its
// reader's goroutine after each chunk of n bytes reached the screen.
func (w *Window) printed(n int) {
	sc := w.pane.Screen()
	titled := false
	if t := sc.Title(); t != w.Title() {
		titled = true
		w.title.Store(&t)
	}
	if d := sc.WorkingDir(); d != w.DirNow() {
		w.dir.Store(&d)
	}
	if w.nameDue() { // window_name.go: its program changed
		w.srv.windowRenamed(w)
	} else {
		w.sinceTyped.Add(int64(n))
		w.srv.attach.Printed(w, titled, n) // daemon's attach_echo.go: an echo is sent from here
	}
	if w.srv.hub.Wants("output") {
		w.srv.hub.Publish(core.Event{Type: "output", Session: w.session.Name, Window: w.ID, Bytes: n})
	}
}

// exited is the pane's exit hook (term.Options.OnExit): its final output
// read and its status recorded.
func (w *Window) exited(status pty.ExitStatus) {
	w.srv.hub.Publish(core.Event{Type: "window-exit", Session: w.session.Name, Window: w.ID, ExitCode: status.Code})
	// A window opened to run a program closes when it exits; a shell
	// window stays in the list, its final screen readable, until
	// something closes it.
	if w.program {
		w.srv.d.ProgramExited(w, status) // a wait that starts late still gets it (daemon's host_waitfor.go)
		w.srv.EndWindow(w)
	}
}

// WatchExits is the daemon's one exit watcher. A SIGCHLD means a pane's
// process, a helper the daemon ran, or an orphan re-parented to the
// daemon (it is their subreaper) may have exited: each live window's
// process is asked without blocking, and exited orphans are reaped
// (daemon's reaper.go).
func (s *Table) WatchExits(ch chan os.Signal) {
	defer signal.Stop(ch)
	for {
		select {
		case <-s.opt.Done:
			return
		case <-ch:
		}
		s.mu.Lock()
		live := make([]*Window, 0, len(s.windows))
		for _, w := range s.windows {
			live = append(live, w)
		}
		s.mu.Unlock()
		for _, w := range live {
			w.term.CheckExit()
		}
		s.opt.Reaper.Reap()
	}
}

// EndWindow removes a window from its session and stops it.
func (s *Table) EndWindow(w *Window) {
	s.mu.Lock()
	ss := w.session
	found := false
	for i, x := range ss.windows {
		if x == w {
			ss.windows = append(ss.windows[:i], ss.windows[i+1:]...)
			found = true
			break
		}
	}
	delete(s.windows, w.ID)
	if ss.focused == w {
		ss.focused = nil
		for _, x := range ss.windows {
			if x.workspace == ss.workspace {
				ss.focused = x
			}
		}
		if ss.focused == nil && len(ss.windows) > 0 {
			ss.focused = ss.windows[len(ss.windows)-1]
		}
		if back := popupReturnLocked(ss, w); back != nil { // popup.go: the focus goes back where it was
			ss.focused = back
		}
	}
	s.mu.Unlock()
	if !found {
		return
	}
	w.Close() // the pane leaves the tracker too
	s.Retile(ss)
	// Features hear it from the hub only: its subscribers, and the hooks
	// (core.Registrar.OnWindowClosed) that must be done before the close
	// returns, which publish runs (the mail feature's: the window's inbox
	// dies with it, and mail to it reads undeliverable).
	s.hub.Publish(core.Event{Type: "window-closed", Session: ss.Name, Window: w.ID})
}

// Close stops the window's input and ends every process of its terminal
// session, and the pane leaves the tracker; it is idempotent. (Placement
// keeps the shell's pid until here: the pane's processes that outlive
// their shell are still found by their session, which holds that
// number.)
func (w *Window) Close() {
	w.srv.attach.RevokeWindow(w, true) // daemon's attach_input.go: before its processes go
	w.stopNaming()
	w.term.Close()
	w.srv.panes.DropShell(w.proc.Pid())
	w.srv.panes.DropToken(w.token)
}

// EndSession closes every window of a session and drops it.
func (s *Table) EndSession(ss *Session) {
	s.mu.Lock()
	if s.sessions[ss.Name] != ss {
		s.mu.Unlock()
		return
	}
	wins := append([]*Window(nil), ss.windows...)
	delete(s.sessions, ss.Name)
	for i, x := range s.order {
		if x == ss {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range wins {
		wg.Add(1)
		go func() { defer wg.Done(); s.EndWindow(w) }()
	}
	wg.Wait()
	// The hooks of session-closed (core.Registrar.OnSessionClosed) run
	// before publish returns: the session's mail and stash go with it.
	s.hub.Publish(core.Event{Type: "session-closed", Session: ss.Name})
	s.d.InboxSessionClosed(ss.Name)
}

// freeNameLocked is base, or base-2, base-3… when a window of the session has
// it. Called with s.mu held.
func freeNameLocked(ss *Session, base string) string {
	for i := 1; ; i++ {
		n := base
		if i > 1 {
			n = base + "-" + strconv.Itoa(i)
		}
		if nameTakenLocked(ss, n, nil) == nil {
			return n
		}
	}
}

// PaneTokenEnv is the pane variable holding the pane's token: a secret
// per pane that proves TUIOS_PANE_ID to the daemon where the kernel cannot
// name the caller's pane (a process in another pid namespace, one behind
// a relay). The client sends it with every request. Showing it places a
// caller the kernel did not place in that pane, and never makes a caller
// the person: a caller that shows a token, right or wrong, is inside.
const PaneTokenEnv = "TUIOS_PANE_TOKEN"

// newPaneToken is a fresh pane token.
func newPaneToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
