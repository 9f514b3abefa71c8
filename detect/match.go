package detect

import (
	"path"
	"strings"

	"github.com/tuios/tuios/agentstate"
)

// Match is the answer for one pane: whether its foreground runs an agent,
// which harness, on what evidence, and which process decided.
type Match struct {
	// Agent is true when a manifest, the name list or the TUIOS_AGENT hint
	// recognised a process.
	Agent bool `json:"agent"`
	// HarnessID names the manifest that matched; "" for a name-list match
	// (which names no harness) and for no match.
	HarnessID string `json:"harness_id,omitempty"`
	// Identity is the evidence tier: IdentityManifest, IdentityList or
	// IdentityHint; IdentityNone when Agent is false.
	Identity agentstate.Identity `json:"identity"`
	// Rule is the predicate that matched, e.g. "comm=claude",
	// "argv_path=@anthropic-ai/claude-code", "name exe=codex" or
	// "TUIOS_AGENT=claude-code".
	Rule string `json:"rule,omitempty"`
	// Process is the process that decided: the matched group member, or
	// the leader (for a leader match, a hint, or no match).
	Process ProcInfo `json:"process"`
	// Via lists the base names of the wrappers tuios looked behind, leader
	// first; empty when the leader itself decided.
	Via []string `json:"via,omitempty"`
	// Running is false when no foreground process could be read.
	Running bool `json:"running"`
	// AtShell is true when the foreground leader is the pane's shell.
	AtShell bool `json:"at_shell"`
}

// Confidence is the confidence of the match's identity tier.
func (m Match) Confidence() agentstate.Confidence { return m.Identity.Confidence() }

// interpreters gate reading argv: only for these is the run token read.
// dash, ash and ksh are here beside sh and bash: on Debian /bin/sh is
// dash, so a launcher script run by /bin/sh has comm = the script's name
// and exe = dash, and without them the script could not be looked behind.
var interpreters = [...]string{"node", "nodejs", "deno", "bun", "python", "python2", "python3",
	"uv", "uvx", "npx", "pnpm", "yarn", "bunx", "sh", "bash", "zsh", "fish", "env", "dash", "ash", "ksh"}

// launchers are wrappers that are not interpreters. Build tools (make, go,
// cargo) are deliberately absent.
var launchers = [...]string{"timeout", "sudo", "doas", "nohup", "script", "stdbuf", "unbuffer",
	"chrt", "ionice", "taskset", "npm", "npm exec", "corepack", "pipx", "mise", "asdf", "volta",
	"rtx", "nix", "nix-shell", "direnv"}

// runnerWords are skipped when looking for the run token.
var runnerWords = [...]string{"run", "exec", "dlx", "x", "tool", "--"}

// packageDirs are where package managers put packages.
var packageDirs = [...]string{"node_modules", "site-packages", "dist-packages"}

