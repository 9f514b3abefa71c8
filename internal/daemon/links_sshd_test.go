package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/testsshd"
)

// A host's link goes connecting → up, and a connection handed to it by
// open-host-connection is answered by the far daemon: its sessions, its
// agent state, its pane's screen. An unknown host is refused by name with
// the configured ones, never a guess.
func TestLinksOpenHostConnectionReachesTheFarDaemon(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	fr := dialRPC(t, w.far.Socket())
	fr.must("new-session", map[string]any{"name": "api", "argv": []string{"/bin/sh", "-c", "echo far-side-marker; exec cat"}})

	// Frozen sshd: the first dial hangs in the handshake, so connecting
	// is seen for sure, then thawed.
	w.sshd.Freeze()
	w.startNear(w.hostTable("far"), nil)
	r := dialRPC(t, w.sock)
	row := hostRows(t, r)["far"]
	if row["status"] != "connecting" || row["addr"] != "root@127.0.0.1" || row["since"] == "" {
		t.Fatalf("before the first dial ends: %v", row)
	}
	ev := subscribeHosts(t, w.sock)
	w.sshd.Thaw()
	ev.waitFor("far", "up")
	row = waitStatus(t, r, "far", "up")
	if row["reason"] != nil || row["far"] == nil {
		t.Fatalf("up row: %v", row)
	}

	hc := dialRPC(t, w.sock)
	res := hc.must("open-host-connection", map[string]any{"host": "far"})
	if res["type"] != "host_connection" || res["host"] != "far" || res["status"] != "up" {
		t.Fatalf("open-host-connection: %v", res)
	}
	// The near daemon has no sessions; the answer is the far one's.
	ss := hc.must("list-sessions", nil)
	b, _ := json.Marshal(ss)
	if !strings.Contains(string(b), `"api"`) {
		t.Fatalf("list-sessions through the link: %s", b)
	}
	if local := r.must("list-sessions", nil); strings.Contains(str(local), "api") {
		t.Fatalf("the near daemon has the far session: %v", local)
	}
	if st := hc.must("get-agent-state", map[string]any{"session": "api"}); st["state"] == nil {
		t.Fatalf("get-agent-state through the link: %v", st)
	}
	eventually(t, "the far pane's screen through the link", func() bool {
		return strings.Contains(str(hc.must("capture-pane", map[string]any{"session": "api"})["content"]), "far-side-marker")
	})
	// The far daemon's own errors come back as they are.
	if _, err := hc.call("capture-pane", map[string]any{"session": "nope"}); err == nil || err.Code != proto.CodeSessionNotFound {
		t.Fatalf("far error: %v", err)
	}

	// Many calls at once, each on a channel of its own or a kept one.
	for i := 0; i < 6; i++ {
		var got struct {
			Sessions []struct {
				Name string `json:"name"`
			} `json:"sessions"`
		}
		if err := w.near.links.Call(context.Background(), "far", "list-sessions", nil, &got); err != nil || len(got.Sessions) != 1 || got.Sessions[0].Name != "api" {
			t.Fatalf("hostCall %d: %+v %v", i, got, err)
		}
	}
	// Concurrent calls share the link (the far sshd's 10 channels).
	errs := make(chan *proto.Error, 40)
	for g := 0; g < 6; g++ {
		go func() {
			for i := 0; i < 5; i++ {
				var st map[string]any
				err := w.near.links.Call(context.Background(), "far", "get-agent-state", map[string]any{"session": "api"}, &st)
				if err == nil && st["state"] == nil {
					err = proto.Errorf("test", "no state in %v", st)
				}
				errs <- err
			}
		}()
	}
	for i := 0; i < 30; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent hostCall: %v", err)
		}
	}
	if err := w.near.links.Call(context.Background(), "far", "capture-pane", map[string]any{"session": "nope"}, nil); err == nil || err.Code != proto.CodeSessionNotFound {
		t.Fatalf("hostCall far error: %v", err)
	}
	if st := w.near.links.Status("far"); st != "up" {
		t.Fatalf("hostStatus %q", st)
	}
	if st := w.near.links.Status("nope"); st != "" {
		t.Fatalf("hostStatus of an unknown host %q", st)
	}

	// Unknown hosts: refused by name, the configured ones listed, no
	// guess even for a near miss.
	for _, name := range []string{"nope", "fa", "FAR"} {
		_, err := r.call("open-host-connection", map[string]any{"host": name})
		if err == nil || err.Code != "unknown_host" || !strings.Contains(err.Message, "far") || err.Hint == nil ||
			!slices.Equal(err.Hint.Accepted, []string{"far"}) || err.Hint.DidYouMean != "" {
			t.Fatalf("%s: %+v %+v", name, err, err.Hint)
		}
	}
	if err := w.near.links.Call(context.Background(), "nope", "hello", nil, nil); err == nil || err.Code != "unknown_host" {
		t.Fatalf("hostCall unknown: %v", err)
	}
	// A connection that already streams cannot be handed over.
	sub := dialRPC(t, w.sock)
	sub.must("subscribe", nil)
	if _, err := sub.call("open-host-connection", map[string]any{"host": "far"}); err == nil || err.Code != proto.CodeInvalidRequest {
		t.Fatalf("open-host-connection after subscribe: %v", err)
	}
}

