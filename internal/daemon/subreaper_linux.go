//go:build linux

package daemon

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// becomeSubreaper makes this process the reaper of its descendants'
// orphans (PR_SET_CHILD_SUBREAPER): a process that leaves its pane, by
// setsid, a double fork or outliving its shell, is re-parented here
// rather than to init, so its ancestry still leads to the daemon.
func becomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// subreaperHolds says whether the kernel keeps orphans on this side.
const subreaperHolds = true

// childPids lists this process's children, from every thread's children
// file (a child belongs to the thread that forked it, or to whichever
// thread it was re-parented to), else from a scan of /proc where the
// kernel has no children files.
func childPids() []int {
	self := os.Getpid()
	tasks, err := os.ReadDir("/proc/self/task")
	if err == nil {
		var out []int
		seen := false
		for _, t := range tasks {
			b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
			if err != nil {
				continue
			}
			seen = true
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil {
					out = append(out, pid)
				}
			}
		}
		if seen {
			return out
		}
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := strings.LastIndexByte(string(b), ')'); i > 0 {
				if f := strings.Fields(string(b[i+1:])); len(f) > 1 && f[1] == strconv.Itoa(self) {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}

// reapPid reaps pid if it is a zombie, without blocking.
func reapPid(pid int) {
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err != unix.EINTR {
			return
		}
	}
}

// sessionOfSelf is this process's terminal session.
func sessionOfSelf() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return -1
	}
	return sid
}
