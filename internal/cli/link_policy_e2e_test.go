package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/hosts"
)

// A name pinned by authorized_keys (command="tuios stdio-proxy --as
// lab",restrict) is what the far daemon sees, whatever the dialler claims:
// lab's policy applies and mail arrives from lab.
func TestLinkPeerPinnedByAuthorizedKeysOverRealSSHD(t *testing.T) {
	t.Parallel()
	w := startSSHD(t)
	ak := w.srv.AuthorizedKeys()
	key, err := os.ReadFile(ak)
	must(t, err)
	forced := fmt.Sprintf(`command="%s stdio-proxy --as lab",restrict `, w.farCommand())
	must(t, os.WriteFile(ak, append([]byte(forced), key...), 0o600))

	// The far machine lets lab only mail; mallory (what the dialler
	// claims) could do anything.
	cfg := filepath.Join(w.far.dir, "home", ".config", "tuios", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(cfg), 0o700))
	must(t, os.WriteFile(cfg, []byte("[hosts.lab]\nallow = [\"mail\"]\nhold_mail = true\n\n[hosts.mallory]\nallow = [\"list\", \"mail\", \"open\", \"write\", \"respond\"]\n"), 0o600))
	w.far.ok("new", "--detach", "api")
	w.far.ok("new-window", "-s", "api", "worker")

	d := &hosts.Dialer{Home: filepath.Join(w.near.dir, "home"), Getenv: func(string) string { return "" }, Peer: "mallory"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The command asked for is not what runs: sshd runs the forced one.
	l, err := d.Dial(ctx, hosts.Host{Name: "far", Addr: "root@127.0.0.1", SSHOptions: []string{fmt.Sprintf("-p %d", w.port)},
		Command: "/nonexistent/tuios", ConnectTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer l.Close()
	if !l.Hello.LinkPeer {
		t.Fatalf("hello %+v", l.Hello)
	}

	var peer map[string]any
	must(t, l.Call("link-peer", map[string]any{"peer": "mallory", "pinned": true}, &peer))
	if peer["peer"] != "lab" || peer["pinned"] != true {
		t.Fatalf("link-peer: %v", peer)
	}
	// lab may not list: refused naming lab's table, not mallory's.
	err = l.Call("list-sessions", map[string]any{}, nil)
	if err == nil || !strings.Contains(err.Error(), "forbidden") || !strings.Contains(err.Error(), "lab") {
		t.Fatalf("list over the pinned link: %v", err)
	}
	// lab may mail: it arrives from lab.
	var sent map[string]any
	must(t, l.Call("send-agent-message", map[string]any{"session": "api", "to": "human", "from": "mallory", "text": "hello from far"}, &sent))
	if sent["origin_host"] != "lab" || sent["from_label"] != "mallory" {
		t.Fatalf("sent: %v", sent)
	}
	var read struct {
		Messages []struct {
			Origin     string `json:"origin"`
			OriginHost string `json:"origin_host"`
			Text       string `json:"text"`
		} `json:"messages"`
	}
	w.far.json(&read, "read-agent-messages", "-s", "api", "-w", "human")
	if len(read.Messages) != 1 || read.Messages[0].Origin != "link" || read.Messages[0].OriginHost != "lab" {
		t.Fatalf("far read: %+v", read)
	}

	// hold_mail for lab: mail to worker waits with the person there.
	must(t, l.Call("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "please retest"}, &sent))
	if sent["held"] != true || sent["held_for_label"] != "worker" || sent["to"] != "human" {
		t.Fatalf("held: %v", sent)
	}
	id := fmt.Sprint(int(sent["message_id"].(float64)))
	// Only the person passes it on: a script there gets not_human.
	r := w.far.run("release-agent-message", id, "-s", "api")
	if r.code != 1 || !strings.Contains(r.err, "not_human") {
		t.Fatalf("release from a script: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	// Nor can lab release it: respond is not in its allow.
	err = l.Call("release-agent-message", map[string]any{"session": "api", "id": sent["message_id"]}, nil)
	if err == nil || !strings.Contains(err.Error(), "forbidden") || !strings.Contains(err.Error(), "respond") {
		t.Fatalf("release over the link: %v", err)
	}
}

// stdio-proxy --as with a name no host could have: refused before any
// byte is bridged, with a clear error.
func TestStdioProxyAsRefusedName(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("ls") // a daemon
	r := e.runIn("", "stdio-proxy", "--as", "bad name")
	if r.code == 0 || !strings.Contains(r.err, "refused the link") || r.out != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.out, r.err)
	}
	// A good name: the proxy's own answer is not passed on; the first
	// line out answers the first line in.
	r = e.runIn(`{"id":7,"verb":"hello","params":{}}`+"\n", "stdio-proxy", "--as", "lab")
	if r.code != 0 || !strings.HasPrefix(r.out, `{"id":7,`) || strings.Count(r.out, "\n") != 1 {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.out, r.err)
	}
}

// Without a pinned command the dialler names itself: the far daemon takes
// its word (so that name is no boundary), and applies that name's policy.
func TestLinkPeerUnpinnedTakesTheDiallersClaimOverRealSSHD(t *testing.T) {
	t.Parallel()
	w := startSSHD(t)
	cfg := filepath.Join(w.far.dir, "home", ".config", "tuios", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(cfg), 0o700))
	must(t, os.WriteFile(cfg, []byte("[hosts.\"*\"]\nallow = []\n\n[hosts.mallory]\nallow = [\"mail\"]\n"), 0o600))
	w.far.ok("new", "--detach", "api")
	d := &hosts.Dialer{Home: filepath.Join(w.near.dir, "home"), Getenv: func(string) string { return "" }, Peer: "mallory"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := d.Dial(ctx, hosts.Host{Name: "far", Addr: "root@127.0.0.1", SSHOptions: []string{fmt.Sprintf("-p %d", w.port)},
		Command: w.farCommand(), ConnectTimeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer l.Close()
	var sent map[string]any
	must(t, l.Call("send-agent-message", map[string]any{"session": "api", "to": "human", "text": "hi"}, &sent))
	if sent["origin_host"] != "mallory" {
		t.Fatalf("sent: %v", sent)
	}
	// A second claim changes nothing; list is still refused by name.
	var peer map[string]any
	must(t, l.Call("link-peer", map[string]any{"peer": "lab", "pinned": true}, &peer))
	if peer["peer"] != "mallory" || peer["pinned"] != false {
		t.Fatalf("link-peer: %v", peer)
	}
	if err := l.Call("list-sessions", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), "hosts.mallory") {
		t.Fatalf("list: %v", err)
	}
}
