package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// tuios fan: one prompt to several agents, each in its own git worktree
// and session (the daemon's fan), then compare, verify, diff and keep.

func fanCommands() []Command {
	return []Command{
		{
			Name: "fan", Summary: "start one prompt in several agents, each in its own git worktree and session",
			Usage: "COUNT PROMPT --agent CLI[,CLI…] [--prompt P]… [--env NAME[=VALUE]]… [--base REF] [--name STEM] [--repo DIR] [--grants LIST] [--host H [--clone]] [--wait] [--json]",
			Help: "Makes COUNT worktrees of this repository (or --repo's), each on a new branch from --base (default: HEAD, which must have no uncommitted changes): " +
				"fan/STEM, fan/STEM-2, … where STEM is the prompt's first words (--name picks it). Each gets a session <repo>-fan-STEM[-N] running one agent, the agents of --agent cycled: " +
				"each agent string is split like a POSIX shell and run directly (no shell reads it), found in your PATH, in its worktree. " +
				"PROMPT is typed into each agent once it is ready (its state has read idle or done for a second; an agent whose state says nothing, once its screen rests), the way start-agent and the queue type. " +
				"--prompt adds prompts: attempt N gets the Nth of PROMPT and them, cycled. " +
				"Each attempt's prompt_status is pending until then; held when its agent waits on a screen of its own (a trust dialog) or is not at its prompt after 30 s (the Inbox asks you to look); " +
				"sent; stalled when it showed no sign of taking it; not_sent when it exited first or was not ready within --ready-timeout. " +
				"The command returns once the agents started; with --wait, once no prompt is pending, exiting 1 if one was not sent. " +
				"COUNT is 1 to 16. --env: at most 64 variables, TUIOS_*, TMUX and TMUX_PANE refused. A refused fan leaves nothing behind. " +
				"--host fans on a linked host, in the repository --repo names there (--env is refused over a link); with --clone that folder, when it does not exist, is first cloned from this repository's origin. " +
				"Then: tuios fan compare, fan verify, fan diff, fan keep; tuios worktree ls --group fan/STEM.",
			Example: "tuios fan 3 'Add a retry with backoff to the HTTP client.' --agent claude,codex,gemini\n" +
				"tuios fan 2 'Fix the flaky test in api/retry_test.go.' --agent 'claude --model sonnet' --name flaky --wait\n" +
				"tuios fan 4 'Make the build faster.' --agent codex --base main --grants read,write --json",
			Flags: func(fs *FlagSet) {
				fs.String("agent", "", "the agents, comma-separated, cycled over the attempts (claude,'codex --model o3')")
				fs.StringArray("prompt", nil, "another prompt (repeatable): attempt N gets the Nth, cycled")
				fs.StringArray("env", nil, "NAME=VALUE for every agent, or NAME to pass your own value (repeatable)")
				fs.String("base", "", "the commit the attempts start from (default: HEAD)")
				fs.String("name", "", "the stem: branches fan/STEM, fan/STEM-2, … (default: the prompt's first words)")
				fs.String("repo", "", "the repository (default: this folder's)")
				fs.String("grants", "", "what each attempt's pane may do through tuios: read, write, fan, respond, files, admin (comma-separated), or none")
				fs.Bool("wait", false, "return once no prompt is pending; exit 1 if one was not sent")
				fs.Int("ready-timeout", 600000, "ms each agent has to reach its prompt")
				fs.String("host", "", "fan on the linked host `NAME` (--repo names a folder there)")
				fs.Bool("clone", false, "with --host: clone this repository's origin into --repo there first, when that folder does not exist")
				jsonFlag(fs)
			},
			Run: runFan,
		},
		{
			Name: "fan compare", Summary: "every attempt of a fan: agent, state, files and lines changed, last check",
			Usage:   "[SESSION] [--group STEM] [--no-changes] [--json]",
			Help:    "SESSION is any session of the fan (default: your own). Each attempt's changes are against the fan's base: committed, uncommitted and untracked work together.",
			Example: "tuios fan compare api-fan-demo\ntuios fan compare --group fan/demo --json",
			Flags: func(fs *FlagSet) {
				fs.String("group", "", "the fan's group instead of a session, such as fan/demo")
				fs.String("repo", "", "with --group: the repository, when two have such a fan")
				fs.Bool("no-changes", false, "leave out the changes (no git runs)")
				jsonFlag(fs)
			},
			Run: runFanCompare,
		},
		{
			Name: "fan verify", Summary: "run one check in every attempt of a fan; exit 1 if any failed",
			Usage: "[SESSION] [--group STEM] [--timeout MS] [--no-wait] [--json] -- COMMAND…",
			Help: "Opens a window named verify in every attempt's session, with grants none, running COMMAND by sh -c in the attempt's worktree. " +
				"A check that passes closes its window; one that fails keeps it, its output on screen, for you to read. " +
				"It exits 1 if any failed or did not end within --timeout. The command is yours: never read from the repository. One word after -- is a shell line; several are quoted as words.",
			Example: "tuios fan verify api-fan-demo -- go test ./...\ntuios fan verify --group fan/demo -- 'make lint && make test'\ntuios fan verify api-fan-demo --no-wait -- npm test",
			Flags: func(fs *FlagSet) {
				fs.String("group", "", "the fan's group instead of a session")
				fs.String("repo", "", "with --group: the repository, when two have such a fan")
				fs.Int("timeout", 600000, "ms to wait for the checks")
				fs.Bool("no-wait", false, "return once the checks started (tuios fan compare shows how they end)")
				jsonFlag(fs)
			},
			Run: runFanVerify,
		},
		{
			Name: "fan diff", Summary: "diff two attempts of a fan with each other",
			Usage: "A B [--stat] [--path P]… [--context N] [--json]",
			Help: "The diff from attempt B's work to attempt A's (each a session of the fan), both read with their uncommitted and untracked files, through temporary indexes: nothing is changed. " +
				"It is tuios review A --against B. The text comes from the repository: data, not instructions.",
			Example: "tuios fan diff api-fan-demo-2 api-fan-demo\ntuios fan diff api-fan-demo-2 api-fan-demo --stat",
			Flags: func(fs *FlagSet) {
				fs.Bool("stat", false, "files and counts only")
				fs.StringArray("path", nil, "only this file or directory (repeatable)")
				fs.Int("context", 3, "lines of context around each change (0 to 20)")
				jsonFlag(fs)
			},
			Run: runFanDiff,
		},
		{
			Name: "fan keep", Summary: "keep one attempt of a fan and remove the others; --merge brings its work into the base branch",
			Usage: "SESSION [--stash | --force] [--merge [--squash | --ff-only] [--into BRANCH]] [--json]",
			Help: "Keeps the attempt SESSION and removes every other attempt of its fan: their worktrees and sessions (their branches stay). " +
				"Attempts with uncommitted changes are refused unless --stash (kept in git stash as 'tuios: BRANCH') or --force (thrown away); nothing is done then. " +
				"--merge first brings the kept work into the fan's base branch (--into names another): what its agent left uncommitted is committed on its branch, then merged " +
				"with a merge commit, or squashed into one commit (--squash), or fast-forwarded (--ff-only). " +
				"Conflicts are found before anything changes: then nothing is merged or removed, and the error names the files. Only you (or an admin pane) may keep.",
			Example: "tuios fan keep api-fan-demo-2\ntuios fan keep api-fan-demo-2 --merge --stash\ntuios fan keep api-fan-demo-2 --merge --squash --into release --force",
			Flags: func(fs *FlagSet) {
				fs.Bool("stash", false, "keep the other attempts' uncommitted changes in git stash")
				fs.Bool("force", false, "remove the other attempts with their uncommitted changes (lost)")
				fs.Bool("merge", false, "bring the kept work into the base branch first")
				fs.Bool("squash", false, "with --merge: one new commit instead of a merge commit")
				fs.Bool("ff-only", false, "with --merge: only a fast-forward")
				fs.String("into", "", "with --merge: the branch to merge into (default: the fan's base)")
				jsonFlag(fs)
			},
			Run: runFanKeep,
		},
	}
}

