package vt

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// ProgramStatus is one OSC 7501 Program Status report, the sequence a
// program writes to say what state it is in:
//
//	ESC ] 7501 ; key=value:key=value… ST
//
// Each report replaces its record whole; keeping records, their lifetimes
// and the mapping to agent states is the owner's job, not this parser's.
type ProgramStatus struct {
	// Query is set for the support query "ESC ] 7501 ; ? ST"; every other
	// field is then zero. The host answers it (vt.Screen does).
	Query bool
	// State is idle, working, blocked, done, error, or clear (remove the
	// record with ID and its subtree; without an ID, all records).
	State string
	// ID is the record path (e.g. "deploy/us-east"); "" is the root record.
	ID string
	// App is the program's label (≤32 bytes); "" means inherit it from the
	// nearest ancestor record.
	App string
	// Kind is permission, question or auth; set only when State is blocked.
	Kind string
	// Progress is 0–100, or -1 when absent (indeterminate). Kept only with
	// working and blocked.
	Progress int
	// Title and Msg are decoded from base64 and cleaned (CleanStatusText):
	// bidi controls and zero-width characters removed, surrounding spaces
	// trimmed. A report whose decoded title or msg holds a control
	// character is discarded whole (the protocol's rule), so none remain.
	Title, Msg string
}

// Limits of the Program Status Protocol. A report breaking one is
// discarded whole.
const (
	// MaxProgramStatusPayload bounds the bytes after "7501;": the whole
	// sequence may be 4096 bytes, minus "ESC ] 7501 ;" (7) and a two-byte ST.
	MaxProgramStatusPayload = 4096 - 7 - 2
	MaxProgramStatusKey     = 16   // bytes per key
	MaxProgramStatusApp     = 32   // bytes of app
	MaxProgramStatusTitle   = 192  // decoded bytes of title
	MaxProgramStatusMsg     = 2048 // decoded bytes of msg
	MaxProgramStatusID      = 128  // bytes of id
	MaxProgramStatusIDDepth = 8    // levels of id
	MaxProgramStatusIDLevel = 32   // bytes per id level
)

// ParseProgramStatus parses the payload of an OSC 7501 sequence (the part
// after "7501;"). ok is false when the report must be ignored:
//
//   - the payload is longer than MaxProgramStatusPayload, a key is longer
//     than MaxProgramStatusKey, or app is longer than MaxProgramStatusApp;
//   - state is missing or not one of idle|working|blocked|done|error|clear;
//   - id is malformed: longer than 128 bytes, more than 8 levels, a level
//     empty or longer than 32 bytes, or holding control, bidi or zero-width
//     characters or invalid UTF-8;
//   - title or msg is not valid base64 (standard alphabet, padding
//     optional), is not valid UTF-8 once decoded, holds a C0 or C1 control
//     character or DEL once decoded (tab and newline included), or decodes
//     to more than 192 (title) or 2048 (msg) bytes.
//
// A report with bad base64, invalid UTF-8 or control characters in msg or
// title is discarded entirely, as the protocol says. What is left is
// cleaned, as every text a pane sends is: bidi controls and zero-width
// characters are stripped from title, msg and app, and control characters
// from app (an app label is not discarded for them).
//
// Softer faults drop only the offending key: kind with a state other than
// blocked or with an unknown value, and progress that is not an integer
// 0–100 or comes with a state other than working or blocked. Unknown keys
// are ignored (forward compatibility); segments without '=' and empty
// segments are ignored; when a key repeats, the last value wins.
//
// "?" is the support query: ProgramStatus{Query: true}, ok true.
func ParseProgramStatus(payload string) (ProgramStatus, bool) {
	if payload == "?" {
		return ProgramStatus{Query: true}, true
	}
	if len(payload) > MaxProgramStatusPayload {
		return ProgramStatus{}, false
	}
	ps := ProgramStatus{Progress: -1}
	var kind, progress, title, msg string
	var hasProgress, hasTitle, hasMsg bool
	for seg := range strings.SplitSeq(payload, ":") {
		key, val, found := strings.Cut(seg, "=")
		if !found {
			continue
		}
		if len(key) > MaxProgramStatusKey {
			return ProgramStatus{}, false
		}
		switch key {
		case "state":
			ps.State = val
		case "id":
			ps.ID = val
		case "app":
			ps.App = val
		case "kind":
			kind = val
		case "progress":
			progress, hasProgress = val, true
		case "title":
			title, hasTitle = val, true
		case "msg":
			msg, hasMsg = val, true
		}
	}
	switch ps.State {
	case "idle", "working", "blocked", "done", "error", "clear":
	default:
		return ProgramStatus{}, false
	}
	if !validStatusID(ps.ID) {
		return ProgramStatus{}, false
	}
	if len(ps.App) > MaxProgramStatusApp {
		return ProgramStatus{}, false
	}
	if !utf8.ValidString(ps.App) {
		return ProgramStatus{}, false
	}
	ps.App = CleanStatusText(ps.App)
	if ps.State == "blocked" {
		switch kind {
		case "permission", "question", "auth":
			ps.Kind = kind
		}
	}
	if hasProgress && (ps.State == "working" || ps.State == "blocked") {
		if n, ok := progressUint(progress); ok && n <= 100 {
			ps.Progress = n
		}
	}
	var ok bool
	if hasTitle {
		if ps.Title, ok = decodeStatusText(title, MaxProgramStatusTitle); !ok {
			return ProgramStatus{}, false
		}
	}
	if hasMsg {
		if ps.Msg, ok = decodeStatusText(msg, MaxProgramStatusMsg); !ok {
			return ProgramStatus{}, false
		}
	}
	return ps, true
}

