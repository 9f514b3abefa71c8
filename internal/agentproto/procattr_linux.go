package agentproto

import "syscall"

// agentProcAttr puts the agent in a session of its own (it never reads
// or writes the pane's terminal, and Ctrl+C in the pane is the pane's to
// handle) and has the kernel kill it when this process dies: a pane
// closed with SIGKILL leaves no agent running outside it, since its own
// session is not the pane's.
func agentProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
