package proto

// The params of the worktree and fan verbs (internal/daemon/fan): their
// tags are the verbs' schema (DecodeParams, Validate, list-verbs).

// NewWorktreeParams are new-worktree's params.
type NewWorktreeParams struct {
	Branch       string   `json:"branch" req:"true" desc:"the branch: checked out when it exists, else made from base" maxlen:"200"`
	Base         string   `json:"base" desc:"the commit a new branch starts from (default: the checkout's HEAD)" maxlen:"256"`
	Name         string   `json:"name" desc:"the session's name (default: REPO-BRANCH, / turned into -)" maxlen:"256"`
	Agent        string   `json:"agent" desc:"an agent to run in the session instead of a shell, split like a POSIX shell ('claude --model sonnet')" maxlen:"4096"`
	Prompt       string   `json:"prompt" desc:"with agent: a first prompt, typed once the agent is ready" maxlen:"65536"`
	Repo         string   `json:"repo" desc:"a folder of the repository, absolute (default: the caller's pane's folder)" maxlen:"4096"`
	Grants       string   `json:"grants" desc:"what the session's pane may do through TUIOS (never more than the caller holds)" maxlen:"256"`
	Env          []string `json:"env" desc:"NAME=VALUE variables for the agent (at most 64; TUIOS_*, TMUX, TMUX_PANE and PATH are refused; never over a link)" maxlen:"64"`
	Path         string   `json:"path" desc:"the caller's PATH: the agent is looked up in it and runs with it" maxlen:"65536"`
	ReadyTimeout int      `json:"ready_timeout" desc:"ms the agent has to reach its prompt before the prompt is not_sent" min:"1" max:"3600000" default:"600000"`
	Wait         bool     `json:"wait" desc:"with prompt: answer once the prompt is no longer pending"`
	Clone        bool     `json:"clone" desc:"clone the repository into repo first when that folder does not exist (on another host)"`
	CloneFrom    string   `json:"clone_from" desc:"with clone: the URL of the remote to clone from (the CLI sends its repository's origin)" maxlen:"4096"`
}

// ListWorktreesParams are list-worktrees' params.
type ListWorktreesParams struct {
	Repo      string `json:"repo" desc:"only this repository's worktrees (a folder of it)" maxlen:"4096"`
	Group     string `json:"group" desc:"only this fan's, such as fan/add-retry" maxlen:"256"`
	NoChanges bool   `json:"no_changes" desc:"leave out each worktree's changed files and lines (no git runs)"`
}

// RemoveWorktreeParams are remove-worktree's params.
type RemoveWorktreeParams struct {
	Session     string `json:"session" req:"true" desc:"the worktree's session" maxlen:"4096"`
	Stash       bool   `json:"stash" desc:"keep uncommitted changes in git stash (message tuios: BRANCH) first"`
	Force       bool   `json:"force" desc:"remove it with its uncommitted changes (they are lost)"`
	KeepSession bool   `json:"keep_session" desc:"leave the session open"`
}

// BundleWorktreeParams are bundle-worktree's params.
type BundleWorktreeParams struct {
	Session string `json:"session" req:"true" desc:"the worktree's session" maxlen:"4096"`
}

// PullWorktreeParams are pull-worktree's params.
type PullWorktreeParams struct {
	Host    string `json:"host" req:"true" desc:"the linked host the worktree is on" maxlen:"255"`
	Session string `json:"session" req:"true" desc:"the worktree's session there" maxlen:"4096"`
	Branch  string `json:"branch" desc:"the branch here (default: the branch there; it must not exist here)" maxlen:"200"`
	Name    string `json:"name" desc:"the session here (default: REPO-BRANCH)" maxlen:"256"`
	Repo    string `json:"repo" desc:"a folder of the repository here, absolute (default: the caller's pane's folder)" maxlen:"4096"`
}

