package detect

import (
	"bytes"
	"strconv"
	"strings"
)

// ProcInfo is what tuios reads about one process: its identity as the
// kernel and the process itself report it. Argv is data written by the
// process; print it escaped (see Explanation.String).
type ProcInfo struct {
	PID  int      `json:"pid"`
	PGID int      `json:"pgid,omitempty"`
	Comm string   `json:"comm"`           // kernel process name, trimmed (at most 15 bytes on Linux)
	Argv []string `json:"argv"`           // command line, empty parts dropped; nil for kernel threads
	Exe  string   `json:"exe,omitempty"`  // resolved executable, " (deleted)" stripped; "" when unreadable
	PPID int      `json:"ppid,omitempty"` // parent pid
}

// Label is how explanations name a process: the base name of its comm,
// else of its argv[0].
func (p ProcInfo) Label() string {
	if b := titleName(p.Comm); b != "" {
		return b
	}
	if len(p.Argv) > 0 {
		return titleName(p.Argv[0])
	}
	return ""
}

// empty says the process could not be described (vanished between reads).
func (p ProcInfo) empty() bool { return p.Comm == "" && len(p.Argv) == 0 }

// Foreground is the foreground process group of a pane's shell.
type Foreground struct {
	ShellPID int `json:"shell_pid"`
	// Running is false when no foreground process could be read: the shell
	// is gone, its tpgid is not positive, or the leader vanished between
	// reads.
	Running bool `json:"running"`
	// AtShell is true when the foreground leader is the shell itself.
	AtShell bool `json:"at_shell"`
	// Leader is the process whose pid equals the terminal's foreground
	// process group id (tpgid).
	Leader ProcInfo `json:"leader"`
	// Cwd is the leader's working directory ("" when unreadable). It is
	// read for transcript verification only and is never evidence.
	Cwd string `json:"cwd,omitempty"`
}

// statInfo is the part of /proc/<pid>/stat tuios uses.
type statInfo struct {
	comm     []byte // between the first '(' and the last ')'; aliases the input
	state    byte
	ppid     int
	pgrp     int
	tpgid    int
	nthreads int
	start    uint64 // starttime, clock ticks after boot
	// after is what follows starttime (field 22), for image; it aliases
	// the input.
	after []byte
}

// image is arg_start and env_end (fields 48 and 51): where the current
// program's argv and environment lie. An exec places them anew (the stack
// is randomised, and the environment's size usually changes), so a change
// says the process ran exec, which pid, start time and often comm do not.
// Zero when the kernel withholds them (another user's process) or the
// line is cut short. It is parsed only when asked for: only a leader's
// steady read needs it.
func (st statInfo) image() (im [2]uint64) {
	// st.after starts with the space before field 23; the kernel writes
	// exactly one space between fields.
	field := 22
	var v uint64
	for _, c := range st.after {
		switch {
		case c == ' ' || c == '\n':
			switch field {
			case 48:
				im[0] = v
			case 51:
				im[1] = v
				return im
			}
			field++
			v = 0
		case field == 48 || field == 51:
			if c < '0' || c > '9' {
				return [2]uint64{}
			}
			v = v*10 + uint64(c-'0')
		}
	}
	if field == 51 {
		im[1] = v
		return im
	}
	return [2]uint64{}
}

// parseStat reads a /proc/<pid>/stat line. The comm field may hold spaces
// and parentheses, so fields are counted from after the last ')': state(3),
// ppid(4), pgrp(5), session(6), tty_nr(7), tpgid(8) … num_threads(20) …
// starttime(22); what follows is kept for image. ok is false when the
// line is malformed.
func parseStat(b []byte) (st statInfo, ok bool) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return st, false
	}
	st.comm = b[open+1 : end]
	rest := b[end+1:]
	field := 3
	for len(rest) > 0 && field <= 22 {
		// skip spaces
		i := 0
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\n' || rest[i] == '\t') {
			i++
		}
		rest = rest[i:]
		if len(rest) == 0 {
			break
		}
		j := 0
		for j < len(rest) && rest[j] != ' ' && rest[j] != '\n' && rest[j] != '\t' {
			j++
		}
		tok := rest[:j]
		rest = rest[j:]
		switch field {
		case 3:
			st.state = tok[0]
		case 4, 5, 8, 20:
			n, good := atoiBytes(tok)
			if !good {
				return st, false
			}
			switch field {
			case 4:
				st.ppid = n
			case 5:
				st.pgrp = n
			case 8:
				st.tpgid = n
			case 20:
				st.nthreads = n
			}
		case 22:
			var v uint64
			for _, c := range tok {
				if c < '0' || c > '9' {
					return st, false
				}
				v = v*10 + uint64(c-'0')
			}
			st.start = v
			st.after = rest
		}
		field++
	}
	// tpgid is the minimum a caller needs.
	return st, field > 8
}

// atoiBytes parses an optionally negative decimal without allocating.
func atoiBytes(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// splitCmdline splits a NUL-separated command line, dropping trailing NULs
// and empty parts. It returns nil for an empty line (kernel threads).
func splitCmdline(b []byte) []string {
	b = bytes.TrimRight(b, "\x00")
	if len(b) == 0 {
		return nil
	}
	n := bytes.Count(b, []byte{0}) + 1
	out := make([]string, 0, n)
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		var part []byte
		if i < 0 {
			part, b = b, nil
		} else {
			part, b = b[:i], b[i+1:]
		}
		if len(part) > 0 {
			out = append(out, string(part))
		}
	}
	return out
}

// cleanExe strips the " (deleted)" suffix the kernel adds to the link of an
// executable that was replaced or removed.
func cleanExe(s string) string { return strings.TrimSuffix(s, " (deleted)") }

// envValue finds key in a NUL-separated environment block.
func envValue(env []byte, key string) (string, bool) {
	for len(env) > 0 {
		i := bytes.IndexByte(env, 0)
		var kv []byte
		if i < 0 {
			kv, env = env, nil
		} else {
			kv, env = env[:i], env[i+1:]
		}
		if len(kv) > len(key) && kv[len(key)] == '=' && string(kv[:len(key)]) == key {
			return string(kv[len(key)+1:]), true
		}
	}
	return "", false
}

// Error is a failure to read a process. Its Code is CodeProcUnreadable.
type Error struct {
	code Code
	Op   string // what was being done
	PID  int
	Err  error
}

func (e *Error) Error() string {
	return "detect: " + e.Op + " of pid " + strconv.Itoa(e.PID) + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next.
func (e *Error) Hint() string {
	return "only the owner of a process (or root) can read all of its /proc files: run as the user who owns the pane's shell"
}