// decodeStatusText decodes standard base64 with optional padding, checks
// UTF-8 and the size limit, and cleans the text.
func decodeStatusText(s string, limit int) (string, bool) {
	raw := strings.TrimRight(s, "=")
	if pad := len(s) - len(raw); pad > 2 || (pad > 0 && (len(raw)+pad)%4 != 0) {
		return "", false
	}
	if base64.RawStdEncoding.DecodedLen(len(raw)) > limit+3 {
		return "", false
	}
	for i := 0; i < len(raw); i++ { // the decoder would skip CR and LF
		if raw[i] == '\r' || raw[i] == '\n' {
			return "", false
		}
	}
	b, err := base64.RawStdEncoding.DecodeString(raw)
	if err != nil || len(b) > limit || !utf8.Valid(b) {
		return "", false
	}
	for _, r := range string(b) {
		if statusIsControl(r) {
			return "", false
		}
	}
	return CleanStatusText(string(b)), true
}

func validStatusID(id string) bool {
	if id == "" {
		return true
	}
	if len(id) > MaxProgramStatusID || !utf8.ValidString(id) {
		return false
	}
	levels := 0
	for level := range strings.SplitSeq(id, "/") {
		levels++
		if levels > MaxProgramStatusIDDepth || level == "" || len(level) > MaxProgramStatusIDLevel {
			return false
		}
	}
	for _, r := range id {
		if statusIsControl(r) || statusIsInvisible(r) {
			return false
		}
	}
	return true
}

// CleanStatusText removes what must not reach a person's screen from a
// text a program sent: C0 and C1 control characters and DEL (tab, CR, LF,
// VT and FF become a space), bidi controls (U+061C, U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069) and zero-width or invisible format
// characters (U+180E, U+200B–U+200D, U+2060–U+2064, U+206A–U+206F,
// U+FEFF); then it trims surrounding spaces. Invalid UTF-8 bytes are
// dropped.
func CleanStatusText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || statusIsControl(r) || statusIsInvisible(r) {
			clean = false
			break
		}
	}
	if clean {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case statusIsControl(r) || statusIsInvisible(r):
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

func statusIsControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f)
}

// statusIsInvisible reports bidi controls and zero-width characters.
func statusIsInvisible(r rune) bool {
	switch {
	case r == 0x061c, r == 0x180e, r == 0xfeff:
		return true
	case r >= 0x200b && r <= 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2060 && r <= 0x206f:
		return true
	}
	return false
}
