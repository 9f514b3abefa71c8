package proto

// The attach stream.
//
// A client that sends {"verb":"attach","params":{"session":S,"stream":true,
// "cols":C,"rows":R}} gets the usual "attached" reply (with its human
// nonce) and then, on the same connection, one JSON object per line until
// it hangs up or the session ends. The connection reads no further
// requests: the client makes its calls (typing, resize, focus, the Inbox)
// on a second connection from the same process, where the nonce is good.
//
// The daemon renders nothing for the client: it sends what changed (the
// layout, and the rows of each visible pane that differ from what this
// client last got) and the client draws. Frames are pulled, not queued:
// when the client is slow, the next frame carries the latest rows, so a
// pane that floods output costs the client one frame per tick at most and
// never blocks the pane.

// AttachLayout is what the client needs to place panes and draw the rail:
// sent first, then whenever any of it changes (coalesced).
type AttachLayout struct {
	Type      string `json:"type"` // "layout"
	Session   string `json:"session"`
	Workspace int    `json:"workspace"` // 1..9, the one on screen
	Focused   string `json:"focused"`   // window id, "" when the workspace is empty
	Zoomed    bool   `json:"zoomed"`    // the focused window fills the area
	// Cols and Rows are the area the windows were tiled into: the size
	// of the client used last (tmux's window-size latest: the one that
	// attached, resized, typed or clicked most recently). A client whose
	// own area differs draws the session in its top-left corner.
	Cols int `json:"cols"`
	Rows int `json:"rows"`
	// SizedBy names the client whose size the session has, for the
	// others' note ("/dev/pts/3 (pid 4242)"); "" when it is this client,
	// or unknown.
	SizedBy string `json:"sized_by,omitempty"`
	// Windows are the workspace's windows on screen, in list order (X,
	// Y, Width and Height place them). A tile's first row is its title
	// bar; the pane is the rest.
	Windows    []AttachWindow    `json:"windows"`
	Workspaces []AttachWorkspace `json:"workspaces"` // the nine, in order
	Sessions   []AttachSession   `json:"sessions"`   // every session, for the rail
	// Agents are every pane with an agent, in every session, sorted by
	// what each needs from the person (needs_input and errored first).
	Agents []AttachAgent `json:"agents"`
	// AgentsSeen is false until any pane has shown an agent: the client
	// hides agent UI until then.
	AgentsSeen bool `json:"agents_seen"`
	// AgentsOff is true when [agents] enabled = false: only the
	// multiplexer is drawn.
	AgentsOff bool `json:"agents_off"`
	// AttentionSeq is the Inbox's seq when the layout was built: it moves
	// with every Inbox change (mail to the person come or read, a hold
	// begun or ended), so a client learns of one from the layout stream
	// and lists again instead of polling.
	AttentionSeq uint64 `json:"attention_seq,omitempty"`
	// ConfigSeq moves when set-config wrote config.toml: a client re-reads
	// the settings it took from the file at attach (its alerts).
	ConfigSeq uint64       `json:"config_seq,omitempty"`
	Hosts     []AttachHost `json:"hosts,omitempty"` // the linked hosts followed, for the rail (attach_hosts.go)

	// Hidden counts the workspace's windows that are neither minimized
	// nor zoomed away but do not fit the area (each tile needs 4 columns,
	// a title row and a pane row): they come back when it grows.
	Hidden int `json:"hidden,omitempty"`
}

