//go:build darwin

package pty

import "golang.org/x/sys/unix"

// sZomb is the p_stat of a process that exited and was not reaped yet.
const sZomb = 5

func zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return true // gone
	}
	return kp.Proc.P_stat == sZomb
}
