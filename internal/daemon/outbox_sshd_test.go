package daemon

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/testsshd"
	"github.com/tuios/tuios/mail"
)

// farMail is what the far daemon holds in session's ring for inbox (""
// the whole session), oldest first: the texts and the messages.
func farMail(t *testing.T, r *rpc, session, inbox string) ([]string, []map[string]any) {
	t.Helper()
	res := r.must("read-agent-messages", map[string]any{"session": session, "to": inbox, "peek": true, "limit": 256})
	var texts []string
	var msgs []map[string]any
	for _, m := range res["messages"].([]any) {
		msg := m.(map[string]any)
		texts = append(texts, str(msg["text"]))
		msgs = append(msgs, msg)
	}
	return texts, msgs
}

// End to end over a real sshd and two daemons: mail a far pane and read
// its reply back over the link; the far daemon goes away, two messages
// wait in the outbox (on disk, in the Inbox); it comes back and both
// arrive in the order they were sent.
func TestOutboxOverARealLinkDeliversInOrderWhenTheFarDaemonIsBack(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	// The far daemon keeps its sessions across its restart, as a real
	// machine's would: a state dir of its own that outlives it.
	farState := t.TempDir()
	startFar := func() {
		w.far, _ = serverWith(t, func(o *Options) {
			o.Socket = filepath.Join(w.farRun, "tuios", "tuios.sock")
			o.StateDir = farState
		})
	}
	w.far.Close()
	startFar()
	fr := dialRPC(t, w.far.Socket())
	fr.must("new-session", map[string]any{"name": "api", "window_name": "worker", "argv": []string{"/bin/cat"}})

	w.startNear(w.hostTable("build"), nil)
	r := dialRPC(t, w.sock)
	ev := subscribeHosts(t, w.sock)
	waitStatus(t, r, "build", "up")

	// Delivered at once: the far daemon's answer, marked as another
	// machine's word.
	res := r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "from": "lead", "text": "rebased, please retest"})
	if res["type"] != "agent_message_sent" || res["host"] != "build" || res["untrusted"] != true || res["message_id"] == nil {
		t.Fatalf("delivered answer: %v", res)
	}
	texts, msgs := farMail(t, fr, "api", "worker")
	if len(msgs) != 1 || texts[0] != "rebased, please retest" || msgs[0]["origin"] != "link" || msgs[0]["from_label"] != "lead" {
		t.Fatalf("far inbox: %v", msgs)
	}
	// The far pane's reply is a notice in that thread; read it back here
	// over the link.
	id := msgs[0]["id"]
	fr.must("send-agent-message", map[string]any{"session": "api", "reply_to": id, "text": "retested: green"})
	hc := dialRPC(t, w.sock)
	hc.must("open-host-connection", map[string]any{"host": "build"})
	back := hc.must("read-agent-messages", map[string]any{"session": "api", "thread": id})
	var replies []string
	for _, m := range back["messages"].([]any) {
		replies = append(replies, str(m.(map[string]any)["text"]))
	}
	if strings.Join(replies, "|") != "rebased, please retest|retested: green" {
		t.Fatalf("the thread read back over the link: %v", back)
	}

	// The far daemon goes away. A send that did not ask to wait is
	// host_unreachable, saying why, and nothing is kept (seed 002).
	// The link drops (reconnecting), and its redial, at once, finds no
	// daemon there: the state it keeps until the far daemon is back. The
	// send waits for that: sent in between, it would say reconnecting.
	w.far.Close()
	ev.waitFor("build", "reconnecting")
	ev.waitFor("build", "no_daemon")
	_, err := r.call("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "from": "lead", "text": "not asked to wait"})
	if err == nil || err.Code != codeHostUnreachable || !strings.Contains(err.Message, "host build is no_daemon") ||
		!strings.Contains(err.Message, "found no daemon") || err.Hint.Command != "tuios hosts" {
		t.Fatalf("down without queue: %+v", err)
	}
	if rows := outboxRows(t, r); len(rows) != 0 || w.near.outboxWaiting("build") != 0 {
		t.Fatalf("kept without queue: %+v", rows)
	}
	// With queue two messages wait, in order, on disk. The second is the
	// person's, from a shell here: a claim there.
	for i, m := range [][2]string{{"lead", "second: the flaky test"}, {"human", "third: and the lint"}} {
		res := r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "from": m[0], "text": m[1], "queue": true})
		if res["type"] != "agent_message_queued" || res["queued"] != true || res["waiting"] != float64(i+1) {
			t.Fatalf("queued answer %d: %v", i, res)
		}
	}
	if rows := outboxRows(t, r); len(rows) != 1 || rows[0].Summary != "2 messages wait for the link to build" {
		t.Fatalf("Inbox rows while down: %+v", rows)
	}

	// Back: both arrive, in order, and the row closes.
	startFar()
	fr = dialRPC(t, w.far.Socket())
	ev.waitFor("build", "up")
	eventually(t, "both delivered", func() bool { texts, _ := farMail(t, fr, "api", "worker"); return len(texts) == 2 })
	texts, msgs = farMail(t, fr, "api", "worker")
	if texts[0] != "second: the flaky test" || texts[1] != "third: and the lint" || msgs[0]["origin"] != "link" ||
		msgs[1]["claimed_human"] != true || msgs[1]["verified_human"] == true {
		t.Fatalf("delivered after the restart: %v", msgs)
	}
	eventually(t, "the row closed", func() bool { return len(outboxRows(t, r)) == 0 })
	if lst := r.must("list-outbox", nil); lst["waiting"] != float64(0) {
		t.Fatalf("list-outbox after delivery: %v", lst)
	}
}

