package review

import (
	"path"
	"strings"
)

// Names of the shipped rules, in hit order, and of the cut-short pseudo-rule.
// Each comment says what the rule matches; a command's program is the base
// name of its first word once wrappers are stripped (see the package doc).
const (
	// rm with r or R in its short flags (or --recursive) and f (or
	// --force): rm -rf, rm -r -f, rm -R --force.
	RuleRecursiveDelete = "recursive delete"
	// git push (after git's own options) with f in its short flags,
	// --force, --force-with-lease or an operand starting with +.
	RuleForcePush = "force push"
	// git reset with --hard anywhere after it.
	RuleHardReset = "hard reset"
	// git clean with f in its short flags or --force.
	RuleClean = "clean"
	// git checkout or git restore with an operand ., :/ or *.
	RuleDiscardChanges = "discard changes"
	// curl or wget earlier in a pipeline that feeds sh, bash, zsh, dash,
	// ksh, fish, python, python3, node or anything under sudo or doas;
	// or a download inside a substitution whose text a command runs
	// (bash <(curl …), sh -c "$(curl …)", eval "$(curl …)").
	RulePipeToShell = "pipe to shell"
	// any command run through sudo or doas.
	RuleSudo = "sudo"
	// mkfs, mkfs.*, newfs, wipefs; dd with an of= argument; a write
	// redirect to a disk device (/dev/sdX, /dev/nvmeN…, /dev/diskN, …).
	RuleDisk = "disk"
	// a recursive chmod to 777, 0777, a+rwx or ugo+rwx; a recursive
	// chown or chgrp of /, ~ or the home directory.
	RuleWidePermissions = "wide permissions"
	// DROP TABLE, DROP DATABASE, DROP SCHEMA, TRUNCATE TABLE or TRUNCATE
	// <name>, in any case, anywhere in the command's raw text (quotes and
	// here-documents included).
	RuleDatabase = "database"
	// terraform or tofu apply/destroy, kubectl … delete, docker or podman
	// system prune, npm, pnpm, yarn or cargo publish.
	RuleInfrastructure = "infrastructure"
	// a write outside Request.Worktree: a redirect target, the
	// destination of cp, mv, ln, install or rsync, an operand of rm,
	// rmdir, tee, touch, mkdir, truncate, shred or unlink, a file sed -i
	// edits, or a file tool's path.
	RuleOutside = "outside the worktree"
	// not a rule: the line was too long or too deeply nested to read
	// whole, so a risky part may not have been seen.
	RuleCutShort = "cut short"
)

// shippedRule is one shipped rule: its name, why it is risky, and the test
// for one command. Pipe to shell and outside the worktree need more than one
// command, so they have their own code in Check.
type shippedRule struct {
	name, why string
	match     func(c *command, e *env) bool
}

// env is what a rule needs to know besides the command.
type env struct {
	root, home string
	// dir is the directory relative paths are read from: the pane's
	// working directory, else root. dirOf overrides it for the commands
	// after a cd in the same line ("" there: not known).
	dir   string
	dirOf map[*command]string
}

// dirFor is the directory c's relative paths are read from.
func (e *env) dirFor(c *command) string {
	if d, ok := e.dirOf[c]; ok {
		return d
	}
	return e.dir
}

// shipped is the constant table of shipped rules in hit order.
var shipped = [...]shippedRule{
	{RuleRecursiveDelete, "deletes a tree of files without asking", matchRecursiveDelete},
	{RuleForcePush, "can overwrite commits on the remote", matchForcePush},
	{RuleHardReset, "throws away uncommitted changes", matchHardReset},
	{RuleClean, "deletes untracked files", matchClean},
	{RuleDiscardChanges, "throws away changes in the working tree", matchDiscard},
	{RulePipeToShell, "runs a downloaded script", nil}, // needs the pipeline: see Check
	{RuleSudo, "runs as root", func(c *command, _ *env) bool { return c.sudo }},
	{RuleDisk, "writes to a disk device or makes a file system", matchDisk},
	{RuleWidePermissions, "opens up permissions across a tree", matchWidePermissions},
	{RuleDatabase, "drops or empties database tables", func(c *command, _ *env) bool { return matchDatabase(c.raw()) || matchDatabase(c.heredoc) }},
	{RuleInfrastructure, "changes deployed infrastructure or publishes a package", matchInfrastructure},
	{RuleOutside, "writes outside the pane's worktree", matchOutside},
}