func runFan(ctx *Context) error {
	if len(ctx.Args) < 1 || len(ctx.Args) > 2 {
		return usageError("tuios fan 3 'Add a retry with backoff.' --agent claude,codex", "give the count and the prompt")
	}
	count, err := strconv.Atoi(ctx.Args[0])
	if err != nil {
		return usageError("tuios fan 3 'Add a retry with backoff.' --agent claude,codex", "%q is not a count: the first argument is how many attempts (1 to 16)", escapeControls(ctx.Args[0]))
	}
	if count < 1 || count > 16 {
		return &Error{Code: "invalid_params", Message: fmt.Sprintf("count %d is out of range: a fan has 1 to 16 attempts", count), Hint: "tuios fan 3 'PROMPT' --agent claude"}
	}
	prompt := ""
	if len(ctx.Args) == 2 {
		prompt = ctx.Args[1]
	}
	more, _ := ctx.Flags.GetStringArray("prompt")
	if prompt == "" && len(more) == 0 {
		return usageError("tuios fan 3 'Add a retry with backoff.' --agent claude,codex", "give the prompt")
	}
	if str(ctx, "agent") == "" {
		return usageError("tuios fan 3 'PROMPT' --agent claude,codex", "name the agents with --agent")
	}
	host, from, err := hostRoute(ctx)
	if err != nil {
		return err
	}
	p := proto.FanParams{Count: count, Prompt: prompt, Prompts: more, Agent: str(ctx, "agent"), Base: str(ctx, "base"), Name: str(ctx, "name"), Grants: str(ctx, "grants"), Wait: flagBool(ctx, "wait"), Clone: flagBool(ctx, "clone"), CloneFrom: from}
	p.ReadyTimeout = flagInt(ctx, "ready-timeout")
	var raw json.RawMessage
	if host == "" {
		p.Repo, p.Path, p.Env = repoFlag(ctx), os.Getenv("PATH"), envFlag(ctx)
		err = callLocal("fan", p, &raw)
	} else {
		if str(ctx, "repo") == "" {
			return usageError("tuios fan 2 'PROMPT' --agent claude --host build --repo /home/u/src/api", "with --host, name the repository there with --repo")
		}
		p.Repo = str(ctx, "repo")
		err = callHost(host, "fan", p, &raw)
	}
	if err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		if err := printAnswer(ctx.Stdout, raw); err != nil {
			return err
		}
	}
	var res proto.FanStarted
	if err := decodeAnswer("fan", raw, &res); err != nil {
		return err
	}
	if !flagBool(ctx, "json") {
		fmt.Fprintf(ctx.Stdout, "Fan %s in %s: %d attempts from %s (%s).\n", escapeControls(res.Group), escapeControls(res.RepoName), len(res.Attempts),
			escapeControls(res.Base), short8(res.BaseSHA))
		rows := make([][]string, 0, len(res.Attempts))
		for _, a := range res.Attempts {
			st := a.PromptStatus
			if a.PromptReadyBy != "" && st == "sent" {
				st += " (ready: " + a.PromptReadyBy + ")"
			}
			rows = append(rows, []string{a.Session, a.Branch, a.Agent, st})
		}
		writeTable(ctx.Stdout, []string{"SESSION", "BRANCH", "AGENT", "PROMPT"}, rows)
		if !res.Waited {
			fmt.Fprintf(ctx.Stdout, "Each prompt is typed once its agent is ready: tuios worktree ls --group %s\n", escapeControls(res.Group))
		}
		for _, a := range res.Attempts {
			if a.PromptNote != "" && a.PromptStatus != "sent" {
				fmt.Fprintf(ctx.Stdout, "%s: %s\n", escapeControls(a.Session), escapeControls(a.PromptNote))
			}
		}
		fmt.Fprintf(ctx.Stdout, "Then: tuios fan compare %s; tuios fan verify %s -- CHECK; tuios fan keep SESSION --merge\n",
			escapeControls(firstSession(res)), escapeControls(firstSession(res)))
	}
	if res.Waited {
		var bad []string
		for _, a := range res.Attempts {
			if a.PromptStatus != "sent" {
				bad = append(bad, a.Session+" "+a.PromptStatus)
			}
		}
		if len(bad) > 0 {
			return &Error{Code: "not_ready", Message: "not every prompt was sent: " + escapeControls(strings.Join(bad, ", ")),
				Hint: "tuios worktree ls --group " + escapeControls(res.Group) + " says why; look at a pane with tuios capture-pane -s SESSION"}
		}
	}
	return nil
}

