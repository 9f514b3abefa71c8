package integration

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect/hook"
)

const prog = "/usr/local/bin/tuios"

// Settings files as people keep them.
var (
	// JSONC: line and block comments, a trailing comma, odd spacing.
	jsoncSettings = `// Claude Code settings, kept by hand
{
  /* the model I use */
  "model": "opus",   // trailing comment
  "permissions": {
    "allow": ["Bash(go test:*)", "Read"], /* inline */
    "deny": []
  },
  // env last
  "env": {"FOO": "bar"},
}
// the end
`
	tabSettings = "{\n\t\"model\": \"sonnet\",\n\t\"statusLine\": {\n\t\t\"type\": \"command\",\n\t\t\"command\": \"~/bin/status\"\n\t}\n}\n"

	compactSettings = `{"model":"opus","permissions":{"allow":["Read"]}}`

	fourSpaceSettings = "{\n    \"model\": \"opus\",\n    \"includeCoAuthoredBy\": false\n}\n"

	crlfSettings = "{\r\n  \"model\": \"opus\",\r\n  \"env\": {\r\n    \"A\": \"1\"\r\n  }\r\n}\r\n"

	// The person's own hooks, in two of the events tuios wires.
	userHooksSettings = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/audit-bash"
          }
        ]
      }
    ],
    // say it aloud
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "say done" }
        ]
      }
    ],
    "PreCompact": [
      { "hooks": [ { "type": "command", "command": "~/bin/save-notes" } ] }
    ]
  }
}
`
)

func TestInstallKeepsEverythingElse(t *testing.T) {
	h := harness(t, "claude-code")
	cases := []struct {
		name, text, unit string
	}{
		{"jsonc comments", jsoncSettings, "  "},
		{"tab indentation", tabSettings, "\t"},
		{"single-line compact", compactSettings, "  "},
		{"four spaces", fourSpaceSettings, "    "},
		{"crlf", crlfSettings, "  "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newHome(t)
			path := f.settings(h, c.text, 0o644)
			res := mustInstall(t, h, Options{Env: f.env, Program: prog})
			if !res.Changed {
				t.Fatal("Changed=false on a first install")
			}
			out := readText(t, path)
			added, ok := insertion(c.text, out)
			if !ok {
				t.Fatalf("install changed bytes outside its entries:\n--- before\n%s\n--- after\n%s", c.text, out)
			}
			if !strings.Contains(added, `"hooks": {`) {
				t.Errorf("the insertion is not the hooks object: %q", added)
			}
			// The inserted lines are indented with the file's own unit.
			for _, line := range strings.Split(added, "\n")[1:] {
				ind := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
				if ind == "" {
					continue
				}
				if strings.Trim(ind, c.unit[:1]) != "" || len(ind)%len(c.unit) != 0 {
					t.Errorf("inserted line %q is not indented in steps of %q", line, c.unit)
				}
			}
			assertWired(t, h, out, h.HookCommand(prog))
			if st := StatusOf(h, f.env); st.State != StateInstalled {
				t.Errorf("status after install = %q (%s), want installed", st.State, st.Detail)
			}
			mustUninstall(t, h, f.env)
			if back := readText(t, path); back != c.text {
				t.Errorf("install then uninstall did not give back the original:\n--- want\n%q\n--- got\n%q", c.text, back)
			}
		})
	}
}

// TestInstallCompactGolden pins what a person sees in the file after an
// install into a one-line settings file.
func TestInstallCompactGolden(t *testing.T) {
	h := harness(t, "gemini-cli")
	f := newHome(t)
	path := f.settings(h, `{"theme":"Dracula"}`, 0o644)
	mustInstall(t, h, Options{Env: f.env, Program: "/opt/tuios"})
	want := `{"theme":"Dracula",
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "BeforeAgent": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "BeforeTool": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "AfterTool": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "AfterAgent": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'",
            "timeout": 5000
          }
        ]
      }
    ]
  }}`
	if got := readText(t, path); got != want {
		t.Errorf("file after install:\n%s\n--- want\n%s", got, want)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(readText(t, path)), &v); err != nil {
		t.Errorf("the result is not strict JSON: %v", err)
	}
}

func TestInstallKeepsUserHooks(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	path := f.settings(h, userHooksSettings, 0o644)
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	out := readText(t, path)
	if !subsequence(userHooksSettings, out) {
		t.Fatalf("install dropped bytes of the original:\n%s", out)
	}
	assertWired(t, h, out, h.HookCommand(prog))
	// The person's entries come first in their events, tuios's after.
	root, _ := parseJSON(out)
	for ev, cmd := range map[string]string{"PreToolUse": "~/bin/audit-bash", "Stop": "say done", "PreCompact": "~/bin/save-notes"} {
		arr := root.get("hooks").get(ev)
		if got := arr.elems[0].get("hooks").elems[0].get("command").str; got != cmd {
			t.Errorf("%s[0] runs %q, want the person's %q", ev, got, cmd)
		}
		want := 2
		if ev == "PreCompact" { // not an event tuios wires
			want = 1
		}
		if len(arr.elems) != want {
			t.Errorf("%s has %d groups, want %d", ev, len(arr.elems), want)
		}
	}
	if !strings.Contains(out, "    // say it aloud\n") {
		t.Error("the comment inside hooks was lost")
	}
	mustUninstall(t, h, f.env)
	if back := readText(t, path); back != userHooksSettings {
		t.Errorf("uninstall did not give back the original:\n%s", back)
	}
}

// A handler of the person's in the same group as tuios's stays, with its
// group and matcher, when tuios's handler is upgraded and when it is removed.
func TestInstallKeepsUserHandlerInSharedGroup(t *testing.T) {
	h := harness(t, "claude-code")
	shared := func(ours string) string {
		return `{
  "hooks": {
    "Stop": [
      {
        "matcher": "*",
        "hooks": [
          { "type": "command", "command": "notify-send done" },` + ours + `
          { "type": "command", "command": "~/bin/log-stop", "timeout": 3 }
        ]
      }
    ]
  }
}
`
	}
	withoutOurs := shared("")
	cases := map[string]string{
		"current": "\n          { \"type\": \"command\", \"command\": \"/old/tuios agent-hook claude-code --integration 4\", \"timeout\": 10 },",
		"older":   "\n          { \"type\": \"command\", \"command\": \"/old/tuios agent-hook claude-code --integration 2\" },",
	}
	for name, oursText := range cases {
		t.Run(name, func(t *testing.T) {
			f := newHome(t)
			orig := shared(oursText)
			path := f.settings(h, orig, 0o644)
			mustInstall(t, h, Options{Env: f.env, Default: prog})
			out := readText(t, path)
			// The program the old entry ran is kept.
			assertWired(t, h, out, h.HookCommand("/old/tuios"))
			for _, s := range []string{`"command": "notify-send done"`, `"command": "~/bin/log-stop", "timeout": 3`, `"matcher": "*"`} {
				if !strings.Contains(out, s) {
					t.Errorf("the person's %s is gone after install:\n%s", s, out)
				}
			}
			mustUninstall(t, h, f.env)
			back := readText(t, path)
			if back != withoutOurs {
				t.Errorf("after uninstall:\n%s\n--- want the original without tuios's handler:\n%s", back, withoutOurs)
			}
		})
	}
}

func TestInstallIdempotentAndBackup(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	path := f.settings(h, jsoncSettings, 0o644)
	bak := path + BackupSuffix

	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	if !res.Changed || res.Backup != bak || res.Program != prog {
		t.Errorf("first install: %+v, want Changed, Backup %s, Program %s", res, bak, prog)
	}
	if got := readText(t, bak); got != jsoncSettings {
		t.Errorf("the backup is not the original:\n%s", got)
	}
	installed := readText(t, path)
	old := age(t, path)
	bakTime := age(t, bak)

	for i := range 2 {
		res = mustInstall(t, h, Options{Env: f.env, Program: prog})
		if res.Changed || res.Backup != "" {
			t.Errorf("install #%d: %+v, want Changed=false and no backup named", i+2, res)
		}
		if got := readText(t, path); got != installed {
			t.Errorf("install #%d rewrote the file", i+2)
		}
		if !mtime(t, path).Equal(old) {
			t.Errorf("install #%d touched the file's mtime", i+2)
		}
	}
	// Without Program, the installed program is kept: still nothing to do.
	if res = mustInstall(t, h, Options{Env: f.env, Default: "/elsewhere/tuios"}); res.Changed || res.Program != prog {
		t.Errorf("install with only a default: %+v, want no change and Program %s", res, prog)
	}

	// The person edits the file, uninstalls, installs with another
	// program: the backup still holds the very first original.
	edited := strings.Replace(readText(t, path), `"model": "opus"`, `"model": "sonnet"`, 1)
	writeFile(t, path, edited, 0o644)
	mustUninstall(t, h, f.env)
	mustInstall(t, h, Options{Env: f.env, Program: "/other/tuios"})
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	if got := readText(t, bak); got != jsoncSettings {
		t.Errorf("a later install overwrote the backup:\n%s", got)
	}
	if !mtime(t, bak).Equal(bakTime) {
		t.Error("a later install touched the backup")
	}
	noTempFiles(t, filepath.Dir(path))
}

func TestInstallCreatesMissingFile(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	path := f.settings(h, "", 0)
	res := mustInstall(t, h, Options{Env: f.env, Default: prog})
	if !res.Changed || res.Backup != "" || res.Program != prog {
		t.Errorf("install into no file: %+v", res)
	}
	out := readText(t, path)
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("the new file is not JSON: %v\n%s", err, out)
	}
	if len(v) != 1 || v["hooks"] == nil {
		t.Errorf("the new file holds more than hooks: %v", v)
	}
	assertWired(t, h, out, h.HookCommand(prog))
	if exists(path + BackupSuffix) {
		t.Error("a backup was made of a file that did not exist")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file has mode %v, want 0644", fi.Mode().Perm())
	}
	// Uninstall takes away the file tuios created, as nothing else is
	// in it, and leaves no backup.
	mustUninstall(t, h, f.env)
	if exists(path) || exists(path+BackupSuffix) {
		t.Errorf("after uninstall: file %v, backup %v", exists(path), exists(path+BackupSuffix))
	}
}

// An empty (or blank) file is treated as an empty object.
func TestInstallIntoEmptyFile(t *testing.T) {
	h := harness(t, "qwen")
	f := newHome(t)
	path := f.settings(h, "\n", 0o600)
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	assertWired(t, h, readText(t, path), h.HookCommand(prog))
	if got := readText(t, path+BackupSuffix); got != "\n" {
		t.Errorf("backup %q", got)
	}
}

func TestInstallKeepsPermissions(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o640, 0o644} {
		h := harness(t, "claude-code")
		f := newHome(t)
		path := f.settings(h, jsoncSettings, mode)
		mustInstall(t, h, Options{Env: f.env, Program: prog})
		for _, p := range []string{path, path + BackupSuffix} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("%s has mode %v after install, want %v", filepath.Base(p), fi.Mode().Perm(), mode)
			}
		}
		mustUninstall(t, h, f.env)
		if fi, _ := os.Stat(path); fi.Mode().Perm() != mode {
			t.Errorf("mode %v after uninstall, want %v", fi.Mode().Perm(), mode)
		}
	}
}

func TestInstallRefusesUnparsable(t *testing.T) {
	h := harness(t, "claude-code")
	for _, text := range []string{
		`{"model": "opus",, }`,
		`{"model": "opus"`,
		`{"model": 'opus'}`,
		`[1, 2]`,
		`"just a string"`,
		"{\"a\": \"line\nbreak\"}",
	} {
		f := newHome(t)
		path := f.settings(h, text, 0o600)
		old := age(t, path)
		_, err := Install(h, Options{Env: f.env, Program: prog})
		if c := code(t, err); c != CodeCannotRead {
			t.Errorf("%q: code %s, want %s", text, c, CodeCannotRead)
		}
		if e := err.(*Error); e.Hint() == "" || !strings.Contains(e.Error(), path) {
			t.Errorf("%q: error %q (hint %q) does not name the file or say what to do", text, e.Error(), e.Hint())
		}
		if strings.Count(err.Error(), "cannot read") != 1 {
			t.Errorf("%q: the message says cannot read twice: %q", text, err.Error())
		}
		if got := readText(t, path); got != text || !mtime(t, path).Equal(old) {
			t.Errorf("%q: the file was touched", text)
		}
		if exists(path + BackupSuffix) {
			t.Errorf("%q: a backup was made", text)
		}
		res, err := Uninstall(h, f.env)
		if _, perr := parseJSON(text); perr == nil {
			// It parses but is no object: there is nothing of tuios's in it.
			if err != nil || res.Changed {
				t.Errorf("%q: uninstall %+v %v, want nothing to do", text, res, err)
			}
		} else {
			if c := code(t, err); c != CodeCannotRead {
				t.Errorf("%q: uninstall code %s", text, c)
			}
			if st := StatusOf(h, f.env); st.State != StateCannotRead || st.Detail == "" {
				t.Errorf("%q: status %q %q, want cannot read with a reason", text, st.State, st.Detail)
			}
		}
		if got := readText(t, path); got != text || !mtime(t, path).Equal(old) {
			t.Errorf("%q: uninstall touched the file", text)
		}
		noTempFiles(t, filepath.Dir(path))
	}
}

func TestInstallNeedsConfigDir(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	_, err := Install(h, Options{Env: f.env, Program: prog})
	if c := code(t, err); c != CodeNoConfigDir {
		t.Fatalf("code %s, want %s", c, CodeNoConfigDir)
	}
	if e := err.(*Error); !strings.Contains(e.Error(), filepath.Join(f.dir, ".claude")) || !strings.Contains(e.Hint(), "run the harness once") {
		t.Errorf("error %q hint %q", e.Error(), e.Hint())
	}
	if exists(filepath.Join(f.dir, ".claude")) {
		t.Error("install created the config directory")
	}
	// A file where the directory should be is no directory either.
	writeFile(t, filepath.Join(f.dir, ".claude"), "x", 0o644)
	if _, err := Install(h, Options{Env: f.env, Program: prog}); code(t, err) != CodeNoConfigDir {
		t.Errorf("a file named .claude: %v", err)
	}
	// Uninstall of a harness that never ran is nothing to do.
	if res, err := Uninstall(harness(t, "qwen"), f.env); err != nil || res.Changed {
		t.Errorf("uninstall without a config dir: %+v %v", res, err)
	}
}

func TestConfigDirFromEnvironment(t *testing.T) {
	f := newHome(t)
	moved := filepath.Join(f.dir, "elsewhere", "claude")
	f.vars["CLAUDE_CONFIG_DIR"] = moved
	f.vars["GEMINI_CLI_HOME"] = filepath.Join(f.dir, "ghome")
	cases := map[string]string{
		"claude-code": filepath.Join(moved, "settings.json"),
		"gemini-cli":  filepath.Join(f.dir, "ghome", ".gemini", "settings.json"),
		"codex":       filepath.Join(f.dir, ".codex", "hooks.json"),
		"qwen":        filepath.Join(f.dir, ".qwen", "settings.json"),
		"aider":       "",
	}
	for id, want := range cases {
		if got := harness(t, id).File(f.env); got != want {
			t.Errorf("%s file %q, want %q", id, got, want)
		}
	}
	h := harness(t, "claude-code")
	path := f.settings(h, compactSettings, 0o644)
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	assertWired(t, h, readText(t, path), h.HookCommand(prog))
	if exists(filepath.Join(f.dir, ".claude")) {
		t.Error("install wrote ~/.claude although CLAUDE_CONFIG_DIR moves it")
	}
}

func TestInstallFollowsSymlink(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	dots := filepath.Join(f.dir, "dotfiles")
	os.MkdirAll(dots, 0o755)
	target := filepath.Join(dots, "claude-settings.json")
	writeFile(t, target, jsoncSettings, 0o600)
	path := f.settings(h, "", 0)
	if err := os.Symlink("../dotfiles/claude-settings.json", path); err != nil {
		t.Fatal(err)
	}

	res := mustInstall(t, h, Options{Env: f.env, Program: prog})
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the settings file is no longer a symlink: %v %v", fi.Mode(), err)
	}
	if l, _ := os.Readlink(path); l != "../dotfiles/claude-settings.json" {
		t.Errorf("the link now points at %q", l)
	}
	out := readText(t, target)
	assertWired(t, h, out, h.HookCommand(prog))
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the target's mode is %v", fi.Mode().Perm())
	}
	if got := readText(t, target+BackupSuffix); got != jsoncSettings {
		t.Errorf("the backup beside the target is %q", got)
	}
	if res.Backup != target+BackupSuffix {
		t.Errorf("Result.Backup = %q, want the backup that was written, %q", res.Backup, target+BackupSuffix)
	}
	if st := StatusOf(h, f.env); st.State != StateInstalled {
		t.Errorf("status %q %q", st.State, st.Detail)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, target); got != jsoncSettings {
		t.Errorf("uninstall through the link did not give back the original")
	}
	if fi, _ := os.Lstat(path); fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("uninstall replaced the link")
	}
	noTempFiles(t, filepath.Dir(path))
	noTempFiles(t, dots)
}

func TestInstallRefusesBrokenLink(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	path := f.settings(h, "", 0)
	missing := filepath.Join(f.dir, "dotfiles", "gone.json")
	if err := os.Symlink(missing, path); err != nil {
		t.Fatal(err)
	}
	_, err := Install(h, Options{Env: f.env, Program: prog})
	if c := code(t, err); c != CodeBrokenLink {
		t.Fatalf("code %s, want %s", c, CodeBrokenLink)
	}
	if e := err.(*Error); e.Hint() == "" || !strings.Contains(e.Error(), path) {
		t.Errorf("error %q hint %q", e.Error(), e.Hint())
	}
	if exists(missing) {
		t.Error("install created the link's target")
	}
	if _, err := Uninstall(h, f.env); err == nil {
		// a link to nothing: there is nothing to remove, and nothing was made
		if exists(missing) {
			t.Error("uninstall created the link's target")
		}
	}
	if st := StatusOf(h, f.env); st.State != StateCannotRead {
		t.Errorf("status %q, want cannot read", st.State)
	}
}

func TestNoIntegration(t *testing.T) {
	f := newHome(t)
	for _, h := range Harnesses() {
		if h.Reports != ReportsNothing {
			continue
		}
		if h.Reason == "" {
			t.Errorf("%s has no integration and no reason", h.ID)
		}
		if _, err := Install(h, Options{Env: f.env, Program: prog}); code(t, err) != CodeNoIntegration {
			t.Errorf("%s install: %v", h.ID, err)
		} else if !strings.Contains(err.Error(), h.Reason) {
			t.Errorf("%s: the error %q does not give the reason", h.ID, err)
		}
		if _, err := Uninstall(h, f.env); code(t, err) != CodeNoIntegration {
			t.Errorf("%s uninstall: %v", h.ID, err)
		}
	}
}

// A program whose name is not tuios (tuios integration install --command)
// is wired like any other.
func TestInstallProgramOfAnyName(t *testing.T) {
	for _, p := range []string{"/opt/bin/tt", "/home/me/my tools/tuios", "/home/o'brien/bin/tuios-dev"} {
		h := harness(t, "claude-code")
		f := newHome(t)
		path := f.settings(h, tabSettings, 0o644)
		res, err := Install(h, Options{Env: f.env, Program: p})
		if err != nil {
			t.Errorf("install with program %q: %v", p, err)
			continue
		}
		assertWired(t, h, readText(t, path), h.HookCommand(p))
		st := StatusOf(h, f.env)
		if st.State != StateInstalled || st.Program != p || st.Version != h.Version {
			t.Errorf("program %q: status %+v", p, st)
		}
		if res, _ = Install(h, Options{Env: f.env, Default: "/x/tuios"}); res.Changed || res.Program != p {
			t.Errorf("program %q: a second install %+v", p, res)
		}
		mustUninstall(t, h, f.env)
		if got := readText(t, path); got != tabSettings {
			t.Errorf("program %q: uninstall left %q", p, got)
		}
	}
}

func TestHookCommand(t *testing.T) {
	cases := []struct{ id, program, want string }{
		{"claude-code", "/usr/bin/tuios", "/usr/bin/tuios agent-hook claude-code --integration 4"},
		{"codex", "tuios", "tuios agent-hook codex --integration 1"},
		{"gemini-cli", "/opt/tuios", "/opt/tuios agent-hook gemini-cli --integration 1 || echo '{}'"},
		{"qwen", "/my apps/tuios", "'/my apps/tuios' agent-hook qwen --integration 2"},
		{"qwen", "/it's/tuios", `'/it'\''s/tuios' agent-hook qwen --integration 2`},
		{"qwen", "", "'' agent-hook qwen --integration 2"},
	}
	for _, c := range cases {
		h := harness(t, c.id)
		got := h.HookCommand(c.program)
		if got != c.want {
			t.Errorf("%s %q: %q, want %q", c.id, c.program, got, c.want)
		}
		if c.program != "" && programOf(got) != c.program {
			t.Errorf("programOf(%q) = %q, want %q", got, programOf(got), c.program)
		}
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{"claude-code": "claude-code", "Claude Code": "claude-code", "claude": "claude-code",
		"gemini": "gemini-cli", "kiro-cli": "kiro", "codex": "codex"} {
		h, ok := Lookup(name)
		if !ok || h.ID != want {
			t.Errorf("Lookup(%q) = %q %v, want %q", name, h.ID, ok, want)
		}
	}
	if _, ok := Lookup("vim"); ok {
		t.Error("Lookup found vim")
	}
	seen := map[string]bool{}
	for _, h := range Harnesses() {
		if seen[h.ID] {
			t.Errorf("harness %s listed twice", h.ID)
		}
		seen[h.ID] = true
		if (h.Reports == ReportsNothing) != (h.hooks == nil && h.owned == nil && h.doc() == nil) {
			t.Errorf("%s: Reports %q but hooks %v owned %v config document %v", h.ID, h.Reports, h.hooks != nil, h.owned != nil, h.doc() != nil)
		}
		if h.Reports != ReportsNothing && (h.Version < 1 || h.File(Env{Home: "/h"}) == "") {
			t.Errorf("%s: version %d file %q", h.ID, h.Version, h.File(Env{Home: "/h"}))
		}
	}
}

