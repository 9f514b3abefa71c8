package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/testsshd"
)

// linkWorld is two machines on one: a real sshd on loopback, a far
// daemon (its own runtime dir) reached through it by the real `tuios
// stdio-proxy`, and a near daemon whose HOME holds the ssh key and
// known_hosts and whose config file names the far one.
type linkWorld struct {
	t      testing.TB
	sshd   *testsshd.Server
	bin    string
	farRun string // the far daemon's XDG_RUNTIME_DIR
	far    *Server
	home   string // the near daemon's HOME
	near   *Server
	sock   string // the near daemon's socket
}

// newLinkWorld starts sshd and the far daemon, and writes the near
// daemon's HOME; startNear then starts the near daemon with a config
// file. The far side runs the tuios the test process built once
// (e2e.Binary), through a link of the world's own: linking it again for
// every world cost seconds of CPU each.
func newLinkWorld(t testing.TB, opt testsshd.Options) *linkWorld {
	t.Helper()
	testsshd.Skip(t)
	w := &linkWorld{t: t, sshd: testsshd.Start(t, opt)}
	// Under a name of this world's own, so the far processes it starts
	// are told from other worlds' (farProxies).
	w.bin = filepath.Join(t.TempDir(), "tuios")
	if err := os.Symlink(e2e.Binary(t), w.bin); err != nil {
		t.Fatal(err)
	}
	w.farRun = t.TempDir()
	w.startFar()
	w.home = w.sshd.ClientHome(t.TempDir())
	return w
}

// startFar starts (or starts again) the far daemon on its socket.
func (w *linkWorld) startFar() {
	w.t.Helper()
	w.far, _ = serverWith(w.t, func(o *Options) {
		o.Socket = filepath.Join(w.farRun, "tuios", "tuios.sock")
		data := filepath.Join(w.farRun, "data") // its worktrees (internal/daemon/fan/make.go)
		o.Getenv = func(k string) string {
			if k == "XDG_DATA_HOME" {
				return data
			}
			return os.Getenv(k)
		}
	})
}

// farCommand runs the far tuios with the far runtime dir: sshd gives it
// to root's login shell, followed by " stdio-proxy".
func (w *linkWorld) farCommand() string {
	return "env XDG_RUNTIME_DIR=" + w.farRun + " " + w.bin
}

// hostTable is a [hosts.NAME] table that reaches the far daemon.
func (w *linkWorld) hostTable(name string, extra ...string) string {
	opts := append(w.sshd.SSHOptions(), extra...)
	q := make([]string, len(opts))
	for i, o := range opts {
		q[i] = fmt.Sprintf("%q", o)
	}
	return fmt.Sprintf("[hosts.%s]\naddr = %q\ncommand = %q\nconnect_timeout = 5\nssh_options = [%s]\n", name, w.sshd.Addr(), w.farCommand(), strings.Join(q, ", "))
}

// writeConfig writes the near daemon's config.toml.
func (w *linkWorld) writeConfig(body string) string {
	w.t.Helper()
	p := filepath.Join(w.home, ".config", "tuios", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// startNear starts the near daemon with config body.
func (w *linkWorld) startNear(body string, set func(*Options)) {
	w.t.Helper()
	p := w.writeConfig(body)
	f, err := config.Load(p)
	if err != nil {
		w.t.Fatal(err)
	}
	env := map[string]string{"HOME": w.home, "USER": "root", "PATH": "/usr/bin:/bin"}
	w.near, w.sock = serverWith(w.t, func(o *Options) {
		o.Config = f
		o.Getenv = func(k string) string { return env[k] }
		o.Logf = w.t.Logf
		if set != nil {
			set(o)
		}
	})
}

// hostRows is list-hosts by name.
func hostRows(t testing.TB, r *rpc) map[string]map[string]any {
	t.Helper()
	res := r.must("list-hosts", nil)
	if res["type"] != "host_list" || res["events_push"] != true {
		t.Fatalf("list-hosts: %v", res)
	}
	out := map[string]map[string]any{}
	for _, h := range res["hosts"].([]any) {
		row := h.(map[string]any)
		out[str(row["name"])] = row
	}
	return out
}

// waitStatus waits until list-hosts shows host in one of the states.
func waitStatus(t testing.TB, r *rpc, host string, states ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		row := hostRows(t, r)[host]
		for _, s := range states {
			if row != nil && row["status"] == s {
				return row
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("host %s never in %v; last row %v", host, states, row)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// events is a subscription to the near daemon's host-changed events.
type events struct {
	t  testing.TB
	c  net.Conn
	r  *bufio.Reader
	ch chan event
}

func subscribeHosts(t testing.TB, sock string) *events {
	t.Helper()
	r := dialRPC(t, sock)
	r.must("subscribe", map[string]any{"types": []string{"host-changed"}})
	e := &events{t: t, c: r.c, r: r.r, ch: make(chan event, 256)}
	go func() {
		defer close(e.ch)
		for {
			line, err := proto.ReadLine(e.r, proto.MaxLine)
			if err != nil {
				return
			}
			var ev event
			if json.Unmarshal(line, &ev) == nil {
				e.ch <- ev
			}
		}
	}()
	return e
}

// waitFor reads events until host is in status, failing after the guard.
func (e *events) waitFor(host, status string) {
	e.t.Helper()
	timeout := time.After(guard)
	for {
		select {
		case ev, ok := <-e.ch:
			if !ok {
				e.t.Fatalf("the event stream ended before host-changed %s %s", host, status)
			}
			if ev.Type == "host-changed" && ev.Host == host && ev.Status == status {
				return
			}
		case <-timeout:
			e.t.Fatalf("no host-changed {%s %s}", host, status)
		}
	}
}