func nameIn(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isInterpreter reports whether tuios reads the run token of this
// process's arguments: its comm base name is empty or an interpreter, or
// its exe base name is one. An unreadable exe cannot rescue a comm that
// named a non-interpreter.
func isInterpreter(p ProcInfo) bool {
	c := baseName(p.Comm)
	if c == "" || nameIn(interpreters[:], c) {
		return true
	}
	e := baseName(p.Exe)
	return e != "" && nameIn(interpreters[:], e)
}

// wraps reports whether tuios looks behind this process: it is an
// interpreter or a launcher (timeout, sudo, npm exec, mise, nix, …).
func wraps(p ProcInfo) bool {
	if isInterpreter(p) {
		return true
	}
	c := titleName(p.Comm)
	if nameIn(launchers[:], c) {
		return true
	}
	e := baseName(p.Exe)
	return e != "" && nameIn(launchers[:], e)
}

// titleName is BaseName, except for npm's rewritten process title: npm
// exec (npx) sets its comm and argv to "npm exec <package spec>", whose
// last path element would name the package it was asked to fetch. That is
// a word inside an argument, not the process's own name: such a process is
// named "npm exec" (a launcher), and tuios looks behind it.
func titleName(s string) string {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "npm exec" || strings.HasPrefix(t, "npm exec ") {
		return "npm exec"
	}
	return baseName(s)
}

// baseName normalises a process or path name the way every predicate reads
// it: spaces and trailing NULs trimmed, backslashes read as '/', the last
// path element, one leading '-' (login shells) dropped, lowercased, and one
// trailing .js, .mjs, .cjs, .ts or .py removed.
func baseName(s string) string {
	s = strings.TrimRight(s, "\x00")
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, `\`, "/")
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimPrefix(s, "-")
	s = strings.ToLower(s)
	for _, ext := range [...]string{".js", ".mjs", ".cjs", ".ts", ".py"} {
		if len(s) > len(ext) && strings.HasSuffix(s, ext) {
			return s[:len(s)-len(ext)]
		}
	}
	return s
}

// runToken is the one argument an interpreter was asked to run: the first
// element after argv[0] that is non-empty, not a flag (a leading '-') and
// not a runner word (run, exec, dlx, x, tool, --; any case). Flag values
// are not skipped: `node -e code cli.js` runs "code". "" when there is none.
// It is the only argument tuios ever reads, and only for an interpreter.
func runToken(argv []string) string {
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "" || strings.HasPrefix(a, "-") {
			continue
		}
		runner := false
		for _, w := range runnerWords {
			if strings.EqualFold(a, w) {
				runner = true
				break
			}
		}
		if !runner {
			return a
		}
	}
	return ""
}

// components splits a path on '/' (and '\') into lowercased non-empty parts.
func pathComps(p string) []string {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, c := range parts {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// matchExeGlob matches an exe_glob pattern against an executable path,
// component by component: '*', '?' and '[…]' stay inside one component,
// '**' spans zero or more. A pattern starting with '/' must match the whole
// path; any other pattern matches a suffix of it ("claude" ≡ "**/claude").
// Both sides are compared lowercased. A malformed pattern matches nothing.
func matchExeGlob(pattern, exe string) bool {
	if exe == "" {
		return false
	}
	g := compileGlob(pattern)
	return g.match(pathComps(exe))
}

// exeGlob is a compiled exe_glob pattern.
type exeGlob struct {
	anchored bool
	comps    []string
	literal  []bool // component has no glob metacharacter
}

func compileGlob(pattern string) exeGlob {
	pattern = strings.TrimSpace(pattern)
	g := exeGlob{anchored: strings.HasPrefix(pattern, "/"), comps: pathComps(pattern)}
	g.literal = make([]bool, len(g.comps))
	for i, c := range g.comps {
		g.literal[i] = !strings.ContainsAny(c, `*?[\`)
	}
	return g
}

// match matches lowercased path components.
func (g *exeGlob) match(xc []string) bool {
	n := len(g.comps)
	if n == 0 {
		return false
	}
	// The last pattern component, unless **, must match the last path
	// component: a cheap test that settles most comparisons.
	if last := g.comps[n-1]; last != "**" {
		if len(xc) == 0 {
			return false
		}
		if g.literal[n-1] && last != xc[len(xc)-1] {
			return false
		}
	}
	if g.anchored {
		return g.from(0, xc)
	}
	for i := 0; i <= len(xc); i++ {
		if g.from(0, xc[i:]) {
			return true
		}
	}
	return false
}

// from matches g.comps[k:] against xc whole.
func (g *exeGlob) from(k int, xc []string) bool {
	for k < len(g.comps) {
		pc := g.comps[k]
		if pc == "**" {
			for k < len(g.comps) && g.comps[k] == "**" {
				k++
			}
			if k == len(g.comps) {
				return true
			}
			for i := 0; i <= len(xc); i++ {
				if g.from(k, xc[i:]) {
					return true
				}
			}
			return false
		}
		if len(xc) == 0 {
			return false
		}
		if g.literal[k] {
			if pc != xc[0] {
				return false
			}
		} else if ok, err := path.Match(pc, xc[0]); err != nil || !ok {
			return false
		}
		k, xc = k+1, xc[1:]
	}
	return len(xc) == 0
}

// validGlob reports whether every component of an exe_glob is well formed.
func validGlob(pattern string) bool {
	for _, c := range pathComps(pattern) {
		if _, err := path.Match(c, ""); err != nil {
			return false
		}
	}
	return true
}

// matchArgvPath is the package match of an argv_path pattern against an
// interpreter's run token. The pattern's components must appear as a run
// of consecutive components of the token (the last may carry a version pin
// starting '@' or '=='), and the run must sit where a package manager puts
// packages: the token is one component (`npx opencode@latest`), or the
// pattern starts with an npm scope '@…', or the run starts right after
// node_modules, site-packages, dist-packages or bun's .bun/install/cache,
// or right after an '@scope' component that follows one of those. So
// `…/node_modules/@anthropic-ai/claude-code/cli.js` matches
// "@anthropic-ai/claude-code" and `~/dev/crush/scripts/build.sh` does not
// match "/crush/". A token holding whitespace or shell punctuation is code
// (the string of sh -c or node -e), not a path, and matches nothing: so
// `sh -c 'cat node_modules/@anthropic-ai/claude-code/x'` is not Claude Code
// (the walk still finds a real agent that such a shell starts).
func matchArgvPath(pattern, token string) bool {
	if isCode(token) {
		return false
	}
	return matchPackage(pathComps(pattern), pathComps(token))
}

// isCode says a run token is code, not a path.
func isCode(token string) bool { return strings.ContainsAny(token, " \t\n;|&<>$`()") }

// matchPackage is MatchArgvPath over lowercased components.
func matchPackage(pc, tc []string) bool {
	if len(pc) == 0 || len(tc) == 0 {
		return false
	}
	scoped := strings.HasPrefix(pc[0], "@")
	for i := 0; i+len(pc) <= len(tc); i++ {
		if !runEquals(pc, tc[i:i+len(pc)]) {
			continue
		}
		if len(tc) == 1 || scoped || afterPackageDir(tc, i) ||
			(i > 0 && strings.HasPrefix(tc[i-1], "@") && afterPackageDir(tc, i-1)) {
			return true
		}
	}
	return false
}

func runEquals(pc, tc []string) bool {
	for j, p := range pc {
		t := tc[j]
		if t == p {
			continue
		}
		if j == len(pc)-1 && (strings.HasPrefix(t, p+"@") || strings.HasPrefix(t, p+"==")) {
			continue
		}
		return false
	}
	return true
}

// afterPackageDir says whether component i follows a package directory.
func afterPackageDir(tc []string, i int) bool {
	if i >= 1 && nameIn(packageDirs[:], tc[i-1]) {
		return true
	}
	return i >= 3 && tc[i-3] == ".bun" && tc[i-2] == "install" && tc[i-1] == "cache"
}

// procView is a process with its predicate inputs computed once.
type procView struct {
	p        ProcInfo
	comm     string // baseName(comm)
	argv0    string // baseName(argv[0])
	exeBase  string // baseName(exe)
	interp   bool
	runToken string // only for an interpreter
	runName  string // baseName(runToken)
	wraps    bool
	exeComps []string // lowercased components of the exe, computed once
	runComps []string // lowercased components of the run token; nil when it is code
	runDone  bool
}

func (v *procView) runParts() []string {
	if !v.runDone {
		v.runDone = true
		if v.runToken != "" && !isCode(v.runToken) {
			v.runComps = pathComps(v.runToken)
		}
	}
	return v.runComps
}

func (v *procView) exeParts() []string {
	if v.exeComps == nil && v.p.Exe != "" {
		v.exeComps = pathComps(v.p.Exe)
	}
	return v.exeComps
}

// globs returns the compiled globs of a list, compiling when the manifest
// was not built by ParseManifest.
func globs(c []exeGlob, l []string) []exeGlob {
	if len(c) == len(l) {
		return c
	}
	c = make([]exeGlob, len(l))
	for i, p := range l {
		c[i] = compileGlob(p)
	}
	return c
}

func (d *DetectSpec) compile() {
	d.argvPathC = make([][]string, len(d.ArgvPath))
	for i, a := range d.ArgvPath {
		d.argvPathC[i] = pathComps(a)
	}
	d.exeGlobC = globs(nil, d.ExeGlob)
	d.Require.exeGlobC = globs(nil, d.Require.ExeGlob)
}

func newView(p ProcInfo) *procView {
	v := &procView{p: p, comm: titleName(p.Comm), exeBase: baseName(p.Exe)}
	if len(p.Argv) > 0 {
		v.argv0 = titleName(p.Argv[0])
	}
	v.interp = isInterpreter(p)
	if v.interp {
		v.runToken = runToken(p.Argv)
		v.runName = baseName(v.runToken)
	}
	v.wraps = wraps(p)
	return v
}

// requireMet says whether a manifest's [detect.require] block is satisfied.
func (d *DetectSpec) requireMet(v *procView) bool {
	r := &d.Require
	if len(r.ExeBase) == 0 && len(r.ExeGlob) == 0 {
		return true
	}
	if v.p.Exe == "" {
		return false
	}
	if v.exeBase != "" && nameIn(r.ExeBase, v.exeBase) {
		return true
	}
	gs := globs(r.exeGlobC, r.ExeGlob)
	for i := range gs {
		if gs[i].match(v.exeParts()) {
			return true
		}
	}
	return false
}

// matchManifest matches one process's own identity against a manifest's
// [detect] block. It returns the rule string on a match; otherwise, when
// why is true, the reasons it did not match.
func matchManifest(m *Manifest, v *procView, why bool) (rule string, reason string) {
	d := &m.Detect
	if d.requireMet(v) {
		if v.comm != "" && nameIn(d.Comm, v.comm) {
			return "comm=" + v.comm, ""
		}
		if v.argv0 != "" && nameIn(d.Argv0, v.argv0) {
			return "argv0=" + v.argv0, ""
		}
		if v.runName != "" && nameIn(d.Argv0, v.runName) {
			return "argv0=" + v.runName + " (run token)", ""
		}
	}
	if v.p.Exe != "" {
		gs := globs(d.exeGlobC, d.ExeGlob)
		for i := range gs {
			if gs[i].match(v.exeParts()) {
				return "exe_glob=" + d.ExeGlob[i], ""
			}
		}
	}
	if rc := v.runParts(); rc != nil {
		for i, a := range d.ArgvPath {
			var pc []string
			if len(d.argvPathC) == len(d.ArgvPath) {
				pc = d.argvPathC[i]
			} else {
				pc = pathComps(a)
			}
			if matchPackage(pc, rc) {
				return "argv_path=" + a, ""
			}
		}
	}
	if !why {
		return "", ""
	}
	var rs []string
	if len(d.Comm) > 0 || len(d.Argv0) > 0 {
		if !d.requireMet(v) {
			if v.p.Exe == "" {
				rs = append(rs, "require unmet: no readable exe")
			} else {
				rs = append(rs, `require unmet: exe "`+v.p.Exe+`" is none of exe_base`+listText(d.Require.ExeBase)+
					" exe_glob"+listText(d.Require.ExeGlob))
			}
		} else {
			if len(d.Comm) > 0 {
				rs = append(rs, `comm "`+v.comm+`" not in `+listText(d.Comm))
			}
			if len(d.Argv0) > 0 {
				rs = append(rs, `argv0 "`+v.argv0+`" and run token name "`+v.runName+`" not in `+listText(d.Argv0))
			}
		}
	}
	if len(d.ExeGlob) > 0 {
		if v.p.Exe == "" {
			rs = append(rs, "exe_glob"+listText(d.ExeGlob)+" had no exe to match")
		} else {
			rs = append(rs, `exe "`+v.p.Exe+`" matched none of `+listText(d.ExeGlob))
		}
	}
	if len(d.ArgvPath) > 0 {
		if !v.interp {
			rs = append(rs, "argv_path"+listText(d.ArgvPath)+" was not consulted: this process is not an interpreter, so its arguments are not its identity")
		} else {
			rs = append(rs, `run token "`+v.runToken+`" matched none of `+listText(d.ArgvPath))
		}
	}
	if len(rs) == 0 {
		return "", "manifest names no predicate"
	}
	return "", strings.Join(rs, "; ")
}

func listText(l []string) string { return "[" + strings.Join(l, " ") + "]" }
