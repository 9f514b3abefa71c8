// Package transcript reads the record file a coding agent's harness writes
// (Claude Code's JSONL transcript under ~/.claude/projects) and turns its
// newest turn-bearing record into one of three answers: working, done, or
// nothing new.
//
// It owns: where a pane's transcript lives (ProjectDir, Search), reading it
// (Reader: a cold read looks at the last 128 KiB only, later reads resume
// from the last offset, a half-written last line is left for the next read,
// subagent "sidechain" records are skipped), and watching directories for
// appends (Watcher: one inotify descriptor and one goroutine for the whole
// process, per-directory watches that are reference counted, bursts
// collapsed into one callback).
//
// It does not decide the pane's state: a Turn goes to an agentstate.Arbiter
// at agentstate.SourceTranscript, and never says needs_input (the screen
// reads prompts) or idle (a file cannot see silence).
//
// Privacy is a property of the types, not of care. A line decodes into a
// record of six scalar fields and one nested stop reason; encoding/json
// walks every other field to find its end and never builds a value for it,
// so message content, tool results and prompts are never constructed. The
// package holds no map[string]any and no json.RawMessage (a test checks the
// source). A line that fails to decode increments a counter; the error,
// which would quote it, is dropped. The read buffer is a field of the
// Reader, zeroed after every parse, so nothing of the conversation stays in
// memory after a read returns. Nothing logs.
package transcript