const whyCutShort = "the line was too long to read whole, so a risky part may be hidden"

// flags is a command's words read the way the rules read them: words after a
// bare "--" are operands, "--name=value" counts as "--name", and the short
// flags are the letters of every "-x" word run together.
type flags struct {
	short    string
	long     []string
	operands []string
}

func parseFlags(words []string) flags {
	var f flags
	var short []byte
	for i, w := range words {
		switch {
		case w == "--":
			f.operands = append(f.operands, words[i+1:]...)
			f.short = string(short)
			return f
		case strings.HasPrefix(w, "--"):
			name, _, _ := strings.Cut(w, "=")
			f.long = append(f.long, name)
		case len(w) > 1 && w[0] == '-':
			short = append(short, w[1:]...)
		default:
			f.operands = append(f.operands, w)
		}
	}
	f.short = string(short)
	return f
}

func (f *flags) has(letters string) bool { return strings.ContainsAny(f.short, letters) }

func (f *flags) hasLong(names ...string) bool {
	for _, l := range f.long {
		if contains(names, l) {
			return true
		}
	}
	return false
}

func (f *flags) hasOperand(values ...string) bool {
	for _, o := range f.operands {
		if contains(values, o) {
			return true
		}
	}
	return false
}

func argsFlags(c *command) flags {
	if len(c.args) < 2 {
		return flags{}
	}
	return parseFlags(c.args[1:])
}

func matchRecursiveDelete(c *command, _ *env) bool {
	if c.prog != "rm" {
		return false
	}
	f := argsFlags(c)
	return (f.has("rR") || f.hasLong("--recursive")) && (f.has("f") || f.hasLong("--force"))
}

// gitCommand returns git's subcommand and the words after it.
func gitCommand(c *command) (string, []string) {
	if c.prog != "git" {
		return "", nil
	}
	args := c.args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:]
		}
	}
	return "", nil
}

func matchForcePush(c *command, _ *env) bool {
	sub, rest := gitCommand(c)
	if sub != "push" {
		return false
	}
	f := parseFlags(rest)
	if f.has("f") || f.hasLong("--force", "--force-with-lease") {
		return true
	}
	for _, o := range f.operands {
		if strings.HasPrefix(o, "+") {
			return true
		}
	}
	return false
}

func matchHardReset(c *command, _ *env) bool {
	sub, rest := gitCommand(c)
	return sub == "reset" && contains(rest, "--hard")
}

func matchClean(c *command, _ *env) bool {
	sub, rest := gitCommand(c)
	if sub != "clean" {
		return false
	}
	f := parseFlags(rest)
	return f.has("f") || f.hasLong("--force")
}

func matchDiscard(c *command, _ *env) bool {
	sub, rest := gitCommand(c)
	if sub != "checkout" && sub != "restore" {
		return false
	}
	f := parseFlags(rest)
	return f.hasOperand(".", ":/", "*")
}

// pipeTarget reports whether c, fed by a download earlier in its pipeline,
// runs what it reads.
func pipeTarget(c *command) bool {
	if c.sudo {
		return true
	}
	switch c.prog {
	case "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "node":
		return true
	}
	return false
}

func isDownload(c *command) bool { return c.prog == "curl" || c.prog == "wget" }

func matchDisk(c *command, _ *env) bool {
	switch {
	case c.prog == "mkfs" || strings.HasPrefix(c.prog, "mkfs.") || c.prog == "newfs" ||
		strings.HasPrefix(c.prog, "newfs_") || c.prog == "wipefs":
		return true
	case c.prog == "dd":
		for _, a := range c.args[1:] {
			if strings.HasPrefix(a, "of=") {
				return true
			}
		}
	}
	for _, w := range c.writes {
		if isDiskDevice(w) {
			return true
		}
	}
	return false
}

