package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The harness saves the file while tuios edits it, once: the edit starts
// over from what the harness saved, and keeps the harness's change.
func TestEditFileRetriesOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, `{"a": 1}`, 0o600)
	calls := 0
	var seen []string
	changed, err := editFile(path, func(old string, exists bool) (string, error) {
		calls++
		seen = append(seen, old)
		if calls == 1 {
			writeFile(t, path, `{"a": 2}`, 0o600) // the harness saves meanwhile
		}
		return strings.Replace(old, "}", `, "b": true}`, 1), nil
	})
	if err != nil || !changed {
		t.Fatalf("editFile: changed=%v err=%v", changed, err)
	}
	if calls != 2 || seen[0] != `{"a": 1}` || seen[1] != `{"a": 2}` {
		t.Errorf("change ran %d times over %q", calls, seen)
	}
	if got := readText(t, path); got != `{"a": 2, "b": true}` {
		t.Errorf("the file is %q, want the edit over the harness's save", got)
	}
	if got := readText(t, path+BackupSuffix); got != `{"a": 2}` {
		t.Errorf("the backup is %q, want the file the edit started from", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	noTempFiles(t, dir)
}

// The harness saves the file on every attempt: tuios gives up and writes
// nothing.
func TestEditFileChangedEveryTime(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, `{"n": 0}`, 0o644)
	calls := 0
	var last string
	_, err := editFile(path, func(old string, exists bool) (string, error) {
		calls++
		last = `{"n": ` + string(rune('0'+calls)) + `}`
		writeFile(t, path, last, 0o644)
		return `{"tuios": true}`, nil
	})
	if c := code(t, err); c != CodeChangedDuringEdit {
		t.Fatalf("code %s, want %s", c, CodeChangedDuringEdit)
	}
	if e := err.(*Error); e.Hint() != "try again" || !strings.Contains(e.Error(), path) {
		t.Errorf("error %q hint %q", e.Error(), e.Hint())
	}
	if calls != 2 {
		t.Errorf("change ran %d times, want 2 (one retry)", calls)
	}
	if got := readText(t, path); got != last {
		t.Errorf("the file is %q, want the harness's last save %q", got, last)
	}
	if exists(path + BackupSuffix) {
		t.Error("a backup was written")
	}
	noTempFiles(t, dir)
}

// A file that appears during the edit counts as a change too.
func TestEditFileCreatedDuringEdit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	calls := 0
	changed, err := editFile(path, func(old string, exists bool) (string, error) {
		calls++
		if calls == 1 {
			if exists {
				t.Error("the file exists on the first read")
			}
			writeFile(t, path, "{}", 0o644)
		} else if !exists || old != "{}" {
			t.Errorf("second read: %q exists=%v", old, exists)
		}
		return `{"x": 1}`, nil
	})
	if err != nil || !changed || calls != 2 {
		t.Fatalf("changed=%v err=%v calls=%d", changed, err, calls)
	}
	if got := readText(t, path); got != `{"x": 1}` {
		t.Errorf("file %q", got)
	}
}

// An unchanged text is not written, even when the file is read-only.
func TestEditFileNoChangeNoWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	writeFile(t, path, "{}", 0o444)
	old := age(t, path)
	changed, err := editFile(path, func(old string, _ bool) (string, error) { return old, nil })
	if err != nil || changed {
		t.Errorf("changed=%v err=%v", changed, err)
	}
	if !mtime(t, path).Equal(old) || exists(path+BackupSuffix) {
		t.Error("the file was touched")
	}
}

