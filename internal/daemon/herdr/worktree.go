package herdr

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// herdr's worktree methods, kept apart from tuios's own worktree verbs
// (internal/daemon/fan) as herdr defines them: these run git in
// the repository of a pane (pane_id, else the caller's own pane) and map
// a checkout onto windows: a worktree is "open" when a window's working
// directory is inside it.
//
//	worktree.list   git worktree list --porcelain -z
//	worktree.create git worktree add beside the main checkout
//	                (<repo>-<branch>); a path of the caller's choosing is
//	                unsupported
//	worktree.open   a new window whose cwd is the checkout, or the window
//	                already there (already_open: true)
//	worktree.remove git worktree remove, refused while a window is in it

// herdrGitWait bounds one method's git calls together.
const herdrGitWait = 10 * time.Second

// herdrWorktree is one entry of git worktree list.
type herdrWorktree struct {
	Path     string   `json:"path"`
	Head     string   `json:"head,omitempty"`
	Branch   string   `json:"branch,omitempty"`
	Detached bool     `json:"detached,omitempty"`
	Bare     bool     `json:"bare,omitempty"`
	Locked   bool     `json:"locked,omitempty"`
	Prunable bool     `json:"prunable,omitempty"`
	Main     bool     `json:"main"`
	Open     bool     `json:"open"`
	PaneIDs  []string `json:"pane_ids"`
}

// parseWorktreeList reads `git worktree list --porcelain -z`: NUL-ended
// "key value" fields, an empty field closing each entry. The first entry
// is the main worktree. Output git did not write (no "worktree" field
// first) is an error rather than a guess.
func parseWorktreeList(out []byte) ([]herdrWorktree, error) {
	var list []herdrWorktree
	var cur *herdrWorktree
	for _, f := range bytes.Split(out, []byte{0}) {
		field := string(f)
		if field == "" {
			cur = nil
			continue
		}
		key, val, _ := strings.Cut(field, " ")
		if key == "worktree" {
			if val == "" {
				return nil, errors.New("a worktree entry without a path")
			}
			list = append(list, herdrWorktree{Path: val, Main: len(list) == 0, PaneIDs: []string{}})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			return nil, errors.New("a field outside a worktree entry: " + core.Clip(key, 32))
		}
		switch key {
		case "HEAD":
			cur.Head = val
		case "branch":
			cur.Branch = strings.TrimPrefix(val, "refs/heads/")
		case "detached":
			cur.Detached = true
		case "bare":
			cur.Bare = true
		case "locked":
			cur.Locked = true
		case "prunable":
			cur.Prunable = true
		}
	}
	return list, nil
}

// git runs git in dir with the environment review uses for its own
// calls: no prompts, no optional locks, C messages.
func (h *Sock) git(ctx context.Context, dir string, args ...string) ([]byte, *Err) {
	env := make([]string, 0, len(os.Environ())+3)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_DIR=") && !strings.HasPrefix(kv, "GIT_WORK_TREE=") && !strings.HasPrefix(kv, "GIT_INDEX_FILE=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotePath=false", "--no-pager"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, errorf("unsupported", "git cannot run here ("+core.Clip(err.Error(), 120)+"): tuios's worktree methods use git")
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		// git's words name paths of this repository: data, clipped.
		return out, errorf("worktree_failed", "git "+args[0]+" "+firstWord(args[1:])+" failed: "+core.Clip(strings.ReplaceAll(msg, "\n", " "), 300))
	}
	return out, nil
}

