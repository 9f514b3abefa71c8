// Package waitfor is wait-for, the daemon's feature that blocks a caller
// until something happens: a pane prints a pattern (window-output), goes
// quiet (window-idle) or its program exits (window-exit), a session
// exists (session-exists), an agent reaches a state (agent-state, in one
// window, any window of a session, or the first pane a selector
// matches), or a message arrives (agent-message). Every wait ends at its
// timeout (default 30 s, at most a day) with a timeout error whose hint
// says what to look at next, and at once when its caller hangs up or the
// daemon stops.
//
// A window opened to run one program closes when the program exits, and
// a short program can finish before the wait starts. So the feature keeps
// each session's most recent program exits (exits.go, the core tells it
// through core.Registrar.OnProgramExit before the window leaves the
// table), and a window-exit wait that finds no live window answers from
// them, never shadowing a live window the address could still mean.
//
// It reaches the core only through core.Host: the session and window a
// wait names, resolved through the one target check (Session, Window,
// InReach, Wide); a pane's screen, output, quiet time and exit through
// core.Pane; the agent states through the tracker's arbiter. Its one lock
// (Feature.mu, the exit log) is a leaf: nothing is taken under it and it
// is never held across a call into the core.
//
// What it does not own: the mail a wait for a message reads (the mail
// feature's, internal/daemon/mailbox, whose wait the composition root
// hands over as Options.Mail), the agent states (agentstate), the
// selector language (inbox).
package waitfor
