package cli

import "fmt"

// resumeCommands resume an agent conversation a daemon restart ended.
func resumeCommands() []Command {
	return []Command{{
		Name: "resume-agent", Summary: "type the command that resumes the pane's agent conversation, such as claude --resume ID",
		Usage: "[-s NAME] -w WINDOW [--dry-run] [--json]",
		Help: "Types the harness's resume command ([resume] in the harness manifest) with the conversation id its hook reported (or, for Claude Code with no hooks, its session file names) at the pane's shell " +
			"prompt, then Enter, and closes the pane's Resume item in the Inbox. It types nothing while a program runs in the pane (not_ready), and " +
			"refuses an id that is not 1-256 bytes of letters, digits and _ . / : - or that starts with - (not_resumable). --dry-run prints the command only. " +
			"After a daemon restart, [daemon] resume_agents = ask (default) offers this in the Inbox, auto types it, off does neither.",
		Example: "tuios resume-agent -w api --dry-run\ntuios resume-agent -w api",
		Flags: func(fs *FlagSet) {
			targetFlags(fs)
			fs.Bool("dry-run", false, "print the command; type nothing")
			jsonFlag(fs)
		},
		Run: func(ctx *Context) error {
			if str(ctx, "window") == "" {
				return usageError("tuios resume-agent -w api --dry-run", "name the pane with -w")
			}
			var raw map[string]any
			if err := callCtx(ctx, "resume-agent", params("session", str(ctx, "session"), "window", str(ctx, "window"), "dry_run", flagBool(ctx, "dry-run")), &raw); err != nil {
				return err
			}
			if flagBool(ctx, "json") {
				return printJSON(ctx.Stdout, raw)
			}
			var res struct {
				Command string `json:"command"`
				Typed   bool   `json:"typed"`
			}
			remarshal(raw, &res)
			if res.Typed {
				fmt.Fprintf(ctx.Stdout, "Typed: %s\n", escapeControls(res.Command))
			} else {
				fmt.Fprintln(ctx.Stdout, escapeControls(res.Command))
			}
			return nil
		},
	}}
}
