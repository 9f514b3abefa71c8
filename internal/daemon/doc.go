// Package daemon is the tuios daemon: sessions of windows grouped in
// numbered workspaces, each window a shell on a PTY with a screen and an
// agent tracker, served over the JSON-lines control protocol on a unix
// socket. It runs detached: nothing needs a client.
//
// Every CLI verb is a protocol verb; the CLI is a thin client. The daemon
// owns addressing (sessions by name, windows by id, index, prefix or name),
// placing a caller inside its own pane (by the kernel's peer credentials
// and the caller's process ancestry, which as the panes' subreaper it
// keeps whole), the person boundary, waits, and the event stream. The
// agent state itself comes from package detect's Tracker and package
// agentstate's Arbiter; the daemon only serves it.
//
// # Layout
//
// The sessions, their workspaces and the tiling of their windows are the
// table's: internal/daemon/mux's doc says how windows are placed.
//
// # The attach stream
//
// attach with stream:true (proto/attach.go is the wire contract) turns the
// connection, after its "attached" reply, into one JSON line per message:
// a "layout" first and whenever it changes, a "screen" per visible pane
// with the rows that differ from what this client last got (all of them,
// full:true, the first time, after the pane's size changed or when every
// row changed), a "bell" for a BEL or OSC 9/777/99 notification of any
// window of the session (on screen or not), and last a "detached" line
// with reason session-closed, server-stopped, or detached (the client
// closed its writing half). A client that hangs up gets nothing more.
//
// Frames are pulled: producers only mark what changed and wake the
// stream, which waits one 16 ms tick, then reads the current state and
// writes. A slow client gets fewer frames, never a queue; a client that
// has not read for 10 s is dropped; an idle stream holds no timer. A
// key's echo (a little output within 50 ms of typing) is not held for a
// tick: the pane's reader sends it itself when the stream is idle, as
// far as the socket takes it at once (attach_echo.go), and the client's
// keys, quiet send-text, run on the goroutine that read them
// (conn_quick.go), so a key and its echo wake no other thread. On Linux
// the person's own client takes the focused pane's input instead
// (attach-input, attach_input.go): the answer passes a duplicate of the
// pane's PTY master and a shared page over SCM_RIGHTS, the client
// writes its keys to the pane itself (the daemon does not wake for
// them), stamps each in the page so its echo still goes out at once,
// and notes them within 20 ms with a quiet attach-typed (the latest
// client, status records, pushes held). Only a caller placed outside
// every pane, holding an attached client's nonce and streaming that
// session, gets it, for the focused window of a local pane that is not
// a protocol pane, while nothing is queued for its input; the daemon
// marks the page to take it back when the focus or workspace moves,
// input is queued, or the pane closes (before its processes go). The
// client writes non-blocking, sends what the terminal did not take over
// the socket and lets the input go, so keys keep their order. A
// stream's socket is moved out of the runtime's poller into a rawio.Conn
// before its attach runs (conn_stream.go), so the client reading a frame
// does not wake the daemon for room to write that nobody waits for (the
// poller watches both ways, edge-triggered); other connections keep
// theirs, which costs two descriptors fewer each. The
// connection takes no more requests: each one is answered with an
// invalid_request error line (no "type"), and the client makes its calls
// on a second connection, where its nonce is good. cols and rows of
// attach are 1 to 1000 when given: 0 is refused, unlike other ints.
//
// The pane in front of the person is the focused window of a session an
// attached client shows, on the workspace on screen. Its finished turns
// are seen (the Inbox's finished item closes "seen", the done glyph reads
// ○) as soon as a layout shows it, and it cannot be marked unread.
// session-info and list-sessions say "attached" while a client shows the
// session.
//
// # Restarts
//
// The daemon keeps its sessions in a file per socket under the state dir
// (sessions/HASH.json, 0600, atomic, 500 ms after the layout changed and
// once more as it stops, before the panes close). A daemon that starts on
// the same socket brings each session back with its id, workspaces, size,
// tiling and splits, and each window with its id, name and workspace and a fresh
// shell in the directory it was last in, with TUIOS_RESTORED=1. A window
// that ran a program comes back as a shell. Mail, the stash and agent
// state do not come back; the Inbox keeps finished and errored items of
// the panes that did. Mail waiting for another machine does come back:
// the outbox (links/outbox.go, outbox/outbox.json) is written before a send
// answers agent_message_queued. kill-session forgets a session; a file that is not
// this user's, not private or not readable is set aside and the daemon
// starts empty. [daemon] restore = false turns it off.
//
// # The person boundary
//
// Some acts are the person's alone (attach's human nonce, respond from a
// shell with respond_from_shell, the Inbox, answers to asks and held
// approvals, links). The daemon refuses them to any caller on its own
// side, found from what the kernel says (boundary.go), never from what
// the caller controls:
//
//   - The daemon is a child subreaper (PR_SET_CHILD_SUBREAPER), so every
//     process that started in a pane stays its descendant whatever it
//     does: setsid, a double fork, a terminal of its own (script), an
//     empty environment, outliving its pane. A caller's pid comes from
//     the socket (SO_PEERCRED); its ancestry is walked with each
//     parent's start time checked, so a pid reused mid-walk is caught.
//     A caller whose ancestry reaches the daemon is inside: in the pane
//     whose shell it passes, else in none that can be named.
//   - A process the daemon started that is no pane (git, and the hooks
//     git runs in a repository a pane may have written) is inside too.
//   - The environment only ever adds to that: TUIOS_PANE_ID,
//     TUIOS_WINDOW_ID, HERDR_PANE_ID naming a live window, a
//     TUIOS_PANE_TOKEN, or this daemon's socket beside TUIOS_ENV=1 (or
//     its herdr socket beside HERDR_ENV=1) put a caller inside.
//   - A walk that cannot finish (the caller gone, the tree changing again
//     and again, no pid from the kernel) counts as inside.
//   - What outlives the daemon stays inside the next one: as it stops,
//     after the panes closed, the daemon writes down every process still
//     on its side (one that setsid took out of its pane's session
//     survives), and the next daemon on the socket keeps those and what
//     they start inside (escapees.go). Otherwise such a process could stop
//     the daemon and start the next one outside that one's subtree.
//
// TUIOS_PANE_TOKEN, a secret per pane in its environment, proves the
// pane where the kernel cannot name it (a caller in another pid
// namespace, behind a relay): the client sends it with every request
// (proto.Request.PaneToken). It places a caller the kernel placed in no
// pane, never moves one the kernel placed, and a caller that shows one,
// right or wrong, is inside. A link ignores it.
//
// The subreaper reaps the orphans it is given (reaper.go): only zombie
// children outside the daemon's own session that are no pane's shell,
// and none while a pane start has not yet registered its pid, so a
// window's exit code stays the one pty.Process.Wait took and a git the
// daemon ran keeps its own status.
//
// The connection caps (conn_caps.go) count a pane as one, whatever it
// forks: the control socket holds 4096 connections, the callers inside
// at most 3840 of them together and one pane at most 512, so 256 stay
// for the person; a connection is placed before it is counted, and at
// most 64 wait to be placed. The herdr socket holds 1024, one pane 64
// connections and 8 event streams (a caller outside every pane: per
// process). Over a cap a connection gets one rate_limited line.
//
// What stays outside the boundary. Every process of the user may reach
// the socket; the boundary is the process tree, so a process of the same
// user that a pane gets started through another service is not in it:
// `systemd-run --user`, a cron or at job, `ssh localhost`, a desktop
// launcher, a D-Bus activated service. Such a process is the person as
// far as the daemon can tell. So is a process that left its pane's
// session when the daemon was killed outright (SIGKILL, a crash): only a
// daemon that stops writes its escapees down. So is a debugger: a pane that can ptrace
// the person's attached client (same uid, where kernel.yama.ptrace_scope
// is 0) can take its nonce from memory, and a same-uid process can read
// a pane's environment (and so its token) from /proc. What the person
// can do: set kernel.yama.ptrace_scope to 1 or more (Debian and Ubuntu
// ship 1: only a parent may trace its child); keep agents from starting
// services (no lingering systemd user instance, `loginctl
// disable-linger`; no crontab or at for that user; no ssh key an agent
// can use to reach localhost); and for a hard wall run agents as another
// user or in a container, where the socket's uid check (this daemon
// serves only its own uid) keeps them out entirely. Outside Linux there
// is no child subreaper: a process that leaves its pane's session and
// whose parent exits is re-parented to launchd or init, and only its
// environment can still give it away.
//
// # Configuration
//
// Options.Config (nil: the user's config.toml, internal/config) is read
// once at start: [daemon] respond_from_shell, agent_autodetect,
// agent_detect_seconds, agent_binaries and restore; [agents] enabled
// (false: no detection, no stall timer, no herdr socket nor HERDR_*
// variables in new panes, and the agent verbs answer
// agents_disabled while the multiplexer and mail go on); and the risk
// rules of [agents.approvals.risk]. No verb changes these: a pane cannot
// turn respond_from_shell on. [hosts] and [agents.permissions] are
// followed while the daemon runs (config_follow.go): what narrows applies
// at once, what widens waits for tuios config apply from outside every
// pane (config_wait.go). [notify] (push notifications, internal/daemon/notify) is
// applied at start and by apply-config; an edit of the file applies at
// once only what narrows.
//
// # Who may call what
//
// Every verb declares in the verb table who may call it and what it does
// to a pane (rpc.Access, internal/daemon/rpc; access.go names its
// classes for the table): anyone, a pane holding grants (read, write, fan,
// admin), a pane about its own pane (self reports), the person only, or
// only a caller outside every pane; the link capabilities another
// machine needs; whether it types into a pane. That one declaration is
// what dispatch enforces (gate.go's admit), what the link policy, the
// host connection pool, agents-off and list-verbs read, and so what tuios
// mcp and the tests read. The caller is placed once per connection by
// the kernel's word on its pid (caller.go, resolve.go): outside every
// pane (the person's shell or client), inside a pane (which one), inside
// but in no pane the daemon can name, or another machine's link. Its
// grants are its pane's (given with --grants or set-pane-grants, saved
// with the window; else [agents.permissions]). Every session or window a
// verb names passes one target check as it is resolved (gateTargetLocked: a
// pane without admin reaches its own session, its fan group and the
// sessions a fan from it started, and writes beyond its own session only
// with the fan grant; a report names only its own pane; typing names only a pane that holds nothing the typist does
// not, and one on a prompt only with respond), and every byte typed into
// a pane passes one write path (write_path.go) that checks the typing
// rules again right before the write, for the verb's caller, the queue's
// author, the herdr adapter's caller and the daemon's own resume.
//
// # Worktrees and fans
//
// fan, new-worktree and pull-worktree make git worktrees (package
// internal/worktree does the git) and a session in each. The feature
// internal/daemon/fan keeps which session is whose
// (worktrees/worktrees.json under the state dir) and each session's fan
// tag (its group, its repository, the session that started it), by
// session id; the core holds it as core.Fans and the target check reads
// the tags through it (host_fan.go's fanReach, which takes no lock of
// the feature's). Every name is held before anything is made, and a call
// that fails takes back all it made. A fan's prompts are typed once each
// agent is ready, through the one write path as the fan's caller.
//
// # Features
//
// The daemon is a core and features. The core is this package: the
// session table and its lock (internal/daemon/mux), connections and dispatch, the verb table's
// entries, the one target check, the one write path; and, in
// internal/daemon/rpc, the part of the core in a package of its own: the
// event hub (Hub, Subscriber), the verb registry (Registry, Verb) and
// each verb's access declaration (Access, ClassAccess). A feature lives
// in a package of its own under internal/daemon and sees the core only through internal/daemon/core:
// an immutable View of the table (read without any lock of the core's),
// the target check, verb calls for what it changes, the write path, the
// hub. No feature imports this package or another feature
// (TestDaemonImportRules).
//
// The core's table (the sessions and windows, their placement, layout,
// popups, resolve, restore, exits, pane I/O, the window verbs, the grants
// a window holds and core.Host's reads of them) is internal/daemon/mux,
// and it alone takes the table's lock (mux.Table.mu, unexported: the
// compiler holds the wall). The rest of this package (connections and
// dispatch, admission, the attach streams, the grants' verbs and the
// features' adapter) asks through mux.Table's methods, each of which
// copies what it needs under the lock and lets go, and reads a window or
// a session through their methods (Window.Session, Term, Proc, Input,
// Tracked, Protocol, StartDir, AtPrompt, Typed, CloseInputs and the
// like). The table sees a call only as a mux.Call (the connection's
// Admitted, SetCaller, Declared, PlacedWindow, PeerPID, Verb and
// Context), and what it asks of the daemon around it (who a caller is,
// the write path, the Inbox, the attach streams, the pane index, the
// reaper) through the interfaces of mux.Options: table_side.go is this
// package's side of them. The table's verbs are added to the verb table
// through mux.AddFunc (verbs.go). Under internal/daemon/mux are its
// leaves, importing nothing of the daemon: mux/layout, the tiling tree of
// one workspace, and mux/term, one pane's terminal (its process on the
// PTY, its input queue, the tracked screen its output feeds, its exit),
// whose own lock is a leaf.
//
// Every feature is a core.Feature, and New is the composition root: it
// keeps them in one ordered list (server.go), inits each in that order
// and shuts them down in reverse as the daemon stops (host_feature.go),
// after its socket closed and before its panes close. In Init, and only
// there (a later call panics), a feature registers with the core
// (core.Registrar): its verbs, with the same declaration the core's
// carry; the variables of a new pane's environment and the rules on a
// caller's; what it does once the daemon holds its socket (OnListen,
// before the first pane starts) and once the sessions came back and the
// Inbox loaded (OnRestored); and what it must have done before a window's
// close returns (OnWindowClosed). A window close reaches features only
// through the hub: closeWindow publishes window-closed, the hub sends it
// to the subscribers and then runs those hooks in the closing goroutine,
// so an Inbox item of the closed pane is gone when close-window answers.
//
// The features, in their order: the Inbox (internal/daemon/attention's
// Store: the queue, its events and their replay, the queue file, snooze,
// and its verbs list-attention, dismiss-attention and mark-attention;
// first, so the rest of the attention set may use it and it hears a
// window close first), agent mail (internal/daemon/mailbox: each
// session's ring and stash, the daemon-wide message id counter, the
// mail verbs send-agent-message, read-agent-messages, stash-put,
// stash-list, stash-get, ask-agent and release-agent-message, the rules
// for mail a link sends, and wait-for's agent-message condition, which
// wait-for (internal/daemon/waitfor) is handed; a ring is made on a
// session's first use and goes
// with the session-closed hook, a window's inbox with the window-closed
// one; the core reads a ring through it, Existing or Ring, and answers
// core.Host.MailTo with it), the herdr socket
// (internal/daemon/herdr),
// the agent log, then agent-transcript and the transcript event
// (internal/daemon/agentlog), resume after restart
// (internal/daemon/resume), the worktrees and fans tuios made with their
// verbs (internal/daemon/fan: its records load once the socket is the
// daemon's, before the sessions come back); of the attention set
// (internal/daemon/attention, which is to hold the whole set) the reply
// queue, the review notes that send through it, ask-human, the held
// approvals, then peek-prompt and respond (attention's Prompts: the
// reading of a pane's prompt and its risk, which the Inbox's risk column
// and the rail read too, and the answer pressed through the one write
// path); the links to other machines with their channel pool,
// the outbox, mail to other machines, the link policy, list-hosts and
// list-outbox, each host's Inbox row and the follow of the linked hosts'
// Inboxes (internal/daemon/links, which reaches the Inbox only through
// the links.Inbox it declares, handed the store; the Inbox's verbs reach
// the follow as attn.Hosts: verbs_attention.go), dialled and followed
// once the sessions are back; push notifications (internal/daemon/notify: they follow the
// Inbox's events from once the restored items are in, hear the person's
// keys through OnPersonTyped, and the config appliers reach [notify]
// through notifyConfig, person_typed.go); the copies of tuios cp
// and their verbs (internal/daemon/transfers), which stop every copy as
// they shut down; wait-for (internal/daemon/waitfor: every condition,
// its timeouts and hints, and the recent exits of program windows, which
// the core hands it through OnProgramExit before such a window leaves the
// table; its agent-message condition is the mail feature's wait, which
// New hands it); last the agent verbs (internal/daemon/agents:
// set-agent-state, set-agent-session, set-agent-meta,
// report-agent-activity, get-agent-state, list-agents,
// explain-agent-detect, explain-agent-screen, resolve-pane, and
// start-agent), which keep nothing and hook nothing: they read a window
// as an agent row does through core.Host.Seat and Seats, and a hook's
// activity reaches the agent log through LogActivity and LogSubagent
// (verbs_agentlog.go); start-agent opens its pane through what the fans
// use (ResolveAgent, NewGrants, StartWindow with its StartNotice,
// FirstPrompt) and AgentRepo, AgentSession and LinkWrites (host_start.go),
// while resolving an agent's program, the 30 s Inbox question and the
// typing of a first prompt stay the core's (agent_launch.go); the
// rail and list-agents share one order of what a pane needs
// (core.NeedOrder). The core
// reaches the store only through its methods (attention.go's
// inboxStore), subscribe's replay included (the store picks the events,
// the hub queues them). The human nonces stay here too (human_nonce.go):
// attach (verbs_attach.go) hands them out and the person check reads
// them, so they decide who the person is; a feature asks through
// core.Host (IsPerson, Person, and Answerer for respond: host_prompts.go)
// and never sees them.
// The core's side of a link stays here: the link-peer state of a
// connection that comes in and its dispatch (link_policy.go,
// verbs_link.go), what the mail feature reads of a link (its peer name
// and hold_mail: host_mail.go), send-agent-message's host branch to the
// outbox (outbox_verbs.go), open-host-connection's handover of a connection (host_links.go) and
// apply-config, which applies the config file to every feature.
//
// # Locks
//
// Every mutex of the package, in the one order they may be taken: a lock
// is never taken while one below it is held. The order was derived from
// every Lock site: a type-checked walk of the package that finds each
// lock taken while another is held, directly, through the calls made
// (transitively) and through the closures a locked function runs
// (the attach hub's each), plus the event hub's observe
// hook, which the walk cannot follow; TestLockOrder walks it again on
// every run and fails on a nesting this list does not allow. The walk
// reads internal/daemon/rpc first (TestRPCLockOrder checks that
// package's own order), so a call into the event hub takes rpc.Hub.mu
// and rpc.Subscriber.mu here as a call of this package takes its locks.
//
//  0. attachStream.fmu, a stream's frame: held by the stream's own
//     goroutine while it builds and writes a frame to its client (the
//     frame's readers take what they need under it); a pane's reader
//     only tries it to send a key's echo at once and never waits on it,
//     so no pane or verb waits behind a slow client's socket. Nothing is
//     held when it is taken.
//  1. cfgFollow.order: one apply of config.toml at a time (the follower,
//     apply-config). Under it the whole apply: cfgFollow.mu, the links'
//     and the push notifications' locks (notify.Feature.mu), the Inbox (attention.Store.mu and what it
//     takes) and the hub.
//  2. s.editMu: one edit of config.toml at a time (set-config). It is
//     held across that file's read and rename, and only another
//     set-config waits on it. Beside it, mux.Restorer.writing: one save
//     of the sessions file at a time, held from reading the table
//     (mux.Table.mu under it; at the final save, each pane's foreground
//     read) to the file's rename, so an older copy never lands over a
//     newer one; only another save waits on it. The two never nest.
//  3. mux.Session.tileMu: one retile of a session at a time;
//     mux.Table.mu and the attach locks under it.
//  4. links.Outbox.nmu (internal/daemon/links): one call of the outbox's
//     Changed hook at a time, held across it, so the host's Inbox row
//     (5, 7) is told the latest state last; the outbox's own mu under it.
//  5. links.inboxRows.mu (internal/daemon/links): one host row's update
//     at a time, held across its Inbox call (the config follower's
//     SetHostProblem takes it under 1).
//  7. attention.Store.mu, the Inbox (internal/daemon/attention): held
//     across each queue call and the publish of its events; under it
//     mux.Table.mu (the store's Pane and Panes hooks; Pane reads the risk
//     of a pane's approval through attention.Prompts.ApprovalRisk, which
//     takes mux.Table.mu through core.Host and no lock of attention's), a mail ring's lock, the
//     held approvals' (attention.Holds.mu), the asks' (attention.Asks.mu)
//     and the host follower's locks (links.Follow.mu, the mirror's) and
//     the hub's lock (its Publish hook)
//     may be taken. The walk does not see these (the store is reached
//     through an interface and calls the core through func values): this
//     list states them.
//  8. mux.Table.mu: the session and window tables, every window's
//     placement and grants; the core's lock, taken only in
//     internal/daemon/mux (its doc.go has the table's own order, which
//     TestMuxLockOrder walks; a call into the table takes it here, as a
//     call into the hub takes rpc.Hub.mu). Never held across I/O, while
//     taking a pane's lock (the detect.Pane, its screen) or waiting on
//     the arbiter. Under it the table calls only what takes no lock of
//     the core's (mux.Daemon's Permissions, LinkAllows and Fans: atomics
//     and the fan tags), the attach hub's and a stream's locks
//     (mux.Screens), the reply queue's count and the mail feature's
//     table of rings; the walk cannot follow those interfaces, so this
//     list states them.
//  9. attention.Queue.mu, the reply queue's (internal/daemon/attention):
//     under it only the attach hub's and a stream's locks, through
//     core.Host.RailChanged (the rail is redrawn as the queue changes);
//     the core reads a pane's count (Queue.Len) under mux.Table.mu.
//  10. rpc.Hub.mu, the event hub's (internal/daemon/rpc): under it a
//     subscriber's lock and, through its observer (Hub.Observe: the
//     attach hub's observe), the attach hub's and a stream's (never the
//     features' window-closed hooks: Publish runs them once it let
//     rpc.Hub.mu go).
//  11. attachHub.mu, then attachStream.mu.
//  12. Taken in internal/daemon/links and so not in this package's walk
//     (links/doc.go has the feature's own order): a host pool channel's
//     lock, held while a far line is handed to its user; under it, through
//     links.Client.WriteLine and Flush, the connection's write lock
//     conn.wmu.
//  13. Leaves, under which nothing else is taken: mailbox.Mail.mu (the
//     mail feature's rings, by session), attention.Store.tmu,
//     links.Follow.mu, alarm.Alarm.mu (internal/alarm: the Inbox's and
//     the host follower's snooze timers), rpc.Subscriber.mu,
//     attachStream.mu, conn.wmu (conn.cmu, 14, is under it), cfgFollow.mu,
//     humanNonces.mu, mux.Restorer.mu, reaper.mu, paneIndex.mu, connCount.mu,
//     Server.connMu (the connections being served),
//     railWake.mu (the timer that redraws the rails when a finished
//     subagent's row is due to leave them),
//     escapeeList.mu, term.Term.mu (mux/term: a pane's output and exit
//     records), mux.Window.nameMu, and the arbiter's own lock (agentstate).
//  14. conn.cmu, a connection's socket while an attach moves it out of
//     the runtime's poller, against a stop meanwhile: taken under
//     conn.wmu (the move, and a stop after a failed write) and with
//     nothing held (a stop), and nothing is taken under it.
//
// A feature's own locks (herdr.Sock.mu, agentlog.Log.mu,
// agentlog.Transcripts.mu; mailbox.Mail.mu, the mail feature's table of
// rings, which the core may take under mux.Table.mu (Existing: a listing's
// unread counts, a dismiss's thread) and under which nothing is taken,
// not even a ring's lock; attention.Review.mu, which the notes file's
// read and write run under, and attention.Asks.mu and attention.Holds.mu,
// which attention.Store.mu may hold as an answer ends its question or hold;
// attention.Prompts.mu, respond's tables (when a pane entered needs_input,
// the answer locks, the prompts answered), held across no call;
// and the links': links.Links.mu, a host connection's, the outbox's;
// notify.Feature.mu, what [notify] applied, and internal/push's Notifier
// locks under the push notifications; transfers.copies.mu, the copies of
// tuios cp, with no file I/O under it; fan.Worktrees.mu, the worktree
// records', under which no git runs and which the target check never
// takes: it reads the fan tags, an immutable map swapped whole;
// waitfor.Feature.mu, wait-for's exit log of program windows, never held
// across a call into the core; the agent verbs, internal/daemon/agents,
// have none) are
// leaves as the core sees them: a feature
// calls the core holding none of them, and the core's hooks into a
// feature (a new pane's environment, a caller's, a window closed, the
// socket taken, the sessions back) run with no core lock held: the hub
// runs its window-closed hooks after it let rpc.Hub.mu go. Three exceptions:
// attention.Store.mu (7) is held across the store's hooks into the core
// (Pane and Panes take mux.Table.mu, Publish the hub's lock) and across the
// callbacks the links' follow hands it (the mirror of the hosts' items);
// and, in internal/daemon/links, links.Outbox.nmu (4) is held across the
// outbox's Changed hook, links.inboxRows.mu (5) across its Inbox call,
// and a pool channel's lock (12) across a client's WriteLine.
package daemon
