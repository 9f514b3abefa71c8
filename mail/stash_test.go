package mail

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStashDedupesAndStoresPrivately(t *testing.T) { // T1
	src := t.TempDir()
	dir := filepath.Join(t.TempDir(), "stash", "api")
	st := NewStash(StashOptions{Dir: dir, Clock: newClock()})
	r := NewRing(RingOptions{Stash: st, RateBurst: -1})
	shot := write(t, src, "shot.png", bytes.Repeat([]byte{7}, 1<<20))
	a, err := st.Put(shot)
	if err != nil {
		t.Fatal(err)
	}
	copyOf := write(t, src, "same.png", bytes.Repeat([]byte{7}, 1<<20))
	b, err := st.Put(copyOf)
	if err != nil {
		t.Fatal(err)
	}
	if a.Deduped || !b.Deduped || a.Entry.Path != b.Entry.Path || b.SessionBytes != a.SessionBytes || b.SessionEntries != 1 {
		t.Fatalf("dedupe: %+v %+v", a, b)
	}
	if filepath.Dir(a.Entry.Path) != dir || !strings.HasSuffix(a.Entry.Name, ".png") || len(a.Entry.Hash) != 64 || a.Entry.Kind != "image" {
		t.Fatalf("entry: %+v", a.Entry)
	}
	fi, _ := os.Stat(a.Entry.Path)
	di, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes %v %v", fi.Mode(), di.Mode())
	}
	m := mustSend(t, r, SendRequest{To: worker, Text: "see", Attachments: []string{a.Entry.Path, shot}})
	if !m.Attachments[0].Stashed || m.Attachments[1].Stashed {
		t.Fatalf("stashed flags: %+v", m.Attachments)
	}
	if l := st.List(); len(l.Entries) != 1 || !l.Entries[0].Referenced {
		t.Fatalf("list: %+v", l)
	}
	got, e, err := st.Read(a.Entry.Name, MaxLinkStashBytes)
	if err != nil || len(got) != 1<<20 || e.Hash != a.Entry.Hash {
		t.Fatalf("read: %v", err)
	}
	if _, err := st.Get("nope"); code(err) != CodeInvalidParams {
		t.Fatal("get of nothing")
	}
	r.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatal("the stash outlived its session")
	}
	if _, err := st.Put(shot); code(err) != CodeSessionNotFound {
		t.Fatalf("put after close: %v", err)
	}
}

func TestStashCaps(t *testing.T) { // T2
	src := t.TempDir()
	st := NewStash(StashOptions{Dir: filepath.Join(t.TempDir(), "s"), MaxFileBytes: 1000, MaxBytes: 10_000})
	if _, err := st.Put(write(t, src, "at.bin", make([]byte, 1000))); err != nil {
		t.Fatalf("exactly at the cap: %v", err)
	}
	if _, err := st.Put(write(t, src, "over.bin", make([]byte, 1001))); code(err) != CodeInvalidParams {
		t.Fatalf("one byte over: %v", err)
	}
	for name, p := range map[string]string{"relative": "x.bin", "missing": "/nonexistent/x", "directory": src} {
		if _, err := st.Put(p); code(err) != CodeInvalidParams {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestStashEvictsOldestButNeverReferenced(t *testing.T) { // T3
	src := t.TempDir()
	c := newClock()
	st := NewStash(StashOptions{Dir: filepath.Join(t.TempDir(), "s"), MaxFileBytes: 400, MaxBytes: 1000, Clock: c})
	r := NewRing(RingOptions{Stash: st, RateBurst: -1})
	var paths []string
	for i := 0; i < 3; i++ { // 900 bytes
		res, err := st.Put(write(t, src, string(rune('a'+i))+".bin", bytes.Repeat([]byte{byte(i)}, 300)))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, res.Entry.Path)
	}
	mustSend(t, r, SendRequest{To: worker, Text: "the oldest is still named", Attachments: []string{paths[0]}})
	res, err := st.Put(write(t, src, "d.bin", bytes.Repeat([]byte{9}, 400)))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evicted) != 1 || res.Evicted[0].Path != paths[1] || res.Evictions != 1 || res.SessionBytes != 1000 {
		t.Fatalf("evicted: %+v", res)
	}
	if _, err := os.Stat(paths[0]); err != nil {
		t.Fatal("a referenced file was deleted")
	}
	if _, err := os.Stat(paths[1]); !os.IsNotExist(err) {
		t.Fatal("the evicted file is still there")
	}
	// Only referenced files and one unreferenced left: a put that needs more
	// than can be freed is refused and deletes what it can... but keeps
	// every referenced file.
	mustSend(t, r, SendRequest{To: worker, Text: "pin the rest", Attachments: []string{paths[2], res.Entry.Path}})
	if _, err := st.Put(write(t, src, "e.bin", bytes.Repeat([]byte{8}, 400))); code(err) != CodeStashFull {
		t.Fatalf("no room: %v", err)
	}
	for _, p := range []string{paths[0], paths[2], res.Entry.Path} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s deleted", p)
		}
	}
	if l := st.List(); l.Evictions != 1 || len(l.Entries) != 3 {
		t.Fatalf("list: %+v", l)
	}
}
