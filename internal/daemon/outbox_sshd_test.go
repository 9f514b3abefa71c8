package daemon

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/testsshd"
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

	// The far daemon goes away: two messages wait, in order, on disk.
	w.far.Close()
	ev.waitFor("build", "reconnecting")
	// The third is the person's, from a shell here: a claim there.
	for i, m := range [][2]string{{"lead", "second: the flaky test"}, {"human", "third: and the lint"}} {
		res := r.must("send-agent-message", map[string]any{"host": "build", "session": "api", "to": "worker", "from": m[0], "text": m[1]})
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
