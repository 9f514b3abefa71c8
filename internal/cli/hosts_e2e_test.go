package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/tuios/tuios/internal/testsshd"
)

// sshdWorld is a real OpenSSH server on a loopback port (internal/testsshd)
// with two tuios machines: near, whose HOME's .ssh holds the authorized user
// key and a known_hosts line for the server, and far, the daemon sshd leads
// to.
type sshdWorld struct {
	srv     *testsshd.Server
	port    int
	hostPub ssh.PublicKey
	near    *env // the machine that dials (its HOME has .ssh)
	far     *env // the machine sshd leads to (its daemon)
}

// startSSHD skips the test where testsshd cannot run a real sshd (it needs
// root and /usr/sbin/sshd; .ci/run installs openssh-server).
func startSSHD(t *testing.T) *sshdWorld {
	t.Helper()
	srv := testsshd.Start(t, testsshd.Options{})
	w := &sshdWorld{srv: srv, port: srv.Port, hostPub: srv.HostKey, near: newEnv(t), far: newEnv(t)}
	srv.ClientHome(filepath.Join(w.near.dir, "home"))
	return w
}

// knownHosts makes key the server's host key in near's known_hosts.
func (w *sshdWorld) knownHosts(t *testing.T, key ssh.PublicKey) {
	t.Helper()
	w.srv.KnownHosts(filepath.Join(w.near.dir, "home"), key)
}

