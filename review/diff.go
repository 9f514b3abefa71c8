package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Limits of one diff: a review is read by a person, and a worktree can hold
// anything. Past a limit a file keeps its counts and loses its hunks, and
// the result says truncated.
const (
	MaxDiffFiles     = 400
	MaxDiffBytes     = 2 << 20
	MaxFileLines     = 5000
	MaxDiffTime      = 10 * time.Second
	MaxDiffPaths     = 256
	MaxContext       = 20
	DefaultContext   = 3
	emptyTree        = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	codeNotRepo      = "not_repo"
	codeGitFailed    = "git_failed"
	codeInvalidParam = "invalid_params"
)

// DiffError is a failure of a diff or a note: a stable wire code
// (not_repo, git_failed, invalid_params, no_notes), a one-line message and
// a hint saying what to do next. Param names the option at fault, if any.
type DiffError struct {
	Code    string
	Message string
	Hint    string
	Param   string
}

func (e *DiffError) Error() string { return e.Message }

func errf(code, hint, param, format string, args ...any) *DiffError {
	return &DiffError{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint, Param: param}
}

// DiffOptions say what to diff. Dir is any directory inside the worktree
// (a pane's cwd); the repository is the one holding it.
type DiffOptions struct {
	Dir string
	// Base names the base (a branch, tag or commit); it is taken through
	// its merge base with HEAD. Empty follows the base order.
	Base string
	// RecordedBase is the base the worktree was made from (fan, worktree
	// new), used when Base is empty.
	RecordedBase string
	// Uncommitted diffs against HEAD itself.
	Uncommitted bool
	// Against is another worktree of the same repository (two attempts
	// of a fan): the diff goes from its working state (committed,
	// uncommitted and untracked work together) to this one's. Base and
	// Uncommitted must then be empty.
	Against string
	// Paths keeps only these paths (files or directories, relative to the
	// worktree's top); at most MaxDiffPaths.
	Paths []string
	// Context is the lines of context around a change, 0..MaxContext.
	Context int
	// Stat leaves the hunks out: counts only.
	Stat bool
	// Git is the git binary; empty is "git" from PATH.
	Git string
	// Env is the environment git runs with; nil is os.Environ().
	Env []string
	// Limits; zero fields take the shipped limits.
	MaxFiles, MaxBytes, MaxFileLines int
	Timeout                          time.Duration
}

// Diff is the typed result an embedder renders.
type Diff struct {
	RepoRoot    string `json:"repo_root"`
	Worktree    string `json:"worktree"`
	Base        string `json:"base"`
	BaseSHA     string `json:"base_sha"`
	Uncommitted bool   `json:"uncommitted"`
	TreeSHA     string `json:"tree_sha"`
	// Against and AgainstTree name the other worktree of an Against diff
	// and the tree its working state was read as.
	Against     string `json:"against,omitempty"`
	AgainstTree string `json:"against_tree,omitempty"`
	Files       []File `json:"files"`
	Totals      Totals `json:"totals"`
	Truncated   bool   `json:"truncated"`
}

// Totals count every changed file, also those past the limits.
type Totals struct {
	Files   int `json:"files"`
	Added   int `json:"added"`
	Removed int `json:"removed"`
}

// File is one changed file. Status is A, M, D, R or U (untracked).
type File struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path,omitempty"`
	Status    string `json:"status"`
	Added     int    `json:"added"`
	Removed   int    `json:"removed"`
	Binary    bool   `json:"binary"`
	Truncated bool   `json:"truncated"`
	Hunks     []Hunk `json:"hunks"`
}

// Hunk is one @@ section.
type Hunk struct {
	Header   string `json:"header"`
	OldStart int    `json:"old_start"`
	OldLines int    `json:"old_lines"`
	NewStart int    `json:"new_start"`
	NewLines int    `json:"new_lines"`
	Lines    []Line `json:"lines"`
}

// Line is one line of a hunk. Op is context, add or delete; Old and New
// are its numbers on each side (0 on the side it is not on).
type Line struct {
	Op        string `json:"op"`
	Old       int    `json:"old,omitempty"`
	New       int    `json:"new,omitempty"`
	Text      string `json:"text"`
	NoNewline bool   `json:"no_newline,omitempty"`
}

// Line ops (wire names).
const (
	OpContext = "context"
	OpAdd     = "add"
	OpDelete  = "delete"
)

// git runs git calls for one diff: all under one context (the time limit
// of the whole diff), in the worktree, with an environment that may point
// at a temporary index and object directory.
type git struct {
	ctx context.Context
	bin string
	dir string
	env []string
}

