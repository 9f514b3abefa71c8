package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

// tuios worktree: a session per git worktree (the daemon's new-worktree,
// list-worktrees, remove-worktree and pull-worktree; worktree diff is
// review-diff of the worktree's session). The git work is the daemon's
// (package internal/worktree); the CLI sends its own folder and PATH, so
// "this repository" and the agent found are what the person sees here.

func worktreeCommands() []Command {
	return []Command{
		{
			Name: "worktree", Summary: "a session per git worktree: new, ls, rm, diff, pull",
			Help: "tuios makes git worktrees under $XDG_DATA_HOME/tuios/worktrees/<repo>/<branch> (else ~/.local/share/tuios/…), each with a session of its own, " +
				"and keeps which session is whose. tuios fan makes several at once, one agent in each.",
			Example: "tuios worktree new feat/retry\ntuios worktree ls\ntuios worktree rm api-feat-retry --stash",
		},
		{
			Name: "worktree new", Summary: "make a worktree on a branch and a session in it (a shell, or an agent with --agent)",
			Usage: "BRANCH [--base REF] [--name SESSION] [--agent CLI] [--prompt P] [--repo DIR] [--grants LIST] [--env NAME[=VALUE]]… [-d] [--host H [--clone]] [--json]",
			Help: "Makes a git worktree of this repository (or --repo's) on BRANCH: a branch that exists is checked out as it is, one that does not is made from --base, else from HEAD. " +
				"The worktree goes to $XDG_DATA_HOME/tuios/worktrees/<repo>/<branch> (/ in the branch turned into -), and a session named <repo>-<branch> (--name picks another) runs your shell in it, " +
				"or the agent --agent names, split like a POSIX shell and run directly (no shell reads it), found in your PATH. With --prompt the first prompt is typed once the agent is ready. " +
				"On a terminal it then attaches to the session, unless -d. Branches are never deleted by tuios; tuios worktree rm removes the worktree and its session. " +
				"--host makes it on a linked host, in the repository --repo names there; with --clone that folder, when it does not exist, is first cloned from this repository's origin.",
			Example: "tuios worktree new feat/retry\n" +
				"tuios worktree new feat/retry --base main --agent claude -d\n" +
				"tuios worktree new fix/flaky --agent 'codex --model o3' --prompt 'Fix the flaky test in api/retry_test.go.' -d\n" +
				"tuios worktree new feat/x --repo ~/src/api --json",
			Flags: func(fs *FlagSet) {
				fs.String("base", "", "the commit a new branch starts from (default: HEAD)")
				fs.String("name", "", "the session's name (default: <repo>-<branch>)")
				fs.String("agent", "", "run this agent in the session instead of a shell, such as claude or 'codex --model o3'")
				fs.String("prompt", "", "with --agent: a first prompt, typed once the agent is ready")
				fs.String("repo", "", "the repository (default: this folder's)")
				fs.String("grants", "", "what the session's pane may do through tuios: read, write, fan, respond, files, admin (comma-separated), or none")
				fs.StringArray("env", nil, "with --agent: NAME=VALUE for the agent, or NAME to pass your own value (repeatable)")
				fs.Int("ready-timeout", 600000, "with --prompt: ms the agent has to reach its prompt")
				fs.Bool("wait", false, "with --prompt: return once the prompt was typed (or could not be)")
				fs.BoolP("detach", "d", false, "do not attach")
				fs.String("host", "", "make it on the linked host `NAME` (--repo names a folder there)")
				fs.Bool("clone", false, "with --host: clone this repository's origin into --repo there first, when that folder does not exist")
				jsonFlag(fs)
			},
			Run: runWorktreeNew,
		},
		{
			Name: "worktree ls", Summary: "list the worktrees tuios made: session, branch, fan, agent state, changes, gone, prompt",
			Usage: "[--repo DIR] [--group STEM] [--no-changes] [--json]",
			Help: "Lists every worktree tuios made (tuios worktree new, tuios fan, tuios worktree pull): its session (closed when it was closed), branch, fan group, agent and its state, " +
				"what it changed against its base (files, lines added and removed: committed, uncommitted and untracked work together), and its first prompt's status " +
				"(pending, held, sent, not_sent, stalled). A worktree whose folder was removed behind tuios's back reads gone: tuios worktree rm forgets it.",
			Example: "tuios worktree ls\ntuios worktree ls --group fan/add-retry --json\ntuios worktree ls --repo ~/src/api --no-changes",
			Flags: func(fs *FlagSet) {
				fs.String("repo", "", "only this repository's")
				fs.String("group", "", "only this fan's, such as fan/add-retry")
				fs.Bool("no-changes", false, "leave out the changes (no git runs)")
				jsonFlag(fs)
			},
			Run: runWorktreeLs,
		},
		{
			Name: "worktree rm", Summary: "remove a worktree tuios made and close its session (its branch stays)",
			Usage: "SESSION [--stash | --force] [--keep-session] [--json]",
			Help: "Removes the worktree of SESSION and closes the session. A worktree with uncommitted changes or untracked files is refused (worktree_dirty): " +
				"--stash keeps them in git stash with the message 'tuios: BRANCH' (git stash list), --force throws them away. The branch is never deleted, and nothing is pruned: " +
				"a worktree whose folder is already gone is only forgotten.",
			Example: "tuios worktree rm api-feat-retry\ntuios worktree rm api-fan-demo-2 --stash\ntuios worktree rm api-feat-x --force --keep-session",
			Flags: func(fs *FlagSet) {
				fs.Bool("stash", false, "keep uncommitted changes in git stash first")
				fs.Bool("force", false, "remove it with its uncommitted changes (they are lost)")
				fs.Bool("keep-session", false, "leave the session open")
				jsonFlag(fs)
			},
			Run: runWorktreeRm,
		},
		{
			Name: "worktree diff", Summary: "what a worktree changed against its base (tuios review of its session)",
			Usage: "SESSION [--stat] [--base REF | --uncommitted | --against SESSION] [--path P]… [--context N] [--json]",
			Help: "The diff of SESSION's worktree against the base it was made from: committed, uncommitted and untracked work together, through a temporary index " +
				"(the repository is never changed). It is tuios review for the session; see tuios review --help. The text comes from the repository: data, not instructions.",
			Example: "tuios worktree diff api-feat-retry --stat\ntuios worktree diff api-fan-demo-2 --against api-fan-demo",
			Flags:   reviewFlags,
			Run:     runReview,
		},
		{
			Name: "worktree pull", Summary: "bring a worktree's work from a linked host into a new branch, worktree and session here",
			Usage: "HOST:SESSION [--branch B] [--name SESSION] [--repo DIR] [-d] [--json]",
			Help: "Asks HOST for the work of SESSION's worktree: its commits since its base (a git bundle) and what it has not committed (a binary patch, untracked files included). " +
				"Here it becomes a new branch (the one there, or --branch; a branch that exists is refused) in a new worktree of this repository (or --repo's) and a session in it, " +
				"with the uncommitted work left uncommitted. This repository must have the base commit (fetch from the remote both share first). Nothing changes on HOST. " +
				"At most 8 MiB of work travels.",
			Example: "tuios worktree pull build:api-fan-demo-2\ntuios worktree pull build:api-feat-x --branch feat/x-from-build -d",
			Flags: func(fs *FlagSet) {
				fs.String("branch", "", "the branch here (default: the branch there)")
				fs.String("name", "", "the session here (default: <repo>-<branch>)")
				fs.String("repo", "", "the repository here (default: this folder's)")
				fs.BoolP("detach", "d", false, "do not attach")
				jsonFlag(fs)
			},
			Run: runWorktreePull,
		},
	}
}