// farCommand reaches the far env's daemon: sshd runs this through root's
// login shell. XDG_RUNTIME_DIR (not TUIOS_SOCKET) picks the socket, because
// a TUIOS_SOCKET in a caller's environment is how the daemon recognises a
// caller inside one of its panes, which a link is not.
func (w *sshdWorld) farCommand() string {
	return "env XDG_RUNTIME_DIR=" + filepath.Join(w.far.dir, "run") + " " + w.far.bin
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestHostsTestReachesFarDaemonOverRealSSHD(t *testing.T) {
	t.Parallel()
	w := startSSHD(t)
	addr := "root@127.0.0.1"
	w.near.ok("hosts", "add", "far", addr, "--ssh-option", fmt.Sprintf("-p %d", w.port), "--command", w.farCommand(), "--connect-timeout", "10")

	// No daemon there yet: the link says no_daemon, not unreachable.
	r := w.near.run("hosts", "test", "far")
	if r.code == 0 || !strings.Contains(r.out, "status: no_daemon") {
		t.Fatalf("no daemon: exit %d\n%s\n%s", r.code, r.out, r.err)
	}

	w.far.ok("ls") // starts the far daemon
	out := w.near.ok("hosts", "test", "far")
	for _, want := range []string{"status: up", "protocol 1", "known_hosts:", "looked for tuios in: env XDG_RUNTIME_DIR"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q:\n%s", want, out)
		}
	}
	var js struct {
		OK     bool   `json:"ok"`
		Status string `json:"status"`
		Hello  struct {
			Protocol int `json:"protocol"`
			PID      int `json:"pid"`
		} `json:"hello"`
		Untrusted bool `json:"untrusted"`
	}
	must(t, json.Unmarshal([]byte(w.near.ok("hosts", "test", "far", "--json")), &js))
	if !js.OK || js.Status != "up" || js.Hello.Protocol != 1 || js.Hello.PID == 0 || !js.Untrusted {
		t.Fatalf("json %+v", js)
	}
	// The port in the address itself (user@host:port), as a person
	// writes it, dials; a port that cannot be is refused when added.
	w.near.ok("hosts", "add", "ported", fmt.Sprintf("%s:%d", addr, w.port), "--command", w.farCommand(), "--connect-timeout", "10")
	if out := w.near.ok("hosts", "test", "ported"); !strings.Contains(out, "status: up") {
		t.Fatalf("user@host:port:\n%s", out)
	}
	if r := w.near.run("hosts", "add", "badport", addr+":99999"); r.code == 0 || !strings.Contains(r.err, "99999") {
		t.Fatalf("a port out of range was saved: %+v", r)
	}
	w.near.ok("hosts", "remove", "ported")
	list := w.near.ok("hosts")
	if !strings.Contains(list, "│ far  │ root@127.0.0.1 │") {
		t.Fatalf("hosts:\n%s", list)
	}

	// tuios missing where the link looks: no_tuios.
	w.near.ok("hosts", "add", "bare", addr, "--ssh-option", fmt.Sprintf("-p %d", w.port), "--command", "/nonexistent/tuios")
	r = w.near.run("hosts", "test", "bare")
	if r.code == 0 || !strings.Contains(r.out, "status: no_tuios") {
		t.Fatalf("no tuios: exit %d\n%s\n%s", r.code, r.out, r.err)
	}

	// An unknown host key: refused, known_hosts untouched.
	kh := filepath.Join(w.near.dir, "home", ".ssh", "known_hosts")
	must(t, os.WriteFile(kh, nil, 0o600))
	r = w.near.run("hosts", "test", "far")
	if r.code == 0 || !strings.Contains(r.err, "host_unreachable") || !strings.Contains(r.err, "is not in") || !strings.Contains(r.err, "accept it once by hand") {
		t.Fatalf("unknown key: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	if b, _ := os.ReadFile(kh); len(b) != 0 {
		t.Fatalf("known_hosts was written: %q", b)
	}

	// A changed host key: refused, naming the line.
	other, _ := testsshd.GenKey(t)
	w.knownHosts(t, other)
	r = w.near.run("hosts", "test", "far")
	if r.code == 0 || !strings.Contains(r.err, "HOST KEY CHANGED") || !strings.Contains(r.err, "remove line 1") {
		t.Fatalf("changed key: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	w.knownHosts(t, w.hostPub)

	// ~/.ssh/config honoured: an alias with HostName, Port and User.
	cfg := fmt.Sprintf("Host farbox\n  HostName 127.0.0.1\n  Port %d\n  User root\n  IdentityFile ~/.ssh/id_ed25519\n", w.port)
	must(t, os.WriteFile(filepath.Join(w.near.dir, "home", ".ssh", "config"), []byte(cfg), 0o600))
	w.near.ok("hosts", "add", "alias", "farbox", "--command", w.farCommand())
	if out := w.near.ok("hosts", "test", "alias"); !strings.Contains(out, "status: up") {
		t.Fatalf("alias:\n%s", out)
	}
	// A ProxyCommand in ~/.ssh/config is refused, never run.
	cfg = "Host evil\n  HostName 127.0.0.1\n  ProxyCommand touch " + filepath.Join(w.near.dir, "pwned") + "\n"
	must(t, os.WriteFile(filepath.Join(w.near.dir, "home", ".ssh", "config"), []byte(cfg), 0o600))
	w.near.ok("hosts", "add", "evil", "evil")
	r = w.near.run("hosts", "test", "evil")
	if r.code == 0 || !strings.Contains(r.err, "proxycommand") {
		t.Fatalf("ssh_config ProxyCommand: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	if _, err := os.Stat(filepath.Join(w.near.dir, "pwned")); err == nil {
		t.Fatal("ProxyCommand ran")
	}

	w.near.ok("hosts", "remove", "far")
	if r := w.near.run("hosts", "test", "far"); r.code == 0 || !strings.Contains(r.err, "unknown_host") {
		t.Fatalf("removed: %+v", r)
	}
}

func TestHostsAddRefusesCommandRunningOptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, c := range [][]string{
		{"hosts", "add", "x", "h", "--ssh-option", "-o ProxyCommand=touch /tmp/x"},
		{"hosts", "add", "x", "h", "--ssh-option", "-oLocalCommand=touch /tmp/x"},
		{"hosts", "add", "x", "h", "--ssh-option", "-o PermitLocalCommand=yes"},
		{"hosts", "add", "x", "h", "--ssh-option", "-F /tmp/cfg"},
		{"hosts", "add", "x", "h", "--ssh-option", "-o StrictHostKeyChecking=no"},
		{"hosts", "add", "--", "x", "-oProxyCommand=touch /tmp/x"},
		{"hosts", "add", "bad name", "h"},
	} {
		r := e.run(c...)
		if r.code == 0 || !strings.Contains(r.err, "invalid_params") {
			t.Errorf("%q: exit %d\n%s", c, r.code, r.err)
		}
	}
	if out := e.ok("hosts"); !strings.Contains(out, "no hosts") {
		t.Fatalf("something was added:\n%s", out)
	}
}
