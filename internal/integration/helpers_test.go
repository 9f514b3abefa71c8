package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// home is a fixture home directory with its own environment.
type home struct {
	t    *testing.T
	dir  string
	vars map[string]string
	env  Env
}

func newHome(t *testing.T) *home {
	t.Helper()
	h := &home{t: t, dir: t.TempDir(), vars: map[string]string{}}
	h.env = Env{Home: h.dir, Getenv: func(k string) string { return h.vars[k] }}
	return h
}

// harness looks a harness up by id, failing the test when it is missing.
func harness(t *testing.T, id string) Harness {
	t.Helper()
	h, ok := Lookup(id)
	if !ok {
		t.Fatalf("Lookup(%q) found nothing", id)
	}
	return h
}

// settings makes h's config directory and, unless text is "", writes its
// settings file with the given permissions; it returns the file's path.
func (f *home) settings(h Harness, text string, mode os.FileMode) string {
	f.t.Helper()
	if err := os.MkdirAll(h.ConfigDir(f.env), 0o755); err != nil {
		f.t.Fatal(err)
	}
	path := h.File(f.env)
	if text != "" {
		writeFile(f.t, path, text, mode)
	}
	return path
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// age sets a file's mtime an hour back, so that a rewrite shows.
func age(t *testing.T, path string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return old
}

func mtime(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// code returns err's *Error code, failing the test when err is not one.
func code(t *testing.T, err error) Code {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v is not *Error", err, err)
	}
	return e.Code()
}

// mustInstall installs and fails on an error.
func mustInstall(t *testing.T, h Harness, opt Options) Result {
	t.Helper()
	res, err := Install(h, opt)
	if err != nil {
		t.Fatalf("Install(%s): %v", h.ID, err)
	}
	return res
}

func mustUninstall(t *testing.T, h Harness, env Env) Result {
	t.Helper()
	res, err := Uninstall(h, env)
	if err != nil {
		t.Fatalf("Uninstall(%s): %v", h.ID, err)
	}
	return res
}

// insertion returns what out adds to orig when out is orig with one run
// of bytes inserted, and ok=false when orig's bytes did not all stay.
func insertion(orig, out string) (string, bool) {
	k := 0
	for k < len(orig) && k < len(out) && orig[k] == out[k] {
		k++
	}
	s := 0
	for s < len(orig)-k && s < len(out)-k && orig[len(orig)-1-s] == out[len(out)-1-s] {
		s++
	}
	if k+s != len(orig) {
		return "", false
	}
	return out[k : len(out)-s], true
}

// subsequence reports whether every byte of orig stays in out, in order.
func subsequence(orig, out string) bool {
	j := 0
	for i := 0; i < len(out) && j < len(orig); i++ {
		if out[i] == orig[j] {
			j++
		}
	}
	return j == len(orig)
}

// ours parses text and lists tuios's entries for h, failing on a parse error.
func ours(t *testing.T, h Harness, text string) []hookRef {
	t.Helper()
	root, err := parseJSON(text)
	if err != nil {
		t.Fatalf("the file does not parse: %v\n%s", err, text)
	}
	return findOurs(root, h.ID)
}

// assertWired checks that text holds exactly one entry per wired event,
// each running command.
func assertWired(t *testing.T, h Harness, text, command string) {
	t.Helper()
	refs := ours(t, h, text)
	got := map[string]int{}
	for _, r := range refs {
		got[r.event]++
		if r.command != command {
			t.Errorf("%s entry runs %q, want %q", r.event, r.command, command)
		}
	}
	for _, e := range h.hooks.events {
		if got[e] != 1 {
			t.Errorf("event %s has %d entries of tuios's, want 1", e, got[e])
		}
	}
	if len(refs) != len(h.hooks.events) {
		t.Errorf("%d entries of tuios's, want %d", len(refs), len(h.hooks.events))
	}
}

// dirNames lists a directory's entries (to catch stray temporary files).
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	for _, n := range dirNames(t, dir) {
		if strings.Contains(n, ".tuios-") {
			t.Errorf("a temporary file was left behind: %s", filepath.Join(dir, n))
		}
	}
}
