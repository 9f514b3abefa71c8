// Package testsshd starts a real OpenSSH server (Debian's openssh-server,
// /usr/sbin/sshd) on a loopback port for tests of host links: a fresh host
// key, an authorized user key, and a scratch HOME for the dialling side
// whose .ssh holds that user key and a known_hosts line for the server.
// It can stop the server and everything it runs (a machine that went
// away), start it again on the same port, and freeze it (a peer that stops
// answering but keeps its TCP connections open).
//
// sshd runs sessions as the key's user, here root, so the tests that use
// it need root; without root, without sshd, or with -short they are
// skipped with a message that says why. It is test support only: nothing
// outside _test files imports it.
package testsshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// SSHD is where Debian's openssh-server puts the server.
const SSHD = "/usr/sbin/sshd"

// Options change the server's configuration.
type Options struct {
	// MaxSessions caps session channels per connection (sshd's default
	// is 10); 0 keeps the default.
	MaxSessions int
	// NoTCPForwarding sets AllowTcpForwarding no: the server refuses to
	// be a jump host. By default forwarding is on (said explicitly, so a
	// distribution default cannot turn the jump-host tests off).
	NoTCPForwarding bool
	// IPv6 listens on [::1] too, on the same port, and the client's
	// known_hosts names the key there as well; the test is skipped when
	// this machine has no IPv6 loopback.
	IPv6 bool
}

// Server is one running sshd and the files it was started with.
type Server struct {
	// Port is the loopback port sshd listens on.
	Port int
	// HostKey is the server's public host key.
	HostKey ssh.PublicKey

	t       testing.TB
	dir     string
	userKey []byte // the authorized user key, PEM
	ipv6    bool   // listens on [::1] too (Options.IPv6)

	mu  sync.Mutex
	cmd *exec.Cmd
	log *syncBuffer
}

// Skip skips t unless a real sshd can run here.
func Skip(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no real sshd")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the real-sshd tests run on Linux")
	}
	if _, err := os.Stat(SSHD); err != nil {
		t.Skip("no " + SSHD + " (install Debian's openssh-server: apt-get install -y openssh-server; .ci/run does)")
	}
	if os.Getuid() != 0 {
		t.Skip("the real-sshd tests start sshd themselves, which runs sessions as root and so needs root")
	}
}