func (g *git) run(stdin []byte, args ...string) ([]byte, error) {
	return g.runLimit(stdin, 0, args...)
}

// runLimit keeps at most limit bytes of stdout (0: all) and stops git once
// it has more; the cut is reported by a longer-than-limit result.
func (g *git) runLimit(stdin []byte, limit int, args ...string) ([]byte, error) {
	// core.quotePath off: paths come back as bytes; the pager, colours
	// and external diff tools are off so the output is the plain format.
	full := append([]string{"-c", "core.quotePath=false", "-c", "color.ui=false", "--no-pager"}, args...)
	cmd := exec.CommandContext(g.ctx, g.bin, full...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	var r io.Reader = out
	if limit > 0 {
		r = io.LimitReader(out, int64(limit)+1)
	}
	data, rerr := io.ReadAll(r)
	cut := limit > 0 && len(data) > limit
	if cut { // the rest is not wanted: stop git rather than drain it
		cmd.Process.Kill()
		io.Copy(io.Discard, out)
	}
	werr := cmd.Wait()
	if cut {
		return data, nil
	}
	if g.ctx.Err() != nil {
		return nil, g.ctx.Err()
	}
	if rerr != nil {
		return nil, rerr
	}
	if werr != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = werr.Error()
		}
		return data, &gitError{args: args, msg: msg}
	}
	return data, nil
}

type gitError struct {
	args []string
	msg  string
}

func (e *gitError) Error() string { return "git " + strings.Join(e.args, " ") + ": " + e.msg }

// limitedBuffer keeps the first n bytes of what git says on stderr.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func failed(err error) *DiffError {
	if errors.Is(err, context.DeadlineExceeded) {
		return errf(codeGitFailed, "the git calls of one diff may take 10 s together; narrow it to some paths, or to the uncommitted changes", "", "git took too long")
	}
	return errf(codeGitFailed, "check that git works in this repository (git status)", "", "%v", err)
}

// Repo is where a directory's repository is.
type Repo struct {
	// Worktree is the checkout's top directory; RepoRoot the main
	// checkout's (the same unless Worktree is a linked worktree).
	Worktree, RepoRoot string
	index, objects     string
}

// FindRepo finds the repository holding dir, or a not_repo error.
func FindRepo(ctx context.Context, gitBin, dir string, env []string) (*Repo, error) {
	g := newGit(ctx, gitBin, dir, env)
	return g.findRepo(dir)
}

func newGit(ctx context.Context, bin, dir string, env []string) *git {
	if bin == "" {
		bin = "git"
	}
	if env == nil {
		env = os.Environ()
	}
	// A repository's own config may not run programs for us (fsmonitor),
	// nor may git take locks on the real index for an opportunistic refresh.
	env = append(envWithout(env, "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES"),
		"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	return &git{ctx: ctx, bin: bin, dir: dir, env: env}
}

func envWithout(env []string, names ...string) []string {
	out := make([]string, 0, len(env)+6)
outer:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue outer
			}
		}
		out = append(out, kv)
	}
	return out
}

func (g *git) findRepo(dir string) (*Repo, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, errf(codeNotRepo, "name a directory inside a git worktree (for a pane: cd into one there)", "", "%s is not a directory", dir)
	}
	out, err := g.run(nil, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-path", "index", "--git-path", "objects")
	if err != nil {
		if g.ctx.Err() != nil {
			return nil, failed(g.ctx.Err())
		}
		return nil, errf(codeNotRepo, "name a directory inside a git worktree (for a pane: cd into one there, or review another pane)", "", "%s is not inside a git repository", dir)
	}
	f := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(f) != 4 || f[0] == "" {
		return nil, errf(codeNotRepo, "a bare repository or .git directory has no files to review", "", "%s is not inside a git checkout", dir)
	}
	r := &Repo{Worktree: f[0], index: f[2], objects: f[3], RepoRoot: f[0]}
	if filepath.Base(f[1]) == ".git" {
		r.RepoRoot = filepath.Dir(f[1])
	}
	g.dir = r.Worktree
	return r, nil
}

