package hosts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/testsshd"
)

// jumpWorld is one real sshd that serves as jump host and as the far
// machine, a scratch HOME that reaches it, and the far script.
type jumpWorld struct {
	s      *testsshd.Server
	home   string
	script string
	d      *Dialer
}

func newJumpWorld(t *testing.T, opt testsshd.Options) *jumpWorld {
	t.Helper()
	s := testsshd.Start(t, opt)
	w := &jumpWorld{s: s, home: s.ClientHome(t.TempDir())}
	w.script = filepath.Join(t.TempDir(), "far.sh")
	if err := os.WriteFile(w.script, []byte(farScript), 0o755); err != nil {
		t.Fatal(err)
	}
	w.d = &Dialer{Home: w.home, Getenv: func(k string) string { return map[string]string{"USER": "root"}[k] }, Peer: "near"}
	return w
}

// config writes the scratch ~/.ssh/config; %PORT% is the sshd's port.
func (w *jumpWorld) config(text string) {
	w.s.SSHConfig(w.home, strings.ReplaceAll(text, "%PORT%", fmt.Sprint(w.s.Port)))
}

func (w *jumpWorld) host(opts ...string) Host {
	return Host{Name: "far", Addr: w.s.Addr(), Command: w.script, SSHOptions: append(w.s.SSHOptions(), opts...), ConnectTimeout: 10 * time.Second}
}

// accepted counts the ssh logins sshd has logged: one per machine of a
// route, since every hop and the host log in to this same sshd.
func (w *jumpWorld) accepted() int { return strings.Count(w.s.Log(), "Accepted publickey for root") }

// waitFor waits until cond holds, failing after d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// A host whose ssh_options say -J jumpalias, the alias defined only in
// ~/.ssh/config, reaches the far side through the jump host: two logins
// (the jump host, then the host through it), calls work, Where says the
// route, and closing the link closes both connections.
func TestJumpReachesTheFarSideThroughAJumpHost(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{})
	w.config(`Host jumpalias
  HostName 127.0.0.1
  Port %PORT%
  User root
  IdentityFile ~/.ssh/id_ed25519
`)
	l, err := w.d.Dial(context.Background(), w.host("-J jumpalias"))
	if err != nil {
		t.Fatalf("dial via jumpalias: %v", err)
	}
	defer l.Close()
	if l.Hello.PID != 42 {
		t.Fatalf("hello: %+v", l.Hello)
	}
	if err := l.Call("ping", nil, nil); err != nil {
		t.Fatalf("a call through the jump host: %v", err)
	}
	want := fmt.Sprintf("via jumpalias (root@127.0.0.1 port %d)", w.s.Port)
	if got := l.Where.Route(); got != want {
		t.Fatalf("route %q, want %q", got, want)
	}
	waitFor(t, 10*time.Second, "two logins in the sshd log", func() bool { return w.accepted() == 2 })
	// The jump host's connection carries no session: only the far one
	// runs the far command.
	if n := strings.Count(w.s.Log(), "Starting session"); n != 1 {
		t.Fatalf("%d sessions started, want 1", n)
	}
	l.Close()
	<-l.Done()
	// Both connections end: sshd logs each one's end, a clean close or a
	// reset (the jump host's TCP may be torn down under the far one).
	ports := regexp.MustCompile(`Accepted publickey for \S+ from 127\.0\.0\.1 port (\d+)`).FindAllStringSubmatch(w.s.Log(), -1)
	if len(ports) != 2 {
		t.Fatalf("%d logins in the sshd log, want 2", len(ports))
	}
	waitFor(t, 10*time.Second, "both connections closed", func() bool {
		log := w.s.Log()
		for _, p := range ports {
			ended := regexp.MustCompile(`(?m)^(Closing connection to|Connection closed by|Read error from remote host|Connection reset by|Disconnected from user \S+) 127\.0\.0\.1 port ` + p[1] + `\b`)
			if !ended.MatchString(log) {
				return false
			}
		}
		return true
	})
}

// A chain of MaxJumps, one of them added by the first hop's own
// ProxyJump in ~/.ssh/config, reaches the far side; one more is refused
// before anything is dialled.
func TestJumpChainUpToTheBound(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{})
	w.config(`Host j0 j1 j2 j3 j4
  HostName 127.0.0.1
  Port %PORT%
Host j1
  ProxyJump j0
`)
	l, err := w.d.Dial(context.Background(), w.host("-J j1,j2,j3"))
	if err != nil {
		t.Fatalf("dial via four jump hosts: %v", err)
	}
	if len(l.Where.Via) != MaxJumps || l.Where.Via[0].Host != "j0" || l.Where.Via[3].Host != "j3" {
		t.Fatalf("route: %s", l.Where.Route())
	}
	if err := l.Call("ping", nil, nil); err != nil {
		t.Fatalf("a call through four jump hosts: %v", err)
	}
	waitFor(t, 10*time.Second, "five logins", func() bool { return w.accepted() == MaxJumps+1 })
	l.Close()
	before := w.accepted()
	_, err = w.d.Dial(context.Background(), w.host("-J j1,j2,j3,j4"))
	var he *Error
	if !errors.As(err, &he) || he.Reason != ReasonSSHConfig || !strings.Contains(err.Error(), "over 4 jump hosts") {
		t.Fatalf("five jump hosts: %v", err)
	}
	if w.accepted() != before {
		t.Fatal("a refused route was dialled")
	}
}

