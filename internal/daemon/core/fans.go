package core

import (
	"github.com/tuios/tuios/internal/grant"
	"github.com/tuios/tuios/internal/proto"
)

// What the core and the worktrees feature (internal/daemon/fan) tell each
// other. The feature owns the worktrees tuios made and each session's fan
// tag; the core asks it through Fans, which the composition root hands
// the core, and the feature asks the core through Host's methods for it.

// FanTag is a session's place in the worktrees tuios made. A tag never
// changes once given: a session is given a new one or none.
type FanTag struct {
	Group      string // the fan's stem; "" outside a fan (worktree new)
	Repo       string // the main checkout
	LaunchedBy string // the session id of the pane that started it; "" for the person
	Worktree   string // the worktree's folder
}

// Fans is the worktrees feature as the core asks it: the target check
// reads the tags (a pane reaches its fan group and the sessions a fan
// from it started), the rail shows the groups, and Host's Worktree and
// FanReach answer from it.
type Fans interface {
	// Tag is the tag of the session whose id is sessionID; nil for none.
	// It takes no lock and does no I/O: the target check calls it with
	// the core's lock held.
	Tag(sessionID string) *FanTag
	// Worktree is the worktree tuios made for the session named session
	// (the live session's record first, else the newest); false for none.
	Worktree(session string) (Worktree, bool)
	// Reach says why c may not reach the fan attempt in session; nil when
	// it may or session is no attempt. It calls the core: never call it
	// with the core's lock held.
	Reach(c Call, session string) *proto.Error
}

// FanCaller is what the worktrees feature reads of a call's caller.
type FanCaller struct {
	// All: the caller reaches every fan (the person, a link, an admin
	// pane on a connection not restricted to its session).
	All bool
	// PaneSessionID is the session id of the pane the call was admitted
	// from ("" for none).
	PaneSessionID string
	// Session is the session of the pane the caller runs in now ("" for
	// none): the fan verbs' default session.
	Session string
	// SessionID is that session's id when the caller is inside ("" for
	// none): what a worktree it makes records as launched by.
	SessionID string
}

// WindowSpec is a window a feature starts (Host.StartWindow).
type WindowSpec struct {
	// Name is its name; with FreeName, the first of Name, Name-2, … no
	// window of the session has.
	Name     string
	FreeName bool
	// Argv is its program; nil runs the shell.
	Argv []string
	Dir  string // where it starts
	// NoFocus leaves the session's focus where it is.
	NoFocus bool
	// Grants, when Granted, are the pane's own; else it holds the default.
	Grants  grant.Set
	Granted bool
	// Stays keeps a program's window open after it exits, with its final
	// screen.
	Stays bool

	// What start-agent adds (internal/daemon/agents).

	// Workspace is the workspace it opens on (0: the one on screen).
	Workspace int
	// Protocol is acp or codex for a pane that runs tuios agent-proto
	// ("" for none): the window remembers it (Host.StartedIn).
	Protocol string
	// StartNotice watches the pane as Host.WatchStartNotice does, its
	// 30 s counted from before the window starts, so a window anyone
	// can see already has its question armed.
	StartNotice bool
}

// AgentSpec is an agent to run, as start-agent resolves it
// (Host.ResolveAgent).
type AgentSpec struct {
	Agent string   // a known agent's name, a path, or (AnyProgram) a program
	Args  []string // its arguments
	Path  string   // the caller's PATH ("" the daemon's)
	Env   []string // NAME=VALUE, checked by Host.CheckAgentEnv
	// AnyProgram runs a program tuios knows no harness for too.
	AnyProgram bool

	// What start-agent adds (internal/daemon/agents).

	// Cwd is where it runs ("" the daemon's folder): a relative program
	// path is found from there.
	Cwd string
	// Protocol is acp or codex: Agent is then the whole command of an
	// agent that speaks it (split as a POSIX shell would), run under
	// tuios agent-proto, whose handshake waits at most ReadyMS
	// milliseconds (0: start-agent's default).
	Protocol string
	ReadyMS  int
}

// AgentLaunch is how an agent runs.
type AgentLaunch struct {
	Harness string // "" when none is known
	Program string // as resolved, before the PATH lookup
	// Argv is the pane's program (env(1) in front when variables or
	// another PATH must be set); AgentArgv the agent's own words.
	Argv, AgentArgv []string
}