// Each harness's entries carry its own timeout (seconds or milliseconds),
// its suffix, and its note.
func TestInstallEntriesPerHarness(t *testing.T) {
	timeouts := map[string]float64{"claude-code": 10, "codex": 10, "gemini-cli": 5000, "qwen": 5000}
	for _, h := range Harnesses() {
		if h.hooks == nil || h.hooks.flat { // flat layouts: flathooks_test.go
			continue
		}
		f := newHome(t)
		path := f.settings(h, "", 0)
		res := mustInstall(t, h, Options{Env: f.env, Program: prog})
		if res.Note != h.notes || (h.ID == "codex" && res.Note == "") {
			t.Errorf("%s: note %q", h.ID, res.Note)
		}
		var v struct {
			Hooks map[string][]struct {
				Matcher *string `json:"matcher"`
				Hooks   []map[string]any
			}
		}
		if err := json.Unmarshal([]byte(readText(t, path)), &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Hooks) != len(h.hooks.events) {
			t.Errorf("%s: %d events wired, want %d", h.ID, len(v.Hooks), len(h.hooks.events))
		}
		want, ok := timeouts[h.ID]
		if !ok {
			want = float64(h.hooks.timeout)
		}
		for ev, groups := range v.Hooks {
			if len(groups) != 1 || len(groups[0].Hooks) != 1 {
				t.Errorf("%s %s: %d groups", h.ID, ev, len(groups))
				continue
			}
			hd := groups[0].Hooks[0]
			want := want
			if n, ok := h.hooks.timeouts[ev]; ok { // a held PermissionRequest waits longer
				want = float64(n)
			}
			if hd["type"] != "command" || hd["command"] != h.HookCommand(prog) || hd["timeout"] != want {
				t.Errorf("%s %s: handler %v", h.ID, ev, hd)
			}
			if !strings.HasPrefix(hd["command"].(string), prog+" agent-hook "+h.ID+" --integration ") {
				t.Errorf("%s %s: command %q", h.ID, ev, hd["command"])
			}
		}
	}
}

