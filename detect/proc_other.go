//go:build darwin

package detect

import (
	"bytes"
	"encoding/binary"
	"errors"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On darwin (best effort, not tested in CI): kern.proc.pid gives the
// terminal's tpgid, the process group, the parent and p_comm;
// kern.procargs2 gives the exe path, argv and the environment (read only
// for the TUIOS_AGENT hint); kern.proc.pgrp lists a group's members for the
// walk. The working directory is not read.

const canWalk = true

type sysProc struct{}

func newSysProc(string) sysProc { return sysProc{} }

func procGone(err error) bool {
	return errors.Is(err, syscall.ESRCH) || errors.Is(err, syscall.ENOENT)
}

// statHandle names a process by pid; darwin has no handle that outlives a
// pid, so the start time carries the identity.
type statHandle struct{ fd int }

func (s sysProc) openHandle(pid int) (statHandle, error) {
	if _, err := s.stat(pid, nil); err != nil {
		return statHandle{fd: -1}, err
	}
	return statHandle{fd: pid}, nil
}

func (s sysProc) closeHandle(statHandle) {}

func (s sysProc) readHandle(h statHandle, buf []byte) (statInfo, error) {
	if h.fd < 0 {
		return statInfo{}, syscall.EBADF
	}
	return s.stat(h.fd, buf)
}

func (s sysProc) stat(pid int, _ []byte) (statInfo, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return statInfo{}, err
	}
	if kp == nil || int(kp.Proc.P_pid) != pid {
		return statInfo{}, syscall.ESRCH
	}
	return kinfoStat(kp), nil
}

func kinfoStat(kp *unix.KinfoProc) statInfo {
	comm := kp.Proc.P_comm[:]
	if i := bytes.IndexByte(comm, 0); i >= 0 {
		comm = comm[:i]
	}
	st := statInfo{
		comm:     append([]byte(nil), comm...),
		state:    'R',
		ppid:     int(kp.Eproc.Ppid),
		pgrp:     int(kp.Eproc.Pgid),
		tpgid:    int(kp.Eproc.Tpgid),
		nthreads: 1,
		start:    uint64(kp.Proc.P_starttime.Sec)*1000000 + uint64(kp.Proc.P_starttime.Usec),
	}
	if kp.Proc.P_stat == 5 { // SZOMB
		st.state = 'Z'
	}
	return st
}

// procArgs reads kern.procargs2: exe path, argv and environment.
func procArgs(pid int) (exe string, argv []string, env []byte) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 4 {
		return "", nil, nil
	}
	argc := int(binary.LittleEndian.Uint32(b[:4]))
	b = b[4:]
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return string(b), nil, nil
	}
	exe = string(b[:i])
	b = b[i:]
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	for n := 0; n < argc && len(b) > 0; n++ {
		j := bytes.IndexByte(b, 0)
		if j < 0 {
			j = len(b)
		}
		if j > 0 {
			argv = append(argv, string(b[:j]))
		}
		if j < len(b) {
			b = b[j+1:]
		} else {
			b = nil
		}
	}
	return exe, argv, b
}

func (s sysProc) describe(pid int, st statInfo) ProcInfo {
	p := ProcInfo{PID: pid, PGID: st.pgrp, PPID: st.ppid, Comm: string(bytes.TrimSpace(st.comm))}
	exe, argv, _ := procArgs(pid)
	p.Exe, p.Argv = cleanExe(exe), argv
	return p
}

// children lists the members of pid's process group whose parent is pid.
func (s sysProc) children(pid, _ int, out []int) []int {
	st, err := s.stat(pid, nil)
	if err != nil {
		return out
	}
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", st.pgrp)
	if err != nil {
		return out
	}
	for i := range kps {
		if int(kps[i].Eproc.Ppid) == pid && int(kps[i].Proc.P_pid) != pid {
			out = append(out, int(kps[i].Proc.P_pid))
		}
	}
	return out
}

func (s sysProc) env(pid int, key string) (string, bool) {
	_, _, env := procArgs(pid)
	return envValue(env, key)
}

func (s sysProc) cwd(int) string { return "" }

// started is not read on darwin: no filter by start time.
func (s sysProc) started(int) time.Time { return time.Time{} }
