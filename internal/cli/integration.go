package cli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/proto"
)

func integrationCommands() []Command {
	return []Command{
		{Name: "integration", Summary: "wire agents' hooks to tuios: install, uninstall, status"},
		{
			Name: "integration install", Summary: "add tuios's hook entries to a harness's own settings",
			Usage: "HARNESS|--all [--command PATH] [--statusline [--then CMD]] [--mcp|--mcp-write] [--json]",
			Help: "Adds entries that run `tuios agent-hook HARNESS` to the harness's own settings file and keeps everything " +
				"else in it. The first original is kept as <file>.tuios.bak. A file tuios cannot parse is refused, as is a " +
				"harness whose config directory does not exist (run it once first). Installing again changes nothing; " +
				"installing over an older integration updates it and keeps the program its hooks run. --all installs every " +
				"harness with an integration whose config directory exists. --statusline (Claude Code) also feeds the model, context use and cost " +
				"from Claude Code's status line as agent metadata; it never replaces a status line of your own: it chains to it " +
				"(or to --then CMD), and uninstall gives it back. --then naming another command than the status line already there " +
				"is refused (status_line_taken) and nothing is written, since that would drop yours. " +
				"--mcp instead registers `tuios mcp` as an MCP server (Claude Code ~/.claude.json mcpServers, Codex " +
				"[mcp_servers.tuios] between marker comments in config.toml, Gemini CLI settings.json mcpServers, opencode " +
				"opencode.json mcp); --mcp-write registers `tuios mcp --write`, whose tools type into panes. " +
				"`integration uninstall HARNESS --mcp` removes exactly that entry.",
			Example: "tuios integration install claude-code\ntuios integration install --all\ntuios integration install codex --command /usr/local/bin/tuios\ntuios integration install claude-code --statusline --then '~/bin/my-status'\ntuios integration install claude-code --mcp",
			Flags: func(fs *FlagSet) {
				fs.Bool("all", false, "every harness whose config directory exists")
				fs.String("command", "", "the tuios program the hooks run (default: this one)")
				fs.Bool("statusline", false, "also feed Claude Code's status line (model, context, cost)")
				fs.String("then", "", "with --statusline: the status line command to chain to")
				mcpInstallFlags(fs) // mcp.go
				jsonFlag(fs)
			},
			Run: runIntegrationInstall,
		},
		{
			Name: "integration uninstall", Summary: "remove exactly the entries tuios wrote", Usage: "HARNESS [--mcp] [--json]",
			Help:    "Removes the hook entries (or the plugin file) tuios wrote for the harness. Your own entries stay. With --mcp it removes only the `tuios mcp` server entry that install --mcp or --mcp-write wrote.",
			Example: "tuios integration uninstall claude-code\ntuios integration uninstall claude-code --mcp",
			Flags:   func(fs *FlagSet) { mcpUninstallFlag(fs); jsonFlag(fs) },
			Run:     runIntegrationUninstall,
		},
		{
			Name: "integration status", Summary: "each harness: installed, out of date, not installed, no integration, cannot read",
			Usage:   "[HARNESS] [--json]",
			Help:    "Reads each harness's settings and says how its integration stands, with the line a person needs under it.",
			Example: "tuios integration status\ntuios integration status claude-code --json",
			Flags:   func(fs *FlagSet) { jsonFlag(fs) },
			Run:     runIntegrationStatus,
		},
		{Name: "doctor", Summary: "check what tuios depends on"},
		{
			Name: "doctor agents", Summary: "PATH, integrations, agent panes missing one, double reporting, user manifests",
			Usage:   "[--json]",
			Help:    "Says, per harness, whether it is on PATH and how its integration stands; which agent panes run a harness whose integration is missing or out of date; hooks that report twice; and the user manifests loaded, replacing a bundled one, or failing.",
			Example: "tuios doctor agents",
			Flags:   func(fs *FlagSet) { jsonFlag(fs) },
			Run:     runDoctorAgents,
		},
	}
}

func pickHarness(args []string) (integration.Harness, error) {
	if len(args) != 1 {
		return integration.Harness{}, usageError("tuios integration status lists them", "name one harness, e.g. claude-code")
	}
	h, ok := integration.Lookup(args[0])
	if !ok {
		var ids []string
		for _, h := range integration.Harnesses() {
			ids = append(ids, h.ID)
		}
		return h, &Error{Code: "unknown_harness", Message: fmt.Sprintf("no harness is named %q", args[0]), Hint: "harnesses: " + strings.Join(ids, ", ")}
	}
	return h, nil
}

func integrationError(err error) error {
	var ie *integration.Error
	if e, ok := err.(*integration.Error); ok {
		ie = e
	}
	if ie == nil {
		return err
	}
	return &Error{Code: string(ie.Code()), Message: ie.Error(), Hint: ie.Hint()}
}

