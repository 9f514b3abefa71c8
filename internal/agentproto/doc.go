// Package agentproto is `tuios agent-proto`, the program of a pane that
// `start-agent --protocol acp|codex` opens: it runs an agent headless over
// the Agent Client Protocol (package acp) or Codex's app-server (package
// codex), draws the conversation as a transcript with a line editor under
// it, and reports the pane's state itself, exactly as the protocol says
// it.
//
// What it owns:
//
//   - The agent's process: started with pipes for stdin and stdout, its
//     stderr kept (the last lines, to say why it died), in a session of
//     its own so it never touches the pane's terminal; ended with its
//     stdin closed, then SIGTERM and SIGKILL to its session.
//   - The screen: the alternate screen, redrawn whole (at most one frame
//     per 16 ms, and only when it changed): a header (the agent, the
//     protocol, the state), the transcript's tail (the person's prompts,
//     the agent's messages and thoughts, tool calls with their status and
//     the last lines they printed, plans), the permission request being
//     asked, a status line, and the editor. Everything the agent sent is
//     cleaned (Clean) before it is drawn: escape sequences go whole,
//     control and format characters go. The transcript is bounded (1,000
//     entries, 64 KiB a message).
//   - The keys: a bracketed paste is text (its newlines stay in the
//     prompt), Enter sends, Ctrl+C cancels the running turn and every
//     permission request it waits on (or clears the line), Ctrl+D on an
//     empty line quits. While a permission request is shown and the line
//     is empty, 1 allows it once and 3 or n denies it; the digits act only
//     once the request has been on screen for 0.5 s.
//   - The state, reported over one daemon connection the way a hook
//     reports (set-agent-state, source report, harness "acp" or
//     "codex-app-server"): idle once the handshake is over, working from
//     the prompt to the turn's end (now: the tool call running), needs_input
//     (kind approval, message "approve <tool>: <what>") while a permission
//     request waits, done when the turn ended (message: the answer's first
//     line), idle when it was cancelled, errored with the reason when the
//     agent fails. Every change of state is reported, in order; reports
//     of the same state coalesce (a message that moves on) and at most 16
//     wait, so a flood costs a bounded backlog.
//   - Held approvals: a request the person can read whole on one line (a
//     command, a read, a fetch or a search whose target needs no cleaning,
//     offering allow-once and reject) is held for the Inbox with
//     request-approval on a connection of its own, once its needs_input
//     reached the daemon; the daemon holds it without config for a
//     protocol pane and offers only once and deny. The Inbox, respond and
//     reply-approval answer it; an answer in the pane ends the hold.
//     Anything else (an edit, a long command) is answered in the pane.
//   - Bounds on a broken agent, each ending in errored with the reason,
//     shown in the pane: a handshake not answered within the init timeout
//     (start-agent passes its ready timeout), a message over 8 MiB, 64
//     lines that are not JSON-RPC, more than 20,000 messages in a second,
//     more than 32 permission requests at once (the turn is cancelled and
//     every one answered cancelled), and the agent's exit (with its last
//     stderr line).
//
// It advertises no file-system and no terminal capability: the agent
// reads, writes and runs on its own, and asks only for permission.
//
// It does not own the protocols' wire formats (acp, codex, jsonrpc), the
// held-approval rules (the daemon's request-approval), or anything the
// daemon decides about the pane.
//
// Decisions the docs leave open, written down here: a protocol pane
// reports harness "acp" or "codex-app-server", ids with no manifest, so
// no screen rule reads a transcript that may quote any prompt; during a
// turn the status line shows the elapsed time, once a second, which also
// keeps the daemon's stall timer (meant for agents read from their
// screen) from demoting a turn that waits on the model; a prompt typed
// while a turn runs stays in the editor until the turn ends; an agent
// that fails its prompt after being asked to cancel counts as cancelled
// (Qwen Code 0.15 answers session/cancel that way).
package agentproto
