package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// openFlags open a transcript without ever blocking: a FIFO opened
// read-only would wait for a writer, and a terminal device must not
// become anyone's controlling terminal. Whatever the path names is then
// checked by fstat, and anything but a regular file is refused.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// TailWindow is the most a read looks at: a cold read, or a read that
// finds more than this appended since the last one, reads only the last
// TailWindow bytes.
const TailWindow = 128 << 10

// Turn is what a transcript says about the agent's turn.
type Turn uint8

const (
	TurnNone    Turn = iota // nothing turn-bearing: the pane keeps what it believed
	TurnWorking             // a prompt, a tool result, or an answer still streaming
	TurnDone                // the assistant ended its turn (stop_reason end_turn)
)

func (t Turn) String() string {
	switch t {
	case TurnWorking:
		return "working"
	case TurnDone:
		return "done"
	}
	return "none"
}

// Observation is what one read found: the newest turn-bearing record's turn
// and the identity fields used to verify a searched file.
type Observation struct {
	Turn      Turn
	SessionID string
	CWD       string
	Version   string
	Timestamp string
}

// record is the only shape a line decodes into. Every field is a scalar the
// engine needs; nothing here can hold conversation text.
type record struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	SessionID   string `json:"sessionId"`
	CWD         string `json:"cwd"`
	Version     string `json:"version"`
	Timestamp   string `json:"timestamp"`
	UUID        string `json:"uuid"`
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	IsMeta      bool   `json:"isMeta"`
	Message     struct {
		StopReason string `json:"stop_reason"`
	} `json:"message"`
}

// turn is the record's turn. skip is the uuid of the user record that
// invoked the newest local command seen so far (see localCommand).
//
// A local command (/clear, /model, …) runs without a turn: Claude Code
// writes it as a system record of subtype local_command, and /clear
// (whose records open the new session's transcript) also as user records
// before it: an isMeta caveat and the command itself, which the system
// record names as its parent. Neither is a prompt, so neither says
// working: the pane keeps what it believed.
func (r *record) turn(skip string) Turn {
	if r.IsSidechain {
		return TurnNone // a subagent's end_turn must not end the pane's turn
	}
	switch r.Type {
	case "assistant":
		if r.Message.StopReason == "end_turn" {
			return TurnDone
		}
		return TurnWorking
	case "user":
		if r.IsMeta || (skip != "" && r.UUID == skip) {
			return TurnNone
		}
		return TurnWorking
	}
	return TurnNone
}

// localCommand says the record is a local command's, run without a turn.
func (r *record) localCommand() bool {
	return r.Type == "system" && r.Subtype == "local_command" && !r.IsSidechain
}

// Reader reads one transcript file incrementally. It is not safe for
// concurrent use; one join owns one Reader.
type Reader struct {
	path      string
	offset    int64 // always just after a newline
	started   bool
	buf       []byte // reused, zeroed after every parse
	malformed int
	missing   int
}

// NewReader returns a reader for path. Nothing is read until Read.
func NewReader(path string) *Reader { return &Reader{path: path} }

// Path is the file the reader reads.
func (r *Reader) Path() string { return r.path }

// Malformed counts lines that did not decode.
func (r *Reader) Malformed() int { return r.malformed }

// Missing counts consecutive reads that found no file; a successful read
// resets it. A join ends after three.
func (r *Reader) Missing() int { return r.missing }

// Offset is where the next read resumes.
func (r *Reader) Offset() int64 { return r.offset }

// Read reads what was appended since the last read (on the first read, the
// last TailWindow bytes) and returns the newest turn-bearing record among
// the complete lines. ok is false when nothing new arrived or the new lines
// bore no turn. A missing file returns an error that matches
// fs.ErrNotExist; anything that is not a regular file (a FIFO, a device,
// a directory) is refused with code not_regular, without blocking.
func (r *Reader) Read() (obs Observation, ok bool, err error) {
	f, err := os.OpenFile(r.path, openFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.missing++
			return Observation{}, false, &Error{code: CodeNotExist, Err: fs.ErrNotExist}
		}
		return Observation{}, false, &Error{code: CodeUnreadable, Err: errors.Unwrap(err)}
	}
	defer f.Close()
	r.missing = 0
	st, err := f.Stat()
	if err != nil {
		return Observation{}, false, &Error{code: CodeUnreadable}
	}
	if !st.Mode().IsRegular() {
		return Observation{}, false, &Error{code: CodeNotRegular}
	}
	size := st.Size()
	if size < r.offset {
		r.offset = 0 // truncated or replaced
	}
	if size == r.offset && r.started {
		return Observation{}, false, nil
	}
	r.started = true
	start := r.offset
	midFile := false
	if size-start > TailWindow {
		start = size - TailWindow
		midFile = true
	}
	obs, ok, err = r.scan(f, start, size, midFile)
	return obs, ok, err
}

// firstChunk is how much of the end of the region a read looks at first.
// The newest turn-bearing record is almost always within it; the read
// widens (doubling, up to the whole region) only when it is not.
const firstChunk = 16 << 10

