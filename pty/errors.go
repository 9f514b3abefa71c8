package pty

import "strings"

// Code is the stable, snake_case code of an *Error.
type Code string

// Codes carried by *Error.
const (
	CodeInvalidArgument  Code = "invalid_argument"  // empty argv, window size outside 1..65535
	CodeCommandNotFound  Code = "command_not_found" // argv[0] not found (in PATH, or at the path given)
	CodePermissionDenied Code = "permission_denied" // argv[0] found but not executable
	CodeCwdMissing       Code = "cwd_missing"       // Options.Dir does not exist or is not a directory
	CodePTYOpenFailed    Code = "pty_open_failed"   // no PTY could be allocated
	CodeStartFailed      Code = "start_failed"      // fork/exec failed for another reason
	CodeClosed           Code = "closed"            // the Process (or Input) was closed
	CodeProcessDone      Code = "process_done"      // the child has exited and was reaped
	CodeNoForeground     Code = "no_foreground"     // the terminal has no foreground process group
	CodeIoctlFailed      Code = "ioctl_failed"      // a terminal ioctl failed
	CodeSignalFailed     Code = "signal_failed"     // delivering a signal failed
	CodeWaitFailed       Code = "wait_failed"       // waiting for the child failed
	CodeUnsupported      Code = "unsupported"       // not available on this platform
	CodeInputFull        Code = "input_full"        // an Input's queue has no room for the bytes
	CodeWriteFailed      Code = "write_failed"      // writing queued input to the terminal failed
)

// Error is the error type returned by Start, the Process methods and Input.
type Error struct {
	code Code
	Op   string // "start", "resize", "signal", "wait", "close", "foreground_pgrp", "write", "send"
	Path string // the command or directory concerned, when there is one
	Err  error  // the underlying error, may be nil
}

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("pty: ")
	b.WriteString(e.Op)
	if e.Path != "" {
		b.WriteString(" ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(codeText(e.code))
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
	switch e.code {
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
	case CodeInputFull:
		return "the program is not reading its input; wait (Input.Send) or send less"
	case CodeWriteFailed:
		return "the terminal is gone; start a new process"
	case CodeUnsupported:
		return "this needs Linux"
	case CodeIoctlFailed, CodeSignalFailed, CodeWaitFailed:
		return "the process may be exiting; check it with Wait"
	}
	return ""
}

func codeText(code Code) string {
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
	case CodeInputFull:
		return "input queue full"
	case CodeWriteFailed:
		return "write failed"
	}
	return strings.ReplaceAll(string(code), "_", " ")
}
