// Package codex is a client of Codex's app-server (`codex app-server`):
// JSON-RPC over stdio without the "jsonrpc" member, its v2 methods as
// Codex 0.171 generates their schema (`codex app-server
// generate-json-schema`).
//
// What it speaks: initialize then the initialized notification,
// thread/start in the pane's folder (approval policy and sandbox left to
// the person's ~/.codex/config.toml), turn/start with the prompt as text,
// turn/interrupt; the notifications turn/started, turn/completed (its
// status: completed, interrupted, failed with the turn's error),
// item/started and item/completed (agent messages, reasoning, command
// executions, file changes, MCP and web-search calls), the message and
// reasoning deltas, turn/plan/updated, error and serverRequest/resolved;
// and the server requests item/commandExecution/requestApproval (held for
// the Inbox when the command fits one line) and
// item/fileChange/requestApproval (asked in the pane), answered accept,
// decline or cancel. Every other server request (user input, MCP
// elicitation, permission profiles, dynamic tools) is answered with an
// error, so Codex never waits on a question nobody sees. Everything
// becomes conv events.
//
// It does not start the process, bound the framing (package jsonrpc
// does), draw anything or decide what a state is.
package codex
