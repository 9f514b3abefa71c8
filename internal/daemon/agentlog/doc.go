// Package agentlog is the agent log: per pane, a ring of the newest 256
// things its agent did (prompts, tools, turns, its shell's commands, the
// states that matter), in memory only, and a recap of it ("api while you
// were away (42m): 3 turns, 6 files, 11 commands, go test passed, at
// prompt"). It serves agent-activity (and its CLI name agent-log).
//
// The ring is made by the first activity report from the pane's hooks
// (report-agent-activity, or set-agent-state's activity); from then on
// the pane's shell commands (OSC 133 C/D marks) and the state changes that
// matter are added too, so a pane nobody integrated costs nothing. It dies
// with the window (the hub's window-closed), the session and the daemon.
// A turn is counted once: a harness whose hooks say turn_end owns its
// turns; for one that does not, working → done is the turn's end.
//
// It holds two of the daemon's features (core.Feature): Log, the agent
// log and its verbs, and Transcripts, agent-transcript and the watches
// behind the transcript event. Each registers its verbs in Init; Log
// also subscribes to window closes there, and Shutdown ends that
// subscription; Transcripts' Shutdown drops its watches.
//
// The core tells the log what happened (Activity, State, Mark, the
// subagent calls) and the log reads the core only through core.Host: its
// verb's window through the one target check, as a copy. What it does not
// own: the reports themselves and who may make them (the core's verbs and
// the arbiter), agent state, reading a transcript for the pane's state
// (detect/transcript).
package agentlog
