package daemon

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/daemon/links"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// outboxServer is a daemon on its own socket with state under stateDir.
// With far set, the outbox's link (its status and its delivery) is that
// fake machine; without it, the daemon's real links to cfg's hosts.
func outboxServer(t *testing.T, stateDir string, cfg *config.File, far *fakeFar) (*Server, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ob") // short: a socket path has a length cap
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if cfg == nil {
		cfg = &config.File{}
	}
	env := map[string]string{"HOME": dir, "PATH": "/usr/bin:/bin"}
	srv, err := New(Options{Socket: filepath.Join(dir, "s", "tuios.sock"), Shell: "/bin/sh", StateDir: stateDir, Config: cfg,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "PS1=$ ", "ENV="}, Getenv: func(k string) string { return env[k] },
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: dir}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	if far != nil { // before Listen: nothing reads the options yet
		srv.outbox.Reroute(far.linkStatus, far.deliver)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Close() })
	return srv, srv.Socket()
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	return port
}

func outboxRows(t *testing.T, r *rpc) []attItem {
	t.Helper()
	return listAtt(t, r, map[string]any{"kinds": []string{"outbox"}}).Items
}

func TestSendAgentMessageToAHostNotConfiguredIsUnknownHost(t *testing.T) {
	t.Parallel()
	cfg := &config.File{Hosts: map[string]config.Host{"gpu": {Addr: "127.0.0.1", SSHOptions: []string{"-p", closedPort(t)}}}}
	_, sock := outboxServer(t, "-", cfg, nil)
	r := dialRPC(t, sock)
	_, err := r.call("send-agent-message", map[string]any{"host": "nope", "session": "api", "to": "worker", "text": "x"})
	if err == nil || err.Code != codeUnknownHost || !strings.Contains(err.Message, "gpu") {
		t.Fatalf("unknown host: %+v", err)
	}
	// A blank text is refused before the host is looked at, as locally.
	_, err = r.call("send-agent-message", map[string]any{"host": "nope", "session": "api", "text": "  "})
	if err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("blank text: %+v", err)
	}
	if l := listAtt(t, r, nil); l.Total != 0 {
		t.Fatalf("a refused send left an Inbox item: %+v", l)
	}
}

// X5: build is configured but down. A send is host_unreachable and keeps
// nothing (seed 002); with queue the message waits, the Inbox says so, and
// dismissing the row discards it.
func TestSendAgentMessageToAHostThatIsDownIsQueued(t *testing.T) {
	t.Parallel()
	cfg := &config.File{Hosts: map[string]config.Host{"build": {Addr: "127.0.0.1", SSHOptions: []string{"-p", closedPort(t)}}}}
	state := filepath.Join(t.TempDir(), "state")
	srv, sock := outboxServer(t, state, cfg, nil)
	if srv.links.Status("build") == "" {
		t.Skip("links are not built yet: hostStatus knows no configured host")
	}
	r := dialRPC(t, sock)
	_, err := r.call("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "text": "not asked to wait"})
	if err == nil || err.Code != codeHostUnreachable || err.Hint == nil || err.Hint.Command != "tuios hosts" {
		t.Fatalf("down, no queue: %+v", err)
	}
	if srv.outboxWaiting("build") != 0 || len(outboxRows(t, r)) != 0 {
		t.Fatalf("kept without queue: %d waiting, rows %+v", srv.outboxWaiting("build"), outboxRows(t, r))
	}
	// queue is for mail to another machine only.
	if _, err := r.call("send-agent-message", map[string]any{"session": "api", "text": "x", "queue": true}); err == nil || err.Code != proto.CodeInvalidParams || err.Hint.Param != "queue" {
		t.Fatalf("queue without a host: %+v", err)
	}
	res := r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "text": "rebased, please retest", "queue": true})
	if res["type"] != "agent_message_queued" || res["queued"] != true || res["waiting"] != float64(1) || res["host"] != "build" ||
		res["session"] != "api" || res["to"] != "worker" || res["queue_id"] == nil {
		t.Fatalf("X5 answer: %v", res)
	}
	res = r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "text": "and the flaky one", "queue": true})
	if res["waiting"] != float64(2) {
		t.Fatalf("second: %v", res)
	}
	if row := hostRows(t, r)["build"]; row["queued"] != float64(2) {
		t.Fatalf("list-hosts does not count the outbox: %v", row)
	}
	rows := outboxRows(t, r)
	if len(rows) != 1 || rows[0].Summary != "2 messages wait for the link to build" || rows[0].Session != "" {
		t.Fatalf("Inbox rows: %+v", rows)
	}
	lst := r.must("list-outbox", map[string]any{})
	hostsList, _ := lst["hosts"].([]any)
	if lst["type"] != "outbox_list" || lst["waiting"] != float64(2) || len(hostsList) != 1 {
		t.Fatalf("list-outbox: %v", lst)
	}
	h0 := hostsList[0].(map[string]any)
	if h0["host"] != "build" || h0["status"] == "up" || h0["status"] == "" || len(h0["messages"].([]any)) != 2 {
		t.Fatalf("list-outbox host: %v", h0)
	}
	// Another machine's link sees the counts, never this machine's mail.
	l := linkRPC(t, sock, "gpu", false)
	lres := l.must("list-outbox", map[string]any{})
	if lres["waiting"] != float64(2) || strings.Contains(str(lres), "retest") {
		t.Fatalf("list-outbox over a link: %v", lres)
	}
	// Mail that came over a link is not passed on to a third machine.
	if _, err := l.call("send-agent-message", map[string]any{"host": "build", "session": "api", "text": "hop", "queue": true}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("host over a link: %+v", err)
	}
	if fi, err := os.Stat(filepath.Join(state, filepath.FromSlash(links.OutboxFile))); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("outbox file: %v %v", fi, err)
	}
	// Dismissing the row (the person) discards what waits.
	p := personRPC(t, sock)
	d := p.must("dismiss-attention", map[string]any{"id": rows[0].ID})
	if d["for_host"] != "build" || d["discarded"] != float64(2) {
		t.Fatalf("dismiss: %v", d)
	}
	eventually(t, "the outbox emptied", func() bool { return srv.outboxWaiting("build") == 0 })
	if lst := r.must("list-outbox", nil); lst["waiting"] != float64(0) {
		t.Fatalf("after the dismiss: %v", lst)
	}
}