// Seed 002 over a real sshd: a host bounds what other machines leave in a
// session's ring, 32 unread messages and 32 notices from links. The 33rd
// send answers rate_limited with the far side's count (queue or not:
// the link is up, so nothing waits here), and once someone there reads,
// mail goes again. The far daemon runs on a fake clock only so that its
// sender bucket (10 at once, 30 a minute per link) refills without waiting.
func TestLinkCapsFullAnswerRateLimitedWithTheFarCount(t *testing.T) {
	t.Parallel()
	w := newLinkWorld(t, testsshd.Options{})
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	w.far.Close()
	w.far, _ = serverWith(t, func(o *Options) {
		o.Socket = filepath.Join(w.farRun, "tuios", "tuios.sock")
		o.Tracker.Clock = clk
	})
	fr := dialRPC(t, w.far.Socket())
	fr.must("new-session", map[string]any{"name": "api", "window_name": "worker", "argv": []string{"/bin/cat"}})
	w.startNear(w.hostTable("build"), nil)
	r := dialRPC(t, w.sock)
	waitStatus(t, r, "build", "up")

	send := func(to, text string, queue bool) (map[string]any, *proto.Error) {
		p := map[string]any{"host": "build", "session": "api", "from": "lead", "text": text}
		if to != "" {
			p["to"] = to
		}
		if queue {
			p["queue"] = true
		}
		clk.Advance(3 * time.Second) // one more in the far sender bucket
		return r.call("send-agent-message", p)
	}
	for i := range mail.MaxLinkUnread {
		if _, err := send("worker", fmt.Sprint("message ", i+1), false); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		if _, err := send("", fmt.Sprint("notice ", i+1), false); err != nil {
			t.Fatalf("notice %d: %v", i+1, err)
		}
	}
	for _, c := range []struct {
		to, count string
		queue     bool
	}{{"worker", "32 unread messages", false}, {"worker", "32 unread messages", true}, {"", "32 notices", false}, {"", "32 notices", true}} {
		res, err := send(c.to, "one too many", c.queue)
		if err == nil || err.Code != proto.CodeRateLimited || err.Message != "host build: this session holds "+c.count+" from other machines" ||
			err.Hint == nil || err.Hint.Detail != "host build says: wait until someone here reads" {
			t.Fatalf("33rd (to %q, queue %v): %v %+v", c.to, c.queue, res, err)
		}
	}
	if w.near.outboxWaiting("build") != 0 || len(outboxRows(t, r)) != 0 {
		t.Fatalf("a rate_limited send was kept here: %d waiting", w.near.outboxWaiting("build"))
	}
	if row := hostRows(t, r)["build"]; row["status"] != "up" {
		t.Fatalf("the link is not up: %v", row)
	}
	// Someone there reads: the worker's inbox has room again.
	fr.must("read-agent-messages", map[string]any{"session": "api", "to": "worker", "limit": 256})
	if res, err := send("worker", "after the read", false); err != nil || res["type"] != "agent_message_sent" {
		t.Fatalf("after the read: %v %+v", res, err)
	}
	if texts, _ := farMail(t, fr, "api", "worker"); texts[len(texts)-1] != "after the read" {
		t.Fatalf("the far inbox ends with %q", texts[len(texts)-1])
	}
}
