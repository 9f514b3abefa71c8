package integration

import (
	"os"
	"strings"
	"testing"
)

// Entries an older tuios (integration 2) wrote: a program path of its
// own, an event no longer wired (PreCompact), and no SubagentStart or
// SubagentStop, beside the person's own hook.
const olderSettings = `{
  "model": "opus",
  "hooks": {
    "SessionStart": [
      { "hooks": [ { "type": "command", "command": "/old/bin/tuios agent-hook claude-code --integration 2", "timeout": 10 } ] }
    ],
    "UserPromptSubmit": [
      { "hooks": [ { "type": "command", "command": "/old/bin/tuios agent-hook claude-code --integration 2", "timeout": 10 } ] }
    ],
    "PreCompact": [
      { "hooks": [ { "type": "command", "command": "/old/bin/tuios agent-hook claude-code --integration 2", "timeout": 10 } ] }
    ],
    "Stop": [
      { "hooks": [ { "type": "command", "command": "say done" } ] },
      { "hooks": [ { "type": "command", "command": "/old/bin/tuios agent-hook claude-code --integration 2", "timeout": 10 } ] }
    ]
  }
}
`

// olderWithoutOurs is olderSettings with tuios's entries taken out.
const olderWithoutOurs = `{
  "model": "opus",
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "say done" } ] }
    ]
  }
}
`

func TestUpgradeOlderVersion(t *testing.T) {
	h := harness(t, "claude-code")
	for _, c := range []struct {
		name    string
		program string // Options.Program
		want    string // the program the entries run after the upgrade
	}{
		{"keeps the old program", "", "/old/bin/tuios"},
		{"program given", "/new/bin/tuios", "/new/bin/tuios"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newHome(t)
			path := f.settings(h, olderSettings, 0o600)

			st := StatusOf(h, f.env)
			if st.State != StateOutOfDate || st.Version != 2 || st.Current != h.Version || st.Program != "/old/bin/tuios" {
				t.Errorf("status before: %+v", st)
			}
			if !strings.Contains(st.Detail, "tuios integration install claude-code") {
				t.Errorf("out of date detail %q does not say how to update", st.Detail)
			}

			res := mustInstall(t, h, Options{Env: f.env, Program: c.program, Default: "/default/tuios"})
			if !res.Changed || res.Program != c.want {
				t.Errorf("install: %+v, want Changed and Program %s", res, c.want)
			}
			out := readText(t, path)
			assertWired(t, h, out, h.HookCommand(c.want))
			if strings.Contains(out, "--integration 2") {
				t.Errorf("an old entry is left:\n%s", out)
			}
			if strings.Contains(out, "PreCompact") {
				t.Errorf("the entry for an event no longer wired is left:\n%s", out)
			}
			if !strings.Contains(out, `{ "hooks": [ { "type": "command", "command": "say done" } ] }`) {
				t.Errorf("the person's hook is gone:\n%s", out)
			}
			st = StatusOf(h, f.env)
			if st.State != StateInstalled || st.Version != h.Version || st.Program != c.want || st.Detail != "its hooks run "+c.want {
				t.Errorf("status after: %+v", st)
			}
			// The file held tuios's entries already: it is not the
			// original, and a copy of it would hand tuios's hooks back.
			if exists(path + BackupSuffix) {
				t.Error("the upgrade backed up a file holding tuios's own entries")
			}
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v after the upgrade", fi.Mode().Perm())
			}
			mustUninstall(t, h, f.env)
			if got := readText(t, path); got != olderWithoutOurs {
				t.Errorf("after uninstall:\n%s\n--- want\n%s", got, olderWithoutOurs)
			}
		})
	}
}