// The far daemon stops: the link is reconnecting, then no_daemon, and a
// request still waiting on it is answered host_unreachable; it starts
// again and the link is up. sshd goes away: unreachable, then up again.
// Every change is a host-changed event.
func TestLinksRedialAfterTheFarDaemonAndSSHDGoAway(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	w.startNear(w.hostTable("far"), nil)
	r := dialRPC(t, w.sock)
	ev := subscribeHosts(t, w.sock)
	waitStatus(t, r, "far", "up")

	hc := dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "far"})
	// A request the far daemon holds open (a wait that never ends).
	b, _ := json.Marshal(map[string]any{"id": 7, "verb": "wait-for", "params": map[string]any{"condition": "session-exists", "session": "never", "timeout": 3600000}})
	if _, err := hc.c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the wait forwarded", func() bool { return hostPending(w.near) == 1 })

	w.far.Close()
	ev.waitFor("far", "reconnecting")
	waitStatus(t, r, "far", "reconnecting", "no_daemon")
	row := waitStatus(t, r, "far", "no_daemon")
	if !strings.Contains(str(row["hint"]), "start one there") || row["attempts"] == nil || row["retry_at"] == nil {
		t.Fatalf("no_daemon row: %v", row)
	}
	ev.waitFor("far", "no_daemon")
	// The waiting request was answered (by this daemon when the link
	// dropped, or by the far daemon ending its waits as it stopped), and
	// the connection closed.
	hc.c.SetDeadline(time.Now().Add(guard))
	line, err := proto.ReadLine(hc.r, proto.MaxLine)
	if err != nil {
		t.Fatalf("no answer for the pending request: %v", err)
	}
	var resp struct {
		ID    json.RawMessage `json:"id"`
		Error *proto.Error    `json:"error"`
	}
	json.Unmarshal(line, &resp)
	dropped := resp.Error != nil && resp.Error.Code == "host_unreachable" && strings.Contains(resp.Error.Message, "link dropped")
	farEnded := resp.Error != nil && resp.Error.Code == proto.CodeTimeout && strings.Contains(resp.Error.Message, "ended before its timeout")
	if string(resp.ID) != "7" || !dropped && !farEnded {
		t.Fatalf("pending answer: %s", line)
	}
	if _, err := proto.ReadLine(hc.r, proto.MaxLine); err == nil {
		t.Fatal("the host connection stayed open after its link dropped")
	}
	// While it is down, a call says why.
	if _, err := r.call("open-host-connection", map[string]any{"host": "far"}); err == nil || err.Code != "host_unreachable" || !strings.Contains(err.Message, "no_daemon") ||
		err.Hint == nil || err.Hint.Command != "tuios hosts" {
		t.Fatalf("while down: %+v", err)
	}

	w.startFar()
	ev.waitFor("far", "up")
	waitStatus(t, r, "far", "up")

	w.sshd.Stop()
	ev.waitFor("far", "reconnecting")
	row = waitStatus(t, r, "far", "unreachable")
	if row["reason_code"] != "connect" || !strings.Contains(str(row["reason"]), "connecting to 127.0.0.1") {
		t.Fatalf("unreachable row: %v", row)
	}
	if err := w.near.links.Call(context.Background(), "far", "hello", nil, nil); err == nil || err.Code != "host_unreachable" {
		t.Fatalf("hostCall while unreachable: %v", err)
	}
	w.sshd.Restart()
	ev.waitFor("far", "up")
	hc = dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "far"})
	hc.must("list-sessions", nil)
}

