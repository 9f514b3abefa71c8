package integration

import (
	"strings"
	"testing"
)

// A settings file tuios created has no original: install keeps no
// backup, and uninstall takes the file away again when nothing else is
// in it, leaving no backup holding tuios's own hooks.
func TestUninstallRemovesTheFileTuiosCreated(t *testing.T) {
	for _, id := range []string{"gemini-cli", "codex", "claude-code"} {
		t.Run(id, func(t *testing.T) {
			f := newHome(t)
			h := harness(t, id)
			path := f.settings(h, "", 0)
			opt := Options{Env: f.env, Default: "/usr/bin/tuios"}
			res, err := Install(h, opt)
			if err != nil || !res.Changed || res.Backup != "" {
				t.Fatalf("install: %+v %v", res, err)
			}
			if exists(path + BackupSuffix) {
				t.Fatal("a backup of a file that did not exist")
			}
			// An update (another program) is no first time either.
			if _, err := Install(h, Options{Env: f.env, Program: "/opt/tuios"}); err != nil {
				t.Fatal(err)
			}
			if exists(path + BackupSuffix) {
				t.Fatalf("the update backed up tuios's own file: %q", readText(t, path+BackupSuffix))
			}
			res, err = Uninstall(h, f.env)
			if err != nil || !res.Changed || !strings.Contains(res.Note, "created") {
				t.Fatalf("uninstall: %+v %v", res, err)
			}
			if exists(path) || exists(path+BackupSuffix) {
				t.Fatalf("left behind: file %v backup %v", exists(path), exists(path+BackupSuffix))
			}
		})
	}
}

// What the person added to a file tuios created stays after uninstall,
// and still no backup appears.
func TestUninstallKeepsWhatThePersonAddedToACreatedFile(t *testing.T) {
	f := newHome(t)
	h := harness(t, "gemini-cli")
	path := f.settings(h, "", 0)
	if _, err := Install(h, Options{Env: f.env, Default: "/usr/bin/tuios"}); err != nil {
		t.Fatal(err)
	}
	text := readText(t, path)
	writeFile(t, path, strings.Replace(text, "{", "{\n  \"theme\": \"dark\",", 1), 0o644)
	if _, err := Uninstall(h, f.env); err != nil {
		t.Fatal(err)
	}
	got := readText(t, path)
	if !strings.Contains(got, `"theme": "dark"`) || strings.Contains(got, "agent-hook") {
		t.Fatalf("after uninstall: %s", got)
	}
	if exists(path + BackupSuffix) {
		t.Fatal("uninstall wrote a backup")
	}
}

// A person's own file: the backup is the original, uninstall gives it
// back byte for byte, and the file stays. A file with nothing of
// tuios's in it is never removed.
func TestUninstallOfThePersonsFile(t *testing.T) {
	f := newHome(t)
	h := harness(t, "gemini-cli")
	orig := "{}\n"
	path := f.settings(h, orig, 0o600)
	if res, err := Uninstall(h, f.env); err != nil || res.Changed || readText(t, path) != orig {
		t.Fatalf("uninstall with nothing installed: %+v %v", res, err)
	}
	if _, err := Install(h, Options{Env: f.env, Default: "/usr/bin/tuios"}); err != nil {
		t.Fatal(err)
	}
	if readText(t, path+BackupSuffix) != orig {
		t.Fatal("the backup is not the original")
	}
	if _, err := Uninstall(h, f.env); err != nil {
		t.Fatal(err)
	}
	if readText(t, path) != orig {
		t.Fatalf("not given back: %q", readText(t, path))
	}
}

// A backup an older tuios made of the file it had created holds tuios's
// own hooks: uninstall drops it rather than keep it as "the original".
func TestUninstallDropsABackupOfTuiosHooks(t *testing.T) {
	f := newHome(t)
	h := harness(t, "codex")
	path := f.settings(h, "", 0)
	if _, err := Install(h, Options{Env: f.env, Default: "/usr/bin/tuios"}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path+BackupSuffix, readText(t, path), 0o644)
	if _, err := Uninstall(h, f.env); err != nil {
		t.Fatal(err)
	}
	if exists(path + BackupSuffix) {
		t.Fatalf("the backup of tuios's hooks is kept: %q", readText(t, path+BackupSuffix))
	}
	if exists(path) {
		t.Fatalf("the created file is kept: %q", readText(t, path))
	}
}