// An entry of the very first integration carried no --integration flag.
func TestUpgradeUnversionedEntry(t *testing.T) {
	h := harness(t, "qwen")
	f := newHome(t)
	path := f.settings(h, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"tuios agent-hook qwen"}]}]}}`, 0o644)
	if st := StatusOf(h, f.env); st.State != StateOutOfDate || st.Version != 0 || st.Program != "tuios" {
		t.Errorf("status %+v", st)
	}
	mustInstall(t, h, Options{Env: f.env, Default: prog})
	assertWired(t, h, readText(t, path), h.HookCommand("tuios"))
	if st := StatusOf(h, f.env); st.State != StateInstalled {
		t.Errorf("status after %+v", st)
	}
}

// A current install that misses an event (the person deleted one) is out
// of date, and install puts the event back.
func TestStatusMissingEvent(t *testing.T) {
	h := harness(t, "codex")
	f := newHome(t)
	path := f.settings(h, "{}\n", 0o644)
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	root, _ := parseJSON(readText(t, path))
	text := removeRef(readText(t, path), root, findOurs(root, h.ID)[0])
	writeFile(t, path, text, 0o644)
	if st := StatusOf(h, f.env); st.State != StateOutOfDate || st.Version != h.Version {
		t.Errorf("status %+v", st)
	}
	if res := mustInstall(t, h, Options{Env: f.env}); !res.Changed || res.Program != prog {
		t.Errorf("install %+v", res)
	}
	assertWired(t, h, readText(t, path), h.HookCommand(prog))
}

func TestStatus(t *testing.T) {
	claude := harness(t, "claude-code")
	t.Run("not installed, never ran", func(t *testing.T) {
		f := newHome(t)
		st := StatusOf(claude, f.env)
		if st.State != StateNotInstalled || st.ConfigDir || !strings.Contains(st.Detail, "run it once first") {
			t.Errorf("%+v", st)
		}
		if st.File != claude.File(f.env) || st.Reports != ReportsState || st.Current != claude.Version || st.Name != "Claude Code" {
			t.Errorf("%+v", st)
		}
	})
	t.Run("not installed, no file", func(t *testing.T) {
		f := newHome(t)
		f.settings(claude, "", 0)
		st := StatusOf(claude, f.env)
		if st.State != StateNotInstalled || !st.ConfigDir || st.Detail != "" || st.Program != "" || st.Version != 0 {
			t.Errorf("%+v", st)
		}
	})
	t.Run("not installed, the person's hooks only", func(t *testing.T) {
		f := newHome(t)
		f.settings(claude, userHooksSettings, 0o644)
		if st := StatusOf(claude, f.env); st.State != StateNotInstalled {
			t.Errorf("%+v", st)
		}
	})
	t.Run("another harness's entries", func(t *testing.T) {
		f := newHome(t)
		qwen := harness(t, "qwen")
		f.settings(qwen, "", 0)
		// Qwen's settings hold entries for claude-code (copied over): not Qwen's.
		writeFile(t, qwen.File(f.env), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"tuios agent-hook claude-code --integration 3"}]}]}}`, 0o644)
		if st := StatusOf(qwen, f.env); st.State != StateNotInstalled {
			t.Errorf("%+v", st)
		}
	})
	t.Run("installed", func(t *testing.T) {
		f := newHome(t)
		f.settings(claude, jsoncSettings, 0o644)
		mustInstall(t, claude, Options{Env: f.env, Program: prog})
		st := StatusOf(claude, f.env)
		if st.State != StateInstalled || st.Program != prog || st.Version != claude.Version || st.Detail != "its hooks run "+prog {
			t.Errorf("%+v", st)
		}
	})
	t.Run("cannot read", func(t *testing.T) {
		f := newHome(t)
		path := f.settings(claude, "{\n  \"model\": \"opus\"\n  \"env\": {}\n}\n", 0o644)
		st := StatusOf(claude, f.env)
		if st.State != StateCannotRead || !strings.Contains(st.Detail, path) || !strings.Contains(st.Detail, "line 3") {
			t.Errorf("%+v", st)
		}
	})
	t.Run("cannot read, unreadable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file")
		}
		f := newHome(t)
		f.settings(claude, compactSettings, 0o000)
		if st := StatusOf(claude, f.env); st.State != StateCannotRead {
			t.Errorf("%+v", st)
		}
	})
	t.Run("no integration", func(t *testing.T) {
		f := newHome(t)
		for _, id := range []string{"aider", "cline", "goose", "kiro", "maki"} {
			h := harness(t, id)
			st := StatusOf(h, f.env)
			if st.State != StateNoIntegration || st.Detail != h.Reason || st.Reports != ReportsNothing || st.Current != 0 || st.File != "" {
				t.Errorf("%s: %+v", id, st)
			}
		}
	})
}