// The outbox in the daemon with a far machine the test plays: a refusal
// on arrival becomes the Inbox row's reason, the row survives a restart,
// and a first try the far side refuses answers at once, queuing nothing.
func TestOutboxRowsInTheInboxAcrossARefusalAndARestart(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	far := &fakeFar{status: "unreachable"}
	srv, sock := outboxServer(t, state, nil, far)
	r := dialRPC(t, sock)
	r.must("send-agent-message", map[string]any{"host": "build", "session": "gone", "to": "w", "text": "one", "queue": true})
	r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "w", "text": "two", "queue": true})
	r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "text": "three", "queue": true})
	if rows := outboxRows(t, r); len(rows) != 1 || rows[0].Summary != "3 messages wait for the link to build" {
		t.Fatalf("rows: %+v", rows)
	}
	srv.Close()

	// A restart on the same state dir: the row is back from the file.
	far2 := &fakeFar{status: "unreachable"}
	srv2, sock2 := outboxServer(t, state, nil, far2)
	r2 := dialRPC(t, sock2)
	if rows := outboxRows(t, r2); len(rows) != 1 || rows[0].Summary != "3 messages wait for the link to build" {
		t.Fatalf("rows after a restart: %+v", rows)
	}
	far2.setAnswer(func(p map[string]any) *proto.Error {
		if p["session"] == "gone" {
			return proto.Errorf(proto.CodeSessionNotFound, "no session named \"gone\"")
		}
		return nil
	})
	far2.setStatus("up")
	srv2.outbox.LinkChanged() // what a host-changed event does
	eventually(t, "two delivered", func() bool { got, _ := far2.got(); return len(got) == 2 })
	if got, _ := far2.got(); strings.Join(got, ",") != "two,three" {
		t.Fatalf("delivered: %v", got)
	}
	var rows []attItem
	eventually(t, "the refusal on the row", func() bool {
		rows = outboxRows(t, r2)
		return len(rows) == 1 && strings.HasPrefix(rows[0].Summary, "refused by build: session_not_found (to gone:w)")
	})
	// A first try the far side refuses: the sender hears it, nothing waits.
	_, err := r2.call("send-agent-message", map[string]any{"host": "build", "session": "gone", "text": "four", "queue": true})
	if err == nil || err.Code != proto.CodeSessionNotFound || !strings.HasPrefix(err.Message, "host build: ") {
		t.Fatalf("a refused first try: %+v", err)
	}
	res := r2.must("send-agent-message", map[string]any{"host": "build", "session": "api", "text": "five"})
	if res["type"] != "agent_message_sent" || res["host"] != "build" || res["untrusted"] != true {
		t.Fatalf("delivered at once: %v", res)
	}
	p := personRPC(t, sock2)
	p.must("dismiss-attention", map[string]any{"id": rows[0].ID})
	if rows := outboxRows(t, r2); len(rows) != 0 {
		t.Fatalf("the row outlived its dismiss: %+v", rows)
	}
	if l := srv2.outbox.List(""); len(l) != 0 {
		t.Fatalf("the refusal outlived its dismiss: %+v", l)
	}
}
