//go:build !linux

package agentproto

import "syscall"

// agentProcAttr puts the agent in a session of its own (it never reads
// or writes the pane's terminal, and Ctrl+C in the pane is the pane's to
// handle). Only Linux can have the kernel end it with this process.
func agentProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
