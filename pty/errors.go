package pty

import "strings"

// Stable error codes carried by *Error.
const (
	CodeInvalidArgument  = "invalid_argument"  // empty argv, negative or oversized window size
	CodeCommandNotFound  = "command_not_found" // argv[0] not found (in PATH, or at the path given)
	CodePermissionDenied = "permission_denied" // argv[0] found but not executable
	CodeCwdMissing       = "cwd_missing"       // Options.Dir does not exist or is not a directory
	CodePTYOpenFailed    = "pty_open_failed"   // no PTY could be allocated
	CodeStartFailed      = "start_failed"      // fork/exec failed for another reason
	CodeClosed           = "closed"            // the Process was closed
	CodeProcessDone      = "process_done"      // the child has exited and was reaped
	CodeNoForeground     = "no_foreground"     // the terminal has no foreground process group
	CodeIoctlFailed      = "ioctl_failed"      // a terminal ioctl failed
	CodeSignalFailed     = "signal_failed"     // delivering a signal failed
	CodeWaitFailed       = "wait_failed"       // waiting for the child failed
	CodeUnsupported      = "unsupported"       // not available on this platform
)

// Error is the error type returned by Start and the Process methods.
type Error struct {
	Code string // one of the Code* constants; stable, snake_case
	Op   string // "start", "resize", "signal", "wait", "close", "foreground_pgrp"
	Path string // the command or directory concerned, when there is one
	Err  error  // the underlying error, may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("pty: ")
	b.WriteString(e.Op)
	if e.Path != "" {
		b.WriteString(" ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(codeText(e.Code))
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Hint says in one line what to do next.
func (e *Error) Hint() string {
	switch e.Code {
	case CodeInvalidArgument:
		return "pass a non-empty Argv and a window size between 1 and 65535"
	case CodeCommandNotFound:
		return "check the command name and the PATH in Options.Env"
	case CodePermissionDenied:
		return "make the file executable (chmod +x) or run it through its interpreter"
	case CodeCwdMissing:
		return "create the directory or pass an existing one in Options.Dir"
	case CodePTYOpenFailed:
		return "check /dev/ptmx and the open-file and pty limits (ulimit -n, /proc/sys/kernel/pty/max)"
	case CodeStartFailed:
		return "check that the command is a valid executable for this system"
	case CodeClosed:
		return "start a new process"
	case CodeProcessDone:
		return "the process already exited; call Wait for its status"
	case CodeNoForeground:
		return "the terminal has no foreground job (the process may be exiting)"
	}
	return ""
}

func codeText(code string) string {
	switch code {
	case CodeInvalidArgument:
		return "invalid argument"
	case CodeCommandNotFound:
		return "command not found"
	case CodePermissionDenied:
		return "permission denied"
	case CodeCwdMissing:
		return "working directory missing"
	case CodePTYOpenFailed:
		return "cannot open a pty"
	case CodeStartFailed:
		return "cannot start process"
	case CodeClosed:
		return "process closed"
	case CodeProcessDone:
		return "process already finished"
	case CodeNoForeground:
		return "no foreground process group"
	case CodeIoctlFailed:
		return "ioctl failed"
	case CodeSignalFailed:
		return "signal failed"
	case CodeWaitFailed:
		return "wait failed"
	case CodeUnsupported:
		return "not supported on this platform"
	}
	return strings.ReplaceAll(code, "_", " ")
}
