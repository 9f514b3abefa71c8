package daemon

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/tuios/tuios/internal/config"
)

// A daemon that stops leaves the socket path to the next one: once it no
// longer listens, a new daemon may take the path (tuios kill-server, then
// any command), and the old one's shutdown, still closing panes, must not
// remove the new socket.
func TestAStoppingDaemonLeavesTheNextOnesSocket(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	old := daemonAt(t, sock, state, &config.File{})
	ln := old.ln // set once by Listen
	ln.Close()   // the moment the old daemon stops listening
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatalf("the closed listener left its socket: %v", err)
	}
	next, err := net.Listen("unix", sock) // the next daemon
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	old.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("the old daemon's shutdown removed the next daemon's socket: %v", err)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatalf("the next daemon cannot be reached: %v", err)
	}
	c.Close()
}