// scan reads the region [start, end) of f from its end backwards and
// returns the newest turn-bearing record among its complete lines. It sets
// the resume offset just after the region's last newline.
func (r *Reader) scan(f *os.File, start, end int64, midFile bool) (Observation, bool, error) {
	decodedFrom := int64(-1) // file offset of the earliest line already decoded
	skip := ""               // the user record of the newest local command decoded
	for chunk := int64(firstChunk); ; chunk *= 2 {
		lo := max(start, end-chunk)
		n := int(end - lo)
		if cap(r.buf) < n {
			r.buf = make([]byte, n)
		}
		buf := r.buf[:n]
		got, err := f.ReadAt(buf, lo)
		if err != nil && err != io.EOF {
			clear(buf)
			return Observation{}, false, &Error{code: CodeUnreadable}
		}
		obs, ok, more := r.lines(buf[:got], lo, lo == start, midFile, &decodedFrom, &skip)
		clear(buf)
		if ok || !more {
			return obs, ok, nil
		}
	}
}

// lines handles one window [lo, lo+len(buf)). whole says the window starts
// at the region's start; more says a wider window could find more. skip
// carries the invoking record of the newest local command across windows.
func (r *Reader) lines(buf []byte, lo int64, whole, midFile bool, decodedFrom *int64, skip *string) (obs Observation, ok, more bool) {
	if whole && midFile {
		// A read that starts inside a line drops it: the line's start is
		// not in the window.
		nl := bytes.IndexByte(buf, '\n')
		if nl < 0 {
			return Observation{}, false, false
		}
		buf = buf[nl+1:]
		lo += int64(nl + 1)
	}
	last := bytes.LastIndexByte(buf, '\n')
	if last < 0 {
		// Not one complete line here: a half-written line, or a line
		// longer than this window.
		return Observation{}, false, !whole
	}
	if *decodedFrom < 0 {
		r.offset = lo + int64(last) + 1
		*decodedFrom = r.offset
	}
	body := buf[:last+1]
	var rec record
	for {
		end := int64(len(body))
		if lo+end > *decodedFrom {
			end = *decodedFrom - lo
		}
		if end <= 0 {
			return Observation{}, false, !whole
		}
		chunk := body[:end]
		// chunk ends just after a newline (or at a line decoded before).
		i := bytes.LastIndexByte(chunk[:len(chunk)-1], '\n')
		if i < 0 && !whole {
			return Observation{}, false, true // this line starts before the window
		}
		line := bytes.TrimSpace(chunk[i+1:])
		*decodedFrom = lo + int64(i+1)
		if len(line) > 0 {
			rec = record{}
			if json.Unmarshal(line, &rec) != nil {
				r.malformed++ // the error quotes the line: drop it
			} else if rec.localCommand() {
				*skip = rec.ParentUUID
			} else if t := rec.turn(*skip); t != TurnNone {
				return Observation{Turn: t, SessionID: rec.SessionID, CWD: rec.CWD, Version: rec.Version, Timestamp: rec.Timestamp}, true, false
			}
		}
		if i < 0 {
			return Observation{}, false, false
		}
	}
}

// Code is the stable code of an *Error.
type Code string

// Codes carried by *Error.
const (
	CodeNotExist    Code = "not_exist"    // the file does not exist
	CodeUnreadable  Code = "unreadable"   // the file cannot be opened or read
	CodeNotRegular  Code = "not_regular"  // a FIFO, device or directory: never opened for reading
	CodeNoCandidate Code = "no_candidate" // Search found no transcript that verifies
	CodeAmbiguous   Code = "ambiguous"    // Search found two that verify
	CodeNoLocation  Code = "no_location"  // Search has no home or pane directory to look in
	CodeTooLarge    Code = "too_large"    // a session file larger than SessionMax
	CodeMalformed   Code = "malformed"    // a session file that does not decode or names no session
	CodeClosed      Code = "closed"       // the Watcher was closed (ErrClosed)
)

// Error is a read or search failure. It never quotes file content.
type Error struct {
	code Code
	Err  error
}

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

func (e *Error) Error() string {
	switch e.code {
	case CodeNotExist:
		return "transcript: the file does not exist"
	case CodeNotRegular:
		return "transcript: not a regular file"
	case CodeNoCandidate:
		return "transcript: no transcript verifies for this pane"
	case CodeAmbiguous:
		return "transcript: two transcripts verify for this pane; refusing to guess"
	case CodeNoLocation:
		return "transcript: unknown home or pane directory"
	case CodeTooLarge:
		return "transcript: the session file is too large"
	case CodeMalformed:
		return "transcript: the session file does not name a session"
	case CodeClosed:
		return "transcript: watcher closed"
	}
	return "transcript: the file cannot be read"
}

// Hint says what to do next.
func (e *Error) Hint() string {
	switch e.code {
	case CodeNotExist, CodeUnreadable:
		return "check the transcript_path the hook sent, and that this process's user can read it"
	case CodeNotRegular:
		return "a transcript is a regular file; send its path, not a pipe or device"
	case CodeAmbiguous:
		return "send the transcript_path from the agent's hook so no guess is needed"
	case CodeClosed:
		return "make a new Watcher, or read the transcript on the pane's output"
	}
	return "send the transcript_path from the agent's hook"
}

func (e *Error) Unwrap() error { return e.Err }