// ComputeDiff diffs a worktree against its base: committed, uncommitted
// and untracked work together (or only what is not committed). Git works
// on a temporary copy of the index and writes new objects to a temporary
// object directory, so the repository, its index and its files are never
// changed.
func ComputeDiff(ctx context.Context, o DiffOptions) (*Diff, error) {
	if o.Context < 0 || o.Context > MaxContext {
		return nil, errf(codeInvalidParam, "give 0 to 20 lines of context", "context", "context %d is out of range", o.Context)
	}
	if len(o.Paths) > MaxDiffPaths {
		return nil, errf(codeInvalidParam, "name a directory instead of its files", "paths", "%d paths, at most %d", len(o.Paths), MaxDiffPaths)
	}
	limit := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	maxFiles, maxBytes, maxLines := limit(o.MaxFiles, MaxDiffFiles), limit(o.MaxBytes, MaxDiffBytes), limit(o.MaxFileLines, MaxFileLines)
	ctx, cancel := withDiffTime(ctx, o)
	defer cancel()
	g := newGit(ctx, o.Git, o.Dir, o.Env)
	repo, err := g.findRepo(o.Dir)
	if err != nil {
		return nil, err
	}
	pathspec, perr := pathspecs(repo.Worktree, o.Paths)
	if perr != nil {
		return nil, perr
	}
	d := &Diff{RepoRoot: repo.RepoRoot, Worktree: repo.Worktree, Uncommitted: o.Uncommitted, Files: []File{}}
	var other *Repo
	if o.Against != "" {
		if o.Base != "" || o.Uncommitted {
			return nil, errf(codeInvalidParam, "diff two attempts, or one against a base, not both", "against", "against goes with neither a base nor uncommitted")
		}
		og := newGit(ctx, o.Git, o.Against, o.Env)
		if other, err = og.findRepo(o.Against); err != nil {
			return nil, err
		}
		if other.objects != repo.objects {
			return nil, errf(codeInvalidParam, "name another attempt of the same fan", "against", "%s is not a worktree of the same repository", other.Worktree)
		}
		d.Against = other.Worktree
	} else {
		d.Base, d.BaseSHA, err = g.resolveBase(o)
		if err != nil {
			return nil, err
		}
	}

	// The temporary index and object directory: everything git writes
	// while building the worktree's tree lands here.
	tmp, terr := os.MkdirTemp("", "tuios-review-*")
	if terr != nil {
		return nil, failed(terr)
	}
	defer os.RemoveAll(tmp)
	tmpIndex := filepath.Join(tmp, "index")
	if err := copyFile(repo.index, tmpIndex); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, failed(err)
	}
	objDir := filepath.Join(tmp, "objects")
	if err := os.Mkdir(objDir, 0o700); err != nil {
		return nil, failed(err)
	}
	if other != nil {
		// The other worktree's working state, through a copy of its
		// index, into the same temporary object directory.
		otherIndex := filepath.Join(tmp, "against-index")
		if err := copyFile(other.index, otherIndex); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, failed(err)
		}
		og := newGit(ctx, o.Git, other.Worktree, o.Env)
		og.env = append(og.env, "GIT_INDEX_FILE="+otherIndex, "GIT_OBJECT_DIRECTORY="+objDir, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+repo.objects)
		if _, err := og.run(nil, "add", "-A", "--", "."); err != nil {
			return nil, failed(err)
		}
		out, err := og.run(nil, "write-tree")
		if err != nil {
			return nil, failed(err)
		}
		d.AgainstTree = strings.TrimSpace(string(out))
		d.BaseSHA = d.AgainstTree
	}
	g.env = append(g.env, "GIT_INDEX_FILE="+tmpIndex, "GIT_OBJECT_DIRECTORY="+objDir, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+repo.objects)

	// Untracked files (ignored ones excluded) are status U.
	out, err := g.run(nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, failed(err)
	}
	untracked := map[string]bool{}
	for _, p := range splitZ(out) {
		untracked[p] = true
	}
	if _, err := g.run(nil, "add", "-A", "--", "."); err != nil {
		return nil, failed(err)
	}
	out, err = g.run(nil, "write-tree")
	if err != nil {
		return nil, failed(err)
	}
	d.TreeSHA = strings.TrimSpace(string(out))

	// Counts first (cheap, every file), then the patch text of the files
	// within the limits only.
	common := []string{"-M", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none", d.BaseSHA, d.TreeSHA}
	out, err = g.run(nil, append(append([]string{"diff", "--raw", "--numstat", "-z"}, common...), pathspec...)...)
	if err != nil {
		return nil, failed(err)
	}
	files := parseRawNumstat(out)
	patchSpec := []string{}
	for i := range files {
		f := &files[i]
		if f.Status == "A" && untracked[f.Path] {
			f.Status = "U"
		}
		d.Totals.Files++
		d.Totals.Added += f.Added
		d.Totals.Removed += f.Removed
		if i >= maxFiles {
			f.Truncated, d.Truncated = true, true
			continue
		}
		if f.Added+f.Removed > maxLines {
			f.Truncated, d.Truncated = true, true
			continue
		}
		if f.Binary || o.Stat {
			continue
		}
		patchSpec = append(patchSpec, ":(literal)"+f.Path)
		if f.OldPath != "" {
			patchSpec = append(patchSpec, ":(literal)"+f.OldPath)
		}
	}
	if len(files) > maxFiles {
		files = files[:maxFiles]
	}
	if len(patchSpec) > 0 {
		// Fixed prefixes: a user's diff.noprefix or mnemonicPrefix must not
		// change what the parser reads.
		args := append([]string{"diff", "-U" + strconv.Itoa(o.Context), "--no-color", "--src-prefix=a/", "--dst-prefix=b/"}, common...)
		// At most 800 literal names (400 files, renames with both):
		// far below the argument limit.
		args = append(append(args, "--"), patchSpec...)
		out, err = g.runLimit(nil, maxBytes, args...)
		if err != nil {
			return nil, failed(err)
		}
		cut := len(out) > maxBytes
		if cut {
			out = out[:maxBytes]
			d.Truncated = true
		}
		parsed := ParseUnified(out)
		byPath := map[string]*ParsedFile{}
		for i := range parsed {
			byPath[parsed[i].Path] = &parsed[i]
		}
		for i := range files {
			f := &files[i]
			if f.Truncated || f.Binary || o.Stat {
				continue
			}
			pf := byPath[f.Path]
			switch {
			case pf == nil && cut: // past the 2 MiB of text
				f.Truncated = true
			case pf == nil:
			case cut && pf.Cut:
				f.Truncated = true
			case pf.Binary:
				f.Binary = true
			default:
				f.Hunks = pf.Hunks
			}
		}
	}
	for i := range files {
		if files[i].Hunks == nil {
			files[i].Hunks = []Hunk{}
		}
	}
	d.Files = files
	return d, nil
}

