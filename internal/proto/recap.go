package proto

// Recap sums up what the agent in a pane did since a time: the recap
// field of agent-activity's result (tuios agent-log --recap), and what
// the attach client shows a person coming back to a pane.
type Recap struct {
	Since      int64       `json:"since"` // unix ns
	Turns      int         `json:"turns"`
	Files      []string    `json:"files"` // the first few files changed
	FilesTotal int         `json:"files_total"`
	Commands   int         `json:"commands"`
	Tests      *RecapTests `json:"tests"` // nil: no test run seen
	LastSaid   string      `json:"last_said"`
	State      string      `json:"state"`
	// Line is the away one-liner: "api while you were away (42m): 3
	// turns, 6 files, 11 commands, go test passed, at prompt".
	Line string `json:"line"`
}

// RecapTests is the newest test run a recap saw.
type RecapTests struct {
	Cmdline string `json:"cmdline"`
	At      int64  `json:"at"` // unix ns
	OK      *bool  `json:"ok"` // nil: still running, or nobody said
}

// Verdict is the run's outcome in a word: running, passed or failed.
func (t RecapTests) Verdict() string {
	switch {
	case t.OK == nil:
		return "running"
	case *t.OK:
		return "passed"
	}
	return "failed"
}
