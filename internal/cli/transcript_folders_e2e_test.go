package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// singleQuoted is s as one POSIX shell word.
func singleQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// A hookless Claude Code turn ends done from its transcript whatever the
// folder is called. Claude Code names a folder's project directory by
// turning every character that is not an ASCII letter or digit into "-"
// (so ".", "_", spaces and non-ASCII letters too), and shortens a name
// longer than 200 characters with a hash; it records the folder's real
// path, so a symlink on the way there changes nothing. The pane joins the
// transcript by the session Claude Code's session file names for its
// process, wherever that transcript is.
func TestRealClaudeCodeTurnInAnyFolder(t *testing.T) {
	t.Parallel()
	in := findClaude(t)
	npm := func(t *testing.T, home, scratch string) string {
		if in.stub {
			t.Skip("this Claude Code install has npm's stub as bin/claude.exe (postinstall not run)")
		}
		return in.shim
	}
	mk := func(t *testing.T, dir string) string {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		return real
	}
	places := []struct {
		name  string
		place func(t *testing.T, e *env) (string, string)
	}{
		{"dot underscore space unicode", func(t *testing.T, e *env) (string, string) {
			w := mk(t, filepath.Join(e.dir, "src", "github.com", "my_org", "tidy repo.v2 Ünïcødé"))
			return w, w
		}},
		{"symlinked", func(t *testing.T, e *env) (string, string) {
			w := mk(t, filepath.Join(e.dir, "real", ".dotfiles"))
			link := filepath.Join(e.dir, "link")
			if err := os.Symlink(w, link); err != nil {
				t.Fatal(err)
			}
			return w, link
		}},
		{"300 characters", func(t *testing.T, e *env) (string, string) {
			dir := e.dir
			for len(dir) < 300 {
				dir = filepath.Join(dir, strings.Repeat("long_name.", 9))
			}
			w := mk(t, dir)
			t.Logf("a %d-character folder", len(w))
			return w, w
		}},
	}
	for _, p := range places {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel() // each turn has its own world and stand-in
			claudeTurn(t, npm, "", p.place)
		})
	}
}
