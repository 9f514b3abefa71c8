package core

import (
	"context"
	"net"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Workspaces is how many numbered workspaces a session has.
const Workspaces = 9

// MaxLabel bounds a label a caller gives a session or a workspace, in
// bytes (set-session-name, set-workspace-name).
const MaxLabel = 256

// Host is the core as a feature sees it. Every method may be called
// from any goroutine and none of them blocks on a pane: a method that
// reads the table copies what it needs under the core's lock and lets
// go before it returns.
type Host interface {
	// What a feature adds to the core during its Init (feature.go).
	Registrar

	// Own is a call that stands for the daemon itself acting as verb (a
	// feature's own act, such as resume_agents = auto typing a resume):
	// it passes the target check and the write path as the daemon, never
	// as a caller, and its context ends when the daemon stops.
	Own(verb string) Call
	// Type types line into pane as the admitted call c through the one
	// write path (the typing rules checked again right before the
	// write), in order after what is queued; c's context ends its wait
	// for room.
	Type(c Call, pane, line string) *proto.Error
	// OpenResumeItem opens window's resume Inbox item, whose summary is
	// command (what resume-agent would type); nothing when the window is
	// gone.
	OpenResumeItem(window, harness, command string)
	// CloseResumeItem closes window's resume item as resolved.
	CloseResumeItem(window string)

	// Options are the daemon's settings, fixed at start.
	Options() Options
	// Clock is the daemon's clock (a test's fake clock moves it).
	Clock() agentstate.Clock
	// Tracker is the agent tracker every pane is attached to.
	Tracker() *detect.Tracker
	// Done is closed when the daemon starts to stop.
	Done() <-chan struct{}
	// Budget bounds the request bytes held at once by every socket.
	Budget() *proto.Budget
	// Log writes the daemon's log lines.
	Log() Log

	// View is a copy of the sessions c's caller reaches (c nil: every
	// session), in creation order.
	View(c Call) *View
	// Find copies window id (a full id) as View would; false when there
	// is none. It copies one window, where View copies every one.
	Find(id string) (WindowView, bool)
	// FindSession copies the session named name as View would; false
	// when there is none.
	FindSession(name string) (SessionView, bool)
	// Pane is a live handle on window id; nil when there is no such
	// window.
	Pane(id string) Pane

	// Locate places the process pid as the kernel has it: in a pane,
	// inside in none, or outside every pane.
	Locate(pid int) Placement
	// Admit checks a call of verb by p as dispatch does (the verb's
	// declaration, the caller's grants) and returns the call, for the
	// target check of what it names.
	Admit(ctx context.Context, p Peer, verb string) (Call, *proto.Error)
	// Target is the one target check, for window (a full id; "" for
	// none) of session (a name) as the admitted call c names them.
	Target(c Call, session, window string) *proto.Error
	// Window resolves the window a verb's session and window params name
	// as every core verb does (a full id, an index, a prefix or a name;
	// window "": the caller's own pane, else the focused one), through
	// the target check, and copies it.
	Window(c Call, session, window string) (WindowView, *proto.Error)
	// Person says why c is not the person acting (not_human), as verb;
	// nil when it is: a live human nonce, or a shell outside every pane
	// where respond_from_shell allows it.
	Person(c Call, verb, nonce string) *proto.Error
	// Listening says whether a subscriber asked for event type typ by
	// name.
	Listening(typ string) bool
	// SubscribeReach is the session whose events c may hear ("" for
	// every session), as subscribe without a session decides it.
	SubscribeReach(c Call) (string, *proto.Error)
	// Do runs verb with params as p, through dispatch and the gate, and
	// returns its result as the wire has it (a JSON object decoded into
	// a map).
	Do(ctx context.Context, p Peer, verb string, params any) (map[string]any, *proto.Error)
	// TypePrompt types text into pane as one prompt (the harness's paste
	// and submit keys), as the admitted call c, through the one write
	// path; ctx ends its waits.
	TypePrompt(ctx context.Context, c Call, pane, text string) *proto.Error

	// Publish sends an event to every subscriber that wants it.
	Publish(Event) Event
	// Subscribe opens a subscription to the event hub; it holds queue
	// events before the oldest are dropped.
	Subscribe(f Filter, queue int) Subscription

	// Shows says whether an attached client shows session.
	Shows(session string) bool
	// Attached is how many attach streams are open.
	Attached() int
	// Neighbor is the window beside window in direction dir (left,
	// right, up, down) among the tiles on screen; "" when there is none
	// or no client shows its session.
	Neighbor(window, dir string) string
	// SwapWindows trades two windows of one workspace: their tiles and
	// their places in the window list. It says why not when it cannot:
	// not_found, cross_tab.
	SwapWindows(a, b string) (ok bool, reason string)
	// Touch makes session the most recently active one.
	Touch(session string)
	// CloseWindow closes window id and ends its process.
	CloseWindow(id string)

	// What the attention set reads of the core (host_attention.go).

	// PaneDir is where window id's shell is: the directory it last
	// reported (OSC 7), else its process's working directory, else the
	// one it started in; "" when there is no such window.
	PaneDir(id string) string
	// Worktree is the worktree tuios made for the session named session
	// (new-worktree, fan); false when it made none. The worktrees feature
	// answers it and FanReach (core.Fans).
	Worktree(session string) (Worktree, bool)
	// FanReach says why c may not reach the fan attempt in session (a
	// pane without admin reaches only its own fan's and the ones it
	// started); nil when it may or session is no attempt.
	FanReach(c Call, session string) *proto.Error
	// Session resolves a verb's session param as every core verb does
	// (a name; "": the caller's own session, else the most recently
	// active one), through the target check, and copies it.
	Session(c Call, session string) (SessionView, *proto.Error)
	// Resolve finds the window addr names in session (an id, an index, a
	// prefix or a name) without the target check: a name, not a target;
	// false when none does.
	Resolve(c Call, session, addr string) (WindowView, bool)
	// IsPerson says whether c acts as the person: nonce is a live human
	// nonce of an attached client whose process is outside every pane,
	// or c is a link that stands in for the person.
	IsPerson(c Call, nonce string) bool
	// CallerPane is the window c's caller runs in; "" when it runs in
	// none (or its window is gone).
	CallerPane(c Call) string
	// Hold keeps c's caller, as it was admitted, for typing done after
	// c's connection is gone (the reply queue types as whoever queued):
	// the write path checks its grants as they are then. ctx ends the
	// held call's waits; verb names the typing.
	Hold(ctx context.Context, c Call, verb string) Call
	// TypeHeld types text into pane as one prompt, as TypePrompt does,
	// as the call c (Hold, or a call as admitted: ask-agent), and says what
	// went out.
	TypeHeld(c Call, pane, text string) (Typed, *proto.Error)
	// RailChanged tells the attached clients that what the rail shows
	// changed (a pane's queued count, a linked host's header): they
	// redraw the layout. It takes only the attach streams' locks.
	RailChanged()
	// MailTo is the mail ring of session, when window is still one of
	// its panes; nil otherwise.
	MailTo(session, window string) *mail.Ring
	// HungUp says whether c's caller hung up (its context ended, or its
	// socket says the peer is gone).
	HungUp(c Call) bool
	// StartedIn is the directory window id's pane started in and the
	// agent protocol it was opened with (start-agent --protocol; "" for
	// none); false when there is no such window.
	StartedIn(id string) (dir, protocol string, ok bool)
	// CallerPlaced is the pane the kernel placed c's caller in, even if
	// that window has closed since; "" for none.
	CallerPlaced(c Call) string
	// InFront says whether window id is in front of the person: the
	// focused window of a session an attached client shows, on the
	// workspace on screen.
	InFront(id string) bool
	// InReach says why c may not reach the session named session, which
	// may have closed since (its own session always is); nil when it may.
	InReach(c Call, session string) *proto.Error
	// Wide says why c may not read beyond its own session (what names
	// the param that asks to: a pane needs admin, a connection restricted
	// to its session cannot); nil when it may.
	Wide(c Call, what string) *proto.Error
	// NoSession says there is no session named name (session_not_found,
	// with the nearest name and every name); nil when there is.
	NoSession(name string) *proto.Error
	// PaneCwds are where each window's foreground process is (else its
	// shell's directory), by window id: what a selector's cwd matches.
	PaneCwds() map[string]string

	// What the worktrees and fan feature (internal/daemon/fan) asks of
	// the core (host_fan.go).

	// FanCaller is what that feature reads of c's caller.
	FanCaller(c Call) FanCaller
	// CallerDir is the folder of the pane c's caller runs in: its
	// foreground process's, else its shell's (as PaneCwds has it); ""
	// outside every pane.
	CallerDir(c Call) string
	// UnknownSession says there is no session named name as a verb that
	// looks one up by name words it (session_not_found, "no session named
	// …", with every name); nil when there is one.
	UnknownSession(name string) *proto.Error
	// OutOfReach is the refusal of c for a session it does not reach, as
	// the target check words it (not naming the session).
	OutOfReach(c Call) *proto.Error
	// CheckAgentEnv checks an agent's NAME=VALUE variables as start-agent
	// does (bounds, nothing tuios sets for a pane).
	CheckAgentEnv(env []string) *proto.Error
	// ResolveAgent finds an agent's program the way a shell in the
	// caller's terminal would and builds the argv its pane runs.
	ResolveAgent(a AgentSpec) (AgentLaunch, *proto.Error)
	// NewGrants are the grants a pane c opens gets when it asks for
	// asked ("" for the default), never more than c holds; granted says
	// they are the pane's own rather than the default.
	NewGrants(c Call, asked string) (g grant.Set, granted bool, err *proto.Error)
	// NewSession opens an empty session named name (session_exists when
	// one has it); its first window comes with StartWindow.
	NewSession(name string) (SessionView, *proto.Error)
	// StartWindow starts a window in the session whose id is sessionID.
	StartWindow(sessionID string, spec WindowSpec) (WindowView, *proto.Error)
	// KillSession closes the session named name with its windows if its
	// id is still id; false when it is not.
	KillSession(name, id string) bool
	// WatchStartNotice watches pane, just started, as start-agent does:
	// if it has not reached its prompt 30 s from now and is not on a
	// prompt of its own, the Inbox asks the person to look at it. The
	// channel closes when the question is due; never when the watch ended
	// first (the pane reached its prompt or closed) or there is no pane.
	WatchStartNotice(pane string) <-chan struct{}
	// FirstPrompt types text into pane as an agent's first prompt, as the
	// call c (Hold), as start-agent does, and says whether the agent took
	// it: sent, stalled or not_sent, with a note, and the agent state that
	// said so ("" when none did).
	FirstPrompt(c Call, pane, text string) (status, note, state string)
	// CallHost calls verb on the linked host host and decodes its result
	// into out (nil: none).
	CallHost(ctx context.Context, host, verb string, params, out any) *proto.Error
	// What the agent mail feature reads of the core
	// (internal/daemon/mailbox; host_mail.go).

	// MailThread tells the Inbox what the person's mail in one thread of
	// session's ring says now (a mail item opens, reads as read, or
	// closes).
	MailThread(session string, ring *mail.Ring, thread uint64)
	// LinkMail is what the link a remote call c came over says about
	// its mail: the peer's name as the connection gave it ("unnamed"
	// when it gave none; never one a request carries) and whether the
	// link policy holds that machine's mail for the person (hold_mail).
	// Empty and false for a call that is not remote.
	LinkMail(c Call) (peer string, hold bool)
	// MailHost sends send-agent-message's p to a session on another
	// machine (p.Host): over its link, or kept in the outbox with
	// p.Queue. Mail that came over a link is not passed on.
	MailHost(c Call, p *proto.SendMessageParams) (any, *proto.Error)

	// What the copies (internal/daemon/transfers) read of the core.

	// Caller is who c's caller is, as the grants read it (placed once per
	// connection by the kernel's word, its grants read again per call).
	Caller(c Call) Caller

	// What respond (the attention set's prompts) asks of the core
	// (host_prompts.go): who answers, and the keys through the one
	// write path.

	// Answerer says who c answers a pane's prompt as: "link:NAME" for
	// another machine's link that stands in for the person, "client"
	// for the person's attached client (nonce is a live human nonce it
	// holds, and it is outside every pane), "shell" for a shell outside
	// every pane when respond_from_shell is on, "pane:ID" for a pane
	// holding the respond grant; "" for none of them. The nonces
	// themselves stay the core's.
	Answerer(c Call, nonce string) string
	// TypeKeys types b into pane as the admitted call c through the one
	// write path, as Type does, waiting at most wait (0: the write
	// path's default) for the pane to take it.
	TypeKeys(c Call, pane string, b []byte, wait time.Duration) *proto.Error
	// FocusIn reports focus to pane's program as c, before a submit key
	// (a harness that asked for focus reports wants it): a key like any
	// other, through the same check; it never waits.
	FocusIn(c Call, pane string)

	// What start-agent (internal/daemon/agents) asks of the core besides
	// the fans' ResolveAgent, NewGrants, StartWindow, KillSession and
	// FirstPrompt (host_start.go).

	// AgentRepo is the folder start-agent --repo runs an agent in: the
	// repository's top, cloned there first with clone (from is the
	// source, "" the caller's own repository), as the fans open one;
	// cloned says a clone was made.
	AgentRepo(c Call, repo string, clone bool, from string) (dir string, cloned bool, err *proto.Error)
	// AgentSession is the session start-agent opens a window in and the
	// window's name, read at one moment: the session named (through the
	// target check; "" the caller's own, else the most recently active),
	// or a new one when none has that name or there is no session at all
	// (created; a pane without admin is refused it, forbidden); the name
	// as given when no window of it has it (else name_taken), or with
	// name "" the first free of base, base-2, ….
	AgentSession(c Call, session, name, base string) (ss SessionView, window string, created bool, err *proto.Error)
	// LinkWrites says whether the link a remote call c came over has the
	// write capability in this machine's link policy; false for a call
	// that is not remote.
	LinkWrites(c Call) bool

	// What the agent verbs (internal/daemon/agents) read of the core
	// (host_agents.go).

	// Seat resolves the window a verb's session and window params name,
	// as Window does (through the target check), and copies it as an
	// agent row reads it.
	Seat(c Call, session, window string) (Seat, *proto.Error)
	// Seats copies, at one moment, every window of the session session
	// names (resolved as Session does) or, with all, of every session in
	// View's order (no target check: the caller passed Wide first), as
	// agent rows read them.
	Seats(c Call, session string, all bool) ([]SessionSeats, *proto.Error)
	// PaneOf is the window a process runs in and how it was found
	// (ancestry, session, token): for pid > 0 that process as the kernel
	// places it, else c's own caller as its connection was placed; ""
	// when it runs in none.
	PaneOf(c Call, pid int) (pane, how string)
	// LogActivity records a hook's log-only activity event (prompt,
	// tool, tool_done, tool_failed, turn_end) in window's agent log, as
	// report-agent-activity answers it; done is false for any other
	// event, which the arbiter reads first.
	LogActivity(window string, p *proto.ReportActivityParams) (out proto.AgentActivityReported, done bool)
	// LogSubagent records in window's agent log a subagent or
	// session_start event the arbiter accepted.
	LogSubagent(window string, p *proto.ReportActivityParams)
}

// Options are the daemon's settings a feature reads.
type Options struct {
	// Socket is the daemon's control socket.
	Socket string
	// Executable is the tuios binary panes are told about.
	Executable string
	// StateDir is where the daemon keeps what outlives it ("" keeps
	// nothing).
	StateDir string
	// UID is the user the daemon serves.
	UID int
	// Config is the config file as read at start.
	Config *config.File
	// AgentsOff is [agents] enabled = false: only the multiplexer.
	AgentsOff bool
	// Watcher is the process's transcript watcher (nil: none).
	Watcher *transcript.Watcher

	// For the worktrees feature: Env is the environment the daemon runs
	// git and panes with; Getenv reads the daemon's own (where the
	// worktrees go).
	Env    []string
	Getenv func(string) string

	// RespondFromShell is respond_from_shell (or its environment
	// variable) as the daemon started with it: a shell outside every
	// pane may answer as the person without a nonce.
	RespondFromShell bool
	// ConfigPath is the config file a hint names.
	ConfigPath string

	// What the agent verbs read (internal/daemon/agents).

	// DetectOff says the detector does not poll panes' foregrounds
	// ([daemon] agent_autodetect = false, agent_detect_seconds < 0, or
	// agents off): only reports attribute a pane.
	DetectOff bool
	// ManifestErrors are the harness manifests that did not load at
	// start. Read only.
	ManifestErrors []detect.LoadError
}

// Placement is where the kernel puts a caller.
type Placement struct {
	// Pane is the window it runs in; "" when none can be named.
	Pane string
	// Inside is true for a caller on the daemon's side: never the
	// person, whether or not its pane is known.
	Inside bool
}

// Peer is a caller a feature's own socket placed: its pid from the
// kernel, its placement, and the connection it called on (a verb that
// waits looks at it for the caller's hang-up).
type Peer struct {
	PID int
	Placement
	Conn net.Conn
}

// Call is one admitted call: what the target check and the write path
// read of it.
type Call interface {
	// Context ends when the caller hangs up or the daemon stops.
	Context() context.Context
	// Verb is the verb the call was admitted as.
	Verb() string
	// Remote says whether the call came over another machine's link.
	Remote() bool
}

// PaneStart is a pane about to start, as a feature that adds to its
// environment sees it.
type PaneStart struct {
	Session   string // its session's id
	Window    string // its window's id
	Workspace int
	Argv      []string
	// Program is true for a pane started with an argv rather than the
	// shell.
	Program bool
}