// A file tuios cannot write is refused with CodeCannotWrite, the original
// left as it was.
func TestEditFileCannotWrite(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	writeFile(t, path, "{}", 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	_, err := editFile(path, func(string, bool) (string, error) { return `{"a":1}`, nil })
	if c := code(t, err); c != CodeCannotWrite {
		t.Errorf("code %s", c)
	}
	if got := readText(t, path); got != "{}" {
		t.Errorf("file %q", got)
	}
}

// fake is a harness that owns a whole file (a plugin), as a harness of
// that kind would be listed in registry.go.
func fake(version int) Harness {
	return Harness{ID: "fake-agent", Name: "Fake Agent", Binary: "fake-agent", Reports: ReportsState, Version: version,
		dir: ".fake", file: filepath.Join("plugins", "tuios.js"),
		owned: &ownedFile{comment: "//", body: func(h Harness, program string) string {
			return "export const run = (event) => spawn(" + `"` + program + `"` + ", [\"agent-hook\", \"" + h.ID + "\", event]);\n"
		}}}
}

func TestOwnedFile(t *testing.T) {
	h := fake(2)
	f := newHome(t)
	if _, err := Install(h, Options{Env: f.env, Program: prog}); code(t, err) != CodeNoConfigDir {
		t.Fatalf("install without the config dir: %v", err)
	}
	os.MkdirAll(h.ConfigDir(f.env), 0o755)
	path := h.File(f.env)
	if st := StatusOf(h, f.env); st.State != StateNotInstalled {
		t.Errorf("status %+v", st)
	}

	// The plugins directory is made; the file starts with the marker.
	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	if !res.Changed || res.Program != prog || res.Backup != "" {
		t.Errorf("install %+v", res)
	}
	text := readText(t, path)
	want := "// tuios-integration: fake-agent v2 (written by tuios integration install; tuios integration uninstall removes it)\n" +
		"// program: " + prog + "\n" +
		`export const run = (event) => spawn("` + prog + `", ["agent-hook", "fake-agent", event]);` + "\n"
	if text != want {
		t.Errorf("owned file:\n%s\n--- want\n%s", text, want)
	}
	if ours, v := ownedState(text, true, h.ID); !ours || v != 2 {
		t.Errorf("ownedState = %v %d", ours, v)
	}
	st := StatusOf(h, f.env)
	if st.State != StateInstalled || st.Version != 2 || st.Program != prog {
		t.Errorf("status %+v", st)
	}
	old := age(t, path)
	if res := mustInstall(t, h, Options{Env: f.env, Default: "/x/tuios"}); res.Changed {
		t.Errorf("second install %+v", res)
	}
	if !mtime(t, path).Equal(old) {
		t.Error("an install with nothing to change rewrote the owned file")
	}

	// A newer tuios upgrades it, keeping the program.
	h3 := fake(3)
	if st := StatusOf(h3, f.env); st.State != StateOutOfDate || st.Version != 2 {
		t.Errorf("status against v3: %+v", st)
	}
	if res := mustInstall(t, h3, Options{Env: f.env, Default: "/x/tuios"}); !res.Changed {
		t.Errorf("upgrade %+v", res)
	}
	if got := readText(t, path); !strings.HasPrefix(got, "// tuios-integration: fake-agent v3 ") || programInOwned(got, "//") != prog {
		t.Errorf("after upgrade:\n%s", got)
	}
	if st := StatusOf(h3, f.env); st.State != StateInstalled {
		t.Errorf("status %+v", st)
	}

	res = mustUninstall(t, h3, f.env)
	if !res.Changed || exists(path) {
		t.Errorf("uninstall %+v, file still there: %v", res, exists(path))
	}
	if res := mustUninstall(t, h3, f.env); res.Changed {
		t.Errorf("a second uninstall %+v", res)
	}
}

// A file at the owned path without tuios's marker (or with another
// harness's) belongs to someone else: never overwritten or removed.
func TestOwnedFileNotOurs(t *testing.T) {
	h := fake(2)
	for name, text := range map[string]string{
		"the person's plugin":     "// my own plugin\nexport default {}\n",
		"another harness's":       "// tuios-integration: other-agent v2 (written by tuios)\n// program: /x\n",
		"marker not first line":   "\n// tuios-integration: fake-agent v2\n",
		"empty file":              "",
		"marker in the body only": "export default {}\n// tuios-integration: fake-agent v2\n",
	} {
		t.Run(name, func(t *testing.T) {
			f := newHome(t)
			path := h.File(f.env)
			os.MkdirAll(filepath.Dir(path), 0o755)
			writeFile(t, path, text, 0o640)
			old := age(t, path)

			_, err := Install(h, Options{Env: f.env, Program: prog})
			if c := code(t, err); c != CodeNotOurs {
				t.Errorf("install code %s", c)
			}
			if e := err.(*Error); !strings.Contains(e.Error(), path) || e.Hint() == "" {
				t.Errorf("error %q hint %q", e.Error(), e.Hint())
			}
			_, err = Uninstall(h, f.env)
			if c := code(t, err); c != CodeNotOurs {
				t.Errorf("uninstall code %s", c)
			}
			if got := readText(t, path); got != text || !mtime(t, path).Equal(old) {
				t.Errorf("the file was touched: %q", got)
			}
			if exists(path + BackupSuffix) {
				t.Error("a backup was written")
			}
			if st := StatusOf(h, f.env); st.State != StateCannotRead || !strings.Contains(st.Detail, "not written by tuios") {
				t.Errorf("status %+v", st)
			}
			noTempFiles(t, filepath.Dir(path))
		})
	}
}

// writeOwned directly: the owned path's directory is made as needed.
func TestWriteOwnedMakesDirectory(t *testing.T) {
	h := fake(1)
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "tuios.js")
	changed, program, err := writeOwned(h, path, Options{Default: prog})
	if err != nil || !changed || program != prog {
		t.Fatalf("writeOwned: %v %q %v", changed, program, err)
	}
	if ours, v := ownedState(readText(t, path), true, h.ID); !ours || v != 1 {
		t.Errorf("ownedState %v %d", ours, v)
	}
	if ours, _ := ownedState("", false, h.ID); ours {
		t.Error("a missing file is ours")
	}
}

