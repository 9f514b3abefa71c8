// Package mcp is tuios's Model Context Protocol server (`tuios mcp`): an
// agent's harness starts it over stdio and calls TUIOS verbs as tools.
//
// The wire is JSON-RPC 2.0, one message per line (a line holding a JSON
// array is a batch), every line capped at MaxLine (1 MiB): a longer line
// is refused with an error and the server reads on. Methods: initialize
// (protocol version negotiation: the client's version when it is one of
// SupportedVersions, else the newest stateful one), ping, tools/list,
// tools/call, notifications/cancelled (a cancelled call's daemon
// connection is closed and no answer is sent), and resources/list and
// prompts/list, which are empty. An unknown method is -32601, a line
// that is not JSON -32700. Every method answers without an initialize
// first, as the stateless 2026-07-28 version needs.
//
// Tools are TUIOS verbs. Their input schemas are built from the daemon's
// own list-verbs description (types, required, bounds), with human_nonce
// and from_host left out and refused: a tool can never pass for a human
// at a client. What a tool does comes from its verb's declaration in the
// daemon's verb table (list-verbs' access): a verb that types into panes
// makes a tool offered only with Options.Write and marked destructive
// (send_text, send_keys, ask_agent, respond and fan: fan types its prompt
// into the agents it starts), a verb that changes nothing a read-only
// tool. By default the tools only read panes, wait, report the caller's
// own state and meta, and send and read mail.
//
// A call opens its own connection to the daemon with the normal client
// and first narrows it with restrict-connection: scope own (the session
// of the pane the server runs in) unless Options.ScopeAll, read-only
// unless Options.Write. The daemon then holds the connection to that,
// besides its own rules for the process that runs `tuios mcp` (its
// pane's grants: a pane without respond gets not_human from
// tuios_respond; a pane reports state only for itself). A daemon without
// restrict-connection is refused, never used unrestricted. An omitted
// session, window, from or to is the caller's own; Options.ScopeAll is
// for a harness that runs outside TUIOS.
//
// At most Options.MaxInFlight (DefaultMaxInFlight, 64) tools/call run at
// once, each on a daemon connection of its own; one more is answered at
// once with a rate_limited tool error, and so is a call whose connection
// the daemon refused over its caps (its refusal line is read, not taken
// for a broken pipe).
//
// Results are a text content block plus, from protocol 2025-06-18, the
// verb's result as structuredContent. Pane text and mail are data: their
// text is fenced as untrusted content after a note saying so, and their
// structured result carries "untrusted": true.
//
// Not in this version: leaving the agent tools out when agent features
// are off.
package mcp