// A jump host whose key is not in known_hosts is refused exactly as a
// host would be, and the error names the jump host, not the far one.
func TestJumpHostWithAnUnknownKeyIsRefusedNamingIt(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{})
	w.config(`Host jumpalias
  HostName 127.0.0.1
  Port %PORT%
  HostKeyAlias jumpalias-key
`)
	_, err := w.d.Dial(context.Background(), w.host("-J", "jumpalias"))
	var he *Error
	if !errors.As(err, &he) || he.Reason != ReasonHostKeyUnknown || he.Hop != "jumpalias" || he.Host != "far" {
		t.Fatalf("unknown jump host key: %#v", err)
	}
	if !strings.Contains(err.Error(), "host far: jump host jumpalias: host key") || !strings.Contains(err.Error(), "jumpalias-key") {
		t.Fatalf("message: %v", err)
	}
	if !strings.Contains(he.Hint(), fmt.Sprintf("ssh -p %d root@127.0.0.1 true", w.s.Port)) {
		t.Fatalf("hint: %s", he.Hint())
	}
	if w.accepted() != 0 {
		t.Fatal("logged in past an unknown jump host key")
	}

	// The far host's key behind a known jump host: refused naming the
	// host, and the hint says to accept it through the jump host.
	w.config(`Host jumpalias
  HostName 127.0.0.1
  Port %PORT%
`)
	_, err = w.d.Dial(context.Background(), w.host("-J", "jumpalias", "-o", "HostKeyAlias=far-key"))
	if !errors.As(err, &he) || he.Reason != ReasonHostKeyUnknown || he.Hop != "" || he.Host != "far" || !strings.Contains(he.Hint(), "ssh -J jumpalias -p") {
		t.Fatalf("unknown far key behind a jump host: %v (hint %q)", err, he.Hint())
	}
}

// A jump host that will not forward is named, with what to check.
func TestJumpHostThatRefusesForwarding(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{NoTCPForwarding: true})
	w.config(`Host jumpalias
  HostName 127.0.0.1
  Port %PORT%
`)
	_, err := w.d.Dial(context.Background(), w.host("-J jumpalias"))
	var he *Error
	if !errors.As(err, &he) || he.Hop != "jumpalias" || he.Reason != ReasonConnect || !strings.Contains(he.Hint(), "AllowTcpForwarding") {
		t.Fatalf("forwarding refused: %v", err)
	}
}

// A ProxyJump that is a command, or that starts with '-', is refused
// wherever it is written, and nothing runs and nothing is dialled.
func TestJumpValueThatIsACommandNeverRuns(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{})
	marker := filepath.Join(t.TempDir(), "ran")
	cmds := []string{
		"$(touch " + marker + ")", "`touch " + marker + "`", "j;touch " + marker, "j|touch " + marker,
		"-oProxyCommand=touch " + marker, "-J", "ssh://x/$(touch " + marker + ")",
	}
	for _, c := range cmds {
		for _, opts := range [][]string{{"-J", c}, {"-o", "ProxyJump=" + c}, {"-J " + c}} {
			_, err := w.d.Dial(context.Background(), w.host(opts...))
			var he *Error
			if !errors.As(err, &he) || he.Reason != ReasonOptionRefused {
				t.Errorf("ssh_options %q: %v", opts, err)
			}
		}
		w.config("Host 127.0.0.1\n  ProxyJump " + c + "\n")
		_, err := w.d.Dial(context.Background(), w.host())
		var he *Error
		if !errors.As(err, &he) || he.Reason != ReasonSSHConfig || he.Code() != CodeHostRefused {
			t.Errorf("~/.ssh/config ProxyJump %q: %v", c, err)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a ProxyJump value ran a command")
	}
	if n := w.accepted(); n != 0 || strings.Count(w.s.Log(), "Connection from") > 1 { // 1: testsshd's own probe
		t.Fatalf("a refused ProxyJump was dialled (%d logins)", n)
	}
}

// The link ends when any machine on the route goes: the jump host's
// connection dropping ends it and Err names the jump host; a route that
// hangs is noticed by the keepalives, which travel through every hop.
func TestJumpLinkEndsWithItsRoute(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{})
	w.config(`Host jumpalias
  HostName 127.0.0.1
  Port %PORT%
`)
	l, err := w.d.Dial(context.Background(), w.host("-J jumpalias"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.hops[0].Close() // as if the jump host's connection dropped
	select {
	case <-l.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the link outlived its jump host")
	}
	// Which end is noticed first (the jump host's connection, the far
	// one riding it, or the far command's channel) is a race; any says
	// the link is down.
	if l.Err() == nil {
		t.Fatal("no Err after Done")
	}

	l, err = w.d.Dial(context.Background(), w.host("-J jumpalias", "-o ServerAliveInterval=1", "-o ServerAliveCountMax=2"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	w.s.Freeze()
	defer w.s.Thaw()
	select {
	case <-l.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("a hung route was not noticed")
	}
	if err := l.Err(); err == nil || !strings.Contains(err.Error(), "keepalives") {
		t.Fatalf("Err: %v", err)
	}
}

// A jump host written as an IPv6 literal in brackets, [::1]:PORT, is
// dialled there: two logins, the second from ::1 through the first.
func TestJumpThroughAnIPv6Literal(t *testing.T) {
	w := newJumpWorld(t, testsshd.Options{IPv6: true})
	l, err := w.d.Dial(context.Background(), w.host(fmt.Sprintf("-J root@[::1]:%d", w.s.Port)))
	if err != nil {
		t.Fatalf("dial via [::1]: %v", err)
	}
	defer l.Close()
	if err := l.Call("ping", nil, nil); err != nil {
		t.Fatalf("a call through the jump host: %v", err)
	}
	if got, want := l.Where.Route(), fmt.Sprintf("via [::1] (root@::1 port %d)", w.s.Port); got != want {
		t.Fatalf("route %q, want %q", got, want)
	}
	waitFor(t, 10*time.Second, "a login from ::1", func() bool { return strings.Contains(w.s.Log(), "Accepted publickey for root from ::1") })
}
