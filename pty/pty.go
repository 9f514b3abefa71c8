package pty

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Default window size used when Options.Cols or Options.Rows is 0.
const (
	DefaultCols = 80
	DefaultRows = 24
)

// Options describes the command to start.
type Options struct {
	Argv []string // command and arguments; Argv[0] is looked up in PATH unless it contains '/'
	Dir  string   // working directory; "" = the caller's
	Env  []string // environment; nil = os.Environ()
	Cols int      // window width in cells; 0 = DefaultCols
	Rows int      // window height in cells; 0 = DefaultRows
}

// ExitStatus is how the child ended.
type ExitStatus struct {
	Code       int            // exit code; -1 when the process was killed by a signal
	Signal     syscall.Signal // the signal that killed the process; 0 when it exited
	CoreDumped bool           // the signal produced a core dump
}

// Signaled reports whether the process was killed by a signal.
func (s ExitStatus) Signaled() bool { return s.Signal != 0 }

// Success reports whether the process exited with code 0.
func (s ExitStatus) Success() bool { return s.Signal == 0 && s.Code == 0 }

func (s ExitStatus) String() string {
	if s.Signal != 0 {
		if s.CoreDumped {
			return "signal: " + s.Signal.String() + " (core dumped)"
		}
		return "signal: " + s.Signal.String()
	}
	return fmt.Sprintf("exit status %d", s.Code)
}

// Process is a command running on a PTY. All methods are safe for
// concurrent use.
type Process struct {
	master masterFile
	out    io.Reader // master, read with raw calls where it can be (newReader)
	cmd    *exec.Cmd
	pid    int
	name   string

	// mu serialises signal delivery against reaping (see reap).
	mu     sync.Mutex
	reaped bool

	waitOnce sync.Once
	status   ExitStatus
	waitErr  error

	closeOnce sync.Once
	closeErr  error
	closed    atomic.Bool
}

// Start starts opts.Argv on a new PTY of the given size. On error nothing is
// left behind: no descriptor stays open and no process runs.
func Start(opts Options) (*Process, error) {
	if len(opts.Argv) == 0 || opts.Argv[0] == "" {
		return nil, &Error{code: CodeInvalidArgument, Op: "start", Err: errors.New("empty argv")}
	}
	name := opts.Argv[0]
	cols, rows := opts.Cols, opts.Rows
	if cols == 0 {
		cols = DefaultCols
	}
	if rows == 0 {
		rows = DefaultRows
	}
	if err := checkSize(cols, rows); err != nil {
		return nil, &Error{code: CodeInvalidArgument, Op: "start", Path: name, Err: err}
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	if opts.Dir != "" {
		st, err := os.Stat(opts.Dir)
		if err != nil {
			return nil, &Error{code: CodeCwdMissing, Op: "start", Path: opts.Dir, Err: err}
		}
		if !st.IsDir() {
			return nil, &Error{code: CodeCwdMissing, Op: "start", Path: opts.Dir, Err: errors.New("not a directory")}
		}
	}
	path, err := lookPath(name, env, opts.Dir)
	if err != nil {
		return nil, err
	}

	master, slave, err := openPTY()
	if err != nil {
		return nil, &Error{code: CodePTYOpenFailed, Op: "start", Path: name, Err: err}
	}
	if err := setWinsize(master, cols, rows); err != nil {
		master.Close()
		slave.Close()
		return nil, &Error{code: CodePTYOpenFailed, Op: "start", Path: name, Err: err}
	}
	cmd := &exec.Cmd{
		Path:   path,
		Args:   append([]string(nil), opts.Argv...),
		Env:    env,
		Dir:    opts.Dir,
		Stdin:  slave,
		Stdout: slave,
		Stderr: slave,
		// Setctty makes fd 0 of the child (the slave) its controlling terminal.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0},
	}
	if err := cmd.Start(); err != nil {
		master.Close()
		slave.Close()
		code := CodeStartFailed
		switch {
		case errors.Is(err, fs.ErrNotExist):
			code = CodeCommandNotFound
		case errors.Is(err, fs.ErrPermission):
			code = CodePermissionDenied
		}
		return nil, &Error{code: code, Op: "start", Path: name, Err: err}
	}
	// The child holds its own copies; the parent must not keep the slave
	// open or Read would never see EOF.
	slave.Close()
	return &Process{master: master, out: newReader(master), cmd: cmd, pid: cmd.Process.Pid, name: name}, nil
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > 65535 || rows > 65535 {
		return fmt.Errorf("window size %dx%d out of range", cols, rows)
	}
	return nil
}

// Read reads the program's output from the master side. It returns io.EOF
// once every process has closed the terminal.
func (p *Process) Read(b []byte) (int, error) {
	n, err := p.out.Read(b)
	if err != nil && errors.Is(err, syscall.EIO) {
		err = io.EOF
	}
	return n, err
}

// SetReadDeadline sets the deadline for pending and future Read calls
// (zero: none); a Read past it fails with an error wrapping
// os.ErrDeadlineExceeded. Only where the master is served by the runtime
// poller (Linux); elsewhere it fails with os.ErrNoDeadline.
func (p *Process) SetReadDeadline(t time.Time) error {
	return p.master.SetReadDeadline(t)
}

// Write writes the program's input (what a person would type). It blocks
// while the terminal's input buffer is full (the program is not reading);
// see Input for a writer that never blocks its caller.
func (p *Process) Write(b []byte) (int, error) {
	return p.master.Write(b)
}

// TryWrite writes what the terminal takes at once and never waits: n is
// what was written, 0 when the program's input buffer is full (and
// always outside Linux, where the master is a blocking file). Input
// types through it when nothing is queued, so a key reaches the program
// without a hop to its writer goroutine.
func (p *Process) TryWrite(b []byte) (int, error) { return tryWrite(p.master, b) }

// DupInput returns a new descriptor (close-on-exec) of the terminal's
// master, for another process that writes the program's input itself
// (the person's attach client, internal/daemon's attach_input.go). It
// shares the master's open file description, which is non-blocking on
// Linux and must stay so: the holder writes with non-blocking calls and
// never changes its flags. Closing the Process does not close it; the
// holder must.
func (p *Process) DupInput() (int, error) {
	if p.closed.Load() {
		return -1, &Error{code: CodeClosed, Op: "dup_input", Path: p.name}
	}
	fd := -1
	err := control(p.master, func(m int) error {
		var e error
		fd, e = unix.FcntlInt(uintptr(m), unix.F_DUPFD_CLOEXEC, 0)
		return e
	})
	if err != nil {
		return -1, &Error{code: CodeClosed, Op: "dup_input", Path: p.name, Err: err}
	}
	return fd, nil
}

// SetWriteDeadline sets the deadline for pending and future Write calls
// (zero: none), as SetReadDeadline does for Read.
func (p *Process) SetWriteDeadline(t time.Time) error {
	return p.master.SetWriteDeadline(t)
}

// Exited reports, without blocking and without reaping it, whether the
// child has exited. Processes it started that still hold the terminal do
// not count: the child's own exit is the exit.
func (p *Process) Exited() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reaped || exited(p.pid)
}

