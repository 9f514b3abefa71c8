package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

// start-agent: an agent in a new window, the command returning once the
// agent is at its prompt (the daemon's start-agent verb,
// internal/daemon/agents/start.go). The CLI sends its own PATH and
// folder, so the agent is found and runs as it would had the person typed
// its name here.

func startAgentCommands() []Command {
	return []Command{{
		Name: "start-agent", Summary: "start an agent in a new window and return once it is at its prompt",
		Usage: "AGENT [--protocol acp|codex] [--name N] [--prompt P] [-s SESSION|HOST:SESSION] [--cwd DIR | --repo DIR [--clone]] [--workspace N] [--focus] [--ready-timeout MS] [--env NAME[=VALUE]]… [--grants LIST] [--json] [-- ARGS…]",
		Help: "Opens a window in the session -s names (creating the session when it is missing; default: your own pane's, else the most recently active), " +
			"runs AGENT there with the arguments after --, and returns once the agent shows it is at its prompt (its state reads idle or done). " +
			"AGENT is a known agent (claude, codex, gemini, opencode, …) or the path to a program. It is looked up in your PATH and runs with your PATH, " +
			"in --cwd (default: this folder), exec'd directly: no shell reads the arguments. " +
			"With --prompt, the first prompt is typed once the agent is ready, the way ask-agent types. " +
			"If the agent stops on a screen that needs you (a trust dialog, a login), the command ends there: the window stays open for you to answer it, and it exits 1. " +
			"It exits 1 too when the agent is not ready within --ready-timeout, or its window closed. " +
			"A window that has not reached its prompt 30 s after it started, and is not waiting on a known prompt, gets an Inbox question: look at the pane and answer it. " +
			"With --protocol acp or --protocol codex, AGENT is the whole command of an agent that speaks the Agent Client Protocol or Codex's app-server on its stdio " +
			"(quote it: 'gemini --acp', 'qwen --acp', 'opencode acp', 'codex app-server'); the pane then runs tuios agent-proto, which shows the conversation as a transcript you type into " +
			"and reports the agent's state itself, exactly as the protocol says it. Its one-line permission requests are held in the Inbox without any config (allow once or deny). " +
			"In that pane, Ctrl+C cancels the running turn and every permission request it waits on, and Ctrl+D on an empty line quits (see tuios agent-proto --help). " +
			"--grants says what the agent's pane may do through tuios (read, write, fan, respond, files, admin, or none; default: [agents.permissions]). " +
			"From a pane, a start-agent without --grants gives the new pane this pane's own grants when it lacks admin, and never more than it holds; only you give respond. " +
			"--repo runs the agent at the top of the git repository holding that folder (on another host, a folder there). " +
			"With -s HOST:SESSION and --clone, a --repo folder missing on that host is first cloned there from this repository's origin (cloned: true). " +
			"To start one prompt in several agents, each in a worktree of its own, see tuios fan.",
		Example: "tuios start-agent claude --name reviewer\n" +
			"tuios start-agent codex --name tests --prompt 'Run the tests and fix what fails.'\n" +
			"tuios start-agent claude -s review --cwd ~/src/api --json -- --model sonnet\n" +
			"tuios start-agent ./bin/my-agent --ready-timeout 30000\n" +
			"tuios start-agent claude --name reviewer --grants read\n" +
			"tuios start-agent --protocol acp 'gemini --acp' --name helper --prompt 'Summarise the README.'",
		Flags: func(fs *FlagSet) {
			fs.StringP("session", "s", "", "the session, created when missing, or HOST:SESSION on a linked host (default: your own pane's, else the most recently active)")
			hostFlag(fs)
			fs.String("name", "", "the window's name (default: the program's name)")
			fs.String("prompt", "", "a first prompt to type once the agent is ready")
			fs.String("cwd", "", "the folder the agent runs in (default: this one)")
			fs.Int("workspace", 0, "the workspace to open the window on (default: the session's current one)")
			fs.Bool("focus", false, "focus the new window")
			fs.Int("ready-timeout", 120000, "ms to wait for the agent to reach its prompt")
			fs.StringArray("env", nil, "NAME=VALUE for the agent, or NAME to pass your own value (repeatable)")
			fs.String("protocol", "", "acp or codex: run AGENT (its whole command, quoted) headless over that protocol, in a transcript pane")
			fs.String("grants", "", "what the agent's pane may do: read, write, fan, respond, files, admin (comma-separated), or none")
			fs.String("repo", "", "run the agent at the top of this git repository (not with --cwd)")
			fs.Bool("clone", false, "with --repo on another host: clone this repository's origin into that folder first, when it does not exist")
			jsonFlag(fs)
		},
		Run: runStartAgent,
	}}
}

