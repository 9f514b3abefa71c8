// Package fan is the worktrees and fans tuios made (docs/agents.md, fan
// and worktrees): the daemon's feature that makes git worktrees and a
// session in each (new-worktree, pull-worktree, fan), keeps which session
// is whose, and serves list-worktrees, remove-worktree, bundle-worktree,
// compare-fan, verify-fan and keep-fan.
//
// What it owns:
//
//   - The records (records.go): one per session it made, kept in
//     worktrees/worktrees.json under the state dir (0600, written
//     atomically after each change, read once the daemon holds its
//     socket, before the sessions come back; a file that is not the
//     user's, not private or not JSON is set aside). A record outlives
//     its session and goes with remove-worktree or keep-fan.
//   - Each session's fan tag (core.FanTag, by session id, which is never
//     reused): its fan group, its repository and the session that
//     started it. The core's target check reads the tags through
//     core.Fans.Tag (a pane reaches its own session, its fan group and
//     the sessions a fan from it started) with the core's lock held, so
//     Tag takes no lock: the tags are an immutable map swapped whole.
//   - Making worktrees (make.go): every name (branch, session, folder) is
//     held before anything is made, so a second call for the same names
//     is refused at once; a call that fails takes back every worktree,
//     branch, session and tag it made.
//   - The first prompts (prompt.go): typed once each agent is ready,
//     through the core's one write path as the caller of the verb that
//     made the attempt (core.Host.Hold, FirstPrompt).
//
// It reaches the core only through core.Host: sessions and windows are
// opened, closed and read there (NewSession, StartWindow, KillSession,
// CloseWindow, FindSession, Find), agents are resolved there as
// start-agent resolves them, and every session a verb names passes the
// one target check (Target, FanCaller, OutOfReach). Its verbs declare who
// may call them with core.Class, the same declaration the core's verbs
// carry.
//
// Locking: Worktrees.mu guards the records and the names held; it is a
// leaf (nothing else is taken under it, no git runs under it, the core is
// never called holding it). What it does not own: the git side (package
// internal/worktree), the diff of an attempt (package review), the
// sessions and windows (the core).
package fan