// Resize sets the terminal's window size; the kernel sends SIGWINCH to the
// foreground process group.
func (p *Process) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return &Error{code: CodeInvalidArgument, Op: "resize", Path: p.name, Err: err}
	}
	if err := setWinsize(p.master, cols, rows); err != nil {
		code := CodeIoctlFailed
		if p.closed.Load() {
			code = CodeClosed
		}
		return &Error{code: code, Op: "resize", Path: p.name, Err: err}
	}
	return nil
}

// Size returns the terminal's current window size.
func (p *Process) Size() (cols, rows int, err error) {
	var ws *unix.Winsize
	err = control(p.master, func(fd int) error {
		var e error
		ws, e = unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
		return e
	})
	if err != nil {
		code := CodeIoctlFailed
		if p.closed.Load() {
			code = CodeClosed
		}
		return 0, 0, &Error{code: code, Op: "size", Path: p.name, Err: err}
	}
	return int(ws.Col), int(ws.Row), nil
}

// Pid returns the pid of the child (the process Start ran: the shell, for
// a shell). It is also the id of the child's session and process group.
func (p *Process) Pid() int { return p.pid }

// Signal sends sig to the child process only (not to its group). It fails
// with CodeProcessDone once the child has been reaped.
func (p *Process) Signal(sig os.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return &Error{code: CodeProcessDone, Op: "signal", Path: p.name, Err: os.ErrProcessDone}
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		code := CodeSignalFailed
		if errors.Is(err, os.ErrProcessDone) {
			code = CodeProcessDone
		}
		return &Error{code: code, Op: "signal", Path: p.name, Err: err}
	}
	return nil
}

// SignalGroup sends sig to the child's process group (pgid == Pid()). Jobs a
// shell moved to groups of their own are not reached.
func (p *Process) SignalGroup(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return &Error{code: CodeProcessDone, Op: "signal", Path: p.name, Err: os.ErrProcessDone}
	}
	if err := unix.Kill(-p.pid, sig); err != nil {
		code := CodeSignalFailed
		if errors.Is(err, unix.ESRCH) {
			code = CodeProcessDone
		}
		return &Error{code: code, Op: "signal", Path: p.name, Err: err}
	}
	return nil
}

