package proto

import "github.com/tuios/tuios/internal/worktree"

// The results of the worktree and fan verbs: new-worktree, pull-worktree,
// list-worktrees, remove-worktree, bundle-worktree, fan, compare-fan,
// verify-fan and keep-fan.

// Attempt is one worktree tuios made, as the verbs that make them answer
// it: its session, branch, folder and agent, and whether the prompt was
// typed (PromptStatus sent, stalled or not_sent; "" without a prompt).
// Attempt is its number in a fan (absent outside one).
type Attempt struct {
	Attempt       int    `json:"attempt,omitempty"`
	Session       string `json:"session"`
	SessionID     string `json:"session_id"`
	Branch        string `json:"branch"`
	Worktree      string `json:"worktree"`
	WindowID      string `json:"window_id"`
	Agent         string `json:"agent"`
	Command       string `json:"command"`
	PromptStatus  string `json:"prompt_status"`
	PromptNote    string `json:"prompt_note,omitempty"`
	PromptReadyBy string `json:"prompt_ready_by,omitempty"`
}

// WorktreeCreated is the result of new-worktree and pull-worktree
// (PulledFrom names the host the work came from).
type WorktreeCreated struct {
	Type          string `json:"type"` // worktree_created
	Repo          string `json:"repo"`
	RepoName      string `json:"repo_name"`
	Base          string `json:"base"`
	BaseSHA       string `json:"base_sha"`
	CreatedBranch bool   `json:"created_branch"`
	Cloned        bool   `json:"cloned"`
	PulledFrom    string `json:"pulled_from,omitempty"`
	Attempt
}

// FanStarted is fan's result: the fan's group and its attempts.
type FanStarted struct {
	Type     string    `json:"type"` // fan_started
	Group    string    `json:"group"`
	Repo     string    `json:"repo"`
	RepoName string    `json:"repo_name"`
	Base     string    `json:"base"`
	BaseSHA  string    `json:"base_sha"`
	Count    int       `json:"count"`
	Cloned   bool      `json:"cloned"`
	Waited   bool      `json:"waited"`
	Attempts []Attempt `json:"attempts"`
}

// WorktreeCheck is the last check verify-fan ran in a worktree.
type WorktreeCheck struct {
	Command string `json:"command"`
	// Status: running, passed, failed or timeout.
	Status string `json:"status"`
	Exit   int    `json:"exit"`
	Window string `json:"window,omitempty"`
	At     int64  `json:"at"` // unix ms
}

// FanRow is one attempt as compare-fan shows it: its agent and state,
// its changes against the fan's base (ChangesRead false when they were
// not read; ChangesError why), and its last check (nil: none).
type FanRow struct {
	Attempt      int            `json:"attempt"`
	Session      string         `json:"session"`
	SessionOpen  bool           `json:"session_open"`
	Branch       string         `json:"branch"`
	Worktree     string         `json:"worktree"`
	Agent        string         `json:"agent"`
	WindowID     string         `json:"window_id"`
	State        string         `json:"state"`
	Gone         bool           `json:"gone"`
	Files        int            `json:"files"`
	Added        int            `json:"added"`
	Removed      int            `json:"removed"`
	ChangesRead  bool           `json:"changes_read"`
	ChangesError string         `json:"changes_error,omitempty"`
	PromptStatus string         `json:"prompt_status"`
	Check        *WorktreeCheck `json:"check"`
}

// FanCompare is compare-fan's result. Its rows hold what agents wrote
// (Untrusted is always true).
type FanCompare struct {
	Type      string   `json:"type"` // fan_compare
	Group     string   `json:"group"`
	Repo      string   `json:"repo"`
	RepoName  string   `json:"repo_name"`
	Base      string   `json:"base"`
	BaseSHA   string   `json:"base_sha"`
	Attempts  []FanRow `json:"attempts"`
	Untrusted bool     `json:"untrusted"`
}

// VerifyRow is one attempt's check in verify-fan's result.
type VerifyRow struct {
	Session  string `json:"session"`
	Branch   string `json:"branch"`
	Status   string `json:"status"` // running, passed, failed, timeout, skipped
	Exit     int    `json:"exit"`
	WindowID string `json:"window_id,omitempty"`
	Kept     bool   `json:"window_kept"`
	Note     string `json:"note,omitempty"`
}

