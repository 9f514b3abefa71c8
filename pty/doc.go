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
// error wrapping os.ErrClosed) and SetReadDeadline bounds a Read (SetWriteDeadline a
// Write); a Process starts no goroutine. Elsewhere the master stays in
// blocking mode (kqueue support for PTYs varies): a blocked Read returns
// once Close has killed the process tree, and SetReadDeadline fails.
//
// Close kills (SIGKILL) every process of the child's session: the child,
// its group, and the jobs a shell moved to groups of their own, including
// background jobs that ignore SIGHUP (on Linux they are found through
// /proc; elsewhere the child's group and the foreground group are killed).
// Then it closes the master and reaps the child. It is idempotent and safe
// to call concurrently with Wait. Wait may be called from any number of
// goroutines, before or after Close; all get the same ExitStatus. Exited
// says without blocking whether the child itself has exited: a background
// job still holding the terminal does not keep it "running".
//
// # Writing input
//
// Write blocks while the terminal's input buffer (a few kilobytes) is full,
// that is while the program does not read. An Input sits in front of a
// Process for callers that must never block: its Write queues all or
// nothing (CodeInputFull when the queue, 1 MiB by default, has no room),
// its Send waits for room until a context ends, and one goroutine, running
// only while the queue holds bytes, writes them out in order. Closing the
// Input releases a write stuck on a program that never reads.
//
// # Errors
//
// Start, the Process methods and Input return *Error values: Code returns
// a stable snake_case Code, Hint says what to do next, and the fields name
// the operation and the path concerned. A failed Start leaves nothing behind: every descriptor it
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
