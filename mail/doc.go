// Package mail is the agent mail of one tuios daemon: a bounded ring of
// messages per session, threads, notices, the person's inbox address
// ("human"), attachments as references, and the session stash.
//
// # What it owns
//
//   - Ring: one per session. At most MaxMessages messages and MaxRingBytes
//     of text (subject + body); the oldest are evicted until both hold and
//     every eviction is counted. Bodies are at most MaxBodyBytes, subjects
//     MaxSubjectChars characters, attachments MaxAttachments per message.
//   - Ids come from one Counter shared by every ring of a daemon (pass the
//     same *Counter in RingOptions.IDs). A thread id is the id of the
//     thread's first message; a reply to a reply lands in the first
//     message's thread; a reply to a message the ring has forgotten is
//     stored with ReplyToMissing and threads on the id it names; an id
//     never issued (greater than the counter's last) is refused, and so is
//     an id newer than the ring's last eviction that this ring never held
//     (it belongs to another session).
//   - Read marking: a read that names an inbox marks the directed messages
//     it returns as read (ReadAt); Peek never marks; a read with no inbox
//     reads the whole session and marks nothing. Notices (no recipient) are
//     readable by all and unread for nobody; ask records are never unread.
//   - The reserved inbox Human. The daemon resolves it before any window.
//   - Undeliverable mail: CloseInbox marks every message addressed to a
//     window that closed; a later window with the same name has a new id,
//     so nothing is ever re-homed.
//   - Attachments: an absolute path to an existing non-directory file at
//     send time, classified image or file by extension with a media type;
//     Missing is decided by a stat at read time and never stored.
//   - Messages from another machine (Origin "link") keep OriginHost and are
//     capped at MaxLinkUnread unread directed messages and MaxLinkNotices
//     notices per session (CodeRateLimited past that).
//   - Held mail: a message sent with Held (always to Human) names the inbox
//     it was meant for (HeldFor, HeldForLabel). Release passes it on once,
//     as a new message with the original sender and origin and
//     ReleasedFrom; the held one records ReleasedAs and reads as read. A
//     second release is CodeInvalidParams. Which machine's mail is held,
//     and who may release, is the daemon's.
//   - A per-sender token bucket (burst 10, 30 a minute), charged only after
//     every other check passed; a refusal's hint says in how many seconds
//     the bucket holds a message again.
//   - Waiting: Wait blocks until a message matches (mail already in the
//     inbox counts), checking and registering under one lock, so nothing
//     sent between the two is missed. The waiter's channel is closed on a
//     match; no goroutine is started.
//   - Rendering: Fence and Render print untrusted text between the
//     untrusted-content fence lines with every body line prefixed "│ " and control
//     characters escaped, so no body can forge the closing fence.
//   - Stash: a content-addressed store of files per session (see Stash).
//     PutBytes stores bytes another machine sent; their name gives only
//     the extension, never a path.
//
// # What it does not own
//
// Resolving window names, placing callers in panes, the human nonce,
// typing into panes (ask-agent), events and delivery to clients: that is
// the daemon's. The package starts no goroutines.
//
// # I/O
//
// The package's one real I/O is the Stash: it copies files into the
// directory the daemon gives it and deletes them. Besides that, attachment
// paths are stat'ed (through RingOptions.Stat, os.Stat by default) when a
// message is sent and when it is read.
//
// Time comes from RingOptions.Clock (and StashOptions.Clock), so every
// timing rule is tested without sleeping.
//
// # Decisions the documented behaviour leaves open
//
//   - Read results: Total is how many messages matched before Limit;
//     Unread is how many of those returned were unread when this read began.
//   - A wait with an inbox matches unread directed messages to it (not
//     notices or ask records), narrowed to the thread when one is given; a
//     wait with no inbox matches any message stored after it began.
//   - A stash put that cannot make room because every older file is still
//     named by a message in the ring fails with CodeStashFull.
package mail
