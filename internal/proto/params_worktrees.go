package proto

// NewWorktreeParams are the params of new-worktree.
type NewWorktreeParams struct {
	Branch       string   `json:"branch,omitempty" req:"true" desc:"the branch: checked out when it exists, else made from base" maxlen:"200"`
	Base         string   `json:"base,omitempty" desc:"the commit a new branch starts from (default: the checkout's HEAD)" maxlen:"256"`
	Name         string   `json:"name,omitempty" desc:"the session's name (default: REPO-BRANCH, / turned into -)" maxlen:"256"`
	Agent        string   `json:"agent,omitempty" desc:"an agent to run in the session instead of a shell, split like a POSIX shell ('claude --model sonnet')" maxlen:"4096"`
	Prompt       string   `json:"prompt,omitempty" desc:"with agent: a first prompt, typed once the agent is ready" maxlen:"65536"`
	Repo         string   `json:"repo,omitempty" desc:"a folder of the repository, absolute (default: the caller's pane's folder)" maxlen:"4096"`
	Grants       string   `json:"grants,omitempty" desc:"what the session's pane may do through TUIOS (never more than the caller holds)" maxlen:"256"`
	Env          []string `json:"env,omitempty" desc:"NAME=VALUE variables for the agent (at most 64; TUIOS_*, TMUX, TMUX_PANE and PATH are refused; never over a link)" maxlen:"64"`
	Path         string   `json:"path,omitempty" desc:"the caller's PATH: the agent is looked up in it and runs with it" maxlen:"65536"`
	ReadyTimeout int      `json:"ready_timeout,omitempty" desc:"ms the agent has to reach its prompt before the prompt is not_sent" min:"1" max:"3600000" default:"600000"`
	Wait         bool     `json:"wait,omitempty" desc:"with prompt: answer once the prompt is no longer pending"`
	Clone        bool     `json:"clone,omitempty" desc:"clone the repository into repo first when that folder does not exist (on another host)"`
	CloneFrom    string   `json:"clone_from,omitempty" desc:"with clone: the URL of the remote to clone from (the CLI sends its repository's origin)" maxlen:"4096"`
}

// ListWorktreesParams are the params of list-worktrees.
type ListWorktreesParams struct {
	Repo      string `json:"repo,omitempty" desc:"only this repository's worktrees (a folder of it)" maxlen:"4096"`
	Group     string `json:"group,omitempty" desc:"only this fan's, such as fan/add-retry" maxlen:"256"`
	NoChanges bool   `json:"no_changes,omitempty" desc:"leave out each worktree's changed files and lines (no git runs)"`
}

// RemoveWorktreeParams are the params of remove-worktree.
type RemoveWorktreeParams struct {
	Session     string `json:"session,omitempty" req:"true" desc:"the worktree's session" maxlen:"4096"`
	Stash       bool   `json:"stash,omitempty" desc:"keep uncommitted changes in git stash (message tuios: BRANCH) first"`
	Force       bool   `json:"force,omitempty" desc:"remove it with its uncommitted changes (they are lost)"`
	KeepSession bool   `json:"keep_session,omitempty" desc:"leave the session open"`
}

// BundleWorktreeParams are the params of bundle-worktree.
type BundleWorktreeParams struct {
	Session string `json:"session,omitempty" req:"true" desc:"the worktree's session" maxlen:"4096"`
}

// PullWorktreeParams are the params of pull-worktree.
type PullWorktreeParams struct {
	Host    string `json:"host,omitempty" req:"true" desc:"the linked host the worktree is on" maxlen:"255"`
	Session string `json:"session,omitempty" req:"true" desc:"the worktree's session there" maxlen:"4096"`
	Branch  string `json:"branch,omitempty" desc:"the branch here (default: the branch there; it must not exist here)" maxlen:"200"`
	Name    string `json:"name,omitempty" desc:"the session here (default: REPO-BRANCH)" maxlen:"256"`
	Repo    string `json:"repo,omitempty" desc:"a folder of the repository here, absolute (default: the caller's pane's folder)" maxlen:"4096"`
}