// resolveBase picks the base in order: a named base, the recorded base,
// the merge base with the upstream, else HEAD; named and recorded bases
// through their merge base with HEAD.
func (g *git) resolveBase(o DiffOptions) (name, sha string, _ error) {
	head, herr := g.run(nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	headSHA := strings.TrimSpace(string(head))
	if herr != nil || headSHA == "" {
		if g.ctx.Err() != nil {
			return "", "", failed(g.ctx.Err())
		}
		if o.Base != "" {
			return "", "", errf(codeInvalidParam, "this repository has no commits yet; leave the base out", "base", "base %q: the repository has no commits", o.Base)
		}
		return "HEAD", emptyTree, nil // nothing committed: every file is new
	}
	if o.Uncommitted {
		return "HEAD", headSHA, nil
	}
	through := func(ref string) (string, bool) {
		out, err := g.run(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
		if err != nil {
			return "", false
		}
		sha := strings.TrimSpace(string(out))
		if mb, err := g.run(nil, "merge-base", sha, headSHA); err == nil {
			return strings.TrimSpace(string(mb)), true
		}
		return sha, true // unrelated histories: the base itself
	}
	if o.Base != "" {
		if strings.HasPrefix(o.Base, "-") {
			return "", "", errf(codeInvalidParam, "name a branch, tag or commit", "base", "base %q is not a ref", o.Base)
		}
		if sha, ok := through(o.Base); ok {
			return o.Base, sha, nil
		}
		if g.ctx.Err() != nil {
			return "", "", failed(g.ctx.Err())
		}
		return "", "", errf(codeInvalidParam, "name a branch, tag or commit that exists (git branch -a)", "base", "base %q does not exist in this repository", o.Base)
	}
	if o.RecordedBase != "" {
		if sha, ok := through(o.RecordedBase); ok {
			return o.RecordedBase, sha, nil
		}
	}
	if up, err := g.run(nil, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"); err == nil {
		name := strings.TrimSpace(string(up))
		if mb, err := g.run(nil, "merge-base", "@{upstream}", headSHA); err == nil && name != "" {
			return name, strings.TrimSpace(string(mb)), nil
		}
	}
	return "HEAD", headSHA, nil
}

// pathspecs checks the paths a caller named: relative to the worktree's
// top, never outside it.
func pathspecs(top string, paths []string) ([]string, *DiffError) {
	out := []string{}
	for _, p := range paths {
		rel, err := RelPath(top, p)
		if err != nil {
			return nil, err
		}
		out = append(out, ":(literal)"+rel)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return append([]string{"--"}, out...), nil
}

// RelPath turns a path named by a caller (relative to the worktree's top,
// or absolute inside it) into a clean relative one; a path outside the
// worktree or into .git is refused.
func RelPath(top, p string) (string, *DiffError) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", errf(codeInvalidParam, "name a file inside the repository", "path", "empty or invalid path")
	}
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(top, p)
	}
	rel, err := filepath.Rel(top, filepath.Clean(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", errf(codeInvalidParam, "name a path inside "+top, "path", "%s is outside the repository", p)
	}
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", errf(codeInvalidParam, "name a file of the checkout", "path", "%s is inside .git", p)
	}
	if rel == "." {
		return ".", nil
	}
	return filepath.ToSlash(rel), nil
}