// Start starts sshd on a free loopback port; the test's cleanup stops it
// and everything it runs. It skips the test when sshd cannot run here.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	Skip(t)
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
SetEnv SHLVL=1
`, port, filepath.Join(dir, "host_key"), filepath.Join(dir, "authorized_keys"), filepath.Join(dir, "sshd.pid"))
	if opt.IPv6 {
		l6, err := net.Listen("tcp", "[::1]:"+strconv.Itoa(port))
		if err != nil {
			t.Skip("no IPv6 loopback here: " + err.Error())
		}
		l6.Close()
		cfg += "ListenAddress ::1\n"
	}
	if opt.NoTCPForwarding {
		cfg += "AllowTcpForwarding no\n"
	} else {
		cfg += "AllowTcpForwarding yes\n"
	}
	if opt.MaxSessions > 0 {
		cfg += fmt.Sprintf("MaxSessions %d\n", opt.MaxSessions)
	}
	// SetEnv SHLVL=1 (above): bash reads ~/.bashrc for a command sshd
	// runs only at shell level 1, and the root ~/.bashrc of a shared test
	// machine may do slow or locking work (a pyenv rehash whose lock a
	// killed session leaves behind stalls every later session). Sessions
	// here run the tests' own commands, given by absolute path.
	must(t, os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(cfg), 0o600))
	// sshd insists on its privilege separation directory.
	must(t, os.MkdirAll("/run/sshd", 0o755))
	s := &Server{Port: port, HostKey: hostPub, t: t, dir: dir, userKey: userPriv, log: &syncBuffer{}, ipv6: opt.IPv6}
	s.Restart()
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("sshd log:\n%s", s.log.String())
		}
	})
	return s
}

// Restart starts sshd again (after Stop) on the same port, and returns
// once it accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	cmd := exec.Command(SSHD, "-D", "-f", filepath.Join(s.dir, "sshd_config"), "-e")
	cmd.Stdout, cmd.Stderr = s.log, s.log
	// Its own process group, so a Stop reaches what it started even if
	// a session process was reparented.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	must(s.t, cmd.Start())
	s.cmd = cmd
	for deadline := time.Now().Add(20 * time.Second); ; {
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.Port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("sshd did not listen on %d: %v\n%s", s.Port, err, s.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop kills sshd and every process it started (connection handlers and
// the commands they run), as a machine that went away: the links' TCP
// connections end.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	// The listener goes first and is waited for: a link that notices its
	// connection ending redials at once, and while the listening socket
	// outlived the connection handlers that redial was accepted and then
	// reset ("handshake failed") instead of refused ("connecting").
	root := s.cmd.Process.Pid
	syscall.Kill(root, syscall.SIGSTOP) // no new handler from here on
	rest := descendants(root)
	s.cmd.Process.Kill()
	s.cmd.Process.Wait() // not cmd.Wait: the handlers still hold its log pipe
	syscall.Kill(-root, syscall.SIGKILL)
	for _, p := range rest {
		syscall.Kill(p, syscall.SIGKILL)
	}
	s.cmd.Wait() // reaped already; this waits for the log copy to end
	s.cmd = nil
}

// Freeze stops sshd and every process it started with SIGSTOP: TCP
// connections stay open (the kernel still acknowledges) but nothing
// answers, as a peer that hung. Thaw undoes it.
func (s *Server) Freeze() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signalAll(syscall.SIGSTOP)
}

// Thaw continues a frozen sshd.
func (s *Server) Thaw() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signalAll(syscall.SIGCONT)
}

// signalAll signals sshd, its process group, and every descendant (a
// session handler may start its own session and group). Called with s.mu.
func (s *Server) signalAll(sig syscall.Signal) {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	root := s.cmd.Process.Pid
	pids := append([]int{root}, descendants(root)...)
	syscall.Kill(-root, sig)
	for _, p := range pids {
		syscall.Kill(p, sig)
	}
}

// descendants lists the live descendants of pid, read from /proc.
func descendants(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parens.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		parent[p] = pp
	}
	var out []int
	for p := range parent {
		for q, n := parent[p], 0; q > 1 && n < 64; q, n = parent[q], n+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Addr is the ssh destination of the server.
func (s *Server) Addr() string { return "root@127.0.0.1" }

// SSHOptions are the ssh_options a host row needs to reach the server.
func (s *Server) SSHOptions() []string { return []string{"-p " + strconv.Itoa(s.Port)} }

// ClientHome writes home/.ssh with the authorized user key (id_ed25519)
// and a known_hosts line for the server, so a dialler with that HOME
// reaches it. It returns home.
func (s *Server) ClientHome(home string) string {
	s.t.Helper()
	sshDir := filepath.Join(home, ".ssh")
	must(s.t, os.MkdirAll(sshDir, 0o700))
	must(s.t, os.WriteFile(filepath.Join(sshDir, "id_ed25519"), s.userKey, 0o600))
	s.KnownHosts(home, s.HostKey)
	return home
}

// SSHConfig writes home/.ssh/config (a scratch HOME's ~/.ssh/config).
func (s *Server) SSHConfig(home, text string) {
	s.t.Helper()
	must(s.t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(s.t, os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte(text), 0o600))
}

// KnownHosts writes home/.ssh/known_hosts naming key as the server's.
func (s *Server) KnownHosts(home string, key ssh.PublicKey) {
	s.t.Helper()
	line := fmt.Sprintf("[127.0.0.1]:%d %s", s.Port, ssh.MarshalAuthorizedKey(key))
	if s.ipv6 {
		line += fmt.Sprintf("[::1]:%d %s", s.Port, ssh.MarshalAuthorizedKey(key))
	}
	must(s.t, os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte(line), 0o600))
}

// AuthorizedKeys is the path of the server's authorized_keys file, which
// a test may rewrite (a forced command="..." line) before it dials.
func (s *Server) AuthorizedKeys() string { return filepath.Join(s.dir, "authorized_keys") }

// Log is what sshd has written so far.
func (s *Server) Log() string { return s.log.String() }

// GenKey makes an ed25519 key pair: the public key and the private key
// in OpenSSH PEM form.
func GenKey(t testing.TB) (ssh.PublicKey, []byte) { return genKey(t) }

func genKey(t testing.TB) (ssh.PublicKey, []byte) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	must(t, err)
	block, err := ssh.MarshalPrivateKey(priv, "")
	must(t, err)
	sp, err := ssh.NewPublicKey(pub)
	must(t, err)
	return sp, pem.EncodeToMemory(block)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is sshd's log, written by its process and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.b.Len() < 1<<20 {
		b.b.Write(p)
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
