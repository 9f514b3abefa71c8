// Package acp is a client of the Agent Client Protocol (protocol version
// 1) over an agent's stdio: Gemini CLI (gemini --acp), Qwen Code
// (qwen --acp), opencode (opencode acp), Claude Code through
// claude-code-acp, and any other ACP agent.
//
// What it speaks: initialize (advertising no file-system and no terminal
// capability, so the agent does its own reading, writing and running and
// asks only for permission), authenticate when session/new says
// authentication is required and the agent offers a method that needs no
// person (an API key from the environment), session/new, session/prompt,
// session/cancel, session/update (message, thought and user chunks, tool
// calls and their updates, plans; the rest is ignored) and
// session/request_permission, answered with the agent's own allow_once or
// reject_once option (reject_always, then cancelled, when it offers no
// reject_once). Requests for capabilities it did not advertise (fs/*,
// terminal/*) are answered "method not found". Everything becomes
// conv events.
//
// It does not start the process, bound the framing (package jsonrpc
// does), draw anything or decide what a state is.
//
// Why not github.com/coder/acp-go-sdk (v0.13.0), measured: it covers the
// whole protocol, client and agent sides, stable and unstable methods
// (sessions loaded, listed, forked; modes, models, fs/*, terminal/*,
// elicitation), in about 15,000 lines, 9,100 of them generated types, and
// depends on nothing outside the standard library, as this package does.
// On the same probe program (initialize, session/new, session/prompt,
// session/cancel; go 1.26, linux/amd64) it added 944,803 bytes to the
// binary where this package with its jsonrpc added 550,027 (1.7×). What
// decided it is what tuios must own and the SDK does not let it: the
// framing's bounds and their errors (the SDK's bufio.Scanner caps a line
// at 10 MiB and ends the connection with no reason the caller can show;
// a line that is not JSON-RPC is logged through slog and dropped, where
// the pane must count it and say so), and back pressure (the SDK starts a
// goroutine per inbound request, so 1,000 permission requests at once
// are 1,000 goroutines before the client sees one; here they arrive in
// order on the reading goroutine and the pane refuses past 32). tuios
// needs six client methods, and its own JSON-RPC framing anyway for
// Codex's app-server, which is not ACP: both share package jsonrpc.
package acp
