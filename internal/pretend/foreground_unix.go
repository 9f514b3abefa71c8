//go:build unix

package pretend

import (
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// takeForeground makes the pretend agent the leader of its terminal's
// foreground process group when `go run` started it: go leads that group
// and the agent is a member of it. A tracker reads the foreground group's
// leader, which would be go, with no TUIOS_AGENT and no agent in it, and
// go is no wrapper a detector walks through; so the pane would read as
// running go. A job-control shell gives each job a group of its own; this
// does the same for the one job. Behind any other launcher (timeout, a
// shell) nothing is done: those are the detector's to see through. It
// returns what gives the terminal back to go's group on the way out (nil
// when nothing was taken).
func takeForeground() (giveBack func()) {
	fg, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	if err != nil {
		return nil // no terminal
	}
	pid, pg := os.Getpid(), unix.Getpgrp()
	if fg != pg || pg == pid {
		return nil // in the background, or already leading the foreground
	}
	if pg != os.Getppid() || !isGo(pg) {
		return nil // not go run's child
	}
	if sid, err := unix.Getsid(0); err != nil || sid == pid {
		return nil // a session leader cannot move to another group
	}
	if unix.Setpgid(0, 0) != nil {
		return nil
	}
	if setForeground(pid) != nil {
		unix.Setpgid(0, pg) // back where it was: still in the foreground
		return nil
	}
	return func() { setForeground(fg) }
}

// setForeground hands the terminal to a process group. From a group that
// is not the foreground, the kernel stops the caller with SIGTTOU unless
// the signal is ignored, as a shell ignores it for this.
func setForeground(pgid int) error {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	return unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, pgid)
}

// isGo says whether a process is the go command, by its name.
func isGo(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return err == nil && strings.TrimSpace(string(b)) == "go"
}
