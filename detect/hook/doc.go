// Package hook turns what a coding agent's harness hands its hooks into a
// report about the pane: the state it is in, what it waits for, what it is
// doing now, its session and transcript, and what its subagents do.
//
// Each harness calls its hooks its own way: Claude Code, Codex, Gemini
// CLI, Qwen Code, Copilot, Cursor Agent, Kimi Code, Crush, Droid, Grok,
// Hermes and Qoder write one JSON object to the hook's standard input (Cursor names
// the conversation conversation_id, Grok sessionId, Crush the event
// "event"); for opencode, Kilo, Amp, Pi and oh-my-pi, whose
// extensions are code, the plugin tuios installs writes one in the same
// shape; a harness may also pass the object as the last argument. Devin
// CLI runs Claude Code's hooks: a claude-code invocation whose environment
// says Devin ran it (Input.Getenv) is read as Devin's, for its
// conversation id only. Decode
// reads one invocation and returns a Translation; the per-harness maps
// from event to state live in one table (see Events), each row citing where
// the event's meaning was read. Cursor Agent, Kimi Code, Crush, Grok and
// Hermes did not run where tuios is built: their rows follow their documentation (Kimi
// Code's shipped code), and testdata/recorded holds the documentation's
// example payloads with where and when each was read.
//
// A Translation goes to a pane in one call: detect.Pane.Hook applies all
// of it to a tracked pane; Translation.AgentReport is its state report for
// a bare agentstate arbiter.
//
// The package is pure: it reads no files, starts nothing and talks to no
// daemon. Carrying the payload from the harness's hook to the program that
// holds the pane (the tuios agent-hook command does it for the tuios
// daemon) and wiring hooks into a harness's settings (tuios integration
// install) are not its concern. It never trusts the payload: every field is bounded,
// cleaned of control characters, and likely secrets are masked before they
// reach a message.
package hook