func runIntegrationInstall(ctx *Context) error {
	if wantsMCP(ctx) {
		return runMCPInstall(ctx) // mcp.go
	}
	all, _ := ctx.Flags.GetBool("all")
	asJSON, _ := ctx.Flags.GetBool("json")
	env := integration.OSEnv()
	statusLine, _ := ctx.Flags.GetBool("statusline")
	if str(ctx, "then") != "" && !statusLine {
		return usageError("tuios integration install claude-code --statusline --then CMD", "--then goes with --statusline")
	}
	opt := integration.Options{Env: env, Program: str(ctx, "command"), Default: integration.DefaultProgram(), StatusLine: statusLine, Then: str(ctx, "then")}
	targets, results, err := installEach(ctx, env, "tuios integration install --all",
		func(h integration.Harness) bool { return h.Reports != integration.ReportsNothing },
		func(h integration.Harness) (integration.Result, error) { return integration.Install(h, opt) },
		func(h integration.Harness, res integration.Result) {
			printResult(ctx, h, res, "installed", "already installed and current")
		})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(ctx.Stdout, map[string]any{"type": "integration_installed", "results": nonNil(results)})
	}
	if all && len(targets) == 0 {
		fmt.Fprintln(ctx.Stdout, "No harness with an integration has run on this machine (no config directory).")
	}
	return nil
}

// installEach installs on the harness named, or with --all on every one
// that fits and has run on this machine (its config directory exists),
// printing each result unless --json; with --all a harness that fails is
// said on stderr and the rest go on.
func installEach(ctx *Context, env integration.Env, allUsage string, fits func(integration.Harness) bool,
	install func(integration.Harness) (integration.Result, error), print func(integration.Harness, integration.Result)) ([]integration.Harness, []integration.Result, error) {
	all := flagBool(ctx, "all")
	var targets []integration.Harness
	if all {
		if len(ctx.Args) > 0 {
			return nil, nil, usageError(allUsage, "name a harness or --all, not both")
		}
		for _, h := range integration.Harnesses() {
			if fits(h) && integration.StatusOf(h, env).ConfigDir {
				targets = append(targets, h)
			}
		}
	} else {
		h, err := pickHarness(ctx.Args)
		if err != nil {
			return nil, nil, err
		}
		targets = append(targets, h)
	}
	var results []integration.Result
	for _, h := range targets {
		res, err := install(h)
		if err != nil {
			if !all {
				return nil, nil, integrationError(err)
			}
			fmt.Fprintf(ctx.Stderr, "%s: %v\n", h.ID, err)
			continue
		}
		results = append(results, res)
		if !flagBool(ctx, "json") {
			print(h, res)
		}
	}
	return targets, results, nil
}

func printResult(ctx *Context, h integration.Harness, res integration.Result, did, nothing string) {
	printResultRuns(ctx, h, res, did, nothing, "its hooks run")
}