// A peer that stops answering (its sshd frozen, TCP still open) is
// noticed by the keepalives, and the near daemon answers everything else
// meanwhile.
func TestLinksKeepalivesNoticeAHungPeer(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	w.startNear(strings.Replace(w.hostTable("far", "-o ServerAliveInterval=1", "-o ServerAliveCountMax=2"), "connect_timeout = 5", "connect_timeout = 2", 1), nil)
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "far", "up")
	w.sshd.Freeze()
	row := waitStatus(t, r, "far", "reconnecting", "unreachable")
	if row["status"] == "reconnecting" && !strings.Contains(str(row["reason"]), "keepalives") {
		t.Fatalf("reconnecting row: %v", row)
	}
	r.must("new-session", map[string]any{"name": "local", "argv": []string{"/bin/cat"}})
	row = waitStatus(t, r, "far", "unreachable")
	if !strings.Contains(str(row["reason"]), "no answer") && !strings.Contains(str(row["reason"]), "handshake") {
		t.Fatalf("unreachable row: %v", row)
	}
	w.sshd.Thaw()
	waitStatus(t, r, "far", "up")
}

// Far sides that are not a tuios daemon: one that answers garbage, one
// that never answers, one that says hello and then garbage, one that says
// hello and then nothing. None of them hangs the near daemon, a host
// connection, or another connection.
func TestLinksFarSideThatAnswersGarbageOrNothing(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		writeExecutable(t, p, []byte("#!/bin/sh\n"+body), 0o755)
		return p
	}
	fake := func(after string) string {
		return `while IFS= read -r l; do
  case "$l" in
  *'"link-peer"'*) echo '{"id":0,"result":{"type":"link_peer"}}' ;;
  *'"hello"'*) echo '{"id":1,"result":{"type":"hello","protocol":1,"min_protocol":1}}' ;;
  *) ` + after + ` ;;
  esac
done
`
	}
	table := func(name, command string) string {
		return strings.Replace(strings.Replace(w.hostTable(name), w.farCommand(), command, 1), "connect_timeout = 5", "connect_timeout = 2", 1)
	}
	cfg := table("garbage", script("garbage.sh", "while read l; do printf 'HTTP/1.1 400 \\033[31mnope\\n'; done\n")) +
		table("silent", script("silent.sh", "exec cat >/dev/null\n")) +
		table("chatty", script("chatty.sh", fake(`printf '\033]0;pwned\007 not json\n'`))) +
		table("mute", script("mute.sh", fake(":")))
	w.startNear(cfg, nil)
	r := dialRPC(t, w.sock)
	// While the dials are under way, the daemon answers.
	r.must("new-session", map[string]any{"name": "local", "argv": []string{"/bin/cat"}})
	row := waitStatus(t, r, "garbage", "unreachable")
	if row["reason_code"] != "protocol" || !strings.Contains(str(row["reason"]), "not a response") {
		t.Fatalf("garbage: %v", row)
	}
	row = waitStatus(t, r, "silent", "unreachable")
	if !strings.Contains(str(row["reason"]), "no answer from the far tuios within 2s") {
		t.Fatalf("silent: %v", row)
	}
	waitStatus(t, r, "chatty", "up")
	waitStatus(t, r, "mute", "up")

	// hello then garbage: the request is answered host_unreachable and
	// the connection closed; the garbage never reaches the client.
	hc := dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "chatty"})
	_, err := hc.call("list-sessions", nil)
	if err == nil || err.Code != "host_unreachable" || !strings.Contains(err.Message, "not the protocol") {
		t.Fatalf("chatty: %+v", err)
	}
	if line, err := proto.ReadLine(hc.r, proto.MaxLine); err == nil {
		t.Fatalf("the connection went on after garbage: %q", line)
	}

	// hello then nothing: the client waits (its own timeout is its
	// business), everyone else is answered, a hostCall ends at its
	// deadline, and the near daemon stops cleanly.
	mc := dialRPC(t, w.sock)
	mc.must("open-host-connection", map[string]any{"host": "mute"})
	b, _ := json.Marshal(map[string]any{"id": 1, "verb": "list-sessions"})
	mc.c.Write(append(b, '\n'))
	r.must("list-hosts", nil)
	r.must("list-sessions", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := w.near.links.Call(ctx, "mute", "list-sessions", nil, nil); err == nil || err.Code != "host_unreachable" || !strings.Contains(err.Message, "in time") {
		t.Fatalf("hostCall to a mute far: %v", err)
	}
	if err := w.near.links.Call(context.Background(), "chatty", "list-sessions", nil, nil); err == nil || err.Code != "host_unreachable" {
		t.Fatalf("hostCall to a chatty far: %v", err)
	}
	done := make(chan struct{})
	go func() { w.near.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(guard):
		t.Fatal("the near daemon did not stop with a mute host connection open")
	}
}

