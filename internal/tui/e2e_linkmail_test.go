package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/client"
)

// holdMailConfig is a config whose hosts table holds build's mail for
// the person (hold_mail) and names a build whose link cannot come up
// (nothing listens at that address), so mail to it waits in the outbox.
func holdMailConfig(t *testing.T, w *world) {
	t.Helper()
	dir := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(dir, 0o700)
	conf := "[hosts.build]\naddr = \"nobody@127.0.0.1\"\nssh_options = [\"-p\", \"1\"]\nconnect_timeout = 1\nhold_mail = true\n"
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
}

// linkAs dials this world's daemon as another machine's link: the
// link-peer line first, as a hub's stdio-proxy sends it.
func linkAs(t *testing.T, w *world, peer string) *client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{Socket: filepath.Join(w.dir, "run", "tuios", "tuios.sock")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var res map[string]any
	if err := c.Call("link-peer", map[string]any{"peer": peer}, &res); err != nil || res["type"] != "link_peer" {
		t.Fatalf("link-peer: %v %v", res, err)
	}
	return c
}

// X8 in a real terminal: build mails api's worker; the mail is held for
// the person, whose Inbox row says "[held for worker, p passes on]"; p
// passes it on, the row closes, and the worker's inbox has it with
// released_from.
func TestAttachInboxReleasesHeldLinkMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	holdMailConfig(t, w)
	w.ok("new", "--detach", "api")
	w.ok("new-window", "-s", "api", "worker", "--no-focus")
	w.start("c", w.bin+" attach -t api")
	w.waitFor("c", `1:worker`)

	var sent map[string]any
	if err := linkAs(t, w, "build").Call("send-agent-message",
		map[string]any{"session": "api", "to": "worker", "from": "lead", "subject": "retest please", "text": "rebased"}, &sent); err != nil {
		t.Fatal(err)
	}
	if sent["held"] != true || sent["to"] != "human" {
		t.Fatalf("not held: %v", sent)
	}

	w.keys("c", "C-b", "i")
	w.waitFor("c", `Mail \(1\)`)
	w.waitFor("c", `retest please  \[held for worker, p passes on\]`)
	w.waitFor("c", `p pass on`)
	w.steady("c", 600*time.Millisecond) // the dwell: p acts 0.4 s after the row stood still
	w.keys("c", "p")
	w.waitFor("c", `Passed the mail from lead via build on to worker`)
	w.waitFor("c", `Nothing waits for you\.`)

	out := w.ok("read-agent-messages", "-s", "api", "-w", "worker", "--json")
	if !strings.Contains(out, `"released_from"`) || !strings.Contains(out, "rebased") || !strings.Contains(out, `"origin_host": "build"`) &&
		!strings.Contains(out, `"origin_host":"build"`) {
		t.Fatalf("the worker's inbox:\n%s", out)
	}
}

// X5 in a real terminal: mail for build, whose link is down, waits; the
// Inbox lists it under "Waiting to send" and the rail's header for build
// says "1 queued"; prefix o does not go to it.
func TestAttachOutboxWaitingToSend(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	holdMailConfig(t, w)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)

	out := w.ok("send-agent-message", "-s", "build:api", "-w", "worker", "--queue", "--json", "x")
	if !strings.Contains(out, "agent_message_queued") {
		t.Fatalf("not queued:\n%s", out)
	}
	// Beside the header, or under it once the header says "never seen".
	w.waitFor("c", `(?m)^ +build.*\n? +1 queued +│`)
	w.keys("c", "C-b", "o")
	w.waitFor("c", `nothing needs you`)
	w.keys("c", "C-b", "i")
	w.waitFor("c", `Waiting to send \(1\)`)
	w.waitFor("c", `build  1 message waits for the link to build`)
	w.keys("c", "q") // closed, the rail still counts it
	w.waitFor("c", `1 queued +│`)
}
