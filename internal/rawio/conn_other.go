//go:build !linux

package rawio

import (
	"errors"
	"net"
	"syscall"
)

// Conn is Linux's (an epoll instance per direction); elsewhere NewConn
// returns the connection it was given and no Conn exists.
type Conn struct{ net.Conn }

// NewConn returns c as it is: the wakeups File saves were measured on
// Linux only.
func NewConn(c net.Conn) net.Conn { return c }

// SyscallConn is never reached: no Conn is made off Linux.
func (c *Conn) SyscallConn() (syscall.RawConn, error) { return nil, errors.ErrUnsupported }