// ForegroundPgrp returns the id of the terminal's foreground process group:
// Pid() while a shell waits at its prompt, the job's group while the shell
// runs a job in the foreground. It asks the master (TIOCGPGRP); on Linux,
// when that fails, it reads tpgid from /proc/<pid>/stat.
func (p *Process) ForegroundPgrp() (int, error) {
	var pgrp int
	err := control(p.master, func(fd int) error {
		var e error
		pgrp, e = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return e
	})
	if err == nil && pgrp > 0 {
		return pgrp, nil
	}
	if p.closed.Load() {
		return 0, &Error{code: CodeClosed, Op: "foreground_pgrp", Path: p.name, Err: err}
	}
	return foregroundPgrpOf(p.pid)
}

// ForegroundPgrpOf returns field 8 (tpgid) of /proc/<pid>/stat: the
// foreground process group of the terminal that pid's session controls.
// On platforms without /proc it fails with CodeUnsupported.
func ForegroundPgrpOf(pid int) (int, error) { return foregroundPgrpOf(pid) }

// Wait waits for the child to exit and returns how it ended. It may be
// called from several goroutines and after Close; all calls return the same
// result. A non-zero exit code or a signal is not an error.
func (p *Process) Wait() (ExitStatus, error) {
	p.waitOnce.Do(p.reap)
	return p.status, p.waitErr
}

func (p *Process) reap() {
	// On Linux, block until the child has exited without reaping it: while
	// it is a zombie its pid (and group id) cannot be reused, so Signal,
	// SignalGroup and Close, which hold mu, never hit another process.
	held := waitExited(p.pid)
	if held {
		p.mu.Lock()
	}
	err := p.cmd.Wait()
	if !held {
		p.mu.Lock()
	}
	p.reaped = true
	p.mu.Unlock()

	st := p.cmd.ProcessState
	if st == nil {
		p.waitErr = &Error{code: CodeWaitFailed, Op: "wait", Path: p.name, Err: err}
		return
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok {
		if ws.Signaled() {
			p.status = ExitStatus{Code: -1, Signal: ws.Signal(), CoreDumped: ws.CoreDump()}
		} else {
			p.status = ExitStatus{Code: ws.ExitStatus()}
		}
		return
	}
	p.status = ExitStatus{Code: st.ExitCode()}
}

// Close kills (SIGKILL) every process of the child's session, closes the
// master and reaps the child. It is idempotent; later calls return the
// first call's result, and it is safe to call concurrently with Wait.
//
// The session holds the child, its process group, the jobs a shell with job
// control moved to groups of their own, and background jobs that ignore
// SIGHUP: all are killed, so closing a terminal leaves nothing of it
// running. Only a process that left the session (setsid, as daemons do)
// survives. On Linux the session's members are found in /proc; elsewhere
// the child's group and the terminal's foreground group are killed.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.closed.Store(true)
		p.mu.Lock()
		fg := 0
		_ = control(p.master, func(fd int) error {
			var e error
			fg, e = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
			return e
		})
		if !p.reaped {
			_ = unix.Kill(-p.pid, unix.SIGKILL)
			_ = unix.Kill(p.pid, unix.SIGKILL) // in case it left its group
		}
		if fg > 0 && fg != p.pid && fg != unix.Getpgrp() {
			_ = unix.Kill(-fg, unix.SIGKILL)
		}
		p.mu.Unlock()
		// A session id stays in use while any member lives, so it cannot
		// name another session even after the child was reaped. Outside
		// p.mu: it waits for the killed to end.
		killSession(p.pid)
		err := p.master.Close()
		if _, werr := p.Wait(); werr != nil && err == nil {
			err = werr
		}
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				err = &Error{code: CodeClosed, Op: "close", Path: p.name, Err: err}
			}
		}
		p.closeErr = err
	})
	return p.closeErr
}

// masterFile is the master side: an *os.File, or on Linux a rawio.File,
// which the runtime's poller watches for room to write only while a
// write waits (openPTY).
type masterFile interface {
	io.ReadWriteCloser
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
	SyscallConn() (syscall.RawConn, error)
}

// control runs f with the descriptor of f without switching it to blocking
// mode (os.File.Fd would).
func control(f masterFile, fn func(fd int) error) error {
	sc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := sc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func setWinsize(f masterFile, cols, rows int) error {
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	return control(f, func(fd int) error { return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) })
}
