package cli_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// X5 from the command line: mail to a host whose link is down is queued,
// tuios outbox and tuios hosts show it, and it is still there after the
// daemon restarts.
func TestOutboxCommandShowsMailWaitingForADownHost(t *testing.T) {
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
	out := e.ok("send-agent-message", "-s", "build:api", "-w", "worker", "--from", "lead", "rebased, please retest")
	if !strings.Contains(out, "Queued for host build") {
		t.Fatalf("send while down: %q", out)
	}
	var res map[string]any
	e.json(&res, "send-agent-message", "-s", "build:api", "-w", "worker", "--subject", "flaky \x1b[31mtest", "and the flaky one")
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