// AttachWindow is one tile. X, Y, Width and Height are the tile's cells in
// the area, title bar included. Side-by-side tiles are one column apart:
// the client draws the border between them in that column, so a pane's
// PTY is exactly the cells it is drawn in.
type AttachWindow struct {
	ID    string `json:"window_id"`
	Index int    `json:"index"`
	// Name is the window's name (given, else what runs in it); Title is
	// the title its program set, drawn beside the name. Untrusted pane
	// text, as Message.
	Name      string `json:"name"`
	Title     string `json:"title,omitempty"`
	X         int    `json:"x"`
	Y         int    `json:"y"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	State     string `json:"agent_state"` // "" or none when no agent
	Harness   string `json:"agent_harness,omitempty"`
	Message   string `json:"agent_message,omitempty"` // untrusted pane text, cleaned
	Exited    bool   `json:"exited,omitempty"`
	Minimized bool   `json:"minimized,omitempty"`
	// Seen is true when no finished turn of the pane is unread: a done
	// pane then draws ○ rather than ■.
	Seen bool `json:"seen,omitempty"`
	// Asking is true while the pane has an open ask-human question: it
	// draws as needing the person, whatever its agent state. AskID is
	// that question's request id, so a client tells a new question from
	// the one it already showed.
	Asking bool   `json:"asking,omitempty"`
	AskID  string `json:"ask_id,omitempty"`
	// Popup is true for a window that floats over the tiles (tuios
	// popup): X, Y, Width and Height are its frame, drawn over whatever
	// tiles it covers; the pane is inside it, a cell in from each side.
	// Popups come after the tiles, the top one last, and the layout names
	// the top one focused.
	Popup bool `json:"popup,omitempty"`
}

// AttachWorkspace is one of the nine numbered workspaces.
type AttachWorkspace struct {
	N       int    `json:"n"`
	Name    string `json:"name,omitempty"`
	Windows int    `json:"windows"`
	State   string `json:"agent_state,omitempty"` // the loudest among its panes
}

// AttachSession is one rail row.
type AttachSession struct {
	Name string `json:"name"`
	// DisplayName and Accent are the labels a person gave the session
	// (set-session-name, set-session-accent); "" when none.
	DisplayName string `json:"display_name,omitempty"`
	Accent      string `json:"accent,omitempty"`
	Windows     int    `json:"windows"`
	State       string `json:"agent_state,omitempty"` // the loudest among its panes
	Current     bool   `json:"current,omitempty"`
	// Group is the fan the session is an attempt of (fan/add-retry); the
	// rail draws a fan's sessions together under it.
	Group string `json:"group,omitempty"`
}

// AttachAgent is one row of the rail's agents section.
type AttachAgent struct {
	Session string `json:"session"`
	Window  string `json:"window_id"`
	Name    string `json:"name"`
	State   string `json:"agent_state"`
	Harness string `json:"agent_harness,omitempty"`
	Message string `json:"agent_message,omitempty"` // untrusted pane text, cleaned
	SinceMS int64  `json:"since_ms"`                // unix ms the state began
	Seen    bool   `json:"seen,omitempty"`          // as AttachWindow.Seen
	Asking  bool   `json:"asking,omitempty"`        // as AttachWindow.Asking
	// Queued is how many replies wait in the daemon's queue for the pane
	// (queue-prompt, the Inbox's r): the rail and the Inbox row say
	// "1 queued" until it is typed.
	Queued int `json:"queued,omitempty"`
	// Risk names the risk rules the approval the pane waits on matched
	// (its Inbox item's): the rail's word for it is then "risky".
	Risk []string `json:"risk,omitempty"`
	// Now is what the agent says it is doing (its hooks' current tool),
	// untrusted and cleaned: the rail shows it when there is no message.
	Now string `json:"agent_now,omitempty"`
	// Subagents are the agent's subagents, in start order (at most 16):
	// the rail draws a row for each under the agent's.
	Subagents []AttachSubagent `json:"subagents,omitempty"`
}

// AttachSubagent is one subagent row of the rail, as get-agent-state's
// subagent_list has it; its text is untrusted and cleaned.
type AttachSubagent struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	State       string `json:"state"` // running, done, failed or stopped
	Now         string `json:"now,omitempty"`
	Result      string `json:"result,omitempty"`
}

// AttachScreen carries the rows of one visible pane that changed since
// this client's last frame of it. Full is true when every row is present
// (the first frame, after a resize, or after the client fell behind);
// otherwise absent rows are unchanged.
type AttachScreen struct {
	Type   string       `json:"type"` // "screen"
	Window string       `json:"window_id"`
	Cols   int          `json:"cols"`
	Rows   int          `json:"rows"`
	Full   bool         `json:"full,omitempty"`
	Lines  []AttachLine `json:"lines"`
	Cursor AttachCursor `json:"cursor"`
	Modes  AttachModes  `json:"modes"`
	Title  string       `json:"title,omitempty"`
}

// AttachLine is one row: its cells as text with SGR sequences, no cursor
// moves, exactly Cols cells wide once drawn.
type AttachLine struct {
	Y    int    `json:"y"`
	Text string `json:"text"`
}

// AttachCursor is the pane's cursor.
type AttachCursor struct {
	X       int  `json:"x"`
	Y       int  `json:"y"`
	Visible bool `json:"visible"`
}

// AttachModes are the terminal modes the pane's program asked for: the
// client encodes keys, mouse and pastes for the focused pane accordingly.
type AttachModes struct {
	AppCursor      bool   `json:"app_cursor,omitempty"`      // DECCKM
	AppKeypad      bool   `json:"app_keypad,omitempty"`      // DECKPAM
	BracketedPaste bool   `json:"bracketed_paste,omitempty"` // 2004
	AltScreen      bool   `json:"alt_screen,omitempty"`
	Mouse          string `json:"mouse,omitempty"`        // "", "x10", "normal", "button", "any"
	MouseSGR       bool   `json:"mouse_sgr,omitempty"`    // 1006
	FocusEvents    bool   `json:"focus_events,omitempty"` // 1004
}

// AttachBell is a pane's BEL or a desktop notification it asked for.
type AttachBell struct {
	Type   string `json:"type"` // "bell"
	Window string `json:"window_id"`
	Text   string `json:"text,omitempty"` // OSC 9/777 body, untrusted
}

// AttachKeys hands the client a leader chord that send-keys was given for
// a pane of its session: the client's prefix (the "prefix" it named when
// attaching) and one key. The bindings live in the client, so the client
// runs the chord as if the person pressed it in that pane.
type AttachKeys struct {
	Type   string   `json:"type"`      // "keys"
	Window string   `json:"window_id"` // the pane send-keys named
	Keys   []string `json:"keys"`      // the prefix and the key, as send-keys spelled them ("ctrl+b", "n")
}

// AttachEnd is the last line of a stream: the session ended, the daemon
// is stopping, or the client was detached.
type AttachEnd struct {
	Type   string `json:"type"` // "detached"
	Reason string `json:"reason"`
}

// InputPassed is attach-input's result: the focused window whose input
// went with the answer, and how many descriptors the answer carries
// (SCM_RIGHTS: the pane's PTY master, then the shared page).
type InputPassed struct {
	Type     string `json:"type"` // input_passed
	WindowID string `json:"window_id"`
	FDs      int    `json:"fds"`
}

// TypedNoted is attach-typed's result.
type TypedNoted struct {
	Type     string `json:"type"` // typed_noted
	WindowID string `json:"window_id"`
}
