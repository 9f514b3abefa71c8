package daemon

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

func msgs(res map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range res["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// Mail over a link: origin from the connection, from a label never
// resolved, human claimed only; a local reply to it is a notice.
func TestLinkMailOriginAndLabels(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	worker := str(local.must("new-window", map[string]any{"session": "api", "name": "worker", "argv": []string{"/bin/cat"}})["window_id"])
	l := linkRPC(t, sock, "build", false)

	// origin_host is not the request's to say.
	if _, err := l.call("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "x", "origin_host": "trusted"}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("origin_host param: %v", err)
	}
	// from names a window here: kept as a label, never that window.
	res := l.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "from": worker, "text": "rebased, please retest"})
	if res["origin"] != "link" || res["origin_host"] != "build" || res["from"] != "" || res["from_label"] != worker || res["held"] != false {
		t.Fatalf("sent: %v", res)
	}
	id := num(res["message_id"])
	res = l.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "from": "human", "text": "I am the person"})
	if res["from"] != "" || res["claimed_human"] != true || res["verified_human"] != false {
		t.Fatalf("human from a link: %v", res)
	}
	got := msgs(local.must("read-agent-messages", map[string]any{"session": "api", "to": "worker"}))
	if len(got) != 2 || got[0]["origin"] != "link" || got[0]["origin_host"] != "build" || got[0]["from"] != "" {
		t.Fatalf("read: %v", got)
	}

	// A local reply naming the far sender's label is a notice in the
	// thread, not mail to the local window that has that id.
	res = local.must("send-agent-message", map[string]any{"session": "api", "to": worker, "reply_to": id, "text": "done"})
	if res["kind"] != "notice" || res["to"] != "" || num(res["thread_id"]) != id {
		t.Fatalf("reply: %v", res)
	}
	thread := msgs(l.must("read-agent-messages", map[string]any{"session": "api", "thread": id}))
	if len(thread) != 2 || thread[1]["text"] != "done" {
		t.Fatalf("thread read over the link: %v", thread)
	}

	// A link reading the person's inbox only peeks.
	local.must("send-agent-message", map[string]any{"session": "api", "to": "human", "text": "for you"})
	r := l.must("read-agent-messages", map[string]any{"session": "api", "to": "human"})
	if r["peek_forced"] != true {
		t.Fatalf("link read of human: %v", r)
	}
	if n := num(local.must("read-agent-messages", map[string]any{"session": "api", "to": "human", "unread": true, "peek": true})["total"]); n != 1 {
		t.Fatalf("the person's mail was marked read by a link: %d unread", n)
	}
}

// Attachments from a link are stash paths here; stash-put over a link
// takes bytes, never a path of this machine.
func TestLinkMailAttachmentsAndStash(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	l := linkRPC(t, sock, "build", false)
	secret := filepath.Join(t.TempDir(), "id_ed25519")
	os.WriteFile(secret, []byte("private"), 0o600)

	_, err := l.call("stash-put", map[string]any{"session": "api", "path": secret})
	wantForbidden(t, "stash path over link", err, "data")
	_, err = l.call("send-agent-message", map[string]any{"session": "api", "text": "see", "attachments": []string{secret}})
	if err == nil || err.Code != proto.CodeInvalidParams || err.Hint.Param != "attachments" {
		t.Fatalf("non-stash attachment: %v", err)
	}
	put := l.must("stash-put", map[string]any{"session": "api", "data": base64.StdEncoding.EncodeToString([]byte("flame")), "name": "/far/flame.png"})
	path := str(put["path"])
	if filepath.Ext(path) != ".png" || put["source"] != "/far/flame.png" {
		t.Fatalf("put: %v", put)
	}
	if b, _ := os.ReadFile(path); string(b) != "flame" {
		t.Fatalf("stored %q", b)
	}
	l.must("send-agent-message", map[string]any{"session": "api", "text": "the hot path", "attachments": []string{path}})
	if _, err := l.call("stash-put", map[string]any{"session": "api", "data": "%%%"}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("bad base64: %v", err)
	}
}

// 32 unread link messages and 32 link notices per session; past that
// rate_limited until someone here reads.
func TestLinkMailCaps(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	local.must("new-window", map[string]any{"session": "api", "name": "worker", "argv": []string{"/bin/cat"}})
	l := linkRPC(t, sock, "build", false)
	send := func(to string) *proto.Error {
		p := map[string]any{"session": "api", "text": "x"}
		if to != "" {
			p["to"] = to
		}
		_, err := l.call("send-agent-message", p)
		clk.Advance(3 * time.Second) // stay inside the sender's rate bucket
		return err
	}
	for i := 0; i < 32; i++ {
		if err := send("worker"); err != nil {
			t.Fatalf("message %d: %v", i+1, err)
		}
		if err := send(""); err != nil {
			t.Fatalf("notice %d: %v", i+1, err)
		}
	}
	if err := send("worker"); err == nil || err.Code != proto.CodeRateLimited {
		t.Fatalf("33rd message: %v", err)
	}
	if err := send(""); err == nil || err.Code != proto.CodeRateLimited {
		t.Fatalf("33rd notice: %v", err)
	}
	// Local mail is not capped by what links left.
	local.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "local"})
	// Reading makes room for messages.
	local.must("read-agent-messages", map[string]any{"session": "api", "to": "worker", "limit": 256})
	if err := send("worker"); err != nil {
		t.Fatalf("after the read: %v", err)
	}
}

