package cli_test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// X5 from the command line: mail to a host whose link is down is queued
// when the sender asks for it (--queue), tuios outbox and tuios hosts show
// it, and it is still there after the daemon restarts.
func TestOutboxCommandShowsMailWaitingForADownHost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there: the link cannot come up
	cfg := filepath.Join(e.dir, "home", ".config", "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	body := fmt.Sprintf("[hosts.build]\naddr = \"127.0.0.1\"\nssh_options = [\"-p\", \"%d\"]\nconnect_timeout = 2\n", port)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out := e.ok("send-agent-message", "-s", "build:api", "-w", "worker", "--from", "lead", "--queue", "rebased, please retest")
	if !strings.Contains(out, "Queued for host build (--queue): the link is down (tuios hosts says why)") || !strings.Contains(out, "tuios outbox lists it") {
		t.Fatalf("send while down: %q", out)
	}
	var res map[string]any
	e.json(&res, "send-agent-message", "-s", "build:api", "-w", "worker", "--subject", "flaky \x1b[31mtest", "--queue", "and the flaky one")
	if res["type"] != "agent_message_queued" || res["queued"] != true || res["waiting"] != float64(2) {
		t.Fatalf("queued JSON: %v", res)
	}
	out = e.ok("outbox")
	if !strings.Contains(out, "build (") || !strings.Contains(out, "2 waiting") || !strings.Contains(out, "api:worker") ||
		!strings.Contains(out, "rebased, please retest") || strings.Contains(out, "\x1b") {
		t.Fatalf("tuios outbox:\n%s", out)
	}
	var lst struct {
		Waiting int `json:"waiting"`
		Hosts   []struct {
			Host     string `json:"host"`
			Messages []struct {
				Text string `json:"text"`
			} `json:"messages"`
		} `json:"hosts"`
	}
	e.json(&lst, "outbox")
	if lst.Waiting != 2 || len(lst.Hosts) != 1 || lst.Hosts[0].Host != "build" || lst.Hosts[0].Messages[1].Text != "and the flaky one" {
		t.Fatalf("tuios outbox --json: %+v", lst)
	}
	// The daemon restarts: the mail is still waiting, in order.
	e.ok("kill-server")
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.json(&lst, "outbox")
		if lst.Waiting == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if lst.Waiting != 2 || lst.Hosts[0].Messages[0].Text != "rebased, please retest" {
		t.Fatalf("after a restart: %+v", lst)
	}
	if r := e.run("outbox", "extra"); r.code != 1 || !strings.Contains(r.err, "no arguments") {
		t.Fatalf("outbox with an argument: %+v", r)
	}
}

// What the skill's mail and hosts topics promise, over a real sshd: "A
// host that is not answering is host_unreachable, nothing is queued for
// it, and tuios hosts says why."
// Mail to a configured host whose address answers nothing, and to a host
// whose daemon stopped, exits 1 naming the reason; tuios outbox stays
// empty; --queue is the sender asking for the outbox.
func TestMailToAHostNotAnsweringIsUnreachableAndKeepsNothing(t *testing.T) {
	t.Parallel()
	w := linkedWorld(t)
	near := w.near
	r := near.run("send-agent-message", "-s", "down:api", "-w", "worker", "rebased, please retest")
	if r.code != 1 || !strings.Contains(r.err, "host_unreachable") || !strings.Contains(r.err, "host down is") || !strings.Contains(r.err, "tuios hosts") ||
		strings.Contains(r.out, "Queued") {
		t.Fatalf("mail to down: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	var js struct {
		Error struct {
			Code      string `json:"code"`
			Host      string `json:"host"`
			Untrusted bool   `json:"untrusted"`
		} `json:"error"`
	}
	r = near.run("send-agent-message", "-s", "down:api", "-w", "worker", "--json", "x")
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.err)), &js); err != nil || r.code != 1 || js.Error.Code != "host_unreachable" || js.Error.Host != "down" {
		t.Fatalf("--json: exit %d %v\n%s", r.code, err, r.err)
	}
	// The far daemon stops: the link to far is no longer answered either.
	w.far.ok("kill-server")
	deadline := time.Now().Add(45 * time.Second)
	for {
		r = near.run("send-agent-message", "-s", "far:api", "-w", "0", "while it is gone")
		if r.code != 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond) // the link has not seen the daemon go yet
	}
	if r.code != 1 || !strings.Contains(r.err, "host_unreachable") || !strings.Contains(r.err, "host far") || !strings.Contains(r.err, "tuios hosts") {
		t.Fatalf("mail to far without its daemon: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	// Nothing was kept, and tuios hosts says why each link is down.
	var lst struct {
		Waiting int `json:"waiting"`
	}
	near.json(&lst, "outbox")
	if lst.Waiting != 0 {
		t.Fatalf("kept without --queue: %+v", lst)
	}
	var hs struct {
		Hosts []struct{ Name, Status, Reason string } `json:"hosts"`
	}
	near.json(&hs, "hosts")
	for _, h := range hs.Hosts {
		if h.Name == "down" && (h.Status == "up" || h.Reason == "") {
			t.Fatalf("tuios hosts does not say why down is down: %+v", h)
		}
	}
	// --queue: the sender asked for the outbox.
	out := near.ok("send-agent-message", "-s", "down:api", "-w", "worker", "--queue", "wait for me")
	if !strings.Contains(out, "Queued for host down (--queue)") {
		t.Fatalf("--queue: %q", out)
	}
	near.json(&lst, "outbox")
	if lst.Waiting != 1 {
		t.Fatalf("--queue kept %d", lst.Waiting)
	}
	// --queue is for another machine's mail only.
	near.ok("new", "--detach", "here")
	if r := near.run("send-agent-message", "-s", "here", "--queue", "x"); r.code != 1 || !strings.Contains(r.err, "--queue") {
		t.Fatalf("--queue to a session here: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
}

// The sender limit, where a script reads it: --help and the skill's
// mail topic say 10 at once and 30 a minute, and the refusal's hint says
// in how many seconds to retry.
func TestSenderRateLimitIsDocumentedAndItsHintSaysWhenToRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, args := range [][]string{{"send-agent-message", "--help"}, {"--skill", "mail"}} {
		out := e.ok(args...)
		if !strings.Contains(out, "10 messages at once and 30 a minute") || !strings.Contains(out, "in how many seconds to retry") {
			t.Fatalf("%v does not state the sender limit:\n%s", args, out)
		}
	}
	help := e.ok("send-agent-message", "--help")
	for _, want := range []string{"--queue", "host_unreachable", "32 unread messages and 32 notices", "rate_limited"} {
		if !strings.Contains(help, want) {
			t.Fatalf("send-agent-message --help lacks %q:\n%s", want, help)
		}
	}
	e.ok("new", "--detach", "api")
	var r result
	for i := range 40 { // 10 at once; a slow machine refills one every 2 s
		r = e.run("send-agent-message", "-s", "api", "--from", "lead", fmt.Sprint("n", i))
		if r.code != 0 {
			break
		}
	}
	if r.code != 1 || !strings.Contains(r.err, "rate_limited") || !regexp.MustCompile(`retry in [12] s: a sender may send 10 messages at once and 30 a minute`).MatchString(r.err) {
		t.Fatalf("over the limit: exit %d\n%s", r.code, r.err)
	}
}
