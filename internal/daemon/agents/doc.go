// Package agents is the agent verbs (docs/agents.md, the agent skill): a
// pane's agent reports its state and what it is doing, and anyone with
// read reads it back. set-agent-state, set-agent-session, set-agent-meta
// and report-agent-activity are a pane's reports about itself (its
// agent's hooks, or the caller outside every pane); get-agent-state and
// list-agents read the state with the pane's place, mail and queue
// (list-agents sorted by what each pane needs from the person:
// core.NeedOrder, the rail's order too); explain-agent-detect and
// explain-agent-screen say why the detector and a harness's screen rules
// decided what they did; resolve-pane finds the pane a process (a hook)
// runs in: by its ancestry, else by its terminal session, else by the
// agent's session when a helper an agent shares between panes runs it.
// start-agent (start.go) opens a window running an agent, creating its
// session when missing, waits until the agent is at its prompt (or
// blocked, timed out, closed) and types a first prompt; the core
// resolves the agent's program and argv (Host.ResolveAgent, --protocol
// panes under tuios agent-proto included), opens the session and window
// (Host.AgentSession, Host.StartWindow, whose StartNotice arms the 30 s
// Inbox question) and types the prompt (Host.FirstPrompt), as it does
// for the fans.
// Each verb's declaration (who may call it, agents_disabled while
// [agents] enabled = false) is the one the core's verb table had.
//
// It reaches the core only through core.Host: the window a verb names
// through the one target check (Host.Window, Host.Seat: a window's
// list-windows row, fan group, protocol and mail ring copied at one
// moment; Host.Seats for list-agents), the tracker and its arbiter
// (Host.Tracker: a report is applied to the pane the tracker keeps), the
// caller's own pane (Host.CallerPane, Host.PaneOf), and the agent log
// (Host.LogActivity, Host.LogSubagent, which the core hands to
// internal/daemon/agentlog). It takes none of the core's locks and has
// none of its own.
//
// What it does not own: the agent state and its rules (agentstate's
// Arbiter, detect's Tracker and manifests), the agent log and
// transcripts (internal/daemon/agentlog), the placing of a caller
// (the core's boundary), the rail and list-windows (the core), mail
// (internal/daemon/mailbox), how an agent's program is found and its
// first prompt typed (the core's agent_launch.go).
package agents
