package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A host reached through a jump host named in ~/.ssh/config: hosts test
// reaches the far daemon and says the route, in text and in JSON; a
// ProxyJump that is a command is refused when the host is added.
func TestHostsTestSaysTheRouteThroughAJumpHost(t *testing.T) {
	t.Parallel()
	w := startSSHD(t)
	cfg := fmt.Sprintf("Host jumpalias\n  HostName 127.0.0.1\n  Port %d\n  User root\n", w.port)
	must(t, os.WriteFile(filepath.Join(w.near.dir, "home", ".ssh", "config"), []byte(cfg), 0o600))
	w.near.ok("hosts", "add", "far", "root@127.0.0.1", "--ssh-option", fmt.Sprintf("-p %d", w.port), "--ssh-option", "-J jumpalias",
		"--command", w.farCommand(), "--connect-timeout", "10")
	w.far.ok("ls") // starts the far daemon
	out := w.near.ok("hosts", "test", "far")
	for _, want := range []string{fmt.Sprintf("route:       via jumpalias (root@127.0.0.1 port %d)", w.port), "status: up"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q:\n%s", want, out)
		}
	}
	var js struct {
		OK       bool `json:"ok"`
		Resolved struct {
			Via []struct {
				Host string `json:"host"`
				Port int    `json:"port"`
			} `json:"via"`
		} `json:"resolved"`
	}
	must(t, json.Unmarshal([]byte(w.near.ok("hosts", "test", "far", "--json")), &js))
	if !js.OK || len(js.Resolved.Via) != 1 || js.Resolved.Via[0].Host != "jumpalias" || js.Resolved.Via[0].Port != w.port {
		t.Fatalf("json %+v", js)
	}

	marker := filepath.Join(w.near.dir, "ran")
	r := w.near.run("hosts", "add", "evil", "root@127.0.0.1", "--ssh-option", "-J $(touch "+marker+")")
	if r.code == 0 || !strings.Contains(r.err, "host names only") {
		t.Fatalf("a command as ProxyJump: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a ProxyJump value ran a command")
	}
}
