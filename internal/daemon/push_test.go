package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/notify"
	"github.com/tuios/tuios/internal/push"
)

// hookSink is a webhook receiver over plain http on 127.0.0.1: the
// daemon's wiring is what these tests look at (the wire formats, TLS and
// the redirect rules are internal/push's and internal/cli's tests).
type hookSink struct {
	*httptest.Server
	mu  sync.Mutex
	got []map[string]any
}

func newHookSink(t *testing.T) *hookSink {
	h := &hookSink{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		h.mu.Lock()
		h.got = append(h.got, body)
		h.mu.Unlock()
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hookSink) titles() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, b := range h.got {
		out = append(out, fmt.Sprint(b["title"]))
	}
	return out
}

// pushDaemon runs a daemon whose config file (followed while it runs)
// holds conf, its log kept.
type pushDaemon struct {
	srv  *Server
	r    *rpc
	path string
	mu   sync.Mutex
	log  []string
}

func newPushDaemon(t *testing.T, conf string) *pushDaemon {
	t.Helper()
	dir, err := os.MkdirTemp("", "tpush")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d := &pushDaemon{path: path}
	sock := filepath.Join(dir, "run", "tuios.sock")
	os.MkdirAll(filepath.Dir(sock), 0o700)
	d.srv, err = New(Options{Socket: sock, Shell: "/bin/sh", StateDir: "-", Config: cfg,
		Env:     []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "PS1=$ ", "ENV="},
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: dir},
		Logf: func(f string, a ...any) {
			d.mu.Lock()
			d.log = append(d.log, fmt.Sprintf(f, a...))
			d.mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go d.srv.Serve(context.Background())
	t.Cleanup(func() { d.srv.Close() })
	d.r = dialRPC(t, sock)
	return d
}

// notifier is the daemon's push Notifier (internal/daemon/notify).
func (d *pushDaemon) notifier() *push.Notifier { return d.srv.push.(*notify.Feature).Notifier() }

func (d *pushDaemon) logged(s string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, l := range d.log {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// ask puts a shell pane on needs_input: an approval item opens.
func (d *pushDaemon) ask(t *testing.T, r *rpc, name string) {
	t.Helper()
	if _, err := r.call("session-info", map[string]any{"session": "api"}); err != nil {
		r.must("new-session", map[string]any{"name": "api", "window_name": name})
	} else {
		r.must("new-window", map[string]any{"session": "api", "name": name})
	}
	r.must("set-agent-state", map[string]any{"session": "api", "window": name, "state": "needs_input", "kind": "approval",
		"message": "Bash: make " + name, "harness": "claude-code"})
}

// Typing through send-text holds pushes only when it comes from an
// attached client's process: a script outside every pane is not the
// person at a client.
func TestPushHeldOnlyByAnAttachedClientsTyping(t *testing.T) {
	t.Parallel()
	hook := newHookSink(t)
	d := newPushDaemon(t, fmt.Sprintf("[notify]\nquiet_active_seconds = 3600\ncooldown_seconds = 0\n[notify.webhook]\nurl = %q\n", hook.URL+"/h"))
	d.ask(t, d.r, "one")
	d.r.must("send-text", map[string]any{"session": "api", "window": "one", "text": "x"}) // a script, no client attached
	eventually(t, "the first push", func() bool { return len(hook.titles()) == 1 })
	if got := hook.titles()[0]; got != "Approval needed: one (api)" {
		t.Fatalf("pushed %q", got)
	}

	person := personRPC(t, d.srv.Socket())
	person.must("send-text", map[string]any{"session": "api", "window": "one", "text": "y"})
	typed := time.Now()
	d.ask(t, d.r, "two")
	eventually(t, "the item waits", func() bool { return d.notifier().Waiting() == 1 })
	if at := d.notifier().NextSend(); at.Before(typed.Add(59 * time.Minute)) {
		t.Fatalf("the push is due at %v, %v after the person's key: not held for quiet_active_seconds", at, at.Sub(typed))
	}
	if n := len(hook.titles()); n != 1 {
		t.Fatalf("%d pushes", n)
	}
}

// An edit of the file while the daemon runs: turning pushes off applies
// at once; a new address waits for apply-config, named with every other
// change that waits (the log, pane-grants, so the settings page's Add a
// host applies nothing a pane wrote); apply-config (from outside every
// pane) applies it.
func TestPushFileEditsNarrowAtOnce(t *testing.T) {
	t.Parallel()
	hook, other := newHookSink(t), newHookSink(t)
	conf := func(url, extra string) string {
		return fmt.Sprintf("[notify]\ncooldown_seconds = 0\n%s\n[notify.webhook]\nurl = %q\n", extra, url+"/h")
	}
	d := newPushDaemon(t, conf(hook.URL, ""))
	write := func(s string) {
		t.Helper()
		tmp := d.path + ".new"
		os.WriteFile(tmp, []byte(s), 0o600)
		if err := os.Rename(tmp, d.path); err != nil {
			t.Fatal(err)
		}
	}
	write(conf(other.URL, ""))
	eventually(t, "the log says the address waits", func() bool {
		return d.logged("waits for tuios config apply (from a terminal outside TUIOS): [notify.webhook] (a new address or secret source)")
	})
	if pending := fmt.Sprint(d.r.must("pane-grants", map[string]any{})["pending"]); !strings.Contains(pending, "[notify.webhook]") {
		t.Fatalf("pane-grants does not name the waiting address: %s", pending)
	}
	d.ask(t, d.r, "one")
	eventually(t, "the applied address gets the push", func() bool { return len(hook.titles()) == 1 })

	write(conf(other.URL, "enabled = false"))
	eventually(t, "turned off at once", func() bool { return !d.notifier().Settings().Enabled })
	if d.notifier().Settings().Webhook.URL != hook.URL+"/h" {
		t.Fatal("the new address applied with the edit that turned pushes off")
	}

	write(conf(other.URL, ""))
	res := d.r.must("apply-config", map[string]any{})
	notify := fmt.Sprint(res["notify"])
	if !strings.Contains(notify, "notify: turned on") || !strings.Contains(notify, "notify: webhook ("+strings.TrimPrefix(other.URL, "http://")+") changed") {
		t.Fatalf("apply-config: %v", res)
	}
	if pending := d.r.must("pane-grants", map[string]any{})["pending"]; pending != nil {
		t.Fatalf("still waiting after apply-config: %v", pending)
	}
	d.ask(t, d.r, "two")
	eventually(t, "the new address gets the next push", func() bool { return len(other.titles()) == 1 })
	if n := len(hook.titles()); n != 1 {
		t.Fatalf("the old address got %d", n)
	}
}
