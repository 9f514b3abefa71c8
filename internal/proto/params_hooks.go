package proto

// ReportActivityParams are the params of report-agent-activity.
type ReportActivityParams struct {
	Session      string `json:"session,omitempty" desc:"the session"`
	Window       string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	Event        string `json:"event,omitempty" req:"true" desc:"what happened" accepted:"subagent_start,subagent_tool,subagent_stop,subagent_intent,session_start,prompt,tool,tool_done,tool_failed,turn_end"`
	ID           string `json:"id,omitempty" desc:"the subagent's id" maxlen:"256"`
	SubagentType string `json:"subagent_type,omitempty" desc:"the subagent's type, e.g. general-purpose" maxlen:"256"`
	Description  string `json:"description,omitempty" desc:"what the agent asked the subagent to do" maxlen:"4096"`
	Tool         string `json:"tool,omitempty" desc:"subagent_tool: the tool it runs and its target, e.g. Bash: go test ./..." maxlen:"4096"`
	Result       string `json:"result,omitempty" desc:"subagent_stop: the first line it ended with, or its error" maxlen:"4096"`
	Failed       bool   `json:"failed,omitempty" desc:"subagent_stop: it failed"`
	// The agent log's events (agentlog.go): prompt, tool, tool_done,
	// tool_failed and turn_end only go to the log; tool carries "Name: target".
	Text           string   `json:"text,omitempty" desc:"prompt: what the person asked; turn_end: the agent's last message; tool_failed: the error (first line kept)" maxlen:"65536"`
	Files          []string `json:"files,omitempty" desc:"tool events: the files the tool wrote (default: an edit tool's target)" maxlen:"64"`
	Harness        string   `json:"harness,omitempty" desc:"the harness the event speaks for; another than the pane's is refused" maxlen:"64"`
	AgentSessionID string   `json:"agent_session_id,omitempty" desc:"the agent session the event speaks for; another than the pane's is refused" maxlen:"256"`
}

// ResolvePaneParams are the params of resolve-pane.
type ResolvePaneParams struct {
	PID            int    `json:"pid,omitempty" desc:"find the pane this process runs in (default: the caller)" min:"1" max:"4194304"`
	AgentSessionID string `json:"agent_session_id,omitempty" desc:"when the process runs in no pane: the pane whose agent has this session, else the only pane of harness with no session yet" maxlen:"256"`
	Harness        string `json:"harness,omitempty" desc:"the harness the session belongs to" maxlen:"64"`
	Hint           string `json:"hint,omitempty" desc:"a window the caller was told about ($TUIOS_PANE_ID), taken last and only when no other pane could be meant" maxlen:"4096"`
}

// SetAgentMetaParams are the params of set-agent-meta.
type SetAgentMetaParams struct {
	Session string             `json:"session,omitempty" desc:"the session"`
	Window  string             `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	Tokens  map[string]*string `json:"tokens,omitempty" desc:"keys to set (a string) or remove (null): 1-24 characters of a-z, 0-9, _ and -; values cut to 80 bytes; at most 16"`
	TTLMS   int                `json:"ttl_ms,omitempty" desc:"the keys set expire after this many ms (0: never)" min:"0" max:"86400000"`
	Clear   bool               `json:"clear,omitempty" desc:"remove every key first"`
}

// SetAgentSessionParams are the params of set-agent-session.
type SetAgentSessionParams struct {
	Session        string `json:"session,omitempty" desc:"the session"`
	Window         string `json:"window,omitempty" desc:"the window (default: the caller's own pane, else the focused one)"`
	AgentSessionID string `json:"agent_session_id,omitempty" req:"true" desc:"the agent's conversation id" maxlen:"256"`
	Harness        string `json:"harness,omitempty" desc:"the harness the id belongs to" maxlen:"64"`
}
