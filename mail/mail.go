package mail

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Limits of a message and of a session's mail.
const (
	MaxMessages     = 256       // messages held per session
	MaxRingBytes    = 512 << 10 // subject + body bytes held per session
	MaxBodyBytes    = 8 << 10   // one body
	MaxSubjectChars = 120       // one subject, in characters
	MaxAttachments  = 8         // per message
	DefaultLimit    = 20        // messages a read returns by default
	MaxLinkUnread   = 32        // unread directed link messages per session
	MaxLinkNotices  = 32        // link notices per session
	MaxOriginHost   = 64        // a sender's claim for its machine, in bytes
	RateBurst       = 10        // messages a sender may send at once
	RatePerMinute   = 30        // refill of a sender's bucket
)

// Human is the person's inbox address. It resolves before any window.
const Human = "human"

// Kind is what a message is.
type Kind string

// Kinds of message.
const (
	KindMessage Kind = "message" // directed to one inbox; has read state
	KindNotice  Kind = "notice"  // addressed to the session; unread for nobody
	KindAsk     Kind = "ask"     // the record of a finished ask-agent
)

// OriginLink marks a message that arrived from another machine.
const OriginLink = "link"

// Code is the stable code of an *Error (the daemon's wire code).
type Code string

// Codes carried by *Error.
const (
	CodeInvalidParams   Code = "invalid_params"
	CodeRateLimited     Code = "rate_limited"
	CodeLoopRefused     Code = "loop_refused"
	CodeWindowNotFound  Code = "window_not_found"
	CodeTimeout         Code = "timeout"
	CodeStashFull       Code = "stash_full"
	CodeSessionNotFound Code = "session_not_found" // the ring or stash was closed with its session
)

// Error is a refusal with a stable code, a one-line message, the param at
// fault (if any) and a hint saying what to do next.
type Error struct {
	code    Code
	Message string
	Param   string // the request parameter at fault, or ""
	hint    string
}

func (e *Error) Error() string { return "mail: " + e.Message }

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next, or "".
func (e *Error) Hint() string { return e.hint }

func errorf(code Code, param, hint, format string, args ...any) *Error {
	return &Error{code: code, Param: param, hint: hint, Message: fmt.Sprintf(format, args...)}
}

// Clock tells the time.
type Clock interface{ Now() time.Time }

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Counter issues message ids, 1 upward, shared by every ring of a daemon.
type Counter struct {
	mu   sync.Mutex
	last uint64
}

// Next issues an id.
func (c *Counter) Next() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last++
	return c.last
}

// Last is the highest id issued, 0 for none.
func (c *Counter) Last() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Attachment is a reference to a file, never its bytes.
type Attachment struct {
	Kind      string `json:"kind"` // image or file
	Path      string `json:"path"` // absolute
	MediaType string `json:"media_type"`
	Bytes     int64  `json:"bytes"`   // size at send time
	Missing   bool   `json:"missing"` // decided at read time
	Stashed   bool   `json:"stashed"` // the path is in the session stash
}

// Message is one message as read back.
type Message struct {
	ID             uint64       `json:"id"`
	Kind           Kind         `json:"kind"`
	Session        string       `json:"session"`
	From           string       `json:"from"` // a window id, "human", or "" (anonymous)
	FromLabel      string       `json:"from_label"`
	To             string       `json:"to"` // a window id, "human", or "" for a notice
	ToLabel        string       `json:"to_label"`
	Subject        string       `json:"subject"`
	Text           string       `json:"text"`
	ReplyTo        uint64       `json:"reply_to"`
	ThreadID       uint64       `json:"thread_id"`
	ReplyToMissing bool         `json:"reply_to_missing"`
	Attachments    []Attachment `json:"attachments"`
	SentAt         int64        `json:"sent_at"` // unix ns
	ReadAt         int64        `json:"read_at"` // unix ns, 0 while unread
	SettledBy      string       `json:"settled_by,omitempty"`
	Origin         string       `json:"origin"`
	OriginHost     string       `json:"origin_host"`
	VerifiedHuman  bool         `json:"verified_human"`
	ClaimedHuman   bool         `json:"claimed_human"`
	Undeliverable  bool         `json:"undeliverable"`
	WasUnread      bool         `json:"was_unread"`
	// Held mail (hold_mail for the sending machine): stored to human,
	// naming the inbox it was meant for (HeldFor, "" for a notice); once
	// the person passes it on, ReleasedAs is the delivered message, whose
	// ReleasedFrom names this one.
	Held         bool   `json:"held,omitempty"`
	HeldFor      string `json:"held_for,omitempty"`
	HeldForLabel string `json:"held_for_label,omitempty"`
	ReleasedAs   uint64 `json:"released_as,omitempty"`
	ReleasedFrom uint64 `json:"released_from,omitempty"`
}

// Unread reports whether m counts as unread: a directed message nobody
// has read whose inbox still exists.
func (m *Message) Unread() bool {
	return m.Kind == KindMessage && m.ReadAt == 0 && !m.Undeliverable
}

// size is what m counts against MaxRingBytes.
func (m *Message) size() int { return len(m.Subject) + len(m.Text) }

// classify returns an attachment's kind and media type from the path's
// extension only; the content is never read.
func classify(path string) (kind, mediaType string) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch ext {
	case "png", "gif", "webp", "bmp":
		return "image", "image/" + ext
	case "jpg", "jpeg":
		return "image", "image/jpeg"
	case "svg":
		return "image", "image/svg+xml"
	case "txt", "log", "md":
		return "file", "text/plain"
	case "json":
		return "file", "application/json"
	}
	return "file", "application/octet-stream"
}
