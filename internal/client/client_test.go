package client

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/sock"
)

const nobody = 65534

// TestMain doubles as the planted listener: with TUIOS_TEST_FOREIGN_SOCKET
// set, the test binary binds that socket as root, becomes uid nobody, only
// then listens (the kernel records a listener's credentials at listen), and
// reports how many bytes the first client sent.
func TestMain(m *testing.M) {
	if path := os.Getenv("TUIOS_TEST_FOREIGN_SOCKET"); path != "" {
		os.Exit(foreignListener(path))
	}
	os.Exit(m.Run())
}

func foreignListener(path string) int {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: path})
	}
	if err == nil {
		err = syscall.Setuid(nobody)
	}
	if err == nil {
		err = syscall.Listen(fd, 1)
	}
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	l, err := net.FileListener(os.NewFile(uintptr(fd), path))
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("ready")
	c, err := l.Accept()
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _ := io.Copy(io.Discard, c)
	fmt.Println("got", n)
	return 0
}

// TestAPlantedSocketIsNeverSpokenTo: a socket served by another user in
// our own private directory is refused before a byte is sent.
func TestAPlantedSocketIsNeverSpokenTo(t *testing.T) {
	if runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root on Linux to run a listener as another user")
	}
	dir := filepath.Join(t.TempDir(), "tuios")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tuios.sock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TUIOS_TEST_FOREIGN_SOCKET="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("listener: %q", lines.Text())
	}

	c, err := Dial(Options{Socket: path})
	if err == nil {
		c.Call("send-text", map[string]string{"text": "secret"}, nil)
		t.Fatal("Dial talked to a socket served by another user")
	}
	var pe *sock.PeerError
	if !errors.As(err, &pe) || pe.UID != nobody || pe.Code() != "peer_foreign" {
		t.Fatalf("Dial = %v, want a peer_foreign refusal naming uid %d", err, nobody)
	}
	if !lines.Scan() || lines.Text() != "got 0" {
		t.Fatalf("the planted listener received bytes: %q", lines.Text())
	}
	cmd.Wait()
}

// TestADirectoryOfAnotherUserIsRefused: with XDG_RUNTIME_DIR unset the
// socket lives under /tmp, where another user can create the directory
// first. Dial refuses it and never connects.
func TestADirectoryOfAnotherUserIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to create a directory owned by another user")
	}
	dir := filepath.Join(t.TempDir(), "tuios")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tuios.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = Dial(Options{Socket: path, Autostart: true, Executable: "/bin/false"})
	var se *sock.Error
	if !errors.As(err, &se) || se.Code() != "dir_foreign_owner" || !strings.Contains(err.Error(), dir) {
		t.Fatalf("Dial = %v, want dir_foreign_owner", err)
	}
	// A connection Dial made would wait in the backlog: Accept takes it at
	// once.
	l.(*net.UnixListener).SetDeadline(time.Now().Add(50 * time.Millisecond))
	if c, err := l.Accept(); err == nil {
		c.Close()
		t.Fatal("Dial connected to a socket in another user's directory")
	}
}