// FanParams are fan's params.
type FanParams struct {
	Count        int      `json:"count" req:"true" desc:"how many attempts" min:"1" max:"16"`
	Prompt       string   `json:"prompt" desc:"the prompt typed into every attempt's agent once it is ready" maxlen:"65536"`
	Prompts      []string `json:"prompts" desc:"more prompts: attempt N gets the Nth of prompt and these, cycled" maxlen:"16"`
	Agent        string   `json:"agent" req:"true" desc:"the agents, comma-separated, cycled over the attempts; each split like a POSIX shell (claude,'codex --model o3') and exec'd directly" maxlen:"4096"`
	Env          []string `json:"env" desc:"NAME=VALUE variables for every agent (at most 64; TUIOS_*, TMUX, TMUX_PANE and PATH are refused; never over a link)" maxlen:"64"`
	Base         string   `json:"base" desc:"the commit the attempts start from (default: the checkout's HEAD, which must have no changes)" maxlen:"256"`
	Name         string   `json:"name" desc:"the stem: the branches are fan/NAME, fan/NAME-2, … (default: the prompt's first words)" maxlen:"64"`
	Repo         string   `json:"repo" desc:"a folder of the repository, absolute (default: the caller's pane's folder)" maxlen:"4096"`
	Grants       string   `json:"grants" desc:"what every attempt's pane may do through TUIOS (read, write, fan, respond, files, admin, or none; never more than the caller holds)" maxlen:"256"`
	Wait         bool     `json:"wait" desc:"answer once no prompt is pending (each is sent, stalled, not_sent or held), not once the agents started"`
	ReadyTimeout int      `json:"ready_timeout" desc:"ms each agent has to reach its prompt before its prompt is not_sent" min:"1" max:"3600000" default:"600000"`
	Path         string   `json:"path" desc:"the caller's PATH: the agents are looked up in it and run with it (the CLI sends its own)" maxlen:"65536"`
	Clone        bool     `json:"clone" desc:"clone the repository into repo first when that folder does not exist (for a fan on another host)"`
	CloneFrom    string   `json:"clone_from" desc:"with clone: the URL of the remote to clone from (the CLI sends its repository's origin)" maxlen:"4096"`
}

// FanTargetParams name a fan: by one of its sessions, or by its group.
type FanTargetParams struct {
	Session string `json:"session" desc:"a session of the fan (default: the caller's own)" maxlen:"4096"`
	Group   string `json:"group" desc:"the fan's group instead, such as fan/add-retry (with repo when two repositories have one)" maxlen:"256"`
	Repo    string `json:"repo" desc:"the repository's folder, to tell groups of two repositories apart" maxlen:"4096"`
}

// CompareFanParams are compare-fan's params.
type CompareFanParams struct {
	FanTargetParams
	NoChanges bool `json:"no_changes" desc:"leave out each attempt's changed files and lines (no git runs)"`
}

// VerifyFanParams are verify-fan's params.
type VerifyFanParams struct {
	FanTargetParams
	Command string `json:"command" req:"true" desc:"the check, run by sh -c in every attempt's worktree (at most 4096 bytes)" maxlen:"4096"`
	Timeout int    `json:"timeout" desc:"ms to wait for the checks" min:"1" max:"3600000" default:"600000"`
	NoWait  bool   `json:"no_wait" desc:"answer once the checks started; compare-fan shows how they end"`
}

// KeepFanParams are keep-fan's params.
type KeepFanParams struct {
	Session string `json:"session" req:"true" desc:"the attempt to keep" maxlen:"4096"`
	Stash   bool   `json:"stash" desc:"keep the other attempts' uncommitted changes in git stash (message tuios: BRANCH) before removing them"`
	Force   bool   `json:"force" desc:"remove the other attempts even with uncommitted changes (they are lost)"`
	Merge   bool   `json:"merge" desc:"bring the kept attempt's work (its uncommitted work committed first) into the base branch, or into"`
	Mode    string `json:"mode" desc:"how to merge" accepted:"merge,squash,ff-only" default:"merge"`
	Into    string `json:"into" desc:"the branch to merge into (default: the fan's base branch)" maxlen:"256"`
}
