package proto

// SetAgentStateParams are the params of set-agent-state.
type SetAgentStateParams struct {
	Session        string `json:"session,omitempty" desc:"the session"`
	Window         string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	State          string `json:"state,omitempty" req:"true" desc:"the state" accepted:"none,working,needs_input,idle,done,errored,unknown" check:"handler"`
	Message        string `json:"message,omitempty" desc:"plain words: what it is doing or asking (kept to 512 bytes)" maxlen:"65536"`
	Source         string `json:"source,omitempty" desc:"who reports" accepted:"report,osc,screen,stall" check:"handler" default:"report"`
	Harness        string `json:"harness,omitempty" desc:"the harness id the report names, e.g. claude-code" maxlen:"64"`
	Kind           string `json:"kind,omitempty" desc:"what a needs_input waits for (default: guessed from the message)" accepted:"approval,question"`
	AgentSessionID string `json:"agent_session_id,omitempty" desc:"the agent session the report speaks for" maxlen:"256"`
	TranscriptPath string `json:"transcript_path,omitempty" desc:"the harness's transcript file (a regular file); joins the pane to it" maxlen:"4096"`
	IfState        string `json:"if_state,omitempty" desc:"apply only when the pane is in one of these states (comma-separated)" maxlen:"256"`
	HarnessPID     int    `json:"harness_pid,omitempty" desc:"the agent's pid" min:"1" max:"4194304"`
	Now            string `json:"now,omitempty" desc:"what the agent is doing now, one line (the tool and its target); a report without it clears it" maxlen:"4096"`
	// Activity is the agent-log entry a hook event carries with its
	// report, so a hook pays one call for both (agentlog.go).
	Activity *StateActivity `json:"activity,omitempty" desc:"the agent-log entry of the hook event that made this report: {event: prompt|tool|tool_done|tool_failed|turn_end, tool: \"Name: target\", text, files}"`
}

// StateActivity is set-agent-state's activity param: the agent-log
// entry a hook event carries with its report.
type StateActivity struct {
	Event string   `json:"event,omitempty"`
	Tool  string   `json:"tool,omitempty"`
	Text  string   `json:"text,omitempty"`
	Files []string `json:"files,omitempty"`
}

// AgentParams are the params of explain-agent-detect and get-agent-state.
type AgentParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
}

// ListAgentsParams are the params of list-agents.
type ListAgentsParams struct {
	Session     string `json:"session,omitempty" desc:"the session (default: most recently active)"`
	All         bool   `json:"all,omitempty" desc:"every window, including ones not seen as agents"`
	AllSessions bool   `json:"all_sessions,omitempty" desc:"every session"`
	Select      string `json:"select,omitempty" desc:"only panes a selector matches: key:value terms that must all match (harness, state, needs, session, group, host, name, cwd); searches every session" maxlen:"1024"`
}

// ExplainScreenParams are the params of explain-agent-screen.
type ExplainScreenParams struct {
	Session string `json:"session,omitempty" desc:"the session"`
	Window  string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	Harness string `json:"harness,omitempty" desc:"run this harness's rules instead of the pane's" maxlen:"64"`
	Lines   int    `json:"lines,omitempty" desc:"read this many non-empty rows instead of the manifest's" min:"1" max:"200"`
}

// StartAgentParams are the params of start-agent.
type StartAgentParams struct {
	Agent        string   `json:"agent,omitempty" req:"true" desc:"a known harness (claude, codex, gemini, opencode…: the program its manifest runs) or a path to a program" maxlen:"4096"`
	Args         []string `json:"args,omitempty" desc:"arguments passed to the agent as they are (no shell reads them)" maxlen:"256"`
	Name         string   `json:"name,omitempty" desc:"the window's name (default: the program's name, made unique in the session)" maxlen:"256"`
	Prompt       string   `json:"prompt,omitempty" desc:"a first prompt, typed once the agent is ready, the way ask-agent types" maxlen:"65536"`
	Session      string   `json:"session,omitempty" desc:"the session, created when missing (default: the caller's pane's, else the most recently active, else a new one)" maxlen:"4096"`
	Cwd          string   `json:"cwd,omitempty" desc:"the agent's working directory, absolute (default: the caller's pane's, else the daemon's)" maxlen:"4096"`
	Focus        bool     `json:"focus,omitempty" desc:"focus the new window (default: the focus stays where it is)"`
	Workspace    int      `json:"workspace,omitempty" desc:"the workspace to open it on (default: the session's current one)" min:"1" max:"9"`
	ReadyTimeout int      `json:"ready_timeout,omitempty" desc:"ms to wait for the agent to reach its prompt" min:"1" max:"3600000" default:"120000"`
	Env          []string `json:"env,omitempty" desc:"NAME=VALUE variables for the agent (at most 64; TUIOS_*, TMUX and TMUX_PANE are refused; never over a link)" maxlen:"64"`
	Path         string   `json:"path,omitempty" desc:"the caller's PATH: the agent is looked up in it and runs with it (the CLI sends its own; default: the daemon's)" maxlen:"65536"`
	Protocol     string   `json:"protocol,omitempty" desc:"acp or codex: run the agent headless over the Agent Client Protocol or Codex's app-server, in a tuios agent-proto pane that draws the conversation and reports the state itself; agent is then the whole command, e.g. 'gemini --acp'" maxlen:"64"`
	// Not in this version: named so they are refused with what to do
	// instead, rather than as unknown params.
	Grants    string `json:"grants,omitempty" desc:"what the agent's pane may do through TUIOS: read, write, fan, respond, files, admin, comma-separated, or none (default: [agents.permissions]; from a pane without admin, its own; never more than the caller holds)" maxlen:"256"`
	Repo      string `json:"repo,omitempty" desc:"run the agent at the top of the git repository holding this folder, absolute (not with cwd)" maxlen:"4096"`
	Clone     bool   `json:"clone,omitempty" desc:"with repo: clone the repository into it first when that folder does not exist (an agent on another host)"`
	CloneFrom string `json:"clone_from,omitempty" desc:"with clone: the URL of the remote to clone from (the CLI sends its repository's origin)" maxlen:"4096"`
}
