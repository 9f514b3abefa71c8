package rawio

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Passing descriptors (SCM_RIGHTS) over a Unix socket, and the small
// page of shared memory that goes with a passed pane input: what the
// attach path needs to let the person's client write keys straight to
// a pane's terminal (internal/daemon, attach_input.go).

// FDPassing is true where SendFDs, Conn.AcceptFDs and Page work.
const FDPassing = true

// maxPassed bounds the descriptors one read takes: more are closed by
// the kernel as the message is cut (MSG_CTRUNC), never leaked.
const maxPassed = 4

// SendFDs writes b on the Unix socket c with fds passed along its first
// bytes (SCM_RIGHTS), waiting in the poller for room as it must. The
// descriptors stay open here: the peer gets duplicates.
func SendFDs(c syscall.Conn, b []byte, fds []int) error {
	if len(b) == 0 || len(fds) == 0 || len(fds) > maxPassed {
		return errors.New("rawio: SendFDs needs bytes and 1 to 4 descriptors")
	}
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	rights := unix.UnixRights(fds...)
	done := 0
	var errno error
	err = rc.Write(func(fd uintptr) bool {
		for done < len(b) {
			var n int
			var e error
			if done == 0 {
				n, e = unix.SendmsgN(int(fd), b, rights, nil, unix.MSG_DONTWAIT|unix.MSG_NOSIGNAL)
			} else {
				var en syscall.Errno
				n, en = Write(fd, b[done:])
				if en != 0 {
					e = en
				}
			}
			switch {
			case e == unix.EAGAIN:
				return false
			case e == unix.EINTR:
				continue
			case e != nil:
				errno = e
				return true
			}
			done += n
		}
		return true
	})
	if err != nil {
		return err
	}
	return errno
}

// AcceptFDs makes c's reads take descriptors a peer passes (recvmsg,
// close-on-exec), kept in order for TakeFDs. A connection that never
// calls it reads as before, and a passed descriptor is closed by the
// kernel unread.
func (c *Conn) AcceptFDs() { c.fdsOn.Store(true) }

// TakeFDs hands over up to n descriptors received so far, oldest first;
// the caller owns (and closes) them.
func (c *Conn) TakeFDs(n int) []int {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	n = min(n, len(c.fds))
	out := append([]int(nil), c.fds[:n]...)
	c.fds = c.fds[n:]
	return out
}

// readMsg is Read for a connection that accepts descriptors.
func (c *Conn) readMsg(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno error
	oob := make([]byte, unix.CmsgSpace(maxPassed*4))
	err := c.irc.Read(func(uintptr) bool {
		var oobn, flags int
		var e error
		for {
			n, oobn, flags, _, e = unix.Recvmsg(c.fd, p, oob, unix.MSG_DONTWAIT|unix.MSG_CMSG_CLOEXEC)
			if e != unix.EINTR {
				break
			}
		}
		if e == unix.EAGAIN {
			return false
		}
		errno = e
		if e == nil && oobn > 0 {
			c.keep(oob[:oobn], flags&unix.MSG_CTRUNC != 0)
		}
		return true
	})
	switch {
	case err != nil:
		return 0, netErr(c.closedErr(err))
	case errno != nil:
		return 0, errno
	case n == 0:
		return 0, errEOF
	}
	return n, nil
}

// keep queues the descriptors of a control message; a cut message's
// are closed, since which of them arrived cannot be told.
func (c *Conn) keep(oob []byte, cut bool) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return
	}
	c.fmu.Lock()
	defer c.fmu.Unlock()
	for _, m := range msgs {
		fds, err := unix.ParseUnixRights(&m)
		if err != nil {
			continue
		}
		if cut || c.closed.Load() {
			for _, fd := range fds {
				unix.Close(fd)
			}
			continue
		}
		c.fds = append(c.fds, fds...)
	}
}

// dropFDs closes what was received and not taken.
func (c *Conn) dropFDs() {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	for _, fd := range c.fds {
		unix.Close(fd)
	}
	c.fds = nil
}

// Page is a few words of memory two processes share: a sealed memfd
// that both map. The daemon makes one per pane input it passes, with
// the terminal's descriptor: the client stores when it typed (so the
// echo is drawn at once) and reads whether the input was taken back,
// with no system call and no wakeup on either side.
type Page struct {
	mem []byte
	fd  int // -1 once handed over (TakeFD) or closed
}

// PageWords is how many int64 words a Page holds.
const PageWords = 4

const pageSize = PageWords * 8

// NewPage makes a zeroed page and its descriptor (to pass with SendFDs).
// The memfd is sealed at its size, so the peer can neither shrink it
// (a read past its end would kill this process) nor grow it.
func NewPage() (*Page, error) {
	fd, err := unix.MemfdCreate("tuios-input", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	if err := unix.Ftruncate(fd, int64(os.Getpagesize())); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_SEAL); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return mapPage(fd)
}

// MapPage maps a page a peer passed; fd is the caller's to close (the
// mapping outlives it). A memfd that is not sealed against shrinking
// is refused: its owner could make this process fault.
func MapPage(fd int) (*Page, error) {
	seals, err := unix.FcntlInt(uintptr(fd), unix.F_GET_SEALS, 0)
	if err != nil {
		return nil, err
	}
	if seals&unix.F_SEAL_SHRINK == 0 {
		return nil, errors.New("rawio: the page can shrink")
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Size < pageSize {
		return nil, errors.New("rawio: the page is too small")
	}
	mem, err := unix.Mmap(fd, 0, pageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &Page{mem: mem, fd: -1}, nil
}

func mapPage(fd int) (*Page, error) {
	mem, err := unix.Mmap(fd, 0, pageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &Page{mem: mem, fd: fd}, nil
}

// TakeFD hands the descriptor over (to pass and close); the mapping
// stays, and the page no longer closes it.
func (p *Page) TakeFD() int {
	fd := p.fd
	p.fd = -1
	return fd
}

// Word is the i-th word (0 ≤ i < PageWords), for atomic use.
func (p *Page) Word(i int) *atomic.Int64 {
	return (*atomic.Int64)(unsafe.Pointer(&p.mem[i*8]))
}

// Close unmaps the page and closes its descriptor. No Word may be used
// after it, by any goroutine.
func (p *Page) Close() {
	if p.fd >= 0 {
		unix.Close(p.fd)
		p.fd = -1
	}
	if p.mem != nil {
		unix.Munmap(p.mem)
		p.mem = nil
	}
}