func firstWord(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// worktreeRepo is the pane a worktree method works from (pane_id, else
// the caller's pane) and its repository.
func (h *Sock) worktreeRepo(ctx context.Context, call *herdrCall, p herdrParams) (*pane, *review.Repo, *Err) {
	var w *pane
	if p.has("pane_id") {
		var herr *Err
		if w, herr = h.paneArg(call, p); herr != nil {
			return nil, nil, herr
		}
	} else if own := call.place(); own != "" {
		w, _ = h.herdrWindow(call.gc, own)
	}
	if w == nil {
		return nil, nil, herdrMissing("pane_id")
	}
	dir := windowCwd(w.Pane)
	if dir == "" {
		return nil, nil, errorf("worktree_failed", "the pane's working directory cannot be read")
	}
	repo, err := review.FindRepo(ctx, "", dir, nil)
	if err != nil {
		return nil, nil, errorf("worktree_failed", "the pane is not in a git repository ("+core.Clip(dir, 200)+")")
	}
	return w, repo, nil
}

// windowCwd is a window's working directory: what its shell said (OSC 7),
// else its process's cwd as the kernel has it.
func windowCwd(w core.Pane) string {
	if d := w.Dir(); d != "" {
		return d
	}
	if pid := w.Pid(); pid > 0 {
		if d, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil {
			return d
		}
	}
	return ""
}

// realPath resolves symlinks where it can, so a checkout and a cwd compare.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// within says whether dir is root or inside it.
func within(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && (rel == "." || rel != ".." && !strings.HasPrefix(rel, "../"))
}

// worktrees lists the repository's worktrees with the windows open in
// each: a window belongs to the deepest checkout holding its cwd.
func (h *Sock) worktrees(ctx context.Context, repo *review.Repo) ([]herdrWorktree, *Err) {
	out, herr := h.git(ctx, repo.Worktree, "worktree", "list", "--porcelain", "-z")
	if herr != nil {
		return nil, herr
	}
	list, err := parseWorktreeList(out)
	if err != nil {
		return nil, errorf("worktree_failed", "git worktree list answered in a form tuios does not read: "+err.Error())
	}
	roots := make([]string, len(list))
	for i := range list {
		roots[i] = realPath(list[i].Path)
	}
	type seat struct {
		id, cwd string
		w       core.Pane
	}
	var seats []seat
	for _, ss := range h.core.View(nil).Sessions {
		for _, w := range ss.Windows {
			seats = append(seats, seat{id: herdrPaneID(ss.ID, w.ID), w: w.Pane})
		}
	}
	for i := range seats { // /proc reads
		seats[i].cwd = windowCwd(seats[i].w)
	}
	for _, st := range seats {
		cwd := realPath(st.cwd)
		if st.cwd == "" {
			continue
		}
		best := -1
		for j, r := range roots {
			if within(r, cwd) && (best < 0 || len(r) > len(roots[best])) {
				best = j
			}
		}
		if best >= 0 {
			list[best].Open = true
			list[best].PaneIDs = append(list[best].PaneIDs, st.id)
		}
	}
	return list, nil
}

// worktreeNamed finds the worktree `path` or `branch` names.
func worktreeNamed(list []herdrWorktree, p herdrParams) (*herdrWorktree, *Err) {
	path, herr := p.str("path", false)
	if herr != nil {
		return nil, herr
	}
	branch, herr := p.str("branch", false)
	if herr != nil {
		return nil, herr
	}
	if path == "" && branch == "" {
		return nil, herdrMissing("path")
	}
	for i := range list {
		wt := &list[i]
		if path != "" && realPath(path) == realPath(wt.Path) || path == "" && branch != "" && wt.Branch == strings.TrimPrefix(branch, "refs/heads/") {
			return wt, nil
		}
	}
	what := path
	if what == "" {
		what = branch
	}
	return nil, errorf("worktree_not_found", "no worktree "+core.Clip(what, 200)+" in this repository")
}

// worktreeDir is where worktree.create puts a branch's checkout: beside
// the main checkout, named <repo>-<branch> with the branch's '/' as '-'.
func worktreeDir(mainCheckout, branch string) string {
	slug := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 {
			return '-'
		}
		return r
	}, branch)
	return filepath.Join(filepath.Dir(mainCheckout), filepath.Base(mainCheckout)+"-"+slug)
}