// printResultRuns prints what an install or uninstall did; runs says what
// the entry it wrote starts.
func printResultRuns(ctx *Context, h integration.Harness, res integration.Result, did, nothing, runs string) {
	if !res.Changed {
		fmt.Fprintf(ctx.Stdout, "%s: %s (%s)\n", h.Name, nothing, strings.Join(res.Files, ", "))
		return
	}
	fmt.Fprintf(ctx.Stdout, "%s: %s in %s\n", h.Name, did, strings.Join(res.Files, ", "))
	if res.Backup != "" {
		fmt.Fprintf(ctx.Stdout, "  the original is kept as %s\n", res.Backup)
	}
	if res.Program != "" {
		fmt.Fprintf(ctx.Stdout, "  %s %s\n", runs, res.Program)
	}
	if res.Note != "" {
		fmt.Fprintf(ctx.Stdout, "  %s\n", res.Note)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func runIntegrationUninstall(ctx *Context) error {
	if wantsMCP(ctx) {
		return runMCPUninstall(ctx) // mcp.go
	}
	h, err := pickHarness(ctx.Args)
	if err != nil {
		return err
	}
	res, err := integration.Uninstall(h, integration.OSEnv())
	if err != nil {
		return integrationError(err)
	}
	if asJSON, _ := ctx.Flags.GetBool("json"); asJSON {
		return writeJSON(ctx.Stdout, map[string]any{"type": "integration_uninstalled", "result": res})
	}
	printResult(ctx, h, res, "removed what tuios wrote", "nothing of tuios's to remove")
	return nil
}

func statuses(args []string) ([]integration.Status, error) {
	env := integration.OSEnv()
	var out []integration.Status
	if len(args) > 0 {
		h, err := pickHarness(args)
		if err != nil {
			return nil, err
		}
		return append(out, integration.StatusOf(h, env)), nil
	}
	for _, h := range integration.Harnesses() {
		out = append(out, integration.StatusOf(h, env))
	}
	return out, nil
}

func runIntegrationStatus(ctx *Context) error {
	sts, err := statuses(ctx.Args)
	if err != nil {
		return err
	}
	if asJSON, _ := ctx.Flags.GetBool("json"); asJSON {
		return writeJSON(ctx.Stdout, map[string]any{"type": "integration_status", "harnesses": sts})
	}
	printStatuses(ctx, sts)
	return nil
}

func printStatuses(ctx *Context, sts []integration.Status) {
	rows := [][]string{{"HARNESS", "STATE", "REPORTS", "ON PATH"}}
	for _, s := range sts {
		rows = append(rows, []string{s.Harness, s.State, orDash(string(s.Reports)), yesNo(s.OnPath != "")})
	}
	w := colWidths(rows)
	for i, r := range rows {
		fmt.Fprintf(ctx.Stdout, "%-*s  %-*s  %-*s  %s\n", w[0], r[0], w[1], r[1], w[2], r[2], r[3])
		if i > 0 && sts[i-1].Detail != "" {
			fmt.Fprintf(ctx.Stdout, "%*s  %s\n", w[0], "", sts[i-1].Detail)
		}
	}
}

func colWidths(rows [][]string) []int {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	return w
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// doctorPane is an agent pane whose harness has no current integration.
type doctorPane struct {
	Session  string `json:"session"`
	WindowID string `json:"window_id"`
	Name     string `json:"name"`
	Harness  string `json:"harness"`
	State    string `json:"integration"`
}

type doctorManifest struct {
	Source   string `json:"source"`
	ID       string `json:"id,omitempty"`
	Replaces bool   `json:"replaces_bundled,omitempty"`
	Error    string `json:"error,omitempty"`
}

func runDoctorAgents(ctx *Context) error {
	sts, _ := statuses(nil)
	byID := map[string]integration.Status{}
	for _, s := range sts {
		byID[s.Harness] = s
	}
	out := map[string]any{"type": "doctor_agents", "harnesses": sts}

	self, _ := exec.LookPath("tuios")
	out["tuios_on_path"] = self

	// Agent panes running a harness whose integration is not current.
	panes, daemonNote := []doctorPane{}, ""
	if c, err := client.Dial(client.Options{}); err != nil {
		daemonNote = "no daemon is running: panes not checked"
	} else {
		var list proto.AgentList
		if err := c.Call("list-agents", proto.ListAgentsParams{AllSessions: true}, &list); err != nil {
			daemonNote = "the daemon did not list agents: " + err.Error()
		}
		c.Close()
		for _, a := range list.Agents {
			st, ok := byID[a.HarnessID]
			if !ok || st.State == integration.StateInstalled || st.State == integration.StateNoIntegration {
				continue
			}
			panes = append(panes, doctorPane{Session: a.Session, WindowID: a.WindowID, Name: a.Name, Harness: a.HarnessID, State: st.State})
		}
	}
	out["panes_missing_integration"] = panes
	if daemonNote != "" {
		out["panes_note"] = daemonNote
	}

	double := integration.DoubleReporting(integration.OSEnv())
	out["double_reporting"] = nonNil(double)

	var mans []doctorManifest
	reg, errs := detect.Load(detect.LoadOptions{})
	for _, m := range reg.Manifests() {
		if m.Source != "bundled" {
			mans = append(mans, doctorManifest{Source: m.Source, ID: m.ID, Replaces: m.ReplacesBundled})
		}
	}
	for _, e := range errs {
		mans = append(mans, doctorManifest{Source: e.Source, Error: e.Error()})
	}
	out["user_manifests"] = nonNil(mans)
	out["user_manifest_dir"] = detect.UserDir(detect.LoadOptions{})

	if asJSON, _ := ctx.Flags.GetBool("json"); asJSON {
		return writeJSON(ctx.Stdout, out)
	}
	w := ctx.Stdout
	if self == "" {
		fmt.Fprintln(w, "tuios is not on PATH: hooks installed with this binary run it by its full path.")
	} else {
		fmt.Fprintf(w, "tuios on PATH: %s\n", self)
	}
	fmt.Fprintln(w)
	printStatuses(ctx, sts)
	fmt.Fprintln(w)
	switch {
	case daemonNote != "":
		fmt.Fprintln(w, "Agent panes: "+daemonNote+".")
	case len(panes) == 0:
		fmt.Fprintln(w, "Agent panes: every agent pane's harness has a current integration, or none can have one.")
	default:
		fmt.Fprintln(w, "Agent panes whose harness's integration is missing or out of date:")
		for _, p := range panes {
			fmt.Fprintf(w, "  %s:%s (%s) runs %s: %s; tuios integration install %s\n", p.Session, p.Name, p.WindowID[:min(8, len(p.WindowID))], p.Harness, p.State, p.Harness)
		}
	}
	if len(double) == 0 {
		fmt.Fprintln(w, "Double reporting: none.")
	} else {
		for _, d := range double {
			fmt.Fprintf(w, "Double reporting: %s\n", d)
		}
	}
	dir := detect.UserDir(detect.LoadOptions{})
	if len(mans) == 0 {
		fmt.Fprintf(w, "User manifests: none (in %s).\n", dir)
	}
	for _, m := range mans {
		switch {
		case m.Error != "":
			fmt.Fprintf(w, "User manifest failing: %s\n", m.Error)
		case m.Replaces:
			fmt.Fprintf(w, "User manifest %s replaces the bundled %s.\n", m.Source, m.ID)
		default:
			fmt.Fprintf(w, "User manifest %s adds %s.\n", m.Source, m.ID)
		}
	}
	return nil
}
