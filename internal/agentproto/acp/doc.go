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
// Why not github.com/coder/acp-go-sdk (v0.13.0, measured against this
// package on the same tiny client program, linux/amd64, go 1.26): it is a
// complete, dependency-free binding of every ACP type, stable and
// unstable (about 15,000 lines, 9,100 of them generated types), and it
// added 1.03 MiB to that program where this package and its jsonrpc
// added 0.43 MiB. What tuios needs is the client half of six methods,
// and the framing bounds it must own: the SDK reads with a
// bufio.Scanner capped at 10 MiB whose overflow ends the connection
// without a reason the caller can show, logs and drops a garbage line
// through slog (the pane must say what happened and count it), and
// starts a goroutine for every inbound request (1,000 permission
// requests at once are 1,000 goroutines before the client sees one).
// Codex's app-server is not ACP, so tuios needs its own JSON-RPC
// framing anyway; both protocols share it here.
package acp
