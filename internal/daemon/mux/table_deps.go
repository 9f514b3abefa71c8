package mux

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

// Table is the daemon's table of sessions and windows: the one lock that
// guards every session's and window's placement (mu), the maps, and the
// verbs and reads that need them. Nothing outside this package takes its
// lock: the rest of the daemon asks through its methods, each of which
// copies what it needs under the lock and lets go before it returns.
type Table struct {
	mu       sync.Mutex
	sessions map[string]*Session
	windows  map[string]*Window // by id, across sessions
	order    []*Session         // creation order
	closed   bool               // no window starts any more

	opt     Options
	hub     *drpc.Hub
	attach  Screens
	panes   PaneIndex
	tracker *detect.Tracker
	clock   agentstate.Clock
	d       Daemon
	rest    *Restorer
}

// Options are what a Table is made with: the daemon's settings and the
// parts of the daemon around it the table calls. None of the parts is
// called with the table's lock held unless its doc says it is safe.
type Options struct {
	Shell    string   // what a window runs when no argv is given
	Env      []string // the environment panes start from
	Socket   string   // the daemon's control socket (TUIOS_SOCKET)
	Host     string   // this machine's name (TUIOS_HOST)
	UID      int      // the user the daemon serves: its state files are this user's
	StateDir string   // where the sessions file is kept ("" keeps none)
	Config   *config.File
	// Logf gets the restore's summary line as text.
	Logf func(format string, args ...any)
	Log  core.Log
	// Done is closed when the daemon starts to stop.
	Done <-chan struct{}

	Tracker *detect.Tracker
	Clock   agentstate.Clock
	Hub     *drpc.Hub // the event hub
	Screens Screens   // the attach streams
	Panes   PaneIndex // the placement's index of pane shells and tokens
	Reaper  Reaper    // the orphan reaper
	Daemon  Daemon    // the rest
}

// Screens is what the table tells the attach streams. Every method takes
// only the streams' locks: each is safe with the table's lock held.
type Screens interface {
	Shows(ss *Session) bool
	Output(w *Window, titled bool)
	Printed(w *Window, titled bool, n int)
	LayoutChanged()
	Sized(peer int, ss *Session, cols, rows int)
	RevokeWindow(w *Window, closing bool)
}

// PaneIndex is the placement's index of pane shells and tokens, which
// finds the pane a caller runs in.
type PaneIndex interface {
	// StartsWindow notes that window id is about to start; done ends
	// the note once it is listed.
	StartsWindow(id string) (done func())
	AddShell(pid int, id string)
	DropShell(pid int)
	AddToken(tok, id string)
	DropToken(tok string)
}

// Reaper reaps the orphans the daemon is the subreaper of, apart from
// the panes' own shells.
type Reaper interface {
	Starts() func(pid int)
	Reaped(pid int)
	Reap()
}

// Call is one call a table verb answers, as the daemon's dispatch
// admitted it: the caller it placed and what the verb declares.
type Call interface {
	core.Call
	// Admitted is the caller admit placed; false when none was.
	Admitted() (c Caller, known bool)
	// SetCaller records c as the call's caller (a verb anyone may call
	// places its caller itself when it needs one).
	SetCaller(c Caller)
	// PlacedWindow is the window id the caller runs in ("" for none).
	PlacedWindow() string
	// Declared is what the call's verb declares.
	Declared() drpc.Access
	// PeerPID is the caller's pid from the kernel (0 when unknown).
	PeerPID() int
}

// admitted is Call.Admitted for a call that may be nil (the daemon's own
// act).
func admitted(cn Call) (Caller, bool) {
	if cn == nil {
		return Caller{}, false
	}
	return cn.Admitted()
}

// placedWindow is Call.PlacedWindow for a call that may be nil.
func placedWindow(cn Call) string {
	if cn == nil {
		return ""
	}
	return cn.PlacedWindow()
}

// Daemon is what the table asks of the daemon around it: who a caller is
// and what it may give, the one write path, and the features' hooks.
// Most methods are called with no lock of the table's held; OutOfReach,
// Permissions, LinkAllows and Fans (atomics and the fan tags), Queued
// (the reply queue's lock) and MailRing (the mail feature's table of
// rings, a leaf) are also called under Table.mu, so none of them may
// take a lock the table's order puts above it.
type Daemon interface {
	CallerOf(c Call) Caller
	NewGrants(c Call, asked string) (g grant.Set, granted bool, err *proto.Error)
	OutOfReach(verb string, by Caller, ss *Session) *proto.Error
	Wide(c Call, what string) *proto.Error
	Permissions() *Permissions
	LinkAllows(name string, cap core.LinkCap) bool
	Fans() core.Fans

	TypeInto(c Call, w *Window, b []byte, timeout time.Duration) *proto.Error
	PersonTyped(c Call, window string)
	RefusePrefix(w *Window, keys string) *proto.Error
	SpellPrefix(keys string) string
	HandChord(w *Window, keys string) (handed bool, err *proto.Error)

	PaneStartVars(vars map[string]string, sessID, windowID string, workspace int, argv []string, program bool)
	WatchStartNotice(w *Window, fire <-chan struct{}, t agentstate.Timer)
	ProgramExited(w *Window, status pty.ExitStatus)
	ScreenEvent(w *Window, ev vt.Event)

	InboxUpdate(window string)
	InboxSessionClosed(session string)
	Queued(window string) int
	MailRing(session, id string) *mail.Ring
	ConfigWaiting() (pending []string, widened string)
}

// New makes an empty table.
func New(opt Options) *Table {
	s := &Table{
		sessions: map[string]*Session{},
		windows:  map[string]*Window{},
		opt:      opt,
		hub:      opt.Hub,
		attach:   opt.Screens,
		panes:    opt.Panes,
		tracker:  opt.Tracker,
		clock:    opt.Clock,
		d:        opt.Daemon,
	}
	s.rest = newRestorer(s, opt.StateDir)
	return s
}

// Restorer is the table's sessions file.
func (s *Table) Restorer() *Restorer { return s.rest }

// AddFunc adds one verb to the daemon's verb table.
type AddFunc func(name string, acc drpc.Access, desc, returns, example string, params any, run func(Call, json.RawMessage) (any, *proto.Error))

func handler[P any](fn func(cn Call, p *P) (any, *proto.Error)) (any, func(Call, json.RawMessage) (any, *proto.Error)) {
	return drpc.Handle(fn)
}
