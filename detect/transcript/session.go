package transcript

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Claude Code (2.1.197 seen) keeps, for each running process, a session
// file <config dir>/sessions/<pid>.json: the process's pid, the id of the
// session it is in now, its working directory, its start time (procStart,
// the starttime field of /proc/<pid>/stat on Linux), its version and a
// status. It is written when the process starts (before any prompt),
// rewritten in place on every status change and when the session changes
// (/clear starts a new one, /resume switches to an old one), and removed
// when the process exits cleanly; a killed process leaves it behind. The
// session's transcript is <project dir>/<session id>.jsonl.
//
// ReadSession takes only the four fields that tie a file to a process and
// a transcript. Everything else in the file (its name, status, the time
// stamps) is skipped by encoding/json without being built.
//
// The status is Claude Code's own account of its state, set from its UI
// (2.1.197): "idle" at the prompt, "busy" while a turn runs, "waiting"
// with waitingFor "permission prompt" (or "input needed", "worker
// request", "sandbox request", "dialog open") while a dialog waits, and
// "shell" when idle with a background shell running; statusUpdatedAt
// stamps each change. Measured over 10 real turns with one Bash
// permission dialog each (BenchmarkRealClaudeCodePermissionPrompt in
// internal/cli): "waiting" landed 8 to 244 ms after the dialog was painted
// (median 47 ms), against 400 ms for the screen rule's settle look; "idle"
// landed 111 to 365 ms (median 191 ms) before the transcript's end_turn
// was read (about 150 ms after it reached the file). It is faster, but it
// is not read: it is an undocumented field of an internal file whose
// values have no contract, "waiting" also covers dialogs the person
// opened (dialog open), and needs_input is the state that raises an
// alert, so it stays with the screen, which reads the dialog itself within
// the 450 ms the product promises, and done stays with the transcript,
// whose end_turn is the turn's own record.

// SessionMax bounds a session file read; a larger one is refused.
const SessionMax = 64 << 10

// sessionIDMax bounds a session id: it becomes a file name.
const sessionIDMax = 128

// Session is what a harness's per-process session file says.
type Session struct {
	PID       int    // the process that wrote it
	ID        string // the session it is in now
	CWD       string // its working directory
	ProcStart string // its start time as the harness read it; "" when absent
}

// sessionFile is all a session file is decoded into.
type sessionFile struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	ProcStart string `json:"procStart"`
}

// SessionPath expands a manifest's session_file pattern: {home} and the
// process's {pid}. ok is false when home is needed and unknown, or pid is
// not positive.
func SessionPath(pattern, home string, pid int) (string, bool) {
	if pattern == "" || pid <= 0 || (strings.Contains(pattern, "{home}") && home == "") {
		return "", false
	}
	out := strings.ReplaceAll(pattern, "{home}", home)
	return strings.ReplaceAll(out, "{pid}", strconv.Itoa(pid)), true
}

// ReadSession reads a session file that is a regular file of at most
// SessionMax bytes. It opens without blocking (a FIFO or a device in its
// place is refused by fstat, never read). A file that does not decode, or
// whose session id is not a plain file name, is CodeMalformed; the error
// never quotes it.
func ReadSession(path string) (Session, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return Session{}, &Error{code: CodeNotExist, Err: os.ErrNotExist}
		}
		return Session{}, &Error{code: CodeUnreadable}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Session{}, &Error{code: CodeUnreadable}
	}
	if !st.Mode().IsRegular() {
		return Session{}, &Error{code: CodeNotRegular}
	}
	if st.Size() > SessionMax {
		return Session{}, &Error{code: CodeTooLarge}
	}
	b, err := io.ReadAll(io.LimitReader(f, SessionMax+1))
	if err != nil {
		return Session{}, &Error{code: CodeUnreadable}
	}
	if len(b) > SessionMax {
		return Session{}, &Error{code: CodeTooLarge}
	}
	return parseSession(b)
}

// parseSession decodes the fields ReadSession takes and checks them.
func parseSession(b []byte) (Session, error) {
	var sf sessionFile
	if json.Unmarshal(b, &sf) != nil || sf.PID <= 0 || !sessionName(sf.SessionID) || sf.CWD == "" || len(sf.ProcStart) > 32 {
		return Session{}, &Error{code: CodeMalformed}
	}
	return Session{PID: sf.PID, ID: sf.SessionID, CWD: sf.CWD, ProcStart: sf.ProcStart}, nil
}

