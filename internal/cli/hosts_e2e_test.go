package cli_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// sshdWorld is a real OpenSSH server on a loopback port, with a host key,
// an authorized user key and a scratch HOME for the dialling side whose
// .ssh holds that user key and known_hosts.
type sshdWorld struct {
	port    int
	hostPub ssh.PublicKey
	near    *env // the machine that dials (its HOME has .ssh)
	far     *env // the machine sshd leads to (its daemon)
}

func genKey(t *testing.T) (ssh.PublicKey, []byte) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return sp, pem.EncodeToMemory(block)
}

// startSSHD needs root (sshd runs sessions as the key's user, here root)
// and /usr/sbin/sshd; .ci/run installs openssh-server.
func startSSHD(t *testing.T) *sshdWorld {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no real sshd")
	}
	if _, err := os.Stat("/usr/sbin/sshd"); err != nil {
		t.Skip("no /usr/sbin/sshd (install Debian's openssh-server: apt-get install -y openssh-server; .ci/run does)")
	}
	if os.Getuid() != 0 {
		t.Skip("the real-sshd tests start sshd themselves, which needs root")
	}
	dir := t.TempDir()
	hostPub, hostPriv := genKey(t)
	userPub, userPriv := genKey(t)
	must(t, os.WriteFile(filepath.Join(dir, "host_key"), hostPriv, 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "authorized_keys"), ssh.MarshalAuthorizedKey(userPub), 0o600))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PidFile %s
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
LogLevel VERBOSE
`, port, filepath.Join(dir, "host_key"), filepath.Join(dir, "authorized_keys"), filepath.Join(dir, "sshd.pid"))
	must(t, os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(cfg), 0o600))
	// sshd insists on its privilege separation directory.
	must(t, os.MkdirAll("/run/sshd", 0o755))
	cmd := exec.Command("/usr/sbin/sshd", "-D", "-f", filepath.Join(dir, "sshd_config"), "-e")
	var logb strings.Builder
	cmd.Stdout, cmd.Stderr = &logb, &logb
	must(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("sshd log:\n%s", logb.String())
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen: %v\n%s", err, logb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	w := &sshdWorld{port: port, hostPub: hostPub, near: newEnv(t), far: newEnv(t)}
	sshDir := filepath.Join(w.near.dir, "home", ".ssh")
	must(t, os.MkdirAll(sshDir, 0o700))
	must(t, os.WriteFile(filepath.Join(sshDir, "id_ed25519"), userPriv, 0o600))
	w.knownHosts(t, hostPub)
	return w
}

func (w *sshdWorld) knownHosts(t *testing.T, key ssh.PublicKey) {
	line := fmt.Sprintf("[127.0.0.1]:%d %s", w.port, ssh.MarshalAuthorizedKey(key))
	must(t, os.WriteFile(filepath.Join(w.near.dir, "home", ".ssh", "known_hosts"), []byte(line), 0o600))
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
	other, _ := genKey(t)
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
