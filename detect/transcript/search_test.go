package transcript_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect/transcript"
)

// A search repeated with a cache reads only what changed: an unchanged
// file (same size, time and inode) keeps its verdict, a changed one is
// read again, a new one is read, a removed one is forgotten.
func TestSearchCacheRereadsOnlyChangedFiles(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	write(t, a, line("user", "", false), false)
	var c transcript.SearchCache
	opt := transcript.SearchOptions{Dir: dir, Verify: []string{"cwd", "version"}, CWD: "/home/u/proj", Versions: []string{"2.1.222"}, Cache: &c}
	if got, err := transcript.Search(opt); err != nil || got != a {
		t.Fatalf("first search: %q %v", got, err)
	}
	// Rewritten in place to another cwd, same size, time put back: the
	// cache still holds the old verdict, so the file was not read again.
	st, _ := os.Stat(a)
	body := strings.Replace(line("user", "", false), "/home/u/proj", "/home/u/prox", 1)
	f, _ := os.OpenFile(a, os.O_WRONLY, 0)
	f.WriteAt([]byte(body), 0)
	f.Close()
	os.Chtimes(a, st.ModTime(), st.ModTime())
	if got, err := transcript.Search(opt); err != nil || got != a {
		t.Fatalf("an unchanged file was read again: %q %v", got, err)
	}
	// Appended: read again, and now it names another directory.
	write(t, a, body, true)
	var te *transcript.Error
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeNoCandidate {
		t.Fatalf("a changed file kept its old verdict: %v", err)
	}
	b := filepath.Join(dir, "b.jsonl")
	write(t, b, line("assistant", "end_turn", false), false)
	if got, err := transcript.Search(opt); err != nil || got != b || c.Len() != 2 {
		t.Fatalf("a new file: %q %v (%d cached)", got, err, c.Len())
	}
	// Two that verify refuse, with or without the cache.
	write(t, a, line("user", "", false), false)
	if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeAmbiguous {
		t.Fatalf("two candidates: %v", err)
	}
	os.Remove(a)
	if got, err := transcript.Search(opt); err != nil || got != b || c.Len() != 1 {
		t.Fatalf("after a removal: %q %v (%d cached)", got, err, c.Len())
	}
}

// WatchDir fires for any entry of its directory, once per burst, and
// shares the directory's watch with the file watches there.
func TestWatchDirFiresForNewFiles(t *testing.T) {
	clock := fakeclock.New(time.Unix(0, 0))
	w, err := transcript.NewWatcher(transcript.WatcherOptions{Clock: clock})
	if err != nil {
		t.Skip("no watcher here:", err)
	}
	defer w.Close()
	dir := t.TempDir()
	var fired atomic.Int32
	cancelDir, err := w.WatchDir(dir, func() { fired.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	cancelFile, _ := w.Watch(filepath.Join(dir, "a.jsonl"), func() {})
	if w.Dirs() != 1 {
		t.Fatalf("%d directory watches for one directory", w.Dirs())
	}
	for _, name := range []string{"x.jsonl", "sub"} {
		// Each change fires the callback once its debounce has passed. A
		// file's write can bring a late event after the first callback;
		// the fake clock is moved on until this change's callback came
		// (bounded), so a late event of the last change cannot hide it.
		before := fired.Load()
		if name == "sub" {
			os.Mkdir(filepath.Join(dir, name), 0o700)
		} else {
			os.WriteFile(filepath.Join(dir, name), []byte("{}\n"), 0o600)
		}
		deadline := time.Now().Add(10 * time.Second)
		for fired.Load() == before {
			if time.Now().After(deadline) {
				t.Fatalf("no event for %s", name)
			}
			if clock.Pending() > 0 {
				clock.Advance(transcript.Debounce)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	cancelDir()
	if w.Dirs() != 1 {
		t.Fatal("the directory watch went while a file watch remained")
	}
	cancelFile()
	if w.Dirs() != 0 {
		t.Fatal("the last cancel did not drop the directory watch")
	}
	if _, err := w.WatchDir(filepath.Join(dir, "missing"), func() {}); err == nil {
		t.Fatal("a missing directory was watched")
	}
	var nilW *transcript.Watcher
	if _, err := nilW.WatchDir(dir, func() {}); err == nil {
		t.Fatal("a nil watcher must refuse, not panic")
	}
}

// A candidate last modified before Since is skipped unread, with the cache
// or without; written again, it is a candidate once more.
func TestSearchSkipsFilesOlderThanSince(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	write(t, a, line("user", "", false), false)
	since := time.Now().Add(time.Hour)
	for _, cache := range []*transcript.SearchCache{nil, {}} {
		opt := transcript.SearchOptions{Dir: dir, Verify: []string{"cwd", "version"}, CWD: "/home/u/proj", Versions: []string{"2.1.222"}, Since: since, Cache: cache}
		var te *transcript.Error
		if _, err := transcript.Search(opt); !errors.As(err, &te) || te.Code() != transcript.CodeNoCandidate {
			t.Fatalf("cache %v: an older file was taken: %v", cache != nil, err)
		}
		later := since.Add(time.Minute)
		os.Chtimes(a, later, later)
		if got, err := transcript.Search(opt); err != nil || got != a {
			t.Fatalf("cache %v: a file written since: %q %v", cache != nil, got, err)
		}
		now := time.Now()
		os.Chtimes(a, now, now)
	}
}