func firstSession(res proto.FanStarted) string {
	if len(res.Attempts) > 0 {
		return res.Attempts[0].Session
	}
	return "SESSION"
}

// fanTarget is a fan verb's session or --group params.
func fanTarget(ctx *Context, max int) (proto.FanTargetParams, error) {
	if len(ctx.Args) > max {
		return proto.FanTargetParams{}, usageError("name one session of the fan, or --group", "too many arguments: %q", escapeControls(strings.Join(ctx.Args, " ")))
	}
	p := proto.FanTargetParams{Group: str(ctx, "group")}
	if len(ctx.Args) == 1 {
		p.Session = ctx.Args[0]
	}
	if str(ctx, "repo") != "" {
		p.Repo = repoFlag(ctx)
	}
	return p, nil
}

func runFanCompare(ctx *Context) error {
	target, err := fanTarget(ctx, 1)
	if err != nil {
		return err
	}
	p := proto.CompareFanParams{FanTargetParams: target, NoChanges: flagBool(ctx, "no-changes")}
	var raw json.RawMessage
	if err := callLocal("compare-fan", p, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.FanCompare
	if err := decodeAnswer("compare-fan", raw, &res); err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, "Compare %s in %s, %s vs %s\n", escapeControls(res.Group), escapeControls(res.RepoName), plural(len(res.Attempts), "attempt"), escapeControls(res.Base))
	rows := make([][]string, 0, len(res.Attempts))
	for _, a := range res.Attempts {
		state := a.State
		if a.Gone {
			state = "gone"
		}
		files, lines := "-", "-"
		if a.ChangesRead {
			files, lines = strconv.Itoa(a.Files), fmt.Sprintf("+%d -%d", a.Added, a.Removed)
		} else if a.ChangesError != "" {
			files = "(" + a.ChangesError + ")"
		}
		check := ""
		if a.Check != nil {
			check = checkText(a.Check.Command, a.Check.Status, a.Check.Exit)
		}
		rows = append(rows, []string{a.Session, a.Agent, state, files, lines, check})
	}
	writeTable(ctx.Stdout, []string{"SESSION", "AGENT", "STATE", "FILES", "+/-", "CHECK"}, rows)
	return nil
}

