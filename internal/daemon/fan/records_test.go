package fan

import (
	"encoding/json"
	"testing"

	"github.com/tuios/tuios/internal/daemon/core"
)

// A record without its session or its folder is dropped as the file is
// read; the rest come back as written, and a file that is not the
// records' is an error (the daemon sets it aside), never a panic.
func TestParseRecords(t *testing.T) {
	b, err := json.Marshal(worktreesFile{Version: 1, Records: []*record{
		{Session: "api-fan-x", SessionID: "s1", Worktree: "/w/1", Group: "fan/x", Repo: "/r"},
		{Session: "no-id", Worktree: "/w/2"},
		nil,
		{Session: "no-folder", SessionID: "s3"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := parseRecords(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].SessionID != "s1" || recs[0].Group != "fan/x" {
		t.Fatalf("records read back: %+v", recs)
	}
	if _, err := parseRecords([]byte(`{"worktrees": 7}`)); err == nil {
		t.Fatal("a file whose worktrees is no list was read")
	}
}

func FuzzParseRecords(f *testing.F) {
	f.Add([]byte(`{"version":1,"worktrees":[{"session":"a","session_id":"s","worktree":"/w","check":{"command":"x"}}]}`))
	f.Add([]byte(`{"worktrees":[null]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := parseRecords(b)
		for _, r := range recs {
			if err != nil || r == nil || r.SessionID == "" || r.Worktree == "" {
				t.Fatalf("kept a record it should drop: %+v (err %v)", r, err)
			}
		}
	})
}

// A session's tag is what the target check reads without a lock: given as
// a session is made, gone with its record, and a tag read before a change
// is never changed under its reader.
func TestTagsAreSwappedWhole(t *testing.T) {
	w := New()
	if w.Tag("s1") != nil {
		t.Fatal("a tag before any was given")
	}
	w.setTag("s1", &core.FanTag{Group: "fan/x", Repo: "/r"})
	w.add(&record{Session: "api-fan-x", SessionID: "s1", Worktree: "/w/1"})
	before := w.Tag("s1")
	w.setTag("s2", &core.FanTag{Group: "fan/x", Repo: "/r", LaunchedBy: "s0"})
	if before != w.Tag("s1") || before.Group != "fan/x" {
		t.Fatalf("another session's tag changed s1's: %+v", w.Tag("s1"))
	}
	w.forget("s1")
	if w.Tag("s1") != nil {
		t.Fatal("the tag outlived its record")
	}
	if before.Group != "fan/x" {
		t.Fatal("a reader's copy changed")
	}
	if len(w.all(nil)) != 0 {
		t.Fatalf("records left: %+v", w.all(nil))
	}
	if w.Tag("s2") == nil {
		t.Fatal("forgetting s1 took s2's tag")
	}
}
