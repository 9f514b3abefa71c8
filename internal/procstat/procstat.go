// Package procstat reads a process's parent, terminal session, state and
// start time from /proc/<pid>/stat, for placing a caller in the pane it
// runs in and for finding the daemon's orphaned children. It is the
// binary's small helper; detect reads /proc in depth for its own ends. On
// a system without /proc every read fails (Read) or answers 0.
package procstat

import (
	"errors"
	"os"
	"strconv"
	"strings"
)

// Stat is what /proc/<pid>/stat says of one process.
type Stat struct {
	PID     int
	State   byte // R, S, D, Z (zombie), T, …
	Parent  int  // 0 for the top of the tree, or a parent outside this pid namespace
	Session int
	// Start is when the process started, in clock ticks after boot: a
	// parent always started no later than its child, so a parent pid
	// that now names a younger process was reused.
	Start uint64
}

// Zombie reports whether the process has exited and waits to be reaped.
func (s Stat) Zombie() bool { return s.State == 'Z' }

// Read reads /proc/<pid>/stat. It fails for a process that is gone (or
// was never there) and where there is no /proc.
func Read(pid int) (Stat, error) {
	if pid <= 0 {
		return Stat{}, errors.New("procstat: no such process")
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return Parse(b)
}

// ErrMalformed is Parse's error for a line that is not a stat line.
var ErrMalformed = errors.New("procstat: malformed stat line")

// Parse reads a /proc/<pid>/stat line. The command name (field 2) may
// hold spaces and parentheses, so the fields are read after its last ')'.
func Parse(b []byte) (Stat, error) {
	line := string(b)
	open := strings.IndexByte(line, '(')
	i := strings.LastIndexByte(line, ')')
	if open < 1 || i < open {
		return Stat{}, ErrMalformed
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil || pid <= 0 {
		return Stat{}, ErrMalformed
	}
	f := strings.Fields(line[i+1:])
	// state(0) ppid(1) pgrp(2) session(3) … starttime(19)
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, ErrMalformed
	}
	st := Stat{PID: pid, State: f[0][0]}
	if st.Parent, err = strconv.Atoi(f[1]); err != nil || st.Parent < 0 {
		return Stat{}, ErrMalformed
	}
	if st.Session, err = strconv.Atoi(f[3]); err != nil || st.Session < 0 {
		return Stat{}, ErrMalformed
	}
	if st.Start, err = strconv.ParseUint(f[19], 10, 64); err != nil {
		return Stat{}, ErrMalformed
	}
	return st, nil
}

// Parent is the process's parent pid, 0 when unknown.
func Parent(pid int) int {
	st, err := Read(pid)
	if err != nil {
		return 0
	}
	return st.Parent
}

// Session is the process's session id, 0 when unknown.
func Session(pid int) int {
	st, err := Read(pid)
	if err != nil {
		return 0
	}
	return st.Session
}

// Cwd is a process's working directory from /proc/<pid>/cwd; "" when it
// cannot be read (gone, not ours, no /proc) or was removed: a directory
// that no longer exists names nowhere a caller could go.
func Cwd(pid int) string {
	if pid <= 0 {
		return ""
	}
	d, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil || !strings.HasPrefix(d, "/") || strings.HasSuffix(d, " (deleted)") {
		return ""
	}
	return d
}