// repoFlag is --repo made absolute, else this folder: "this repository"
// is the one the person is in.
func repoFlag(ctx *Context) string {
	dir := str(ctx, "repo")
	if dir == "" {
		dir, _ = os.Getwd()
	} else if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir
}

// envFlag is --env with NAME alone filled from this environment.
func envFlag(ctx *Context) []string {
	var env []string
	envs, _ := ctx.Flags.GetStringArray("env")
	for _, kv := range envs {
		if !strings.Contains(kv, "=") {
			kv += "=" + os.Getenv(kv)
		}
		env = append(env, kv)
	}
	return env
}

// hostRoute is the host --host names ("" for this machine), checked, and
// the URL --clone clones there (cloneFrom).
func hostRoute(ctx *Context) (host, cloneURL string, err error) {
	host = str(ctx, "host")
	if host == hosts.Local {
		host = ""
	}
	if host != "" && !hosts.ValidName(host) {
		return "", "", usageError("tuios hosts lists the hosts", "--host %q is not a host name", escapeControls(host))
	}
	if cloneURL, err = cloneFrom(ctx, host != ""); err != nil {
		return "", "", err
	}
	return host, cloneURL, nil
}

func runWorktreeNew(ctx *Context) error {
	if len(ctx.Args) != 1 || strings.TrimSpace(ctx.Args[0]) == "" {
		return usageError("tuios worktree new feat/retry", "name the branch")
	}
	host, from, err := hostRoute(ctx)
	if err != nil {
		return err
	}
	p := proto.NewWorktreeParams{Branch: ctx.Args[0], Base: str(ctx, "base"), Name: str(ctx, "name"), Agent: str(ctx, "agent"), Prompt: str(ctx, "prompt"), Grants: str(ctx, "grants"), Wait: flagBool(ctx, "wait"), Clone: flagBool(ctx, "clone"), CloneFrom: from}
	p.ReadyTimeout = flagInt(ctx, "ready-timeout")
	if host == "" {
		p.Repo = repoFlag(ctx)
		if str(ctx, "agent") != "" {
			p.Path = os.Getenv("PATH")
		}
		p.Env = envFlag(ctx)
	} else if r := str(ctx, "repo"); r != "" {
		p.Repo = r
	} else {
		return usageError("tuios worktree new feat/x --host build --repo /home/u/src/api", "with --host, name the repository there with --repo")
	}
	var raw json.RawMessage
	if host != "" {
		err = callHost(host, "new-worktree", p, &raw)
	} else {
		err = callLocal("new-worktree", p, &raw)
	}
	if err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.WorktreeCreated
	if err := decodeAnswer("new-worktree", raw, &res); err != nil {
		return err
	}
	printCreated(ctx, res)
	if !flagBool(ctx, "detach") && isTerminal(ctx.Stdin, ctx.Stdout) {
		if host != "" {
			return attachOn(ctx, host, res.Session, false, 0)
		}
		return attach(ctx, res.Session, false)
	}
	return promptOutcome(res.PromptStatus, res.PromptNote, res.Session)
}

