package cli

import (
	"time"

	"github.com/tuios/tuios/internal/agentproto"
	"github.com/tuios/tuios/internal/version"
)

// agent-proto: the program of a pane start-agent --protocol opens
// (internal/agentproto). It can also run by hand in any terminal.

func agentProtoCommands() []Command {
	return []Command{{
		Name:    "agent-proto",
		Summary: "run an agent over the Agent Client Protocol or Codex's app-server, as a transcript you type into",
		Usage:   "--protocol acp|codex [--init-timeout MS] -- COMMAND [ARGS…]",
		Help: "The program of a pane that start-agent --protocol opens. It starts COMMAND with pipes for its stdin and stdout (never the terminal), " +
			"speaks the protocol on them, draws the conversation (messages, tool calls with their status, plans) and reports the pane's state itself: " +
			"idle when the agent is ready, working during a turn (with the tool it runs as now), needs_input on a permission request, " +
			"done when the turn ends, errored with the reason when the agent fails, exits, or breaks the protocol. " +
			"Type a prompt and press Enter (a paste stays text; its newlines do not send it). " +
			"A permission request that fits on one line (a command, a read, a fetch) is held in the Inbox, where 1 allows it once and 3 or n denies it; " +
			"respond and reply-approval answer it too. In the pane, 1 allows once and 3 or n denies (the digits act only once the request has been shown for half a second). " +
			"Ctrl+C cancels the running turn and every permission request it waits on; Ctrl+D on an empty line quits. " +
			"The agent is offered no file-system and no terminal capability, and everything it sends is cleaned of escape sequences and control characters before it is drawn.",
		Example: "tuios start-agent --protocol acp 'gemini --acp' --name helper\n" +
			"tuios start-agent --protocol codex 'codex app-server' --prompt 'Run the tests.'\n" +
			"tuios agent-proto --protocol acp -- opencode acp",
		Flags: func(fs *FlagSet) {
			fs.String("protocol", "", "acp (Agent Client Protocol) or codex (Codex's app-server)")
			fs.Int("init-timeout", 60000, "ms the agent has to answer the handshake")
		},
		Run: runAgentProto,
	}}
}

func runAgentProto(ctx *Context) error {
	proto := str(ctx, "protocol")
	if proto != agentproto.ProtocolACP && proto != agentproto.ProtocolCodex {
		return usageError("tuios agent-proto --protocol acp -- gemini --acp", "--protocol is acp or codex")
	}
	if len(ctx.Args) == 0 {
		return usageError("tuios agent-proto --protocol acp -- gemini --acp", "give the agent's command after --")
	}
	ms := flagInt(ctx, "init-timeout")
	if ms < 1 || ms > 3600000 {
		return usageError("tuios agent-proto --protocol acp --init-timeout 30000 -- gemini --acp", "--init-timeout is 1 to 3600000 ms")
	}
	return agentproto.Run(agentproto.Options{Protocol: proto, Argv: ctx.Args, InitTimeout: time.Duration(ms) * time.Millisecond,
		Version: version.Get().Module})
}
