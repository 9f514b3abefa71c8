package gitindex

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCopyKeepsTheIndexAndItsTime(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "index"), filepath.Join(dir, "copy")
	if err := os.WriteFile(from, []byte("DIRC index bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	if err := os.Chtimes(from, when, when); err != nil {
		t.Fatal(err)
	}
	if err := Copy(from, to); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(to)
	if err != nil || !bytes.Equal(b, []byte("DIRC index bytes")) {
		t.Fatalf("copy = %q, %v", b, err)
	}
	fi, err := os.Stat(to)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(when) {
		t.Errorf("copy's time = %v, want the index's %v", fi.ModTime(), when)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("copy's mode = %v, want 0600", fi.Mode().Perm())
	}
}

func TestCopyOfNoIndexIsNothing(t *testing.T) {
	dir := t.TempDir()
	to := filepath.Join(dir, "copy")
	if err := Copy(filepath.Join(dir, "index"), to); err != nil {
		t.Fatalf("a missing index: %v, want nil", err)
	}
	if _, err := os.Stat(to); !os.IsNotExist(err) {
		t.Errorf("a missing index left a copy: %v", err)
	}
}

func TestCopyIntoAFolderThatIsNotThereFails(t *testing.T) {
	dir := t.TempDir()
	from := filepath.Join(dir, "index")
	if err := os.WriteFile(from, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Copy(from, filepath.Join(dir, "missing", "copy")); err == nil {
		t.Error("copy into a missing folder: nil error")
	}
}
