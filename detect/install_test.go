package detect

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

var claudePackages = []string{"@anthropic-ai/claude-code"}

// file writes body at dir/rel, making its directories.
func file(t *testing.T, dir, rel, body string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func pkgJSON(name, version string) string {
	return `{"name":"` + name + `","version":"` + version + `","bin":{"claude":"bin/claude.exe"},"optionalDependencies":{"x":"1"},"description":"` + strings.Repeat("x", 300) + `"}`
}

// Each install shape Claude Code ships in, as a directory tree, and the
// version the search is then given.
func TestInstallVersionsOfEachShape(t *testing.T) {
	root := t.TempDir()
	sys := newSysProc(filepath.Join(root, "proc"))

	// Native installer: the executable is named by its version.
	native := file(t, root, "home/.local/share/claude/versions/2.1.222", "ELF")

	// npm, a global prefix: the shim links to bin/claude.exe, which the
	// postinstall replaced with the native binary.
	npmPkg := filepath.Join(root, "usr/lib/node_modules/@anthropic-ai/claude-code")
	file(t, npmPkg, "package.json", pkgJSON("@anthropic-ai/claude-code", "2.1.197"))
	npmExe := file(t, npmPkg, "bin/claude.exe", "ELF")

	// npx: the same package in npx's cache.
	npxPkg := filepath.Join(root, "home/.npm/_npx/6a9c2f0e1b7d4c3a/node_modules/@anthropic-ai/claude-code")
	file(t, npxPkg, "package.json", pkgJSON("@anthropic-ai/claude-code", "2.1.198"))
	npxExe := file(t, npxPkg, "bin/claude.exe", "ELF")

	// An older npm release: node runs cli.js, through the bin symlink a
	// shebang hands node, or by a path relative to node's cwd.
	oldPkg := filepath.Join(root, "opt/npm/lib/node_modules/@anthropic-ai/claude-code")
	file(t, oldPkg, "package.json", pkgJSON("@anthropic-ai/claude-code", "1.0.128"))
	file(t, oldPkg, "cli.js", "#!/usr/bin/env node\n")
	os.MkdirAll(filepath.Join(root, "opt/npm/bin"), 0o755)
	shim := filepath.Join(root, "opt/npm/bin/claude")
	if err := os.Symlink("../lib/node_modules/@anthropic-ai/claude-code/cli.js", shim); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "proc/4242"), 0o755)
	if err := os.Symlink(filepath.Join(root, "opt/npm/lib"), filepath.Join(root, "proc/4242/cwd")); err != nil {
		t.Fatal(err)
	}

	// The npm wrapper's fallback (no postinstall): node runs
	// cli-wrapper.cjs, which runs the platform package's binary.
	wrapPkg := filepath.Join(root, "w/node_modules/@anthropic-ai/claude-code")
	file(t, wrapPkg, "package.json", pkgJSON("@anthropic-ai/claude-code", "2.1.199"))
	wrapper := file(t, wrapPkg, "cli-wrapper.cjs", "")
	platPkg := filepath.Join(root, "w/node_modules/@anthropic-ai/claude-code-linux-x64")
	file(t, platPkg, "package.json", pkgJSON("@anthropic-ai/claude-code-linux-x64", "2.1.199"))
	platExe := file(t, platPkg, "claude", "ELF")

	// A Homebrew cask: Caskroom/<token>/<version>/claude.
	cask := file(t, root, "opt/homebrew/Caskroom/claude-code/2.1.200/claude", "ELF")

	cases := []struct {
		name string
		p    ProcInfo
		want string
	}{
		{"native versions dir", ProcInfo{PID: 1, Comm: "claude", Argv: []string{"claude"}, Exe: native}, "2.1.222"},
		{"npm bin/claude.exe", ProcInfo{PID: 1, Comm: "claude", Argv: []string{"claude"}, Exe: npmExe}, "2.1.197"},
		{"npx cache", ProcInfo{PID: 1, Comm: "claude", Argv: []string{"claude"}, Exe: npxExe}, "2.1.198"},
		{"npm cli.js under node (bin symlink)", ProcInfo{PID: 1, Comm: "node", Argv: []string{"node", shim}, Exe: "/usr/bin/node"}, "1.0.128"},
		{"npm cli.js under node (absolute)", ProcInfo{PID: 1, Comm: "node", Argv: []string{"node", "--no-warnings", filepath.Join(oldPkg, "cli.js")}, Exe: "/usr/bin/node"}, "1.0.128"},
		{"npm cli.js under node (relative to its cwd)", ProcInfo{PID: 4242, Comm: "node", Argv: []string{"node", "node_modules/@anthropic-ai/claude-code/cli.js"}, Exe: "/usr/bin/node"}, "1.0.128"},
		{"npm cli.js, node retitled claude", ProcInfo{PID: 1, Comm: "claude", Argv: []string{"node", shim}, Exe: "/usr/bin/node"}, "1.0.128"},
		{"npm wrapper under node", ProcInfo{PID: 1, Comm: "node", Argv: []string{"node", wrapper}, Exe: "/usr/bin/node"}, "2.1.199"},
		{"npm platform package", ProcInfo{PID: 1, Comm: "claude", Argv: []string{platExe}, Exe: platExe}, "2.1.199"},
		{"homebrew cask", ProcInfo{PID: 1, Comm: "claude", Argv: []string{"claude"}, Exe: cask}, "2.1.200"},
	}
	for _, c := range cases {
		got := installVersions(sys, c.p, claudePackages)
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: versions %q, want %q among them", c.name, got, c.want)
		}
	}
	// The native installer's version is offered first.
	if got := installVersions(sys, cases[0].p, claudePackages); got[0] != "2.1.222" {
		t.Errorf("native: %q", got)
	}
}

