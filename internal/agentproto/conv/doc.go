// Package conv is the conversation an agent protocol client reports, in
// words common to the Agent Client Protocol and Codex's app-server: text
// as it streams, tool calls and their status, plans, permission requests,
// and the turn's start and end. The acp and codex packages turn their
// protocol's messages into these events; the pane program (package
// agentproto) draws them and reports the state they mean.
//
// It owns the event types and the Agent interface, nothing that reads a
// wire or draws a screen. Every string in an event came from the agent:
// it is untrusted, and whoever draws it must clean it first.
package conv