// apply-config adds a host (dialled at once), refuses one with an option
// that runs a command, and removes one: its link and its host
// connections close at once.
func TestLinksApplyConfigAddsAndRemovesHosts(t *testing.T) {
	t.Parallel() // its far processes are told apart by its world's own binary name (farProxies)
	w := newLinkWorld(t, testsshd.Options{})
	w.startNear("", nil)
	r := dialRPC(t, w.sock)
	if rows := hostRows(t, r); len(rows) != 0 {
		t.Fatalf("no hosts yet: %v", rows)
	}
	ev := subscribeHosts(t, w.sock)
	w.writeConfig(w.hostTable("far") + "[hosts.evil]\naddr = \"127.0.0.1\"\nssh_options = [\"-o ProxyCommand=touch /tmp/pwned-by-links\"]\n")
	res := r.must("apply-config", map[string]any{})
	b, _ := json.Marshal(res)
	if res["type"] != "config_applied" || !strings.Contains(string(b), `"added":["far"]`) || !strings.Contains(string(b), `"host":"evil"`) {
		t.Fatalf("apply-config: %s", b)
	}
	ev.waitFor("far", "connecting")
	ev.waitFor("far", "up")
	rows := hostRows(t, r)
	if rows["evil"]["refused"] != true || !strings.Contains(str(rows["evil"]["reason"]), "runs a command") || rows["evil"]["status"] != "unreachable" {
		t.Fatalf("evil: %v", rows["evil"])
	}
	if _, err := r.call("open-host-connection", map[string]any{"host": "evil"}); err == nil || err.Code != "host_unreachable" || !strings.Contains(err.Message, "never dialled") {
		t.Fatalf("evil: %+v", err)
	}
	hc := dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "far"})
	hc.must("list-sessions", nil)
	if n := len(farProxies(w.bin)); n < 2 {
		t.Fatalf("%d far stdio-proxies for the link's first channel and a host connection", n)
	}

	// The same file again changes nothing: the link stays.
	res = r.must("apply-config", map[string]any{})
	if len(res["added"].([]any))+len(res["changed"].([]any))+len(res["removed"].([]any)) != 0 {
		t.Fatalf("apply again: %v", res)
	}
	hc.must("list-sessions", nil)

	w.writeConfig("")
	res = r.must("apply-config", map[string]any{})
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"removed":["far"]`) {
		t.Fatalf("remove: %s", b)
	}
	ev.waitFor("far", "removed")
	if _, err := proto.ReadLine(hc.r, proto.MaxLine); err == nil {
		t.Fatal("the host connection stayed open after its host was removed")
	}
	if rows := hostRows(t, r); len(rows) != 0 {
		t.Fatalf("after removal: %v", rows)
	}
	if _, err := r.call("open-host-connection", map[string]any{"host": "far"}); err == nil || err.Code != "unknown_host" {
		t.Fatalf("removed host: %+v", err)
	}
	if _, err := os.Stat("/tmp/pwned-by-links"); err == nil {
		t.Fatal("a ProxyCommand ran")
	}
	// Removing the host ended its far stdio-proxies too.
	eventually(t, "no far stdio-proxy left", func() bool { return len(farProxies(w.bin)) == 0 })
}

// farProxies lists the live processes running bin's stdio-proxy.
func farProxies(bin string) []int {
	return procsWhere(func(f []string) bool {
		if f[1] == "Z" {
			return false
		}
		b, _ := os.ReadFile("/proc/" + f[0] + "/cmdline")
		return strings.Contains(string(b), bin+"\x00stdio-proxy")
	})
}

// hostPending counts the requests host connections of s wait on.
func hostPending(s *Server) int { return s.links.Pending() }

// The far sshd caps channels per connection (MaxSessions): a connection
// past it is refused with that reason, the link stays up, and a channel
// closed makes room again.
func TestLinksNoRoomForAnotherChannel(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{MaxSessions: 3})
	w.startNear(w.hostTable("far"), nil)
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "far", "up")
	// MaxSessions 3 leaves room, in OpenSSH 9.2, for the link's first
	// channel and one more.
	a := dialRPC(t, w.sock)
	a.must("open-host-connection", map[string]any{"host": "far"})
	_, err := r.call("open-host-connection", map[string]any{"host": "far"})
	if err == nil || err.Code != "host_unreachable" || !strings.Contains(err.Message, "refused another channel") || err.Hint == nil || !strings.Contains(err.Hint.Detail, "MaxSessions") {
		t.Fatalf("past MaxSessions: %+v", err)
	}
	if row := hostRows(t, r)["far"]; row["status"] != "up" || row["connections"] != float64(1) {
		t.Fatalf("the link after a refused channel: %v", row)
	}
	a.c.Close()
	eventually(t, "room for a channel again", func() bool {
		b := dialRPC(t, w.sock)
		defer b.c.Close()
		_, err := b.call("open-host-connection", map[string]any{"host": "far"})
		return err == nil
	})
}
