package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A state file is read only when it is this user's, private, regular and
// within its bound; a missing one is no file, not a refusal.
func TestReadPrivateRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	uid := os.Getuid()
	p := filepath.Join(dir, "state.json")
	if b, why := ReadPrivate(p, uid, 100); b != nil || why != "" {
		t.Fatalf("missing: %q %q", b, why)
	}
	if err := WriteFile(p, []byte(`{"a":1}`), Options{}); err != nil {
		t.Fatal(err)
	}
	if b, why := ReadPrivate(p, uid, 100); string(b) != `{"a":1}` || why != "" {
		t.Fatalf("private: %q %q", b, why)
	}
	if _, why := ReadPrivate(p, uid, 3); !strings.Contains(why, "over 3") {
		t.Fatalf("too big: %q", why)
	}
	if _, why := ReadPrivate(p, uid+1, 100); !strings.Contains(why, "belongs to uid") {
		t.Fatalf("another uid: %q", why)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, why := ReadPrivate(p, uid, 100); b != nil || !strings.Contains(why, "0644") {
		t.Fatalf("readable by others: %q %q", b, why)
	}
	if _, why := ReadPrivate(dir, uid, 100); why == "" {
		t.Fatal("a directory was read as a state file")
	}
}
