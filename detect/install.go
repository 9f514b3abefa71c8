package detect

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Reading the version of an agent's install, for transcript verification.
//
// A hookless transcript join must verify that a file is this agent's: a
// Claude Code record carries the version of the program that wrote it,
// and the install the pane runs says what it is in one of these ways:
//
//   - the native installer runs ~/.local/share/claude/versions/<version>:
//     the executable's base name is the version;
//   - npm (a global or local prefix, or npx's cache under
//     ~/.npm/_npx/<hash>) runs …/node_modules/@anthropic-ai/claude-code/
//     bin/claude.exe, and older releases node …/claude-code/cli.js (also
//     reached through a bin symlink, which is resolved): the version of
//     the nearest package.json named after the harness's package, walking
//     up from the executable or, under an interpreter, from the script it
//     runs. A platform package (@anthropic-ai/claude-code-linux-x64,
//     whose binary the npm wrapper runs when its postinstall did not) is
//     named after it with a "-<platform>" suffix and counts too;
//   - a Homebrew cask runs …/Caskroom/claude-code/<version>/claude: the
//     executable's directory is named by the version.
//
// The harness's packages are its manifest's argv_path entries. Every one
// of these readings is offered (versions), and a record verifies when its
// version is one of them; none is ever evidence that a process is an
// agent. Everything here runs without a lock held: it stats and reads
// files (see runSearch).

const (
	// packageWalk bounds the walk up from an executable or script to its
	// package.json: claude.exe sits one directory below it, cli.js in it.
	packageWalk = 6
	// packageJSONMax bounds a package.json read; a larger one is skipped.
	packageJSONMax = 64 << 10
	// versionMax bounds a version string taken from outside.
	versionMax = 64
)

// installVersions lists what the install of process p says its version
// is, most direct first, without duplicates. packages are the harness's
// npm package names. It reads only files and /proc (the cwd of p, for a
// script given by a relative path), and never blocks on a FIFO.
func installVersions(sys sysProc, p ProcInfo, packages []string) []string {
	var out []string
	add := func(v string) {
		if v == "" {
			return
		}
		for _, w := range out {
			if w == v {
				return
			}
		}
		out = append(out, v)
	}
	var starts []string
	if p.Exe != "" {
		exe := filepath.Clean(p.Exe)
		// The native installer's file, named by its version. Any base
		// name is offered, as it was before package.json was read: one
		// that is no version verifies no record.
		add(filepath.Base(exe))
		starts = append(starts, exe)
	}
	if isInterpreter(p) {
		if s := scriptPath(sys, p); s != "" {
			starts = append([]string{s}, starts...)
		}
	}
	for _, s := range starts {
		add(packageVersion(s, packages))
	}
	if p.Exe != "" {
		if d := filepath.Base(filepath.Dir(filepath.Clean(p.Exe))); isVersion(d) {
			add(d) // a Homebrew cask: Caskroom/<name>/<version>/<exe>
		}
	}
	return out
}

// scriptPath is the script an interpreter runs (its run token), made
// absolute against the process's working directory and with symlinks
// resolved (npm's bin links point into the package). "" when there is
// none, it is code rather than a path, or it cannot be resolved.
func scriptPath(sys sysProc, p ProcInfo) string {
	tok := runToken(p.Argv)
	if tok == "" || isCode(tok) || len(tok) > 4096 {
		return ""
	}
	if !filepath.IsAbs(tok) {
		cwd := sys.cwd(p.PID)
		if cwd == "" || !filepath.IsAbs(cwd) {
			return ""
		}
		tok = filepath.Join(cwd, tok)
	}
	if r, err := filepath.EvalSymlinks(tok); err == nil {
		tok = r
	}
	return filepath.Clean(tok)
}

// packageVersion walks up from the file start (at most packageWalk
// directories, never past a node_modules directory, whose parent is the
// project that installed the package) to the nearest package.json whose
// name is one of packages, or one of them with a "-<platform>" suffix, and
// returns its version. A package.json of another name (a nested one
// holding only "type", or another package) is passed over.
func packageVersion(start string, packages []string) string {
	if len(packages) == 0 {
		return ""
	}
	dir := filepath.Dir(start)
	for i := 0; i < packageWalk; i++ {
		if filepath.Base(dir) == "node_modules" {
			return ""
		}
		if pj, ok := readPackageJSON(filepath.Join(dir, "package.json")); ok && packageNamed(pj.Name, packages) {
			return pj.Version
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
	return ""
}

func packageNamed(name string, packages []string) bool {
	if name == "" {
		return false
	}
	name = strings.ToLower(name)
	for _, p := range packages {
		if p == "" {
			continue
		}
		if name == p || (strings.HasPrefix(name, p+"-") && !strings.ContainsRune(name[len(p)+1:], '/')) {
			return true
		}
	}
	return false
}

// packageJSON is all a package.json is decoded into.
type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// readPackageJSON reads a package.json that is a regular file of at most
// packageJSONMax bytes. It opens without blocking (a FIFO or a device in
// its place is refused by fstat, never read).
func readPackageJSON(path string) (packageJSON, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return packageJSON{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > packageJSONMax {
		return packageJSON{}, false
	}
	b, err := io.ReadAll(io.LimitReader(f, packageJSONMax+1))
	if err != nil || len(b) > packageJSONMax {
		return packageJSON{}, false
	}
	return parsePackageJSON(b)
}

// parsePackageJSON decodes the name and version of a package.json. The
// version must look like one (isVersion); ok is false otherwise.
func parsePackageJSON(b []byte) (packageJSON, bool) {
	var pj packageJSON
	if json.Unmarshal(b, &pj) != nil || len(pj.Name) > 214 || !isVersion(pj.Version) {
		return packageJSON{}, false
	}
	return pj, true
}

// isVersion says s looks like a release version: it starts with a digit,
// holds a dot, and is made of ASCII letters, digits, '.', '-' and '+', at
// most versionMax bytes ("2.1.222", "1.0.0-beta.3+build.7").
func isVersion(s string) bool {
	if s == "" || len(s) > versionMax || s[0] < '0' || s[0] > '9' || !strings.Contains(s, ".") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '.', c == '-', c == '+':
		default:
			return false
		}
	}
	return true
}