// X8: hold_mail for build stores its mail to human, held for worker; the
// person passes it on once; a second release is invalid_params; a closed
// window is window_not_found; only the person (or a link with respond).
func TestLinkHeldMailX8(t *testing.T) {
	t.Parallel()
	srv, sock := serverWith(t, func(o *Options) {
		o.Config = policyFile(map[string]config.Host{"build": {HoldMail: yes()}})
	})
	local := dialRPC(t, sock)
	catPane(t, local, "api")
	worker := str(local.must("new-window", map[string]any{"session": "api", "name": "worker", "argv": []string{"/bin/cat"}})["window_id"])
	l := linkRPC(t, sock, "build", false)

	res := l.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "from": "lead", "subject": "retest", "text": "rebased"})
	if res["held"] != true || res["held_for"] != worker || res["held_for_label"] != "worker" || res["to"] != "human" {
		t.Fatalf("sent: %v", res)
	}
	heldID := num(res["message_id"])
	if n := num(local.must("read-agent-messages", map[string]any{"session": "api", "to": "worker", "peek": true})["total"]); n != 0 {
		t.Fatalf("worker saw held mail: %d", n)
	}
	h := msgs(local.must("read-agent-messages", map[string]any{"session": "api", "to": "human", "peek": true}))
	if len(h) != 1 || h[0]["held"] != true || h[0]["held_for"] != worker || h[0]["held_for_label"] != "worker" {
		t.Fatalf("human inbox: %v", h)
	}
	// The Inbox's mail row says who it was held for.
	eventually(t, "the Inbox row of the held mail", func() bool {
		for _, it := range local.must("list-attention", map[string]any{})["items"].([]any) {
			if m := it.(map[string]any); m["kind"] == "mail" && m["held_for"] == "worker" && m["session"] == "api" {
				return true
			}
		}
		return false
	})
	// Mail to human is not held, and another machine's is not either.
	if r := l.must("send-agent-message", map[string]any{"session": "api", "to": "human", "text": "hi"}); r["held"] != false {
		t.Fatalf("to human: %v", r)
	}
	if r := linkRPC(t, sock, "gpu", false).must("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "hi"}); r["held"] != false {
		t.Fatalf("gpu: %v", r)
	}

	// Not the person: a script, and a link without respond.
	if _, err := local.call("release-agent-message", map[string]any{"session": "api", "id": heldID}); err == nil || err.Code != codeNotHuman {
		t.Fatalf("script release: %v", err)
	}
	_, err := l.call("release-agent-message", map[string]any{"session": "api", "id": heldID})
	wantForbidden(t, "link release", err, "respond")

	p := personRPC(t, sock)
	rel := p.must("release-agent-message", map[string]any{"session": "api", "id": heldID, "human_nonce": p.nonce})
	if rel["type"] != "agent_message_released" || num(rel["held_id"]) != heldID || rel["to"] != worker || rel["to_name"] != "worker" || num(rel["message_id"]) <= heldID {
		t.Fatalf("released: %v", rel)
	}
	got := msgs(local.must("read-agent-messages", map[string]any{"session": "api", "to": "worker"}))
	if len(got) != 2 || got[0]["origin_host"] != "gpu" { // gpu's, then the released one
		t.Fatalf("worker's inbox: %v", got)
	}
	if d := got[1]; num(d["released_from"]) != heldID || d["origin"] != "link" || d["origin_host"] != "build" ||
		d["from_label"] != "lead" || d["text"] != "rebased" || num(d["thread_id"]) != num(rel["thread_id"]) {
		t.Fatalf("delivered: %v", got)
	}
	if _, err := p.call("release-agent-message", map[string]any{"session": "api", "id": heldID, "human_nonce": p.nonce}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("second release: %v", err)
	}
	// Without a session the id finds its ring.
	res = l.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "second"})
	second := num(res["message_id"])
	// A link with respond stands in for the person.
	srv.applyLinkPolicy(policyFile(map[string]config.Host{"build": {HoldMail: yes(), Allow: allow("mail", "respond")}}))
	if rel := l.must("release-agent-message", map[string]any{"id": second}); num(rel["held_id"]) != second {
		t.Fatalf("link release: %v", rel)
	}

	// The window closed: window_not_found, and the held mail stays.
	res = l.must("send-agent-message", map[string]any{"session": "api", "to": "worker", "text": "third"})
	third := num(res["message_id"])
	local.must("close-window", map[string]any{"session": "api", "window": worker})
	if _, err := p.call("release-agent-message", map[string]any{"session": "api", "id": third, "human_nonce": p.nonce}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("closed window: %v", err)
	}
	if _, err := p.call("release-agent-message", map[string]any{"session": "api", "id": 1, "human_nonce": p.nonce}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("not held: %v", err)
	}
}