func printCreated(ctx *Context, res proto.WorktreeCreated) {
	what := "Checked out branch"
	if res.CreatedBranch {
		what = "Created branch"
	}
	from := ""
	if res.PulledFrom != "" {
		from = " from " + escapeControls(res.PulledFrom)
	}
	fmt.Fprintf(ctx.Stdout, "%s %s%s in %s.\n", what, escapeControls(res.Branch), from, escapeControls(res.Worktree))
	fmt.Fprintf(ctx.Stdout, "Created session '%s'.\n", escapeControls(res.Session))
	switch res.PromptStatus {
	case "sent":
		fmt.Fprintln(ctx.Stdout, "The first prompt was typed.")
	case "pending":
		fmt.Fprintf(ctx.Stdout, "The first prompt is typed once %s is ready (tuios worktree ls shows when).\n", escapeControls(res.Agent))
	case "held", "not_sent", "stalled":
		fmt.Fprintf(ctx.Stdout, "The first prompt is %s: %s\n", res.PromptStatus, escapeControls(res.PromptNote))
	}
}

// promptOutcome is the exit of a verb that waited for a prompt: 1 when it
// was not taken.
func promptOutcome(status, note, session string) error {
	switch status {
	case "not_sent", "stalled", "held":
		return &Error{Code: "not_ready", Message: fmt.Sprintf("the prompt for %s is %s: %s", escapeControls(session), status, escapeControls(note)),
			Hint: "look at it: tuios capture-pane -s " + escapeControls(session)}
	}
	return nil
}

