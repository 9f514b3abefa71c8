package cli_test

import (
	"net"
	"strings"
	"testing"
)

// kill-server returns once the daemon no longer listens, so the very next
// command starts a new daemon (its sessions restored) rather than reaching
// the old one on its way out.
func TestKillServerReturnsOnceTheDaemonStoppedListening(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for i := range 3 {
		e.ok("kill-server")
		if c, err := net.Dial("unix", e.socket()); err == nil {
			c.Close()
			t.Fatalf("round %d: the daemon still listens after kill-server returned", i)
		}
		if out := e.ok("ls"); !strings.Contains(out, "work") {
			t.Fatalf("round %d: the next daemon did not restore the session:\n%s", i, out)
		}
	}
}
