package mail

import (
	"os"
	"path/filepath"
	"testing"
)

// Held mail is stored to human naming its inbox, released once as a new
// message with the original sender and origin, released_from set.
func TestHeldMailReleasedOnce(t *testing.T) {
	r := NewRing(RingOptions{Session: "api", Clock: newClock(), RateBurst: -1})
	first, _ := r.Send(SendRequest{FromLabel: "lead", To: "w1", Text: "start"})
	held, err := r.Send(SendRequest{FromLabel: "lead", To: Human, ToLabel: Human, Text: "rebased", Subject: "retest", ReplyTo: first.ID,
		Origin: OriginLink, OriginHost: "build", Held: true, HeldFor: "w1", HeldForLabel: "worker"})
	if err != nil || !held.Held || held.HeldFor != "w1" || held.HeldForLabel != "worker" || held.To != Human {
		t.Fatalf("held: %+v %v", held, err)
	}
	// Held is only ever mail to human.
	if m, _ := r.Send(SendRequest{To: "w1", Text: "x", Held: true, HeldFor: "w2"}); m.Held {
		t.Fatalf("held to a window: %+v", m)
	}
	h, rel, err := r.Release(held.ID, "w1", "worker")
	if err != nil {
		t.Fatal(err)
	}
	if h.ReleasedAs != rel.ID || h.ReadAt == 0 || rel.ReleasedFrom != held.ID || rel.To != "w1" || rel.FromLabel != "lead" ||
		rel.Origin != OriginLink || rel.OriginHost != "build" || rel.Text != "rebased" || rel.Subject != "retest" || rel.ThreadID != first.ThreadID || !rel.Unread() {
		t.Fatalf("released %+v from %+v", rel, h)
	}
	if _, _, err := r.Release(held.ID, "w1", "worker"); codeOf(err) != CodeInvalidParams {
		t.Fatalf("second release: %v", err)
	}
	if _, _, err := r.Release(first.ID, "w1", ""); codeOf(err) != CodeInvalidParams {
		t.Fatalf("not held: %v", err)
	}
	if _, _, err := r.Release(9999, "w1", ""); codeOf(err) != CodeInvalidParams {
		t.Fatalf("unknown: %v", err)
	}
	// A held notice is released as a notice in its own thread.
	n, _ := r.Send(SendRequest{To: Human, Text: "all", Origin: OriginLink, Held: true})
	_, rn, err := r.Release(n.ID, "", "")
	if err != nil || rn.Kind != KindNotice || rn.ThreadID != rn.ID {
		t.Fatalf("notice: %+v %v", rn, err)
	}
	if got, ok := r.Get(rn.ID); !ok || got.ReleasedFrom != n.ID {
		t.Fatalf("get: %+v %v", got, ok)
	}
}

func codeOf(err error) Code {
	if e, ok := err.(*Error); ok {
		return e.Code()
	}
	return ""
}

// Bytes sent over a link land in the stash under their hash, with the
// far name's extension, deduplicated, and capped.
func TestStashPutBytes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "stash")
	st := NewStash(StashOptions{Dir: dir, MaxFileBytes: 16})
	res, err := st.PutBytes("/far/away/flame.PNG", []byte("flame"))
	if err != nil || filepath.Dir(res.Entry.Path) != dir || filepath.Ext(res.Entry.Path) != ".PNG" || res.Entry.Source != "/far/away/flame.PNG" || !st.Holds(res.Entry.Path) {
		t.Fatalf("put: %+v %v", res, err)
	}
	if b, _ := os.ReadFile(res.Entry.Path); string(b) != "flame" {
		t.Fatalf("stored %q", b)
	}
	again, err := st.PutBytes("other.PNG", []byte("flame"))
	if err != nil || !again.Deduped || again.Entry.Path != res.Entry.Path {
		t.Fatalf("again: %+v %v", again, err)
	}
	if _, err := st.PutBytes("big", make([]byte, 17)); codeOf(err) != CodeInvalidParams {
		t.Fatalf("big: %v", err)
	}
	// A name with a path never escapes the stash.
	evil, err := st.PutBytes("../../etc/passwd", []byte("x"))
	if err != nil || filepath.Dir(evil.Entry.Path) != dir {
		t.Fatalf("evil: %+v %v", evil, err)
	}
}