// The events each harness's hooks are wired for are the events
// detect/hook maps for it: a wired event without a row reports nothing,
// a row without a wired event never fires.
func TestWiredEventsAreMapped(t *testing.T) {
	rows := map[string]map[string]bool{}
	for _, e := range hook.Events() {
		if rows[e.Harness] == nil {
			rows[e.Harness] = map[string]bool{}
		}
		rows[e.Harness][e.Name] = true
	}
	decoded := map[string]bool{}
	for _, id := range hook.Harnesses() {
		decoded[id] = true
	}
	for _, h := range Harnesses() {
		if h.Reports == ReportsState && !decoded[h.ID] {
			t.Errorf("%s reports its state, but detect/hook does not read its hooks", h.ID)
		}
		events := h.wiredEvents()
		if events == nil {
			continue
		}
		wired := map[string]bool{}
		for _, e := range events {
			wired[e] = true
			if !rows[h.ID][e] {
				t.Errorf("%s: the event %s is wired but detect/hook maps nothing for it", h.ID, e)
			}
		}
		for e := range rows[h.ID] {
			if !wired[e] {
				t.Errorf("%s: detect/hook maps %s, but install does not wire it", h.ID, e)
			}
		}
	}
}

func TestDoubleReporting(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	shim := `{
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "~/src/tuios/integrations/claude-code/hook.sh" } ] }
    ]
  }
}
`
	path := f.settings(h, shim, 0o644)
	if got := DoubleReporting(f.env); len(got) != 0 {
		t.Errorf("the shim alone reports double: %v", got)
	}
	mustInstall(t, h, Options{Env: f.env, Program: prog})
	got := DoubleReporting(f.env)
	if len(got) != 1 || !strings.Contains(got[0], path) {
		t.Errorf("DoubleReporting = %v, want one line naming %s", got, path)
	}
}
