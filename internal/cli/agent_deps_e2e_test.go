package cli_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tuios/tuios/internal/e2e"
)

// What an agent installs for itself on its first start in a new home:
// opencode, finding a plugin in its config directory, installs its own
// @opencode-ai/plugin there from the npm registry before it draws
// anything (10 to 25 s on a quiet machine, several times that on a busy
// one, and always behind the real-agent budget). The first test of the
// process that starts the agent makes it from nothing, as a person's
// first start does, and keeps it; later tests start with it in place, as
// a person's second start does. Which test is first does not matter:
// each checks the same behaviour of tuios either way.
var agentDepsMu sync.Mutex

// agentDeps is what one agent installs into its config directory: the
// names (files or directories) it writes there, and the one whose
// presence says the install finished.
type agentDeps struct {
	key   string   // the cache's name for it, one per agent and version
	names []string // what to carry, relative to the config directory
	done  string   // present once the install finished
}

// opencodeDeps is opencode's: npm's package.json, its lock and
// node_modules, and the .gitignore opencode writes beside them.
func opencodeDeps(version string) agentDeps {
	return agentDeps{key: "opencode-" + version,
		names: []string{"node_modules", "package.json", "package-lock.json", ".gitignore"},
		done:  filepath.Join("node_modules", "@opencode-ai", "plugin", "package.json")}
}

// seed puts in dir what an earlier test kept, if one did, and has the
// test keep what its agent installed into dir when it ends, if none did
// yet. Call it before the agent starts.
func (d agentDeps) seed(t *testing.T, dir string) {
	t.Helper()
	kept := filepath.Join(e2e.ProcessDir(t), "agent-deps", d.key)
	agentDepsMu.Lock()
	defer agentDepsMu.Unlock()
	if _, err := os.Stat(filepath.Join(kept, d.done)); err == nil {
		for _, n := range d.names {
			if err := copyTree(filepath.Join(kept, n), filepath.Join(dir, n)); err != nil && !os.IsNotExist(err) {
				t.Fatalf("seeding %s: %v", d.key, err)
			}
		}
		t.Logf("%s: its dependencies kept from an earlier test", d.key)
		return
	}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(dir, d.done)); err != nil {
			return // never finished: the next test installs it
		}
		agentDepsMu.Lock()
		defer agentDepsMu.Unlock()
		if _, err := os.Stat(filepath.Join(kept, d.done)); err == nil {
			return
		}
		tmp := kept + ".tmp"
		os.RemoveAll(tmp)
		for _, n := range d.names {
			if err := copyTree(filepath.Join(dir, n), filepath.Join(tmp, n)); err != nil && !os.IsNotExist(err) {
				t.Logf("keeping %s: %v", d.key, err)
				os.RemoveAll(tmp)
				return
			}
		}
		if err := os.Rename(tmp, kept); err != nil {
			t.Logf("keeping %s: %v", d.key, err)
			os.RemoveAll(tmp)
		}
	})
}

// copyTree copies the file or directory src to dst, symlinks as
// symlinks, modes kept.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, to)
		case d.Type().IsRegular():
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(to, b, info.Mode().Perm())
		}
		return nil // sockets, fifos: nothing an install leaves
	})
}