// isDiskDevice reports whether p names a whole disk or a partition.
func isDiskDevice(p string) bool {
	rest, ok := strings.CutPrefix(path.Clean(p), "/dev/")
	if !ok {
		return false
	}
	for _, d := range [...]struct {
		prefix string
		letter bool // followed by a letter, else by a digit
	}{
		{"sd", true}, {"hd", true}, {"vd", true}, {"xvd", true},
		{"nvme", false}, {"disk", false}, {"rdisk", false}, {"mmcblk", false},
	} {
		tail, ok := strings.CutPrefix(rest, d.prefix)
		if !ok || tail == "" {
			continue
		}
		if d.letter && tail[0] >= 'a' && tail[0] <= 'z' {
			return true
		}
		if !d.letter && tail[0] >= '0' && tail[0] <= '9' {
			return true
		}
	}
	return false
}

func matchWidePermissions(c *command, e *env) bool {
	switch c.prog {
	case "chmod", "chown", "chgrp":
	default:
		return false
	}
	f := argsFlags(c)
	if !f.has("R") && !f.hasLong("--recursive") {
		return false
	}
	if c.prog == "chmod" {
		return f.hasOperand("777", "0777", "a+rwx", "ugo+rwx")
	}
	for _, o := range f.operands {
		switch o {
		case "/", "~", "~/", "$HOME", "$HOME/", "${HOME}", "${HOME}/":
			return true
		}
		if e.home != "" && strings.TrimRight(o, "/") == strings.TrimRight(e.home, "/") {
			return true
		}
	}
	return false
}

// matchDatabase looks for DROP TABLE, DROP DATABASE, DROP SCHEMA, TRUNCATE
// TABLE and TRUNCATE <name>, in any case, anywhere in text.
func matchDatabase(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i] | 0x20
		if c != 'd' && c != 't' {
			continue
		}
		if i > 0 && isWordByte(text[i-1]) {
			continue
		}
		if hasFoldPrefix(text[i:], "drop") {
			rest, ok := afterSpace(text[i+4:])
			if ok && (hasWord(rest, "table") || hasWord(rest, "database") || hasWord(rest, "schema")) {
				return true
			}
		} else if hasFoldPrefix(text[i:], "truncate") {
			rest, ok := afterSpace(text[i+8:])
			if ok && rest != "" && (isLetter(rest[0]) || rest[0] == '_' || rest[0] == '"' || rest[0] == '`' || rest[0] == '[') {
				return true
			}
		}
	}
	return false
}

func isWordByte(c byte) bool { return c == '_' || isLetter(c) || (c >= '0' && c <= '9') }