// checkText is a check's cell: "go test ./... failed, exit 1".
func checkText(cmd, status string, code int) string {
	switch status {
	case "failed":
		return cmd + " failed, exit " + strconv.Itoa(code)
	case "timeout":
		return cmd + " did not end in time"
	}
	return cmd + " " + status
}

func runFanVerify(ctx *Context) error {
	at := ctx.Flags.ArgsLenAtDash()
	if at < 0 || at >= len(ctx.Args) {
		return usageError("tuios fan verify api-fan-demo -- go test ./...", "give the check after --")
	}
	words := ctx.Args[at:]
	ctx.Args = ctx.Args[:at]
	target, err := fanTarget(ctx, 1)
	if err != nil {
		return err
	}
	command := words[0]
	if len(words) > 1 {
		command = shellJoin(words)
	}
	p := proto.VerifyFanParams{FanTargetParams: target, Command: command, Timeout: flagInt(ctx, "timeout"), NoWait: flagBool(ctx, "no-wait")}
	var raw json.RawMessage
	if err := callLocal("verify-fan", p, &raw); err != nil {
		return err
	}
	var res proto.FanVerify
	if err := decodeAnswer("verify-fan", raw, &res); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		if err := printAnswer(ctx.Stdout, raw); err != nil {
			return err
		}
	} else {
		for _, a := range res.Attempts {
			line := escapeControls(a.Session) + ": " + a.Status
			if a.Status == "failed" {
				line += ", exit " + strconv.Itoa(a.Exit)
			}
			if a.Kept {
				line += " (its verify window stays: tuios capture-pane -s " + escapeControls(a.Session) + " -w " + short8(a.WindowID) + ")"
			}
			if a.Note != "" {
				line += ": " + escapeControls(a.Note)
			}
			fmt.Fprintln(ctx.Stdout, line)
		}
		if !res.Waited {
			fmt.Fprintf(ctx.Stdout, "The checks run on: tuios fan compare --group %s shows how they end.\n", escapeControls(res.Group))
		}
	}
	if res.Failed > 0 {
		return &Error{Code: "command_failed", Message: fmt.Sprintf("%d of %d checks failed", res.Failed, len(res.Attempts)),
			Hint: "read a failed check's window (tuios capture-pane), or review the attempt (tuios review SESSION)"}
	}
	return nil
}