// What never gives a version: another package's package.json, the project
// above node_modules, code run by an interpreter, a package.json that is
// not a regular file, too big, or whose version is no version.
func TestInstallVersionsRefuse(t *testing.T) {
	root := t.TempDir()
	sys := newSysProc(filepath.Join(root, "proc"))
	only := func(p ProcInfo) []string {
		var out []string
		for _, v := range installVersions(sys, p, claudePackages) {
			if v != filepath.Base(p.Exe) {
				out = append(out, v)
			}
		}
		return out
	}

	// A project that depends on a package shipping a "claude" binary: its
	// own package.json is above node_modules and never read.
	file(t, root, "proj/package.json", pkgJSON("@anthropic-ai/claude-code", "9.9.9"))
	other := file(t, root, "proj/node_modules/claude-clone/bin/claude", "ELF")
	file(t, root, "proj/node_modules/claude-clone/package.json", pkgJSON("claude-clone", "3.0.0"))
	if got := only(ProcInfo{Comm: "claude", Exe: other}); len(got) != 0 {
		t.Errorf("another package: %q", got)
	}
	// A look-alike scope or name is not the package.
	for _, name := range []string{"@anthropic-ai/claude-code-x/evil", "@anthropic-ai/claude-codex", "claude-code", "@evil/claude-code"} {
		exe := file(t, root, "n/"+strconv.Itoa(len(name))+name+"/bin/claude.exe", "ELF")
		file(t, root, "n/"+strconv.Itoa(len(name))+name+"/package.json", pkgJSON(name, "9.9.8"))
		if got := only(ProcInfo{Comm: "claude", Exe: exe}); len(got) != 0 {
			t.Errorf("package %q: %q", name, got)
		}
	}
	// A nested package.json holding only "type" is passed over.
	pkg := filepath.Join(root, "g/node_modules/@anthropic-ai/claude-code")
	file(t, pkg, "package.json", pkgJSON("@anthropic-ai/claude-code", "2.0.1"))
	file(t, pkg, "dist/package.json", `{"type":"module"}`)
	cli := file(t, pkg, "dist/cli.js", "")
	if got := only(ProcInfo{Comm: "node", Argv: []string{"node", cli}, Exe: "/usr/bin/node"}); !slices.Equal(got, []string{"2.0.1"}) {
		t.Errorf("nested package.json: %q", got)
	}
	// Code, not a path; no cwd for a relative path; a script under a
	// program that is no interpreter.
	for _, p := range []ProcInfo{
		{Comm: "node", Argv: []string{"node", "-e", "require('" + cli + "')"}, Exe: "/usr/bin/node"},
		{PID: 777, Comm: "node", Argv: []string{"node", "dist/cli.js"}, Exe: "/usr/bin/node"},
		{Comm: "vim", Argv: []string{"vim", cli}, Exe: "/usr/bin/vim"},
	} {
		if got := only(p); len(got) != 0 {
			t.Errorf("%q: %q", p.Argv, got)
		}
	}
	// A FIFO named package.json is refused without blocking; so is a
	// directory, an oversized file and a version that is no version.
	bad := []func(dir string){
		func(dir string) { syscall.Mkfifo(filepath.Join(dir, "package.json"), 0o644) },
		func(dir string) { os.Mkdir(filepath.Join(dir, "package.json"), 0o755) },
		func(dir string) {
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.1","pad":"`+strings.Repeat("x", packageJSONMax)+`"}`), 0o644)
		},
		func(dir string) {
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkgJSON("@anthropic-ai/claude-code", "latest")), 0o644)
		},
		func(dir string) {
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkgJSON("@anthropic-ai/claude-code", "2.1.1 && rm")), 0o644)
		},
		func(dir string) { os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":`), 0o644) },
	}
	for i, mk := range bad {
		dir := filepath.Join(root, "bad", strconv.Itoa(i), "node_modules/@anthropic-ai/claude-code")
		exe := file(t, dir, "bin/claude.exe", "ELF")
		mk(dir)
		if got := only(ProcInfo{Comm: "claude", Exe: exe}); len(got) != 0 {
			t.Errorf("bad package.json %d: %q", i, got)
		}
	}
	// The walk is bounded: a package.json packageWalk+1 levels up is not
	// reached.
	deep := filepath.Join(root, "deep")
	file(t, deep, "package.json", pkgJSON("@anthropic-ai/claude-code", "2.1.2"))
	exe := file(t, deep, strings.Repeat("d/", packageWalk)+"claude", "ELF")
	if got := only(ProcInfo{Comm: "claude", Exe: exe}); len(got) != 0 {
		t.Errorf("past the walk's bound: %q", got)
	}
	// No packages named: nothing is read.
	if got := packageVersion(cli, nil); got != "" {
		t.Errorf("no packages: %q", got)
	}
}

