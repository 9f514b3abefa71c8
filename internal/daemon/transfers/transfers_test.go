package transfers

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestInside(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path, folder string
		want         bool
	}{
		{"/src/api", "/src/api", true},
		{"/src/api/x", "/src/api", true},
		{"/src/apix", "/src/api", false}, // a sibling whose name starts the same is outside
		{"/src", "/src/api", false},
		{"/anything", "/", true},
	} {
		if got := inside(c.path, c.folder); got != c.want {
			t.Errorf("inside(%q, %q) = %v, want %v", c.path, c.folder, got, c.want)
		}
	}
}

// Shutdown stops a copy that is under way and returns once it ended: the
// file being copied is not left half written, and the list says it
// failed because the daemon stopped.
func TestShutdownStopsTheCopies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, make([]byte, 64<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	f := New()
	// 512 bytes a second: the copy is still running when Shutdown comes.
	info, err := f.list.start(plan{src: src, dst: filepath.Join(dir, "dst"), bwlimit: 512, startedBy: "person"}, f.quit)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := f.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	got := f.list.visible("")
	if len(got) != 1 || got[0].ID != info.ID || got[0].State != StateFailed || got[0].Error != errStopped.Error() {
		t.Fatalf("after Shutdown: %+v", got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 1 {
		t.Fatalf("a stopped copy left %v", left)
	}
}

// A pane sees and acts on only the copies it started; the person sees
// them all. A name it may not see is missing, as if absent.
func TestAPaneSeesItsOwnCopies(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := New()
	defer f.Shutdown(context.Background())
	mine, err := f.list.start(plan{src: src, dst: filepath.Join(dir, "a"), startedBy: "w1"}, f.quit)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := f.list.start(plan{src: src, dst: filepath.Join(dir, "b"), startedBy: "person"}, f.quit)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	defer close(done)
	if _, missing, ended := f.list.wait(nil, "", done); missing != "" || !ended {
		t.Fatalf("wait: missing %q, ended %v", missing, ended)
	}
	if got := f.list.visible("w1"); len(got) != 1 || got[0].ID != mine.ID {
		t.Fatalf("the pane sees %+v", got)
	}
	if got := f.list.visible(""); len(got) != 2 {
		t.Fatalf("the person sees %+v", got)
	}
	if _, missing := f.list.clear([]string{theirs.ID}, "w1"); missing != theirs.ID {
		t.Fatalf("the pane cleared the person's copy (missing %q)", missing)
	}
	if n, missing := f.list.clear(nil, "w1"); n != 1 || missing != "" {
		t.Fatalf("the pane cleared %d (missing %q)", n, missing)
	}
	if got := f.list.visible(""); len(got) != 1 || got[0].ID != theirs.ID {
		t.Fatalf("after the pane's clear: %+v", got)
	}
}
