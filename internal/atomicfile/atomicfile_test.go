package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The crash test runs this test binary again as the process that dies.
func TestMain(m *testing.M) {
	if path := os.Getenv("ATOMICFILE_CRASH_AT"); path != "" {
		crashMidWrite(path)
		return
	}
	os.Exit(m.Run())
}

// crashMidWrite starts replacing path, writes half of the new text and is
// killed (SIGKILL: no deferred cleanup, no Commit) before the rename.
func crashMidWrite(path string) {
	f, err := Create(filepath.Dir(path), Options{})
	if err != nil {
		os.Exit(3)
	}
	f.Write([]byte("NEW half"))
	os.Stdout.WriteString(f.Name() + "\n")
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists a directory's names, to see no temporary file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestWriteFileReplacesWholeWithItsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := WriteFile(path, []byte("one"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "one" || mode(t, path) != 0o600 {
		t.Fatalf("a new file: %q %v, want one 0600", got, mode(t, path))
	}
	if err := WriteFile(path, []byte("two"), Options{Perm: 0o644}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "two" || mode(t, path) != 0o644 {
		t.Fatalf("replaced: %q %v, want two 0644", got, mode(t, path))
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("left behind: %v", names)
	}
}

func TestKeepModeKeepsTheOldFilesBits(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := WriteFile(path, []byte("{}"), Options{Perm: 0o644, KeepMode: true}); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, path); m != 0o644 {
		t.Fatalf("no old file: %v, want Perm 0644", m)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte(`{"a":1}`), Options{Perm: 0o644, KeepMode: true}); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, path); m != 0o640 {
		t.Fatalf("kept mode: %v, want the old file's 0640", m)
	}
}

func TestMkdirPermMakesTheDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tuios", "items.json")
	if err := WriteFile(path, []byte("x"), Options{}); err == nil {
		t.Fatal("no directory and no MkdirPerm: written anyway")
	}
	if err := WriteFile(path, []byte("x"), Options{MkdirPerm: 0o700}); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, filepath.Dir(path)); m != 0o700 {
		t.Fatalf("directory mode %v", m)
	}
}

// A write that fails halfway (the encoder errs after writing some bytes)
// leaves the old file whole and no temporary file.
func TestAFailedWriteLeavesTheOldFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := WriteFile(path, []byte("old = true\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := WriteWith(path, Options{}, func(w io.Writer) error {
		io.WriteString(w, "new = ")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if got := read(t, path); got != "old = true\n" {
		t.Fatalf("after a failed write: %q", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("left behind: %v", names)
	}
}

// A process killed mid-write, before the rename, leaves the old file
// whole: only its temporary file is left over.
func TestACrashBeforeTheRenameLeavesTheOldFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions.json")
	if err := WriteFile(path, []byte("OLD whole"), Options{}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_CRASH_AT="+path)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the writer was not killed: %v %s", err, out)
	}
	if got := read(t, path); got != "OLD whole" {
		t.Fatalf("after a crash mid-write: %q", got)
	}
	tmp := strings.TrimSpace(string(out))
	if got := read(t, tmp); got != "NEW half" || filepath.Dir(tmp) != dir {
		t.Fatalf("the half-written file %s: %q (it is in the target's directory)", tmp, got)
	}
}

func TestCommitElsewhereIsRefused(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	f, err := Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	if err := f.Commit(filepath.Join(other, "x")); err == nil {
		t.Fatal("committed into another directory")
	}
	if names := entries(t, dir); len(names) != 0 {
		t.Fatalf("left behind: %v", names)
	}
	if err := f.Commit(filepath.Join(dir, "x")); err == nil {
		t.Fatal("a second Commit after a refused one")
	}
}

// Create then Commit under a name chosen after the bytes are written (the
// stash names a file by its hash).
func TestCreateThenCommitUnderANameFoundLater(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(dir, Options{Perm: 0o640, Pattern: ".put-*"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(f.Name()), ".put-") {
		t.Fatalf("temporary name %s", f.Name())
	}
	fmt.Fprint(f, "content")
	path := filepath.Join(dir, "9a0364b9.txt")
	if err := f.Commit(path); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: nothing
	if got := read(t, path); got != "content" || mode(t, path) != 0o640 {
		t.Fatalf("%q %v", got, mode(t, path))
	}
}

// Writers racing on one path, and a reader beside them: the reader only
// ever sees one writer's whole text, and so does the last look.
func TestReadersNeverSeeHalfAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "items.json")
	texts := make([][]byte, 8)
	for i := range texts {
		texts[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10)
	}
	if err := WriteFile(path, texts[0], Options{}); err != nil {
		t.Fatal(err)
	}
	whole := func(b []byte) bool {
		for _, x := range texts {
			if bytes.Equal(b, x) {
				return true
			}
		}
		return false
	}
	stop := make(chan struct{})
	bad := make(chan string, 1)
	go func() {
		for {
			select {
			case <-stop:
				close(bad)
				return
			default:
			}
			if b, err := os.ReadFile(path); err == nil && !whole(b) {
				bad <- fmt.Sprintf("a reader saw %d bytes that are no writer's whole text", len(b))
				close(bad)
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range texts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if err := WriteFile(path, texts[i], Options{}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	if msg, ok := <-bad; ok {
		t.Fatal(msg)
	}
	if b, _ := os.ReadFile(path); !whole(b) {
		t.Fatal("the last look is not whole")
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("left behind: %v", names)
	}
}

// A caller that renames under a lock syncs first, outside it: after Sync
// nothing more is written, and Rename only moves the file.
func TestSyncThenRename(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "synced")
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Fatal("written after Sync")
	}
	path := filepath.Join(dir, "x")
	if err := f.Rename(path); err != nil {
		t.Fatal(err)
	}
	if err := SyncDir(dir); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "synced" {
		t.Fatalf("%q", got)
	}
	if err := f.Rename(path); err == nil {
		t.Fatal("renamed twice")
	}
}
