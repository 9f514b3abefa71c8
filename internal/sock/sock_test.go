package sock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	if p := Path(get); filepath.Base(filepath.Dir(p)) == "" {
		t.Fatal(p)
	}
	env["XDG_RUNTIME_DIR"] = "/run/user/7"
	if p := Path(get); p != "/run/user/7/tuios/tuios.sock" {
		t.Fatal(p)
	}
	env["TUIOS_SOCKET"] = "/x/y.sock"
	if p := Path(get); p != "/x/y.sock" {
		t.Fatal(p)
	}
}

func TestEnsureDirRefusesUnsafeDirectories(t *testing.T) {
	base := t.TempDir()
	good := filepath.Join(base, "tuios", "tuios.sock")
	if err := EnsureDir(good); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Dir(good)); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	open := filepath.Join(base, "open")
	os.Mkdir(open, 0o755)
	var se *Error
	if err := EnsureDir(filepath.Join(open, "s.sock")); !errors.As(err, &se) || se.Reason != "dir_not_private" {
		t.Fatalf("open dir: %v", err)
	}
	link := filepath.Join(base, "link")
	os.Symlink(filepath.Dir(good), link)
	if err := EnsureDir(filepath.Join(link, "s.sock")); !errors.As(err, &se) || se.Reason != "dir_symlink" {
		t.Fatalf("symlink: %v", err)
	}
}