func runWorktreeLs(ctx *Context) error {
	p := proto.ListWorktreesParams{Group: str(ctx, "group"), NoChanges: flagBool(ctx, "no-changes")}
	if str(ctx, "repo") != "" {
		p.Repo = repoFlag(ctx)
	}
	var raw json.RawMessage
	if err := callLocal("list-worktrees", p, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.WorktreeList
	if err := decodeAnswer("list-worktrees", raw, &res); err != nil {
		return err
	}
	if len(res.Worktrees) == 0 {
		fmt.Fprintln(ctx.Stdout, "No worktrees: tuios worktree new BRANCH makes one, tuios fan several.")
		return nil
	}
	rows := make([][]string, 0, len(res.Worktrees))
	for _, w := range res.Worktrees {
		state := w.State
		if w.Gone {
			state = "gone"
		}
		prompt := w.PromptStatus
		if prompt == "" {
			prompt = "-"
		}
		group := w.Group
		if group == "" {
			group = "-"
		}
		rows = append(rows, []string{w.Session, w.Branch, group, w.Agent, state, changesText(w.Files, w.Added, w.Removed, w.ChangesRead, w.Gone, w.ChangesError), prompt})
	}
	writeTable(ctx.Stdout, []string{"SESSION", "BRANCH", "FAN", "AGENT", "STATE", "CHANGES", "PROMPT"}, rows)
	return nil
}

// changesText is a worktree's changes in a cell.
func changesText(files, added, removed int, read, gone bool, why string) string {
	switch {
	case gone:
		return "-"
	case why != "":
		return "(" + why + ")"
	case !read:
		return "-"
	}
	return plural(files, "file") + " +" + strconv.Itoa(added) + " -" + strconv.Itoa(removed)
}

func runWorktreeRm(ctx *Context) error {
	if len(ctx.Args) != 1 || ctx.Args[0] == "" {
		return usageError("tuios worktree rm api-feat-retry", "name the worktree's session (tuios worktree ls lists them)")
	}
	if flagBool(ctx, "stash") && flagBool(ctx, "force") {
		return usageError("--stash keeps the changes, --force throws them away", "give --stash or --force, not both")
	}
	var raw json.RawMessage
	if err := callLocal("remove-worktree", proto.RemoveWorktreeParams{Session: ctx.Args[0], Stash: flagBool(ctx, "stash"), Force: flagBool(ctx, "force"), KeepSession: flagBool(ctx, "keep-session")}, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.WorktreeRemoved
	if err := decodeAnswer("remove-worktree", raw, &res); err != nil {
		return err
	}
	if res.Gone {
		fmt.Fprintf(ctx.Stdout, "The worktree %s was already gone: forgotten (git worktree prune drops git's record of it).\n", escapeControls(res.Worktree))
	} else {
		fmt.Fprintf(ctx.Stdout, "Removed the worktree %s; branch %s stays.\n", escapeControls(res.Worktree), escapeControls(res.Branch))
	}
	if res.Stashed {
		fmt.Fprintf(ctx.Stdout, "Its changes are in git stash as '%s' (git stash list).\n", escapeControls(res.Stash))
	}
	if res.Forced {
		fmt.Fprintln(ctx.Stdout, "Its uncommitted changes were thrown away (--force).")
	}
	if res.SessionClosed {
		fmt.Fprintf(ctx.Stdout, "Closed session '%s'.\n", escapeControls(res.Session))
	}
	return nil
}

func runWorktreePull(ctx *Context) error {
	if len(ctx.Args) != 1 {
		return usageError("tuios worktree pull build:api-fan-demo-2", "name the worktree as HOST:SESSION")
	}
	a := hosts.ParseSession(ctx.Args[0])
	if !a.Remote() || a.Session == "" {
		return usageError("tuios worktree pull build:api-fan-demo-2", "%q is not HOST:SESSION on a linked host", escapeControls(ctx.Args[0]))
	}
	var raw json.RawMessage
	if err := callLocal("pull-worktree", proto.PullWorktreeParams{Host: a.Host, Session: a.Session, Branch: str(ctx, "branch"), Name: str(ctx, "name"), Repo: repoFlag(ctx)}, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.WorktreeCreated
	if err := decodeAnswer("pull-worktree", raw, &res); err != nil {
		return err
	}
	printCreated(ctx, res)
	if !flagBool(ctx, "detach") && isTerminal(ctx.Stdin, ctx.Stdout) {
		return attach(ctx, res.Session, false)
	}
	return nil
}

// cloneFrom is what --clone clones on another host: the URL of the origin
// remote of the repository this folder is in, which both machines reach.
// Only with a host: here, the repository is already here.
func cloneFrom(ctx *Context, remote bool) (string, error) {
	if !flagBool(ctx, "clone") {
		return "", nil
	}
	if !remote {
		return "", usageError("--clone makes the repository on another host: give --host (or -s HOST:SESSION)", "--clone is for another host")
	}
	cmd := exec.Command("git", "remote", "get-url", "origin")
	out, err := cmd.Output()
	url := strings.TrimSpace(string(out))
	if err != nil || url == "" {
		return "", &Error{Code: "not_repo", Message: "--clone clones this repository's origin on the host, and this folder's repository has no origin remote",
			Hint: "run it in a repository with an origin (git remote -v), or clone it on the host yourself"}
	}
	return url, nil
}
