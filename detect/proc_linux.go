//go:build linux

package detect

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// canWalk says this platform can list the processes behind a wrapper.
const canWalk = true

// maxThreads bounds the threads whose children a walk lists per process.
const maxThreads = 64

// sysProc reads processes from a procfs mounted at root.
type sysProc struct{ root string }

func newSysProc(root string) sysProc {
	if root == "" {
		root = "/proc"
	}
	return sysProc{root: root}
}

func (s sysProc) path(pid int, name string) string {
	b := make([]byte, 0, len(s.root)+len(name)+24)
	b = append(b, s.root...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(pid), 10)
	if name != "" {
		b = append(b, '/')
		b = append(b, name...)
	}
	return string(b)
}

// gone says an error means the process does not exist (any more).
func procGone(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ESRCH)
}

// pathBuf builds "<root>/<pid>[/<tid-part>]/<name>\x00" without allocating.
type pathBuf struct {
	b    [512]byte
	n    int
	long bool // the path did not fit
}

func (p *pathBuf) str(s string) *pathBuf {
	c := copy(p.b[p.n:len(p.b)-1], s)
	p.long = p.long || c < len(s)
	p.n += c
	return p
}

func (p *pathBuf) num(v int) *pathBuf {
	var d [20]byte
	return p.bytes(strconv.AppendInt(d[:0], int64(v), 10))
}

func (p *pathBuf) bytes(b []byte) *pathBuf {
	c := copy(p.b[p.n:len(p.b)-1], b)
	p.long = p.long || c < len(b)
	p.n += c
	return p
}

// open opens the NUL-terminated path read-only (one openat, no allocation).
func (p *pathBuf) open() (int, error) {
	if p.long {
		return -1, syscall.ENAMETOOLONG
	}
	p.b[p.n] = 0
	dirfd := atFDCWD
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&p.b[0])),
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

const atFDCWD = -100

// procPath starts a path under the proc root for pid.
func (s sysProc) procPath(p *pathBuf, pid int) *pathBuf {
	return p.str(s.root).str("/").num(pid)
}

// readSmall reads a small file into buf with one open, read and close.
func readSmall(p *pathBuf, buf []byte) (int, error) {
	fd, err := p.open()
	if err != nil {
		return 0, err
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// statHandle is an open /proc/<pid>/stat. It stays bound to the process it
// was opened for: once that process is reaped, reads fail with ESRCH even
// if its pid is reused, so a cached handle recognises "the same process"
// without reading anything else.
type statHandle struct{ fd int }

func (s sysProc) openHandle(pid int) (statHandle, error) {
	fd, err := syscall.Open(s.path(pid, "stat"), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return statHandle{fd: -1}, err
	}
	return statHandle{fd: fd}, nil
}

func (s sysProc) closeHandle(h statHandle) {
	if h.fd >= 0 {
		syscall.Close(h.fd)
	}
}

// readHandle re-reads the stat line behind h into buf (one pread).
func (s sysProc) readHandle(h statHandle, buf []byte) (statInfo, error) {
	if h.fd < 0 {
		return statInfo{}, syscall.EBADF
	}
	n, err := syscall.Pread(h.fd, buf, 0)
	if err != nil {
		return statInfo{}, err
	}
	st, ok := parseStat(buf[:n])
	if !ok {
		return statInfo{}, syscall.EINVAL
	}
	return st, nil
}

// stat reads /proc/<pid>/stat.
func (s sysProc) stat(pid int, buf []byte) (statInfo, error) {
	var p pathBuf
	n, err := readSmall(s.procPath(&p, pid).str("/stat"), buf)
	if err != nil {
		return statInfo{}, err
	}
	st, ok := parseStat(buf[:n])
	if !ok {
		return statInfo{}, syscall.EINVAL
	}
	return st, nil
}

// describe reads what identifies pid: comm (from the stat line already
// read; it is the same text as /proc/<pid>/comm), argv and exe.
func (s sysProc) describe(pid int, st statInfo) ProcInfo {
	p := ProcInfo{PID: pid, PGID: st.pgrp, PPID: st.ppid, Comm: string(bytes.TrimSpace(st.comm))}
	var pb pathBuf
	p.Argv = s.readCmdline(s.procPath(&pb, pid).str("/cmdline"))
	if l, err := os.Readlink(s.path(pid, "exe")); err == nil {
		p.Exe = cleanExe(l)
	}
	return p
}

// children lists the children of every thread of pid (at most maxThreads
// threads). A kernel without CONFIG_PROC_CHILDREN gives none.
func (s sysProc) children(pid, nthreads int, out []int) []int {
	var buf [4096]byte
	readKids := func(tid int) {
		var p pathBuf
		n, err := readSmall(s.procPath(&p, pid).str("/task/").num(tid).str("/children"), buf[:])
		if err != nil {
			return
		}
		b := buf[:n]
		for len(b) > 0 {
			i := 0
			for i < len(b) && (b[i] == ' ' || b[i] == '\n') {
				i++
			}
			b = b[i:]
			j := 0
			for j < len(b) && b[j] != ' ' && b[j] != '\n' {
				j++
			}
			if j > 0 {
				if k, ok := atoiBytes(b[:j]); ok && k > 0 {
					out = append(out, k)
				}
			}
			b = b[j:]
		}
	}
	if nthreads <= 1 {
		readKids(pid)
		return out
	}
	f, err := os.Open(s.path(pid, "task"))
	if err != nil {
		return out
	}
	names, _ := f.Readdirnames(maxThreads)
	f.Close()
	for _, n := range names {
		if tid, err := strconv.Atoi(n); err == nil {
			readKids(tid)
		}
	}
	return out
}

// readCmdline reads a command line with one open, as few reads as it
// takes and one close (os.ReadFile would also stat the file and read once
// more to see the end).
func (s sysProc) readCmdline(p *pathBuf) []string {
	fd, err := p.open()
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	var small [2048]byte
	buf := small[:]
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			return nil
		}
		if m == 0 {
			break
		}
		short := m < len(buf)-n
		n += m
		if short {
			// procfs hands over the whole command line in one read when
			// it fits, so a short read is the end (saves a syscall).
			break
		}
		if n == len(buf) {
			if len(buf) >= 1<<20 {
				break // a command line that long is cut
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
	}
	return splitCmdline(buf[:n])
}

// env reads one variable from /proc/<pid>/environ (same user only).
func (s sysProc) env(pid int, key string) (string, bool) {
	b, err := os.ReadFile(s.path(pid, "environ"))
	if err != nil {
		return "", false
	}
	return envValue(b, key)
}

// cwd reads the working directory of pid ("" when unreadable).
func (s sysProc) cwd(pid int) string {
	l, err := os.Readlink(s.path(pid, "cwd"))
	if err != nil {
		return ""
	}
	return cleanExe(l)
}

// userHZ is the unit of starttime in /proc/<pid>/stat: USER_HZ, which is
// 100 on every architecture Linux runs Go on.
const userHZ = 100

// started is when process pid started, by the wall clock: its starttime
// (ticks of the boot-time clock) placed against that clock now. Zero when
// it cannot be read. It is exact to a tick, and never later than the
// start.
func (s sysProc) started(pid int) time.Time {
	var buf [statBufSize]byte
	st, err := s.stat(pid, buf[:])
	if err != nil {
		return time.Time{}
	}
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return time.Time{}
	}
	boot := time.Now().Add(-time.Duration(ts.Nano()))
	return boot.Add(time.Duration(st.start) * (time.Second / userHZ))
}