func runStartAgent(ctx *Context) error {
	if len(ctx.Args) == 0 {
		return usageError("tuios start-agent claude --name reviewer", "name the agent to start")
	}
	agent, args := ctx.Args[0], ctx.Args[1:]
	if at := ctx.Flags.ArgsLenAtDash(); len(args) > 0 && (at < 0 || at > 1) {
		return usageError("tuios start-agent claude -- --model sonnet", "unexpected argument %q: give the agent's arguments after --", escapeControls(args[0]))
	}
	if agent == "" {
		return usageError("tuios start-agent claude", "the agent is empty: name an agent or a program")
	}
	session := str(ctx, "session")
	remote := hosts.ParseSession(session).Remote()
	env := envFlag(ctx)
	cwd, path := str(ctx, "cwd"), ""
	if !remote {
		// This machine: the agent runs where and as the person would
		// have run it here. Another host has its own folders and PATH.
		if cwd == "" && str(ctx, "repo") == "" {
			cwd, _ = os.Getwd()
		} else if abs, err := filepath.Abs(cwd); err == nil && cwd != "" {
			cwd = abs
		}
		path = os.Getenv("PATH")
	}
	agentWord := agent
	if strings.ContainsRune(agent, '/') && !remote && !filepath.IsAbs(agent) {
		if abs, err := filepath.Abs(agent); err == nil {
			agentWord = abs
		}
	}
	from, err := cloneFrom(ctx, remote)
	if err != nil {
		return err
	}
	p := proto.StartAgentParams{CloneFrom: from, Agent: agentWord, Args: args, Name: str(ctx, "name"), Prompt: str(ctx, "prompt"), Session: session, Cwd: cwd, Focus: flagBool(ctx, "focus"), Workspace: flagInt(ctx, "workspace"), Env: env, Path: path, Protocol: str(ctx, "protocol"), Grants: str(ctx, "grants"), Repo: repoArg(ctx, remote), Clone: flagBool(ctx, "clone")}
	// Always sent: a far host's wait is bounded by it (remote.go).
	p.ReadyTimeout = flagInt(ctx, "ready-timeout")
	var raw json.RawMessage
	if err := callCtx(ctx, "start-agent", p, &raw); err != nil {
		return err
	}
	var res proto.AgentStarted
	if err := decodeAnswer("start-agent", raw, &res); err != nil {
		return err
	}
	who := escapeControls(res.Name) + " (" + short8(res.WindowID) + ")"
	if flagBool(ctx, "json") {
		if err := printAnswer(ctx.Stdout, raw); err != nil {
			return err
		}
	} else {
		if res.CreatedSession {
			fmt.Fprintf(ctx.Stdout, "created session %s\n", escapeControls(res.Session))
		}
		if res.Ready {
			fmt.Fprintf(ctx.Stdout, "%s is ready: it reads %s.\n", who, res.ReadyBy)
		}
		switch res.PromptStatus {
		case "sent":
			fmt.Fprintln(ctx.Stdout, "The first prompt was typed.")
		case "stalled":
			fmt.Fprintf(ctx.Stdout, "The first prompt was typed, but: %s.\n", escapeControls(res.PromptNote))
		}
	}
	if res.Ready {
		return nil
	}
	hint := "look at it: tuios capture-pane -w " + short8(res.WindowID)
	if res.Outcome == "window_closed" || res.Outcome == "session_closed" || res.Outcome == "shutdown" {
		hint = "run the agent in a window to see what it says: tuios new-window -- " + escapeControls(res.Command)
	}
	return &Error{Code: "not_ready", Message: fmt.Sprintf("%s is not ready (%s): %s", who, res.Outcome, escapeControls(res.Reason)), Hint: hint}
}

// repoArg is --repo as the daemon wants it: absolute here, as given for
// another host.
func repoArg(ctx *Context, remote bool) string {
	r := str(ctx, "repo")
	if r == "" || remote {
		return r
	}
	if abs, err := filepath.Abs(r); err == nil {
		return abs
	}
	return r
}
