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
// at a client. By default the tools only read panes, wait, report the
// caller's own state and meta, and send and read mail; Options.Write adds
// the tools that type into panes (send_text, send_keys, ask_agent,
// respond). The fan tool of the docs is not in this version: there is no
// fan verb for it to run.
//
// A call opens its own connection to the daemon with the normal client,
// so the daemon sees the process that runs `tuios mcp` and applies its
// own rules to it: a pane that may not answer prompts gets not_human from
// tuios_respond, a pane may report state only for itself. With the
// default scope a call reaches only the session of the pane the server
// runs in (an omitted session, window, from or to is the caller's own);
// Options.ScopeAll lifts that, for a harness that runs outside TUIOS.
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
// Not in this version: restrict-connection (the daemon has no such verb
// yet, so the scope and the read-only default are kept by the server, not
// by the daemon), and leaving the agent tools out when agent features
// are off.
package mcp
