package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/mcp"
	"github.com/tuios/tuios/internal/version"
)

func mcpCommands() []Command {
	return []Command{{
		Name: "mcp", Summary: "run the MCP server: TUIOS verbs as tools for an agent's harness",
		Usage: "[--write] [--scope own|all] [--integration N]",
		Help: "Speaks the Model Context Protocol (JSON-RPC 2.0, one message per line, batches allowed) on stdin and stdout, " +
			"for a harness to start as a tool server; `tuios integration install HARNESS --mcp` registers it. Protocol " +
			"versions 2024-11-05 to 2025-11-25 (initialize first) and the stateless 2026-07-28 (server/discover; each request names its version and capabilities in _meta). " +
			"By default the tools list and read panes, wait for states and events, report the agent's own state and meta, and " +
			"send and read mail; they type into no pane. --write adds tuios_send_text, tuios_send_keys, tuios_ask_agent, " +
			"tuios_respond and tuios_fan (the daemon's own rules still apply: a pane without the right to answer prompts gets not_human). " +
			"Each call reaches only the session of the pane the server runs in; --scope all reaches every session, for a " +
			"harness that runs outside TUIOS. Pane text and mail in results are fenced as untrusted data; results also come as structuredContent, described by each tool's outputSchema (2025-06-18 and later). " +
			"tuios_wait_for, tuios_ask_agent and tuios_events send notifications/progress every 5 s to a call that carries a progressToken, so a client that resets its timeout on progress waits them out. " +
			"Lines over 1 MiB are refused.",
		Example: "tuios mcp\ntuios mcp --write\n" +
			`printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}' ` +
			`'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tuios_list_agents","arguments":{}}}' | tuios mcp` + "\n" +
			`echo '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' | tuios mcp`,
		Flags: func(fs *FlagSet) {
			fs.Bool("write", false, "add the tools that type into panes (send_text, send_keys, ask_agent, respond, fan)")
			fs.String("scope", "own", "own: only the session of the pane the server runs in; all: every session")
			fs.Int("integration", 0, "the integration version that registered this server (set by integration install)")
		},
		Run: func(ctx *Context) error {
			scope := str(ctx, "scope")
			if scope != "own" && scope != "all" {
				return usageError("run tuios mcp --help", "--scope is %q: it takes own or all", scope)
			}
			srv := mcp.New(mcp.Options{
				Write:    flagBool(ctx, "write"),
				ScopeAll: scope == "all",
				Version:  version.Get().Module,
				Getenv:   os.Getenv,
			})
			return srv.Serve(context.Background(), ctx.Stdin, ctx.Stdout)
		},
	}}
}

// The MCP flags of integration install and uninstall (integration.go).
func mcpInstallFlags(fs *FlagSet) {
	fs.Bool("mcp", false, "register `tuios mcp` as an MCP server of the harness (claude-code, codex, gemini-cli, opencode) instead of its hooks")
	fs.Bool("mcp-write", false, "as --mcp, with the tools that type into panes (tuios mcp --write)")
}

func mcpUninstallFlag(fs *FlagSet) {
	fs.Bool("mcp", false, "remove the MCP server entry --mcp or --mcp-write wrote (the hooks stay)")
}

func wantsMCP(ctx *Context) bool {
	return flagBool(ctx, "mcp") || flagBool(ctx, "mcp-write")
}

func runMCPInstall(ctx *Context) error {
	for _, f := range []string{"statusline", "then"} {
		if fl := ctx.Flags.Lookup(f); fl != nil && fl.Changed {
			return usageError("run tuios integration install --help", "--%s does not go with --mcp: install the hooks and the MCP server in two commands", f)
		}
	}
	env := integration.OSEnv()
	opt := integration.MCPOptions{Env: env, Program: str(ctx, "command"), Default: integration.DefaultProgram(), Write: flagBool(ctx, "mcp-write")}
	all := flagBool(ctx, "all")
	targets, results, err := installEach(ctx, env, "tuios integration install --all --mcp", integration.SupportsMCP,
		func(h integration.Harness) (integration.Result, error) { return integration.InstallMCP(h, opt) },
		func(h integration.Harness, res integration.Result) {
			printMCPResult(ctx, h, res, "registered tuios mcp", "tuios mcp already registered")
		})
	if err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return writeJSON(ctx.Stdout, map[string]any{"type": "integration_installed", "mcp": true, "results": nonNil(results)})
	}
	if all && len(targets) == 0 {
		fmt.Fprintln(ctx.Stdout, "No harness tuios registers an MCP server for has run on this machine (no config directory).")
	}
	return nil
}

func runMCPUninstall(ctx *Context) error {
	h, err := pickHarness(ctx.Args)
	if err != nil {
		return err
	}
	res, err := integration.UninstallMCP(h, integration.OSEnv())
	if err != nil {
		return integrationError(err)
	}
	if flagBool(ctx, "json") {
		return writeJSON(ctx.Stdout, map[string]any{"type": "integration_uninstalled", "mcp": true, "result": res})
	}
	printMCPResult(ctx, h, res, "removed the tuios mcp entry", "no tuios mcp entry to remove")
	return nil
}

func printMCPResult(ctx *Context, h integration.Harness, res integration.Result, did, nothing string) {
	printResultRuns(ctx, h, res, did, nothing, "it starts")
}
