package integration

import (
	"errors"
	"strings"
	"testing"
)

// --then never drops a status line of the person's own: naming another
// command than the one there (or than the one tuios's chain names) is
// refused and the file is left as it was; naming the same one, or none,
// chains to it, and uninstall gives it back byte for byte.
func TestStatusLineThenNeverDropsTheOwnCommand(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	path := f.settings(h, tabSettings, 0o644) // statusLine runs ~/bin/status

	_, err := Install(h, Options{Env: f.env, Program: prog, StatusLine: true, Then: "/bin/other"})
	var ie *Error
	if !errors.As(err, &ie) || ie.Code() != CodeStatusLineTaken || ie.Path != path ||
		!strings.Contains(err.Error(), `"~/bin/status"`) || !strings.Contains(ie.Hint(), "leave out --then") {
		t.Fatalf("install --then over an own status line: %v", err)
	}
	if got := readText(t, path); got != tabSettings {
		t.Fatalf("a refused install wrote the file:\n%s", got)
	}

	// The same command as --then: chained.
	mustInstall(t, h, Options{Env: f.env, Program: prog, StatusLine: true, Then: "~/bin/status"})
	if got := readText(t, path); !strings.Contains(got, `--then '~/bin/status'`) {
		t.Fatalf("not chained:\n%s", got)
	}
	// Installed: another --then would drop the chained command too.
	if _, err := Install(h, Options{Env: f.env, Program: prog, StatusLine: true, Then: "/bin/other"}); !errors.As(err, &ie) || ie.Code() != CodeStatusLineTaken {
		t.Fatalf("install --then over the chain: %v", err)
	}
	// Without --then: the chain stays.
	mustInstall(t, h, Options{Env: f.env, Program: prog, StatusLine: true})
	if got := readText(t, path); !strings.Contains(got, `--then '~/bin/status'`) {
		t.Fatalf("the chain was lost:\n%s", got)
	}
	mustUninstall(t, h, f.env)
	if got := readText(t, path); got != tabSettings {
		t.Fatalf("uninstall did not give the status line back:\n%s", got)
	}

	// No status line of one's own: --then is what tuios chains to.
	f2 := newHome(t)
	path2 := f2.settings(h, compactSettings, 0o644)
	mustInstall(t, h, Options{Env: f2.env, Program: prog, StatusLine: true, Then: "/bin/other"})
	if got := readText(t, path2); !strings.Contains(got, `--then /bin/other"`) {
		t.Fatalf("--then with no status line:\n%s", got)
	}
	// A bare --then word is read back: installing again keeps it, and
	// uninstall leaves it as the status line (it is the person's now).
	mustInstall(t, h, Options{Env: f2.env, Program: prog, StatusLine: true})
	if got := readText(t, path2); !strings.Contains(got, `--then /bin/other"`) {
		t.Fatalf("a second install lost the bare --then:\n%s", got)
	}
	mustUninstall(t, h, f2.env)
	if got := readText(t, path2); !strings.Contains(got, `"command": "/bin/other"`) && !strings.Contains(got, `"command":"/bin/other"`) {
		t.Fatalf("uninstall did not leave the chained command:\n%s", got)
	}
	if thenOf(prog+" agent-hook claude-code --integration 4 --statusline --then /bin/other") != "/bin/other" ||
		thenOf(prog+` agent-hook claude-code --statusline --then 'a b'\''c'`) != "a b'c" {
		t.Fatal("thenOf")
	}
}

// FuzzThenOf: whatever command --then names, tuios's status line command
// reads it back whole, so install and uninstall never lose it.
func FuzzThenOf(f *testing.F) {
	for _, s := range []string{"/bin/other", "~/bin/my-status", "a b", "it's", `'`, "a'\\''b", "--then x", "x --then y", " ", "\t", "é"} {
		f.Add(s)
	}
	h := Harness{ID: "claude-code", Version: 4}
	f.Fuzz(func(t *testing.T, then string) {
		if then == "" {
			return
		}
		cmd := h.statusLineCommand(prog, then)
		if got := thenOf(cmd); got != then {
			t.Fatalf("thenOf(%q) = %q, want %q", cmd, got, then)
		}
	})
}

// The person's other statusLine fields (padding) stay while tuios's
// status line is installed, and so does a change they make to them
// meanwhile; uninstall gives the command back in place. A statusLine
// with no command of its own keeps its fields too.
func TestStatusLineKeepsThePersonsOtherFields(t *testing.T) {
	h := harness(t, "claude-code")
	f := newHome(t)
	orig := "{\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"~/bin/status\",\n    \"padding\": 2\n  }\n}\n"
	path := f.settings(h, orig, 0o644)
	mustInstall(t, h, Options{Env: f.env, Program: prog, StatusLine: true})
	got := readText(t, path)
	if !strings.Contains(got, `"padding": 2`) || !strings.Contains(got, `--then '~/bin/status'`) {
		t.Fatalf("installed:\n%s", got)
	}
	// Installing again changes nothing.
	mustInstall(t, h, Options{Env: f.env, Program: prog, StatusLine: true})
	if again := readText(t, path); again != got {
		t.Fatalf("a second install changed it:\n%s", again)
	}
	mustUninstall(t, h, f.env)
	if back := readText(t, path); back != orig {
		t.Fatalf("uninstall:\n%s\nwant\n%s", back, orig)
	}
	// The person changes padding while tuios's line is in: it stays.
	mustInstall(t, h, Options{Env: f.env, Program: prog, StatusLine: true})
	writeFile(t, path, strings.Replace(readText(t, path), `"padding": 2`, `"padding": 5`, 1), 0o644)
	mustUninstall(t, h, f.env)
	if back := readText(t, path); back != strings.Replace(orig, `"padding": 2`, `"padding": 5`, 1) {
		t.Fatalf("uninstall after the person's change:\n%s", back)
	}

	// No command: padding alone is kept through install and uninstall.
	f2 := newHome(t)
	bare := "{\n  \"statusLine\": {\n    \"padding\": 1\n  }\n}\n"
	path2 := f2.settings(h, bare, 0o644)
	mustInstall(t, h, Options{Env: f2.env, Program: prog, StatusLine: true})
	if got := readText(t, path2); !strings.Contains(got, `"padding": 1`) || !strings.Contains(got, `"type": "command"`) || !strings.Contains(got, "agent-hook claude-code") {
		t.Fatalf("installed over padding alone:\n%s", got)
	}
	mustUninstall(t, h, f2.env)
	if back := readText(t, path2); back != bare {
		t.Fatalf("uninstall over padding alone:\n%s\nwant\n%s", back, bare)
	}
}