// FanVerify is verify-fan's result. Without waiting (Waited false) the
// rows are the checks as they stand and Failed is 0.
type FanVerify struct {
	Type     string      `json:"type"` // fan_verify
	Group    string      `json:"group"`
	Repo     string      `json:"repo"`
	Command  string      `json:"command"`
	Waited   bool        `json:"waited"`
	Attempts []VerifyRow `json:"attempts"`
	Failed   int         `json:"failed"`
}

// FanRemoval is one attempt keep-fan removed (Error: why it could not).
type FanRemoval struct {
	Session string `json:"session"`
	Branch  string `json:"branch"`
	worktree.Removed
	Error string `json:"error,omitempty"`
}

// FanKept is keep-fan's result: the attempt kept, the merge when one was
// asked for, and the attempts removed.
type FanKept struct {
	Type     string         `json:"type"` // fan_kept
	Kept     string         `json:"kept"` // its session
	Branch   string         `json:"branch"`
	Group    string         `json:"group"`
	Worktree string         `json:"worktree"`
	Merged   *worktree.Kept `json:"merged,omitempty"`
	Removed  []FanRemoval   `json:"removed"`
}

// WorktreeRow is one worktree of list-worktrees.
type WorktreeRow struct {
	FanRow
	SessionID     string `json:"session_id"`
	Repo          string `json:"repo"`
	RepoName      string `json:"repo_name"`
	Base          string `json:"base"`
	BaseSHA       string `json:"base_sha"`
	Group         string `json:"group"`
	PromptNote    string `json:"prompt_note,omitempty"`
	PromptReadyBy string `json:"prompt_ready_by,omitempty"`
	Created       int64  `json:"created"`
	PulledFrom    string `json:"pulled_from,omitempty"`
}

// WorktreeList is list-worktrees' result.
type WorktreeList struct {
	Type      string        `json:"type"` // worktree_list
	Worktrees []WorktreeRow `json:"worktrees"`
}

// WorktreeRemoved is remove-worktree's result. Stash is the stash's
// message ("" when nothing was stashed); Gone says the folder was
// already gone.
type WorktreeRemoved struct {
	Type          string `json:"type"` // worktree_removed
	Session       string `json:"session"`
	Worktree      string `json:"worktree"`
	Branch        string `json:"branch"`
	Stashed       bool   `json:"stashed"`
	Stash         string `json:"stash"`
	Forced        bool   `json:"forced"`
	Gone          bool   `json:"gone"`
	SessionClosed bool   `json:"session_closed"`
}

// WorktreeBundle is bundle-worktree's result: a worktree's commits since
// its base as a git bundle, and what is not committed as a binary patch
// (base64 on the wire).
type WorktreeBundle struct {
	Type     string `json:"type"` // worktree_bundle
	Session  string `json:"session"`
	RepoName string `json:"repo_name"`
	Branch   string `json:"branch"`
	BaseSHA  string `json:"base_sha"`
	HeadSHA  string `json:"head_sha"`
	Bundle   []byte `json:"bundle"`
	Patch    []byte `json:"patch"`
}

// AgentStarted is start-agent's result.
type AgentStarted struct {
	Type           string `json:"type"` // agent_started
	Session        string `json:"session"`
	SessionID      string `json:"session_id"`
	CreatedSession bool   `json:"created_session"`
	WindowID       string `json:"window_id"`
	PtyID          string `json:"pty_id"`
	Workspace      int    `json:"workspace"`
	Name           string `json:"name"`
	Agent          string `json:"agent"` // the harness id when one is known, else the program's name
	Command        string `json:"command"`
	Cwd            string `json:"cwd"`
	Ready          bool   `json:"ready"`
	ReadyBy        string `json:"ready_by"` // idle or done when ready
	State          string `json:"state"`
	BlockedBy      string `json:"blocked_by,omitempty"`
	Outcome        string `json:"outcome"`
	Reason         string `json:"reason"`
	PromptStatus   string `json:"prompt_status"` // sent, stalled or not_sent; "" without a prompt
	PromptNote     string `json:"prompt_note,omitempty"`
	// Protocol is acp or codex with --protocol, else "". Cloned: --clone
	// made the repository.
	Protocol string `json:"protocol"`
	Cloned   bool   `json:"cloned"`
}
