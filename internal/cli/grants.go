package cli

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// pane-grants and set-pane-grants: what a pane may do through tuios (the
// daemon's verbs_grants.go; README, "What a pane may do", and tuios
// --skill grants).

func grantsCommands() []Command {
	return []Command{
		{
			Name: "pane-grants", Summary: "say what a pane may do through tuios", Usage: "[-s SESSION] [-w WINDOW] [--json]",
			Help: "From inside a pane, with no -w: what this pane may do (its grants: read, write, fan, respond, files, admin), whether they were given to it " +
				"(--grants, set-pane-grants) or are the default of [agents.permissions], and the mode and default. " +
				"Outside every pane it prints the mode and the default; -w names a pane to look at. " +
				"It also says when a config change that gives panes more waits for tuios config apply, and when the daemon started with wider grants than at its last run. " +
				"read reads its own session; write types into its panes and leaves mail there; fan starts agents; respond answers another pane's prompt; " +
				"files copies files near its work; admin is everything else (other sessions, windows, layouts, options) and never includes respond.",
			Example: "tuios pane-grants\ntuios pane-grants --json | jq -r '.grants | join(\",\")'\ntuios pane-grants -w reviewer",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session of -w")
				fs.StringP("window", "w", "", "a pane to look at (default: your own)")
				jsonFlag(fs)
			},
			Run: runPaneGrants,
		},
		{
			Name: "set-pane-grants", Summary: "give a pane its own grants, or take it back to the default", Usage: "-w WINDOW (--grants LIST | --reset) [-s SESSION] [--json]",
			Help: "Gives the pane the grants listed (read, write, fan, respond, files, admin, comma-separated, or none), or with --reset takes it back to the default of [agents.permissions]. " +
				"You give any grants from a terminal outside tuios. From inside a pane: a pane with admin may give another pane what it holds itself, never respond; " +
				"a pane without admin may only narrow its own grants. The grants are saved with the window, so a restored pane keeps them. " +
				"A running program keeps the TUIOS_PANE_GRANTS it started with; tuios pane-grants says what holds now.",
			Example: "tuios set-pane-grants -w reviewer --grants read\ntuios set-pane-grants -w lead --grants admin,respond\ntuios set-pane-grants -w reviewer --reset",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session of -w")
				fs.StringP("window", "w", "", "the pane")
				fs.String("grants", "", "read, write, fan, respond, files, admin (comma-separated), or none")
				fs.Bool("reset", false, "back to the default of [agents.permissions]")
				jsonFlag(fs)
			},
			Run: runSetPaneGrants,
		},
	}
}

func runPaneGrants(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return usageError("tuios pane-grants [-w WINDOW]", "pane-grants takes no arguments")
	}
	var v proto.PaneGrants
	if printed, err := callResult(ctx, "pane-grants", proto.PaneGrantsParams{Session: str(ctx, "session"), Window: str(ctx, "window")}, &v); printed || err != nil {
		return err
	}
	out := ctx.Stdout
	def := grantList(v.DefaultGrants)
	switch {
	case v.Window != "":
		who := "Pane " + short8(v.Window)
		if v.Window == v.Pane {
			who = "This pane (" + short8(v.Window) + ")"
		}
		fmt.Fprintf(out, "%s in session %s may: %s\n", who, escapeControls(v.Session), grantList(v.Grants))
		if v.Explicit {
			fmt.Fprintln(out, "  given to it (--grants or set-pane-grants); tuios set-pane-grants --reset takes it back to the default")
		} else {
			fmt.Fprintf(out, "  the default of [agents.permissions]: mode %s\n", v.Mode)
		}
		if v.Env != "" && v.Env != strings.Join(v.Grants, ",") && !(v.Env == "none" && len(v.Grants) == 0) {
			fmt.Fprintf(out, "  it started with TUIOS_PANE_GRANTS=%s\n", escapeControls(v.Env))
		}
	case v.Pane == "" && len(v.Grants) > 0:
		fmt.Fprintf(out, "This process runs inside tuios in no pane it can name: it may %s, in no session.\n", grantList(v.Grants))
	default:
		fmt.Fprintln(out, "Outside every pane: you give panes their grants (tuios set-pane-grants).")
	}
	fmt.Fprintf(out, "Mode %s: a pane given nothing holds %s.\n", v.Mode, def)
	if r := v.Restricted; r != nil {
		ro := ""
		if r.ReadOnly {
			ro = ", read-only"
		}
		fmt.Fprintf(out, "This connection is restricted: scope %s%s.\n", r.Scope, ro)
	}
	for _, p := range v.Pending {
		fmt.Fprintf(out, "Waits for tuios config apply (run outside tuios): %s\n", escapeControls(p))
	}
	if v.Widened != "" {
		fmt.Fprintf(out, "Note: %s\n", escapeControls(v.Widened))
	}
	return nil
}

func runSetPaneGrants(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return usageError("tuios set-pane-grants -w WINDOW --grants read,write", "set-pane-grants takes no arguments: name the pane with -w")
	}
	w, g, reset := str(ctx, "window"), str(ctx, "grants"), flagBool(ctx, "reset")
	if w == "" {
		return usageError("tuios set-pane-grants -w reviewer --grants read", "name the pane with -w")
	}
	if (g == "") == !reset {
		return usageError("tuios set-pane-grants -w "+w+" --grants read,write   (or --reset)", "give --grants LIST or --reset, one of them")
	}
	var v proto.PaneGrantsSet
	if printed, err := callResult(ctx, "set-pane-grants", proto.SetPaneGrantsParams{Session: str(ctx, "session"), Window: w, Grants: g, Reset: reset}, &v); printed || err != nil {
		return err
	}
	how := "given to it"
	if !v.Explicit {
		how = "the default"
	}
	was := "given"
	if !v.PreviousExplicit {
		was = "the default"
	}
	fmt.Fprintf(ctx.Stdout, "%s in %s now holds %s (%s); it held %s (%s)\n", short8(v.Window), escapeControls(v.Session),
		grantList(v.Grants), how, grantList(v.Previous), was)
	return nil
}

// grantList is a list of grants in words: "read,write", or "nothing".
func grantList(g []string) string {
	if len(g) == 0 {
		return "nothing"
	}
	return strings.Join(g, ",")
}
