// Package mcp is tuios's Model Context Protocol server (`tuios mcp`): an
// agent's harness starts it over stdio and calls TUIOS verbs as tools.
//
// The wire is JSON-RPC 2.0, one message per line (a line holding a JSON
// array is a batch), every line capped at MaxLine (1 MiB): a longer line
// is refused with an error and the server reads on. An unknown method is
// -32601, a line that is not JSON -32700.
//
// # Versions
//
// It speaks the protocol versions 2024-11-05 to 2025-11-25, which open
// with an initialize handshake, and the stateless 2026-07-28, which has
// none (SupportedVersions). The two are served side by side, a request at
// a time:
//
//   - initialize settles a handshake version: the client's when it is one
//     of the four, else 2025-11-25 (never 2026-07-28, which has no
//     handshake). A request without a version of its own is served under
//     it; with no initialize at all, under 2025-11-25. Methods: ping,
//     tools/list, tools/call, resources/list, resources/templates/list and
//     prompts/list (the last three empty), notifications/cancelled.
//   - A request naming a version in _meta
//     (io.modelcontextprotocol/protocolVersion) is served under that
//     version, whatever initialize settled. 2026-07-28 needs the client's
//     capabilities beside it (io.modelcontextprotocol/clientCapabilities;
//     without them, -32602); a version not supported is
//     UnsupportedProtocolVersionError (-32022) with data.supported and
//     data.requested. Its results carry resultType "complete" and the
//     server's name and version in _meta (io.modelcontextprotocol/
//     serverInfo); lists and server/discover carry ttlMs (5 min: the tools
//     do not change while the server runs) and cacheScope "private".
//     server/discover answers the supported versions, capabilities and
//     instructions (without a version in _meta it is -32602).
//     subscriptions/listen is acknowledged honouring no notification type
//     (the tool list never changes, there are no resources or prompts)
//     and stays open until the client cancels it (no answer then) or the
//     input ends (notifications/cancelled for it). ping, initialize and
//     logging/setLevel are not its methods (-32601). Its multi round-trip
//     requests are never needed: no tool asks the client anything.
//
// Calls run side by side, so a long tuios_wait_for holds up no ping or
// cancel; notifications/cancelled closes the cancelled call's daemon
// connection and no answer is sent.
//
// # Tools
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
// for a harness that runs outside TUIOS. The arguments are then decoded
// into the verb's params type (internal/proto), as the daemon decodes
// them, and the daemon is sent that: an argument of the wrong type is the
// daemon's own invalid_params, before the daemon is asked.
//
// At most Options.MaxInFlight (DefaultMaxInFlight, 64) tools/call run at
// once, each on a daemon connection of its own; one more is answered at
// once with a rate_limited tool error, and so is a call whose connection
// the daemon refused over its caps (its refusal line is read, not taken
// for a broken pipe).
//
// Results are a text content block (the verb's result as indented JSON,
// its members sorted) plus, from protocol 2025-06-18, the verb's result
// as structuredContent, relayed as the daemon wrote it (its numbers keep
// every digit), described by the tool's
// outputSchema (its type and the fields a model reads most; a failed call
// is {"error": {code, message, hint}} with isError). Pane text and mail
// are data: their text is fenced as untrusted content after a note
// saying so, and their structured result carries "untrusted": true.
//
// tuios_wait_for, tuios_ask_agent and tuios_events can wait longer than a
// client's request timeout. A call of one of them with a
// _meta.progressToken gets notifications/progress at once and then every
// Options.ProgressEvery (5 s): the milliseconds waited (growing with
// each), the most the call can wait as total, and a line saying so. None
// follows the call's answer or its cancel.
//
// Not in this version: leaving the agent tools out when agent features
// are off; the Streamable HTTP transport (stdio only).
package mcp