// copyFile copies an index file and keeps its modification time: git
// tells a file edited in the same instant as the index was written ("racily
// clean") by comparing the entry's time with the index file's, so a copy
// stamped now would make such an edit of the same size look unchanged.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		return err
	}
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.Chtimes(to, fi.ModTime(), fi.ModTime())
}

func splitZ(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(b, []byte{0}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}

// parseRawNumstat reads `git diff --raw --numstat -z`: first every raw
// record (":modes shas STATUS\0path\0[path\0]"), then every numstat record
// ("added\tremoved\tpath\0" or "added\tremoved\t\0old\0new\0"), in the same
// order.
func parseRawNumstat(b []byte) []File {
	fields := bytes.Split(b, []byte{0})
	var files []File
	i := 0
	for i < len(fields) && len(fields[i]) > 0 && fields[i][0] == ':' {
		meta := strings.Fields(string(fields[i]))
		i++
		if len(meta) < 5 || i >= len(fields) {
			break
		}
		st := meta[4]
		f := File{Status: st[:1]}
		if f.Status == "R" || f.Status == "C" {
			if i+1 >= len(fields) {
				break
			}
			f.OldPath, f.Path = string(fields[i]), string(fields[i+1])
			i += 2
			if f.Status == "C" { // a copy is a new file here
				f.Status, f.OldPath = "A", ""
			}
		} else {
			f.Path = string(fields[i])
			i++
		}
		if f.Status == "T" { // a type change reads as a modification
			f.Status = "M"
		}
		files = append(files, f)
	}
	for k := range files {
		if i >= len(fields) {
			break
		}
		rec := string(fields[i])
		i++
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) < 3 {
			break
		}
		if parts[2] == "" { // a rename: the two names follow
			i += 2
		}
		if parts[0] == "-" {
			files[k].Binary = true
			continue
		}
		files[k].Added, _ = strconv.Atoi(parts[0])
		files[k].Removed, _ = strconv.Atoi(parts[1])
	}
	return files
}

// FileAtBase reads a file as it is at the diff's base (the old side a
// note on side old is numbered by), resolving the base as ComputeDiff
// does. A file the base does not have is an invalid_params error.
func FileAtBase(ctx context.Context, o DiffOptions, rel string) (text, base string, err error) {
	ctx, cancel := withDiffTime(ctx, o)
	defer cancel()
	g, base, sha, err := baseOf(ctx, o)
	if err != nil {
		return "", "", err
	}
	out, gerr := g.runLimit(nil, 16<<20, "cat-file", "blob", sha+":"+rel)
	if gerr != nil {
		if ctx.Err() != nil {
			return "", "", failed(ctx.Err())
		}
		return "", "", errf(codeInvalidParam, "a note on side old names a file the base has", "path", "%s is not in the base (%s)", rel, base)
	}
	return string(out), base, nil
}

// ResolveBase names the base a diff of o would use and its commit. The
// base is, in order: o.Base, the base recorded for the worktree
// (o.RecordedBase), the merge base with the branch's upstream, else HEAD; a
// named or recorded base is taken through its merge base with HEAD, so
// the diff shows only what the worktree added.
func ResolveBase(ctx context.Context, o DiffOptions) (name, sha string, err error) {
	ctx, cancel := withDiffTime(ctx, o)
	defer cancel()
	_, name, sha, err = baseOf(ctx, o)
	return name, sha, err
}

// withDiffTime bounds every git call made for o by its timeout.
func withDiffTime(ctx context.Context, o DiffOptions) (context.Context, context.CancelFunc) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = MaxDiffTime
	}
	return context.WithTimeout(ctx, timeout)
}

// baseOf finds o's repository and the base a diff of it uses.
func baseOf(ctx context.Context, o DiffOptions) (g *git, name, sha string, err error) {
	g = newGit(ctx, o.Git, o.Dir, o.Env)
	if _, err := g.findRepo(o.Dir); err != nil {
		return nil, "", "", err
	}
	name, sha, err = g.resolveBase(o)
	return g, name, sha, err
}
