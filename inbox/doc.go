// Package inbox is the attention queue of one tuios daemon: the Inbox's
// items, their kinds, groups and order, and what the person does to them
// (dismiss, snooze, wake, unread, restore, undo).
//
// # What it owns
//
//   - Kinds, in list order: approval, plan, ask, question, mail, errored,
//     resume, finished, outbox, config. Groups: Approvals, Plans, Questions
//     (ask and question together), Mail, Errored, Resume, Done, Waiting to
//     send, Settings; oldest first inside a group (since, then the order
//     items opened in).
//   - One item per key: one blocking item per pane (approval, plan and
//     question share it), one errored, one finished and one resume item
//     per pane, one mail item per session and thread, one ask per request
//     id, one outbox item per host, one config item per thing (a change
//     that waits for tuios config apply; wider grants found at start). A pane that flaps, or moves between
//     question and approval on needs_input, updates its row and keeps its
//     id and since. An update that changes nothing makes no event.
//   - Opening and closing by the rules of each kind (Update, Notice,
//     Resume, Hold, Ask, Mail, Outbox, Config), and the closes every item shares:
//     window_closed (PaneClosed; mail excepted), session_closed
//     (SessionClosed), dismissed, evicted, host_removed (HostRemoved),
//     snoozed.
//   - The cap: MaxOpen (1024) open items; past it the oldest closes
//     evicted, finished items first.
//   - Summaries (CleanSummary): one line, whitespace collapsed, control and
//     format characters removed, likely secrets masked as [redacted], cut to
//     160 bytes on a rune boundary. ValidateAsk refuses an ask-human
//     question the Inbox would rewrite.
//   - Held approvals and plans (Hold, EndHold, Answer) and ask-human
//     questions (Ask, Answer) as items; risk rules read through
//     review.Checker, beside what the embedder read in the prompt itself
//     (Pane.Risk: the daemon reads the dialog whole from the screen).
//   - Dismiss, Snooze (until a time, for a while, until it changes), Wake,
//     MarkUnread, Restore and Undo (UndoDepth 16 entries, UndoWindow 10 s),
//     with every refusal as an *Error carrying a stable Code (the wire code,
//     invalid_params for most) and a Why naming the refusal exactly.
//   - seq: the queue's revision, stamped on every change and on the item
//     it changed, monotonic across restarts; boot_id names this start.
//   - Persistence as bytes: Marshal and Unmarshal (see below).
//   - Selectors (the selector*.go files of this package).
//
// # What it does not own
//
// Placing callers, the human nonce, grants and link policy (who may
// dismiss or snooze: the daemon checks before calling), typing into panes,
// telling hooks and askers how their wait ended (the events and results
// say what to tell them), reading mail rings and marking mail read (the
// daemon does it from Dismissed and MailInput), the outbox's mail, the
// reply queue, following linked hosts (the links, their streams and
// when a host is down: the daemon tells Mirror), presentation (the
// footer, the dwell before digits act, alerts), and writing the queue
// file. The package starts no goroutine, opens no socket and touches no
// file.
//
// # Linked hosts
//
// Mirror (host.go) keeps the items of the linked hosts a daemon follows
// (other machines whose Inbox shows in this one), apart from the Queue and stamped with its seq, so one seq
// orders local and mirrored changes. The daemon feeds it each host's own
// listing (Sync, with the host's boot_id), its attention events (Apply),
// the link dropping (Down) and the host leaving the table (Remove).
// Mirrored items carry Host and an id HostID(host, far id) ("build:12");
// an item the host itself mirrors is never mirrored onward; at most
// MaxHostItems per host are kept (past it the host's oldest finished item
// goes, evicted); every text from the host is cleaned as a summary is.
// While a host is down its items are Stale with SeenAt (the last time it
// was heard), listed but not counted; the next listing makes them fresh.
// Dismiss and Snooze of a mirrored item act here only; a dismissed item
// comes back when the host's item says something new (another kind, a
// new turn, more mail), and after the host's queue restarts (another
// boot_id, whose ids may repeat). Mirror.Undo undoes the person's newest
// act on either list. Merge puts both lists into one list order. Limits
// for the daemon's caches: MaxHostSessions, MaxHostAgents, MaxHostLine.
//
// # Inputs and outputs
//
// The embedder feeds facts in: Update with an agentstate.Snapshot (and a
// Pane saying where it is), Mail with a MailInput (MailFrom builds one
// from a thread of mail.Message), Outbox, Ask, Hold, Notice, Resume, Seen,
// PaneClosed, SessionClosed, HostRemoved. Every call that changes the
// queue returns its events ([]Event, in seq order): open, update, close.
// Nothing is delivered behind the caller's back; the embedder publishes
// the events (the attention event stream) in the order returned.
//
// # Time
//
// Time comes from Options.Clock (an agentstate.Clock such as
// agentstate/fakeclock fits). The queue arms no timer of its own: the
// embedder keeps one timer set to NextWake (the earliest timed snooze;
// the zero time when nothing timed sleeps, and then no timer), calls Tick
// when it fires, and asks NextWake again after any call that returned
// events. That is how the daemon holds one timer for the earliest timed
// snooze and none when nothing timed sleeps. Undo's 10 s is read from the
// clock when the person asks; nothing expires on a timer.
//
// # Persistence
//
// Marshal encodes, versioned (SaveVersion), what survives a restart: the
// seq, the id counter, and finished and errored items with their snoozes.
// Unmarshal refuses anything Marshal would not write (CodeCorrupt) and
// keeps only the items whose session and pane came back; ids and seq
// continue upward, and a snooze whose time passed while the daemon was
// down wakes at once. The daemon writes the bytes atomically (mode 0600,
// debounced); approvals, plans, questions, asks, mail, resume and outbox
// items are not in them.
//
// # Decisions the documented behaviour leaves open
//
//   - Ties in the list order are broken by the order items opened in (the
//     id), not by seq, so that an update never moves a row inside its
//     group. Snoozed rows come after open ones, in the same order.
//   - Dismissing a blocking or errored item keeps the pane's key closed
//     until the pane leaves that state (a later transition opens a new
//     item); a new line on the same prompt does not reopen it. Mail
//     dismissed through message N stays dismissed until a message newer
//     than N. A finished item reopens at the next finished turn.
//   - An answered held approval keeps the blocking key closed until the
//     pane leaves needs_input, as a dismiss does.
//   - What wakes a snooze early: for a blocking, errored or resume item a
//     new kind or line (and a hook starting to hold the approval); for a
//     finished item a new turn; for mail a new message or a higher unread
//     count. A new pane name alone updates the sleeping item silently.
//   - Snoozing a snoozed item moves its wake time; Restore of a snoozed
//     item wakes it whatever its age; dismissing a snoozed item is allowed.
//   - A refused Undo uses up its entry, so the next Undo goes to the one
//     before; Undo past the window forgets the whole history.
//   - A restored mail item stays until MailRead, a dismiss, or newer mail:
//     the read its dismiss caused does not close it again.
//   - A restored finished or errored item after a restart is not ended by
//     the pane coming back with no agent state; any reported state ends that
//     grace.
//   - MarkUnread needs the pane idle or done (an errored pane has its own
//     item).
//   - Ids jump IDGap (4096) after a restart, so an id issued after the
//     last debounced save is never reused.
//   - Outbox items close with resolved when nothing waits and nothing was
//     refused.
//   - Notice opens a question the daemon sees without a state (a fan pane
//     not at its prompt after 30 s, a stalled queued message); it closes
//     when the pane reports a state other than the one it had.
//   - A summary is masked with the documented rules (key=value for token,
//     secret, password, api key, access key, private key and credential
//     keys; the word after Bearer) and agentstate.MaskSecrets's, all shown
//     as [redacted].
package inbox
