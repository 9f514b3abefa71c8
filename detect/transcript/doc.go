// Package transcript reads the record file a coding agent's harness writes
// (Claude Code's JSONL transcript under ~/.claude/projects) and turns its
// newest turn-bearing record into one of three answers: working, done, or
// nothing new.
//
// It owns: where a pane's transcript lives (ProjectName, ProjectDir,
// Search, Session.Locate), reading it
// (Reader: a cold read looks at the last 128 KiB only, later reads resume
// from the last offset, a half-written last line is left for the next read,
// subagent "sidechain" records are skipped), and watching directories for
// appends (Watcher: one inotify descriptor and one goroutine for the whole
// process, per-directory watches that are reference counted, bursts
// collapsed into one callback; Watch follows one file, WatchDir every entry
// of a directory, so a search can run again when a transcript appears).
//
// Search verifies a candidate by the fields the caller names: its working
// directory, its session id, and its version against what the agent's
// install says it is (SearchOptions.Versions: package detect reads the
// native installer's file name, the npm package's package.json, a
// Homebrew cask's directory). Two candidates that verify are refused,
// never tie-broken. A SearchCache lets a search repeated on every change
// in a directory read only the files that changed since the last one.
//
// It does not decide the pane's state: a Turn goes to an agentstate.Arbiter
// at agentstate.SourceTranscript, and never says needs_input (the screen
// reads prompts) or idle (a file cannot see silence).
//
// A local command (/clear, /model) is not a turn: its records never say
// working, so the transcript /clear opens reads as nothing new.
//
// ProjectName is Claude Code's own name for a folder's project directory
// (read from its 2.1.197 package): every UTF-16 code unit that is not an
// ASCII letter or digit becomes "-", so "/home/u/my_project.v2" is
// "-home-u-my-project-v2", and a name past 200 characters is cut there and
// followed by "-" and a base-36 hash of the path.
//
// ReadSession reads Claude Code's per-process session file
// (~/.claude/sessions/<pid>.json): the session a running process is in,
// which names its transcript exactly. Session.Locate finds that transcript
// by the session's id alone (in the project directory of the session's
// folder, else in any project directory), so the join never depends on
// how a folder is named. The file is read like a transcript, without
// blocking and bounded (SessionMax), and only four scalar fields are
// decoded: its status is not read (see session.go for what it says and
// why).
//
// Privacy is a property of the types, not of care. A line decodes into a
// record of ten scalar fields and one nested stop reason; encoding/json
// walks every other field to find its end and never builds a value for it,
// so message content, tool results and prompts are never constructed. The
// package holds no map[string]any and no json.RawMessage (a test checks the
// source). A line that fails to decode increments a counter; the error,
// which would quote it, is dropped. The read buffer is a field of the
// Reader, zeroed after every parse, so nothing of the conversation stays in
// memory after a read returns. Nothing logs.
package transcript