func (h *Sock) worktree(call *herdrCall, m string, p herdrParams) (any, *Err) {
	ctx, cancel := context.WithTimeout(call.ctx, herdrGitWait)
	defer cancel()
	if m == "worktree.create" && p.has("path") {
		return nil, errorf("unsupported", "worktree.create with a path is not supported by tuios: it puts a checkout beside the repository (<repo>-<branch>)")
	}
	w, repo, herr := h.worktreeRepo(ctx, call, p)
	if herr != nil {
		return nil, herr
	}
	list, herr := h.worktrees(ctx, repo)
	if herr != nil {
		return nil, herr
	}
	switch m {
	case "worktree.list":
		return map[string]any{"type": "worktree_list", "repo": repo.RepoRoot, "worktrees": orEmpty(list)}, nil
	case "worktree.create":
		branch, herr := p.str("branch", false)
		if herr != nil {
			return nil, herr
		}
		if branch == "" {
			if branch, herr = p.str("name", true); herr != nil {
				return nil, herdrMissing("branch")
			}
		}
		base, herr := p.str("base", false)
		if herr != nil {
			return nil, herr
		}
		if _, herr := h.git(ctx, repo.Worktree, "check-ref-format", "--branch", branch); herr != nil || strings.HasPrefix(branch, "-") {
			return nil, errorf(proto.CodeInvalidParams, "not a branch name git takes: "+core.Clip(branch, 100))
		}
		if base != "" && strings.HasPrefix(base, "-") {
			return nil, errorf(proto.CodeInvalidParams, "base names a commit, not an option: "+core.Clip(base, 100))
		}
		main := list[0].Path
		dir := worktreeDir(main, branch)
		if _, err := os.Lstat(dir); err == nil {
			return nil, errorf("worktree_failed", core.Clip(dir, 200)+" already exists")
		}
		args := []string{"worktree", "add"}
		if _, herr := h.git(ctx, repo.Worktree, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); herr == nil {
			if base != "" {
				return nil, errorf(proto.CodeInvalidParams, "the branch "+core.Clip(branch, 100)+" exists already; base applies only to a new branch")
			}
			args = append(args, "--", dir, branch)
		} else {
			args = append(args, "-b", branch, "--", dir)
			if base != "" {
				args = append(args, base)
			}
		}
		if _, herr := h.git(ctx, repo.Worktree, args...); herr != nil {
			return nil, herr
		}
		return map[string]any{"type": "worktree_created", "worktree": herdrWorktree{Path: dir, Branch: branch, PaneIDs: []string{}}}, nil
	case "worktree.open":
		wt, herr := worktreeNamed(list, p)
		if herr != nil {
			return nil, herr
		}
		if wt.Open {
			return map[string]any{"type": "worktree_opened", "path": wt.Path, "pane_id": wt.PaneIDs[0], "already_open": true}, nil
		}
		if wt.Bare || wt.Prunable {
			return nil, errorf("worktree_failed", "the worktree "+core.Clip(wt.Path, 200)+" has no checkout to open")
		}
		sess, ws := w.Session, w.Workspace
		res, herr := h.callVerb(call, "new-window", map[string]any{"session": sess, "workspace": ws, "cwd": wt.Path, "name": filepath.Base(wt.Path)})
		if herr != nil {
			return nil, herr
		}
		var pid string
		if nw := h.paneByID(stringOf(res["window_id"])); nw != nil {
			pid = nw.herdrID()
		}
		return map[string]any{"type": "worktree_opened", "path": wt.Path, "pane_id": pid, "already_open": false}, nil
	case "worktree.remove":
		wt, herr := worktreeNamed(list, p)
		if herr != nil {
			return nil, herr
		}
		force, herr := p.boolean("force")
		if herr != nil {
			return nil, herr
		}
		if wt.Main {
			return nil, errorf("worktree_failed", "the main checkout is not removed")
		}
		if wt.Open {
			return nil, errorf("worktree_in_use", "a window is open in "+core.Clip(wt.Path, 200)+" (pane "+wt.PaneIDs[0]+"); close it first")
		}
		args := []string{"worktree", "remove"}
		if force {
			args = append(args, "--force")
		}
		if _, herr := h.git(ctx, repo.Worktree, append(args, "--", wt.Path)...); herr != nil {
			return nil, herr
		}
		return map[string]any{"type": "worktree_removed", "path": wt.Path}, nil
	}
	return nil, errorf("unsupported", m+" is not supported by tuios")
}
