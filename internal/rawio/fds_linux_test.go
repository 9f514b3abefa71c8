package rawio

import (
	"bufio"
	"os"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// A descriptor passed with a line arrives with it, in order, and is the
// same open file: a terminal's master passed this way writes that
// terminal's input. A connection that does not accept descriptors reads
// the bytes and the kernel closes what came with them.
func TestPassedDescriptorsArriveWithTheirLine(t *testing.T) {
	a0, b0 := unixPair(t)
	b := NewConn(b0).(*Conn)
	b.AcceptFDs()
	defer b.Close()
	defer a0.Close()

	ptm, pts, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer pts.Close()
	if err := SendFDs(a0.(syscall.Conn), []byte("first\n"), []int{int(ptm.Fd())}); err != nil {
		t.Fatal(err)
	}
	a0.Write([]byte("second\n"))
	r := bufio.NewReader(NewReader(b))
	if line, _ := r.ReadString('\n'); line != "first\n" {
		t.Fatalf("line %q", line)
	}
	fds := b.TakeFDs(2)
	if len(fds) != 1 {
		t.Fatalf("%d descriptors came with the line", len(fds))
	}
	got := os.NewFile(uintptr(fds[0]), "passed")
	defer got.Close()
	if _, err := got.Write([]byte("typed\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := pts.Read(buf)
	if string(buf[:n]) != "typed\n" {
		t.Fatalf("the passed master wrote %q to the terminal", buf[:n])
	}
	if line, _ := r.ReadString('\n'); line != "second\n" || len(b.TakeFDs(1)) != 0 {
		t.Fatalf("the next line %q, or a descriptor with it", line)
	}
}

// A Page is shared: what one mapping stores, the other loads. MapPage
// refuses a memfd that could be shrunk under it.
func TestPageIsSharedAndSealed(t *testing.T) {
	p, err := NewPage()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	q, err := MapPage(p.fd)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	p.Word(1).Store(42)
	q.Word(0).Store(7)
	if q.Word(1).Load() != 42 || p.Word(0).Load() != 7 {
		t.Fatal("the page is not shared")
	}
	if err := unix.Ftruncate(p.fd, 0); err == nil {
		t.Fatal("the page's memfd could be shrunk")
	}
	fd, err := unix.MemfdCreate("unsealed", unix.MFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	unix.Ftruncate(fd, 4096)
	if _, err := MapPage(fd); err == nil {
		t.Fatal("an unsealed memfd was mapped")
	}
}
