// Package procstat reads a process's parent and terminal session from
// /proc/<pid>/stat, for placing a caller in the pane it runs in. It is the
// binary's small helper; detect reads /proc in depth for its own ends. On
// a system without /proc every answer is 0.
package procstat

import (
	"os"
	"strconv"
	"strings"
)

// Parent is the process's parent pid, 0 when unknown.
func Parent(pid int) int { return field(pid, 1) }

// Session is the process's session id, 0 when unknown.
func Session(pid int) int { return field(pid, 3) }

// field reads the n-th field after the command name of /proc/<pid>/stat
// (after the last ')', which the name itself may contain): 0 state,
// 1 ppid, 2 pgrp, 3 session.
func field(pid, n int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) <= n {
		return 0
	}
	v, _ := strconv.Atoi(f[n])
	return v
}