// The harnesses that own a file whole (plugins and extensions): install
// writes it with the marker, status reads it, uninstall removes it; a
// file of the person's at that path is never touched.
func TestOwnedPluginHarnesses(t *testing.T) {
	n := 0
	for _, h := range Harnesses() {
		if h.owned == nil {
			continue
		}
		n++
		t.Run(h.ID, func(t *testing.T) {
			f := newHome(t)
			if _, err := Install(h, Options{Env: f.env, Program: prog}); code(t, err) != CodeNoConfigDir {
				t.Fatalf("install without the config dir: %v", err)
			}
			if err := os.MkdirAll(h.ConfigDir(f.env), 0o755); err != nil {
				t.Fatal(err)
			}
			path := h.File(f.env)
			res := mustInstall(t, h, Options{Env: f.env, Program: "/opt/my tools/tuios"})
			if !res.Changed || res.Note != h.notes || len(res.Files) != 1 || res.Files[0] != path {
				t.Errorf("install %+v", res)
			}
			text := readText(t, path)
			if ours, v := ownedState(text, true, h.ID); !ours || v != h.Version {
				t.Errorf("the file has no marker of %s v%d:\n%s", h.ID, h.Version, text)
			}
			for _, s := range []string{`"/opt/my tools/tuios"`, `"agent-hook"`, `"` + h.ID + `"`, `"--integration"`} {
				if !strings.Contains(text, s) {
					t.Errorf("the plugin does not hold %s", s)
				}
			}
			st := StatusOf(h, f.env)
			if st.State != StateInstalled || st.Program != "/opt/my tools/tuios" || st.Version != h.Version {
				t.Errorf("status %+v", st)
			}
			old := age(t, path)
			if res := mustInstall(t, h, Options{Env: f.env, Default: "/x"}); res.Changed {
				t.Errorf("a second install %+v", res)
			}
			if !mtime(t, path).Equal(old) || readText(t, path) != text {
				t.Error("a second install rewrote the plugin")
			}
			if res := mustUninstall(t, h, f.env); !res.Changed || exists(path) {
				t.Errorf("uninstall %+v; file there: %v", res, exists(path))
			}

			// The person's own file at the path.
			mine := "// my own " + h.Name + " plugin\nexport default {}\n"
			writeFile(t, path, mine, 0o600)
			old = age(t, path)
			if _, err := Install(h, Options{Env: f.env, Program: prog}); code(t, err) != CodeNotOurs {
				t.Errorf("install over the person's file: %v", err)
			}
			if _, err := Uninstall(h, f.env); code(t, err) != CodeNotOurs {
				t.Errorf("uninstall of the person's file: %v", err)
			}
			if readText(t, path) != mine || !mtime(t, path).Equal(old) {
				t.Error("the person's file was touched")
			}
			if st := StatusOf(h, f.env); st.State != StateCannotRead {
				t.Errorf("status over the person's file %+v", st)
			}
		})
	}
	if n == 0 {
		t.Skip("no harness owns a file (TestOwnedFile covers writeOwned with a made-up one)")
	}
}