// sessionName says id can name a file in a directory and nothing else: at
// most sessionIDMax ASCII letters, digits, '-' and '_'.
func sessionName(id string) bool {
	if id == "" || len(id) > sessionIDMax {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// TranscriptPath is the session's transcript in the project directory dir:
// dir/<id>.jsonl. ok is false unless the file lies directly in dir and its
// name matches glob (the manifest's), so a session file cannot point a
// join anywhere else.
func (s Session) TranscriptPath(dir, glob string) (string, bool) {
	if dir == "" || !sessionName(s.ID) {
		return "", false
	}
	dir = filepath.Clean(dir)
	name := s.ID + ".jsonl"
	if glob != "" {
		if ok, err := filepath.Match(glob, name); err != nil || !ok {
			return "", false
		}
	}
	p := filepath.Join(dir, name)
	if filepath.Dir(p) != dir {
		return "", false
	}
	return p, true
}

// locateMax bounds the project directories Locate looks through.
const locateMax = 4096

// Locate finds the session's transcript by its id alone. It is
// <id>.jsonl (a name glob must match) in the project directory pattern
// names for the session's folder (ProjectDir of s.CWD) when that file
// exists; else the one file of that name in any directory beside that
// project directory (every entry of the directory that holds the
// {cwd:dashes} component, at most 4096 of them). So a folder Claude Code
// names otherwise than ProjectName does, or a session resumed from
// another folder, is still found. expected is the project directory
// pattern names, "" when it cannot be named: where to watch for the file
// while it is not written yet. The error is CodeNotExist when no file is
// found, CodeAmbiguous when two are, CodeNoLocation when the pattern
// cannot be expanded.
func (s Session) Locate(pattern, home, glob string) (path, expected string, err error) {
	dir, ok := ProjectDir(pattern, home, s.CWD)
	if !ok {
		return "", "", &Error{code: CodeNoLocation}
	}
	p, ok := s.TranscriptPath(dir, glob)
	if !ok {
		return "", dir, &Error{code: CodeNotExist, Err: os.ErrNotExist}
	}
	if regular(p) {
		return p, dir, nil
	}
	root, rest, ok := projectsRoot(pattern, home)
	if !ok {
		return "", dir, &Error{code: CodeNotExist, Err: os.ErrNotExist}
	}
	f, oerr := os.Open(root)
	if oerr != nil {
		return "", dir, &Error{code: CodeNotExist, Err: os.ErrNotExist}
	}
	entries, _ := f.ReadDir(locateMax)
	f.Close()
	name := filepath.Base(p)
	for _, e := range entries {
		if e.Name() == filepath.Base(dir) || e.Type().IsRegular() {
			continue // the expected directory was looked at; a file is no project
		}
		c := filepath.Join(root, e.Name(), rest, name)
		if !regular(c) {
			continue
		}
		if path != "" {
			return "", dir, &Error{code: CodeAmbiguous}
		}
		path = c
	}
	if path == "" {
		return "", dir, &Error{code: CodeNotExist, Err: os.ErrNotExist}
	}
	return path, dir, nil
}

// projectsRoot splits pattern at its {cwd:dashes} component: the directory
// above it (home expanded) and what follows it. ok is false when no whole
// component is {cwd:dashes}.
func projectsRoot(pattern, home string) (root, rest string, ok bool) {
	parts := strings.Split(filepath.ToSlash(pattern), "/")
	for i, c := range parts {
		if c != "{cwd:dashes}" {
			continue
		}
		root = strings.Join(parts[:i], "/")
		if strings.Contains(root, "{home}") {
			if home == "" {
				return "", "", false
			}
			root = strings.ReplaceAll(root, "{home}", home)
		}
		if strings.Contains(root, "{") || root == "" {
			return "", "", false
		}
		return filepath.FromSlash(root), filepath.FromSlash(strings.Join(parts[i+1:], "/")), true
	}
	return "", "", false
}

// regular says path is a regular file (symlinks followed).
func regular(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
