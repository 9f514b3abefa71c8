package proto

// FanParams are the params of fan.
type FanParams struct {
	Count        int      `json:"count,omitempty" req:"true" desc:"how many attempts" min:"1" max:"16"`
	Prompt       string   `json:"prompt,omitempty" desc:"the prompt typed into every attempt's agent once it is ready" maxlen:"65536"`
	Prompts      []string `json:"prompts,omitempty" desc:"more prompts: attempt N gets the Nth of prompt and these, cycled" maxlen:"16"`
	Agent        string   `json:"agent,omitempty" req:"true" desc:"the agents, comma-separated, cycled over the attempts; each split like a POSIX shell (claude,'codex --model o3') and exec'd directly" maxlen:"4096"`
	Env          []string `json:"env,omitempty" desc:"NAME=VALUE variables for every agent (at most 64; TUIOS_*, TMUX, TMUX_PANE and PATH are refused; never over a link)" maxlen:"64"`
	Base         string   `json:"base,omitempty" desc:"the commit the attempts start from (default: the checkout's HEAD, which must have no changes)" maxlen:"256"`
	Name         string   `json:"name,omitempty" desc:"the stem: the branches are fan/NAME, fan/NAME-2, … (default: the prompt's first words)" maxlen:"64"`
	Repo         string   `json:"repo,omitempty" desc:"a folder of the repository, absolute (default: the caller's pane's folder)" maxlen:"4096"`
	Grants       string   `json:"grants,omitempty" desc:"what every attempt's pane may do through TUIOS (read, write, fan, respond, files, admin, or none; never more than the caller holds)" maxlen:"256"`
	Wait         bool     `json:"wait,omitempty" desc:"answer once no prompt is pending (each is sent, stalled, not_sent or held), not once the agents started"`
	ReadyTimeout int      `json:"ready_timeout,omitempty" desc:"ms each agent has to reach its prompt before its prompt is not_sent" min:"1" max:"3600000" default:"600000"`
	Path         string   `json:"path,omitempty" desc:"the caller's PATH: the agents are looked up in it and run with it (the CLI sends its own)" maxlen:"65536"`
	Clone        bool     `json:"clone,omitempty" desc:"clone the repository into repo first when that folder does not exist (for a fan on another host)"`
	CloneFrom    string   `json:"clone_from,omitempty" desc:"with clone: the URL of the remote to clone from (the CLI sends its repository's origin)" maxlen:"4096"`
}

// FanTargetParams names a fan: a session of it, or its group. It is
// embedded in CompareFanParams and VerifyFanParams (as a field with no
// wire name, so list-verbs and the checks skip it, as before the move).
type FanTargetParams struct {
	Session string `json:"session,omitempty" desc:"a session of the fan (default: the caller's own)" maxlen:"4096"`
	Group   string `json:"group,omitempty" desc:"the fan's group instead, such as fan/add-retry (with repo when two repositories have one)" maxlen:"256"`
	Repo    string `json:"repo,omitempty" desc:"the repository's folder, to tell groups of two repositories apart" maxlen:"4096"`
}

// CompareFanParams are the params of compare-fan.
type CompareFanParams struct {
	FanTargetParams
	NoChanges bool `json:"no_changes,omitempty" desc:"leave out each attempt's changed files and lines (no git runs)"`
}

// VerifyFanParams are the params of verify-fan.
type VerifyFanParams struct {
	FanTargetParams
	Command string `json:"command,omitempty" req:"true" desc:"the check, run by sh -c in every attempt's worktree (at most 4096 bytes)" maxlen:"4096"`
	Timeout int    `json:"timeout,omitempty" desc:"ms to wait for the checks" min:"1" max:"3600000" default:"600000"`
	NoWait  bool   `json:"no_wait,omitempty" desc:"answer once the checks started; compare-fan shows how they end"`
}

// KeepFanParams are the params of keep-fan.
type KeepFanParams struct {
	Session string `json:"session,omitempty" req:"true" desc:"the attempt to keep" maxlen:"4096"`
	Stash   bool   `json:"stash,omitempty" desc:"keep the other attempts' uncommitted changes in git stash (message tuios: BRANCH) before removing them"`
	Force   bool   `json:"force,omitempty" desc:"remove the other attempts even with uncommitted changes (they are lost)"`
	Merge   bool   `json:"merge,omitempty" desc:"bring the kept attempt's work (its uncommitted work committed first) into the base branch, or into"`
	Mode    string `json:"mode,omitempty" desc:"how to merge" accepted:"merge,squash,ff-only" default:"merge"`
	Into    string `json:"into,omitempty" desc:"the branch to merge into (default: the fan's base branch)" maxlen:"256"`
}