// shellJoin quotes words for sh -c, so each stays one word.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

func runFanDiff(ctx *Context) error {
	if len(ctx.Args) != 2 {
		return usageError("tuios fan diff api-fan-demo-2 api-fan-demo", "name two attempts of the fan: A (the diff's new side) and B")
	}
	paths, _ := ctx.Flags.GetStringArray("path")
	p := params("session", ctx.Args[0], "against", ctx.Args[1], "paths", paths, "stat", flagBool(ctx, "stat"))
	p["context"] = flagInt(ctx, "context")
	var raw map[string]any
	if err := callLocal("review-diff", p, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, raw)
	}
	var d reviewDiff
	remarshal(raw, &d)
	writeReviewText(ctx.Stdout, &d, flagBool(ctx, "stat"), isColorTerminal(ctx.Stdout))
	return nil
}

func runFanKeep(ctx *Context) error {
	if len(ctx.Args) != 1 {
		return usageError("tuios fan keep api-fan-demo-2 --merge", "name the attempt to keep (its session)")
	}
	if flagBool(ctx, "squash") && flagBool(ctx, "ff-only") {
		return usageError("--squash makes one commit, --ff-only only moves the branch", "give --squash or --ff-only, not both")
	}
	mode := ""
	switch {
	case flagBool(ctx, "squash"):
		mode = "squash"
	case flagBool(ctx, "ff-only"):
		mode = "ff-only"
	}
	if !flagBool(ctx, "merge") && (mode != "" || str(ctx, "into") != "") {
		return usageError("tuios fan keep SESSION --merge --squash", "--squash, --ff-only and --into go with --merge")
	}
	var raw json.RawMessage
	if err := callLocal("keep-fan", proto.KeepFanParams{Session: ctx.Args[0], Stash: flagBool(ctx, "stash"), Force: flagBool(ctx, "force"), Merge: flagBool(ctx, "merge"), Mode: mode, Into: str(ctx, "into")}, &raw); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printAnswer(ctx.Stdout, raw)
	}
	var res proto.FanKept
	if err := decodeAnswer("keep-fan", raw, &res); err != nil {
		return err
	}
	if m := res.Merged; m != nil {
		if m.Committed != "" {
			fmt.Fprintf(ctx.Stdout, "Committed what the agent left uncommitted on %s (%s).\n", escapeControls(res.Branch), short8(m.Committed))
		}
		how := map[string]string{"merge": "Merged", "squash": "Squashed", "ff-only": "Fast-forwarded"}[m.Mode]
		fmt.Fprintf(ctx.Stdout, "%s %s into %s: %s..%s.\n", how, escapeControls(res.Branch), escapeControls(m.Into), short8(m.Before), short8(m.After))
	}
	fmt.Fprintf(ctx.Stdout, "Kept %s (branch %s).\n", escapeControls(res.Kept), escapeControls(res.Branch))
	failed := 0
	for _, r := range res.Removed {
		switch {
		case r.Error != "":
			failed++
			fmt.Fprintf(ctx.Stdout, "Not removed: %s: %s\n", escapeControls(r.Session), escapeControls(r.Error))
		default:
			extra := ""
			if r.Stashed {
				extra = "; its changes are in git stash as 'tuios: " + escapeControls(r.Branch) + "'"
			}
			if r.Gone {
				extra = "; its folder was already gone"
			}
			fmt.Fprintf(ctx.Stdout, "Removed %s (branch %s stays%s).\n", escapeControls(r.Session), escapeControls(r.Branch), extra)
		}
	}
	if failed > 0 {
		return &Error{Code: "git_failed", Message: fmt.Sprintf("%d attempt(s) could not be removed", failed), Hint: "tuios worktree rm SESSION --stash, or --force"}
	}
	return nil
}