func TestIsVersion(t *testing.T) {
	for _, v := range []string{"2.1.222", "1.0.0-beta.3+build.7", "0.2"} {
		if !isVersion(v) {
			t.Errorf("%q should be a version", v)
		}
	}
	for _, v := range []string{"", "latest", "v2.1.0", "2", "2.1.0 ", "2.1/0", "2.1.0\n", strings.Repeat("1.", 40)} {
		if isVersion(v) {
			t.Errorf("%q should not be a version", v)
		}
	}
}

// FuzzParsePackageJSON: any bytes, never a panic; what it accepts has a
// bounded name and a version that looks like one.
func FuzzParsePackageJSON(f *testing.F) {
	f.Add([]byte(pkgJSON("@anthropic-ai/claude-code", "2.1.197")))
	f.Add([]byte(`{"type":"module"}`))
	f.Add([]byte(`{"name":1,"version":"2.1.0"}`))
	f.Add([]byte(`{"name":"a","version":"2.1.0","version":"x"}`))
	f.Add([]byte("\xff{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pj, ok := parsePackageJSON(b)
		if !ok {
			if pj != (packageJSON{}) {
				t.Fatalf("refused but returned %+v", pj)
			}
			return
		}
		if !isVersion(pj.Version) || len(pj.Name) > 214 {
			t.Fatalf("accepted %+v", pj)
		}
	})
}
