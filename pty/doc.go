// Package pty starts a command on a new pseudo-terminal and gives the owner
// the terminal's master side: read the program's output, write its input,
// resize the window, signal the process, ask which process group is in the
// foreground, wait for the exit status and close everything down.
//
// It owns the lifetime of one process tree on one PTY and nothing else: no
// screen model (see package vt), no agent detection (package detect reads
// /proc on its own). It builds on github.com/creack/pty and
// golang.org/x/sys/unix.
//
// # Process model
//
// The command runs in a new session (setsid) with the PTY's slave side as
// its controlling terminal and as stdin, stdout and stderr, so the child is
// the leader of its own session and of a process group whose id equals
// its pid. A shell with job control then moves each job into a group of its
// own; ForegroundPgrp reports which group currently owns the terminal
// (TIOCGPGRP on the master; on Linux, if the ioctl fails, field 8 (tpgid)
// of /proc/<pid>/stat, parsed after the last ')').
//
// # Signals
//
// Signal delivers to the child process only (the pid returned by Pid), the
// way kill(1) with a positive pid does. SignalGroup delivers to the child's
// process group (pid == pgid, see above); jobs a shell started in groups of
// their own are not in it: to interrupt the foreground job, write the
// terminal's interrupt character (0x03) or signal -ForegroundPgrp yourself.
// Neither call signals a process that has already been reaped, so a reused
// pid is never hit: on Linux the child is left a zombie until every pending
// Signal/SignalGroup/Close has finished with it.
//
// # Reading and closing
//
// Read returns io.EOF once every process has closed the slave side (the
// Linux kernel reports EIO there; it is translated). On Linux the master is
// put in non-blocking mode and served by the Go runtime poller, so Close
// interrupts a Read blocked in another goroutine (which then returns an
// error wrapping os.ErrClosed) and SetReadDeadline bounds a Read; no
// goroutine is started by this package. Elsewhere the master stays in
// blocking mode (kqueue support for PTYs varies): a blocked Read returns
// once Close has killed the process tree, and SetReadDeadline fails.
//
// Close closes the master, kills (SIGKILL) the child's process group and
// the terminal's foreground process group if the child has not been reaped
// yet, then reaps the child. Background jobs of an interactive shell (in
// groups of their own) are left with a hung-up terminal, as when a terminal
// window closes. It is idempotent and safe to call concurrently
// with Wait. Wait may be called from any number of goroutines, before or
// after Close; all get the same ExitStatus.
//
// # Errors
//
// Start and the Process methods return *Error values carrying a stable
// snake_case code (the Code* constants), the operation and the path
// concerned. A failed Start leaves nothing behind: every descriptor it
// opened is closed and no process is left running. Read and Write return
// the master's errors unchanged (apart from EIO → io.EOF on Read) so that
// the io.Reader/io.Writer contracts hold.
//
// # Environment and command lookup
//
// Options.Env nil means os.Environ(). The command is looked up in the PATH
// of the child's environment (the parent's PATH when that environment has
// none); relative PATH entries are skipped. A command containing a slash is
// used as given (relative to Options.Dir when that is set). TERM is not
// added: pass it in Env.
//
// Linux is the tested platform; the package builds on darwin and the other
// unix systems creack/pty supports.
package pty