func hasFoldPrefix(s, lower string) bool {
	if len(s) < len(lower) {
		return false
	}
	for i := 0; i < len(lower); i++ {
		if s[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// afterSpace skips at least one white-space byte.
func afterSpace(s string) (string, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return s[i:], i > 0
}

func hasWord(s, lower string) bool {
	return hasFoldPrefix(s, lower) && (len(s) == len(lower) || !isWordByte(s[len(lower)]))
}

func matchInfrastructure(c *command, _ *env) bool {
	switch c.prog {
	case "terraform", "tofu", "kubectl", "docker", "podman", "npm", "pnpm", "yarn", "cargo":
	default:
		return false
	}
	f := argsFlags(c)
	first := ""
	if len(f.operands) > 0 {
		first = f.operands[0]
	}
	switch c.prog {
	case "terraform", "tofu":
		return first == "apply" || first == "destroy"
	case "kubectl":
		return f.hasOperand("delete")
	case "docker", "podman":
		for i := 0; i+1 < len(f.operands); i++ {
			if f.operands[i] == "system" && f.operands[i+1] == "prune" {
				return true
			}
		}
	case "npm", "pnpm", "yarn", "cargo":
		return first == "publish"
	}
	return false
}

// writeTargets returns the paths c writes to, copies or moves to, or deletes.
func writeTargets(c *command) []string {
	targets := c.writes
	if len(c.args) < 2 {
		return targets
	}
	add := func(ps ...string) {
		if len(targets) == len(c.writes) { // do not append into c.writes
			targets = append([]string(nil), c.writes...)
		}
		targets = append(targets, ps...)
	}
	switch c.prog {
	case "cp", "mv", "ln", "install", "rsync":
		f := argsFlags(c)
		if f.hasLong("--target-directory") || (c.prog != "rsync" && f.has("t")) {
			add(f.operands...)
			add(targetDirValues(c.args[1:])...)
		} else {
			if len(f.operands) > 0 {
				add(f.operands[len(f.operands)-1])
			}
		}
	case "rm", "rmdir", "tee", "touch", "mkdir", "truncate", "shred", "unlink":
		f := argsFlags(c)
		add(f.operands...)
	case "sed":
		f := argsFlags(c)
		if !f.has("i") && !f.hasLong("--in-place") {
			break
		}
		ops := f.operands
		// Without -e or -f the first operand is the script, not a file.
		if !f.has("ef") && !f.hasLong("--expression", "--file") && len(ops) > 0 {
			ops = ops[1:]
		}
		add(ops...)
	}
	return targets
}

func matchOutside(c *command, e *env) bool {
	if e.root == "" {
		return false
	}
	dir := e.dirFor(c)
	for _, t := range writeTargets(c) {
		if isOutside(t, e.root, e.home, dir) {
			return true
		}
	}
	return false
}

// targetDirValues returns the values written into the flag words
// --target-directory=DIR and -tDIR.
func targetDirValues(words []string) []string {
	var dirs []string
	for _, w := range words {
		if w == "--" {
			break
		}
		if v, ok := strings.CutPrefix(w, "--target-directory="); ok {
			dirs = append(dirs, v)
		} else if len(w) > 2 && w[0] == '-' && w[1] != '-' {
			if k := strings.IndexByte(w, 't'); k > 0 && k+1 < len(w) {
				dirs = append(dirs, w[k+1:])
			}
		}
	}
	return dirs
}

// isOutside reports whether p is a path outside root once resolved (see
// resolvePath): ~ and $HOME against home, a relative path against dir, so
// ../x and sub/../../x climb out as the shell would take them. A path that
// cannot be resolved is outside only when it names a home that is not
// known (~, $HOME with no home, ~user); a relative path with no dir, or
// one a variable writes, is not. The harmless devices never are; an empty
// root turns the rule off.
func isOutside(p, root, home, dir string) bool {
	if root == "" {
		return false
	}
	p = unquote(strings.TrimSpace(p))
	abs, ok := resolvePath(p, home, dir)
	if !ok {
		return homeForm(p) || strings.HasPrefix(p, "~") // an unknown home, or another user's
	}
	switch {
	case abs == "/dev/null", abs == "/dev/stdout", abs == "/dev/stderr", abs == "/dev/tty", strings.HasPrefix(abs, "/dev/fd/"):
		return false
	}
	root = path.Clean(root)
	if root == "/" || abs == root || strings.HasPrefix(abs, root+"/") {
		return false
	}
	return true
}

// homePrefix is the way p names the home directory ("~", "$HOME" or
// "${HOME}", alone or before a slash), if it does.
func homePrefix(p string) (string, bool) {
	for _, pre := range [...]string{"~", "$HOME", "${HOME}"} {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return pre, true
		}
	}
	return "", false
}

// homeForm: p is the home directory or a path under it, by name.
func homeForm(p string) bool {
	_, ok := homePrefix(p)
	return ok
}

// resolvePath makes p absolute and clean: ~, $HOME and ${HOME} against
// home, a relative path against dir (which must be absolute). ok is false
// when that is not known: no home, no dir, another user's ~name, or a
// path a variable or a substitution writes. That last one is the
// package's carve-out for a command written to hide what it does ($D/x
// may be anywhere; only $HOME is read, because it has one meaning). A
// leftover quote is not a path character the shell would keep either, so
// such words are given up too rather than guessed.
func resolvePath(p, home, dir string) (string, bool) {
	if pre, ok := homePrefix(p); ok {
		if !strings.HasPrefix(home, "/") {
			return "", false
		}
		return path.Clean(home + p[len(pre):]), true
	}
	switch {
	case strings.HasPrefix(p, "/"):
		return path.Clean(p), true
	case p == "" || strings.HasPrefix(p, "~") || strings.ContainsAny(p, "$`'\""):
		return "", false
	case !strings.HasPrefix(dir, "/"):
		return "", false
	}
	return path.Join(dir, p), true
}

// unquote strips one pair of surrounding quotes.
func unquote(p string) string {
	if len(p) >= 2 && (p[0] == '"' || p[0] == '\'') && p[len(p)-1] == p[0] {
		return p[1 : len(p)-1]
	}
	return p
}
