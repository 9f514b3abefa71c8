package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// The arrangement verbs. Each prints one line saying what changed (or
// that nothing did), and with --json the daemon's result, which carries
// the state before beside the state after.

func arrangeCommands() []Command {
	return []Command{
		{
			Name: "focus-window", Summary: "focus a window (switching to its workspace), the next one, or the one beside it",
			Usage: "[-s NAME] [-w WINDOW | WINDOW] [--relative next|prev | --direction left|right|up|down] [--json]",
			Help: "Focuses a window and shows its workspace; a minimized window is restored. --relative next|prev cycles through the windows on the focused window's workspace " +
				"(or -w's), skipping minimized ones; it works detached. --direction focuses the window beside the focused one on screen, which only an attached client measures: " +
				"with no client attached it fails with needs_client. Prints what changed, e.g. \"focused build (workspace 2 → 1)\".",
			Example: "tuios focus-window -s work build\ntuios focus-window -s work --relative next\ntuios focus-window -s work --direction left\ntuios focus-window -s work build --json | jq .previous_window_id",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("relative", "", "focus the `next` or `prev` window on the workspace")
				fs.String("direction", "", "focus the window to the `left`, right, up or down (needs a client attached)")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				if err := atMostArgs(ctx, 1, "tuios focus-window -s work build"); err != nil {
					return err
				}
				rel, dir := str(ctx, "relative"), str(ctx, "direction")
				if rel != "" && dir != "" {
					return usageError("give one of them", "--relative and --direction cannot be combined")
				}
				var res proto.WindowFocused
				if printed, err := callResult(ctx, "focus-window", proto.FocusWindowParams{Session: str(ctx, "session"), Window: windowArg(ctx), Relative: rel, Direction: dir}, &res); printed || err != nil {
					return err
				}
				fmt.Fprintln(ctx.Stdout, focusReport(res))
				return nil
			},
		},
		{
			Name: "move-window", Summary: "move a window to another workspace", Usage: "[-s NAME] [-w WINDOW] (--workspace N | N) [--follow] [--json]",
			Help: "Moves a window to workspace N (1 to 9). The session keeps showing the workspace it shows, unless --follow: then it switches to N and the moved window is focused. " +
				"Prints what changed, e.g. \"moved build to workspace 2 (from 1)\".",
			Example: "tuios move-window -s work 2 -w build --follow\ntuios move-window -s work -w build --workspace 3\ntuios move-window -s work -w build 2 --json | jq .previous_workspace",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.Int("workspace", 0, "the workspace, 1 to 9")
				fs.Bool("follow", false, "show that workspace and focus the window")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				ex := "tuios move-window -s work 2 -w build"
				ws, win, args := flagInt(ctx, "workspace"), str(ctx, "window"), ctx.Args
				if ws == 0 {
					if len(args) == 0 {
						return usageError(ex, "name the workspace to move it to, 1 to 9")
					}
					n, err := strconv.Atoi(args[len(args)-1])
					if err != nil {
						return usageError(ex, "workspace %q is not a number", escapeControls(args[len(args)-1]))
					}
					ws, args = n, args[:len(args)-1]
				}
				if len(args) == 1 && win == "" {
					win, args = args[0], nil
				}
				if len(args) > 0 {
					return usageError(ex, "unexpected argument %q", escapeControls(args[0]))
				}
				var res proto.WindowMoved
				if printed, err := callResult(ctx, "move-window", proto.MoveWindowParams{Session: str(ctx, "session"), Window: win, Workspace: ws, Follow: flagBool(ctx, "follow")}, &res); printed || err != nil {
					return err
				}
				fmt.Fprintln(ctx.Stdout, moveReport(res))
				return nil
			},
		},
		{
			Name: "select-workspace", Summary: "switch a session to a workspace", Usage: "[-s NAME] N [--json]",
			Help:    "Shows workspace N (1 to 9) and focuses a window on it. Prints the switch, e.g. \"workspace 1 → 2\".",
			Example: "tuios select-workspace -s work 2\ntuios select-workspace -s work 1 --json | jq .previous_workspace",
			Flags:   func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios select-workspace -s work 2", "name one workspace, 1 to 9")
				}
				n, err := strconv.Atoi(ctx.Args[0])
				if err != nil {
					return usageError("tuios select-workspace -s work 2", "workspace %q is not a number", escapeControls(ctx.Args[0]))
				}
				if n < 1 || n > 9 {
					return usageError("tuios select-workspace -s work 2", "workspace %d is out of range (1 to 9)", n)
				}
				var res proto.WorkspaceSelected
				if printed, err := callResult(ctx, "select-workspace", proto.SelectWorkspaceParams{Session: str(ctx, "session"), Workspace: n}, &res); printed || err != nil {
					return err
				}
				if !res.Changed {
					fmt.Fprintf(ctx.Stdout, "already on workspace %d\n", res.Workspace)
				} else {
					fmt.Fprintf(ctx.Stdout, "workspace %d → %d\n", res.PreviousWorkspace, res.Workspace)
				}
				return nil
			},
		},
		{
			Name: "set-window", Summary: "rename, minimize or restore a window", Usage: "[-s NAME] [-w WINDOW | WINDOW] [--name NAME] [--minimize | --restore] [--json]",
			Help:    "Renames a window (--name \"\" clears the name, so its title shows), minimizes it or restores it. Prints what changed, e.g. \"renamed build to \\\"api tests\\\"\"; --json prints the window afterwards with previous_name, previous_minimized and changed.",
			Example: "tuios set-window -s work -w 0 --name build\ntuios set-window -s work -w build --minimize\ntuios set-window -s work -w build --restore --json | jq .changed",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("name", "", "the new name (\"\" clears it)")
				fs.Bool("minimize", false, "minimize the window")
				fs.Bool("restore", false, "restore a minimized window")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				ex := "tuios set-window -s work -w build --minimize"
				if err := atMostArgs(ctx, 1, ex); err != nil {
					return err
				}
				if flagBool(ctx, "minimize") && flagBool(ctx, "restore") {
					return usageError(ex, "--minimize and --restore cannot be combined")
				}
				if !ctx.Flags.Changed("name") && !flagBool(ctx, "minimize") && !flagBool(ctx, "restore") {
					return usageError(ex, "nothing to set: give --name, --minimize or --restore")
				}
				p := proto.SetWindowParams{Session: str(ctx, "session"), Window: windowArg(ctx)}
				if ctx.Flags.Changed("name") {
					name := str(ctx, "name")
					p.Name = &name // an empty name is a clear
				}
				if flagBool(ctx, "minimize") || flagBool(ctx, "restore") {
					minimize := flagBool(ctx, "minimize")
					p.Minimize = &minimize
				}
				var res proto.WindowSet
				if printed, err := callResult(ctx, "set-window", p, &res); printed || err != nil {
					return err
				}
				fmt.Fprintln(ctx.Stdout, setWindowReport(res, p))
				return nil
			},
		},
		{
			Name: "close-window", Summary: "close a window and end its process", Usage: "[-s NAME] [-w WINDOW | WINDOW] [--json]",
			Help:    "Closes a window and ends its process. Prints \"closed NAME\".",
			Example: "tuios close-window -s work -w build\ntuios close-window -s work build --json | jq .window_id",
			Flags:   func(fs *FlagSet) { targetFlags(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if err := atMostArgs(ctx, 1, "tuios close-window -s work build"); err != nil {
					return err
				}
				var res proto.WindowClosed
				if printed, err := callResult(ctx, "close-window", proto.WindowParams{Session: str(ctx, "session"), Window: windowArg(ctx)}, &res); printed || err != nil {
					return err
				}
				fmt.Fprintf(ctx.Stdout, "closed %s\n", escapeControls(res.Name))
				return nil
			},
		},
		{
			Name: "run-command", Summary: "run a window-manager command by name", Usage: "[-s NAME] [-w WINDOW] COMMAND [WINDOW] [--json] | --list [--json]",
			Help: "Runs one of tuios's own commands, such as ToggleZoom. The tape name (ToggleZoom) and the keymap name (toggle_zoom) are the same command; --list shows both. " +
				"An argument after the command is the window it acts on. A name that is not a command is an error. It prints \"ran COMMAND\" and nothing about what changed: prefer a verb where one exists.",
			Example: "tuios run-command --list\ntuios run-command -s work ToggleZoom\ntuios run-command -s work toggle_zoom\ntuios run-command -s work CloseWindow \"$id\"",
			Flags:   func(fs *FlagSet) { targetFlags(fs); fs.Bool("list", false, "list the commands"); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if flagBool(ctx, "list") {
					if len(ctx.Args) > 0 {
						return usageError("tuios run-command --list", "--list takes no command")
					}
					return listRunCommands(ctx)
				}
				if len(ctx.Args) == 0 || strings.TrimSpace(ctx.Args[0]) == "" {
					return usageError("tuios run-command --list shows them", "name a command")
				}
				if err := atMostArgs(ctx, 2, "tuios run-command -s work CloseWindow build"); err != nil {
					return err
				}
				win := str(ctx, "window")
				if win == "" && len(ctx.Args) > 1 {
					win = ctx.Args[1]
				}
				var res proto.CommandResult
				if printed, err := callResult(ctx, "run-command", proto.RunCommandParams{Session: str(ctx, "session"), Window: win, Command: ctx.Args[0]}, &res); printed || err != nil {
					return err
				}
				fmt.Fprintf(ctx.Stdout, "ran %s\n", escapeControls(res.Command))
				return nil
			},
		},
		{
			Name: "split-window", Summary: "split a window's tile in two, side by side or stacked (needs a client attached)",
			Usage: "[-s NAME] [vertical|horizontal|right|left|down|up] [-w WINDOW] [--percent N] [--name NAME] [--cwd DIR] [--no-focus] [--json] [-- ARGV…]",
			Help: "Splits the target window's tile and opens a new window in one part, as tmux's split-window does, and prints its id. " +
				"vertical (the default; v) puts a vertical line between them: the new window on the right, side by side (tmux's split-window -h, prefix %). " +
				"horizontal (h) stacks them: the new window below (tmux's -v, prefix \"). right, left, down and up name the side the new window takes. " +
				"--percent is its share of the tile (10 to 90, default 50); the other tiles do not move. " +
				"A tile too small to split that way (each part needs 4 columns, or a title row and a pane row) is refused with no_space and nothing opens. " +
				"When a window closes, its cells go to the tile before it (else after it) in the same split. " +
				"The new window starts in the target's directory unless --cwd is given, and runs ARGV after -- instead of the shell. " +
				"It needs a client attached to the session (needs_client) and tiling on (tiling_off: tuios set-layout --tiling true).",
			Example: "tuios split-window -s work vertical -w build --name logs\ntuios split-window -s work horizontal -w build --percent 30 -- tail -f /tmp/build.log\nid=$(tuios split-window -s work -w build --json | jq -r .window_id)",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.Int("percent", 0, "the new window's share of the tile: `N` from 10 to 90 (default 50)")
				fs.String("name", "", "the new window's name")
				fs.String("cwd", "", "its working directory (default: the target's)")
				fs.Bool("no-focus", false, "do not focus the new window")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				ex := "tuios split-window -s work vertical -w build --name logs"
				args, argv := ctx.Args, []string(nil)
				if at := ctx.Flags.ArgsLenAtDash(); at >= 0 {
					args, argv = ctx.Args[:at], ctx.Args[at:]
				}
				dir := ""
				if len(args) > 0 {
					switch args[0] {
					case "vertical", "horizontal", "right", "left", "down", "up":
						dir, args = args[0], args[1:]
					case "v", "h":
						dir, args = map[string]string{"v": "vertical", "h": "horizontal"}[args[0]], args[1:]
					}
				}
				if len(args) > 0 {
					return usageError(ex, "unexpected argument %q: the direction is vertical, horizontal, right, left, down or up, and a program goes after --", escapeControls(args[0]))
				}
				p := proto.SplitWindowParams{Session: str(ctx, "session"), Window: str(ctx, "window"), Direction: dir, Name: str(ctx, "name"), Cwd: str(ctx, "cwd"), NoFocus: flagBool(ctx, "no-focus"), Argv: argv}
				if ctx.Flags.Changed("percent") {
					n, _ := ctx.Flags.GetInt("percent")
					if n < 10 || n > 90 {
						return usageError(ex, "--percent takes 10 to 90, not %d", n)
					}
					p.Percent = n
				}
				var res proto.WindowCreated
				if printed, err := callResult(ctx, "split-window", p, &res); printed || err != nil {
					return err
				}
				fmt.Fprintf(ctx.Stdout, "%s  %s\n", short(res.WindowID), escapeControls(res.Name))
				return nil
			},
		},
		{
			Name: "set-layout", Summary: "turn tiling on or off, or even out the splits (needs a client attached)",
			Usage: "[-s NAME] [--tiling true|false] [--equalize] [--json]",
			Help: "--tiling true tiles the windows on screen (the default): each workspace is a tree of splits, made by split-window where it splits and, for windows opened any other way, automatically (the first fills the area, the second goes beside it, each later one under the last tile, whose column is made even: a master and a stack). " +
				"--tiling false floats them: each keeps the place it has and a new window opens at the top left; the splits are kept for when tiling is back on. " +
				"--equalize makes every tile of each split of the workspace on screen the same size; in a floating session it places the windows once and they stay floating. " +
				"It needs a client attached to the session (needs_client). session-info's tiling row shows the mode. Prints what changed.",
			Example: "tuios set-layout -s work --tiling true --equalize\ntuios set-layout -s work --tiling false\ntuios set-layout -s work --equalize --json | jq .moved_windows",
			Flags: func(fs *FlagSet) {
				sessionFlag(fs)
				fs.String("tiling", "", "`true` tiles the windows, false floats them")
				fs.Bool("equalize", false, "give the windows even tiles again")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				ex := "tuios set-layout -s work --tiling true --equalize"
				if len(ctx.Args) > 0 {
					return usageError(ex, "unexpected argument %q", escapeControls(ctx.Args[0]))
				}
				p := proto.SetLayoutParams{Session: str(ctx, "session")}
				if ctx.Flags.Changed("tiling") {
					on, err := strconv.ParseBool(str(ctx, "tiling"))
					if err != nil {
						return usageError(ex, "--tiling takes true or false, not %q", escapeControls(str(ctx, "tiling")))
					}
					p.Tiling = &on
				}
				p.Equalize = flagBool(ctx, "equalize")
				if p.Tiling == nil && !p.Equalize {
					return usageError(ex, "nothing to set: give --tiling true|false or --equalize")
				}
				var res proto.LayoutSet
				if printed, err := callResult(ctx, "set-layout", p, &res); printed || err != nil {
					return err
				}
				fmt.Fprintln(ctx.Stdout, layoutReport(res))
				return nil
			},
		},
	}
}

// atMostArgs refuses positional arguments beyond n (and a window given
// both by -w and by position): a second window silently ignored would
// look like it had been acted on too.
func atMostArgs(ctx *Context, n int, example string) error {
	if n > 0 && str(ctx, "window") != "" && len(ctx.Args) > 0 {
		n-- // -w took the window's place
	}
	if len(ctx.Args) > n {
		return usageError(example, "unexpected argument %q", escapeControls(ctx.Args[n]))
	}
	return nil
}

func listRunCommands(ctx *Context) error {
	var res proto.CommandList
	if printed, err := callResult(ctx, "run-command", proto.RunCommandParams{List: true}, &res); printed || err != nil {
		return err
	}
	var rows [][]string
	for _, c := range res.Commands {
		rows = append(rows, []string{c.Name, c.KeymapName, c.Description})
	}
	writeTable(ctx.Stdout, []string{"COMMAND", "KEYMAP NAME", "WHAT IT DOES"}, rows)
	fmt.Fprintln(ctx.Stdout, "\nEither name runs the command.")
	return nil
}

// focusReport says what focus-window did. Names are escaped: a window's
// automatic name is what its program calls itself.
func focusReport(res proto.WindowFocused) string {
	name := escapeControls(res.Name)
	if res.Reason != "" {
		from := ""
		if res.FromName != nil {
			from = escapeControls(*res.FromName)
		}
		why := fmt.Sprintf("no window %s of %s", escapeControls(res.Direction), from)
		if res.Reason == "zoomed" {
			why = fmt.Sprintf("the session is zoomed, so nothing is beside %s", from)
		}
		return why + "; the focus stays"
	}
	if !res.Changed {
		return fmt.Sprintf("%s is already focused (workspace %d)", name, res.Workspace)
	}
	ws := fmt.Sprintf("workspace %d", res.Workspace)
	if res.PreviousWorkspace != res.Workspace {
		ws = fmt.Sprintf("workspace %d → %d", res.PreviousWorkspace, res.Workspace)
	}
	out := fmt.Sprintf("focused %s (%s)", name, ws)
	if res.Restored != nil && *res.Restored {
		out += ", restored from minimized"
	}
	return out
}

func moveReport(res proto.WindowMoved) string {
	name := escapeControls(res.Name)
	var out string
	if !res.Changed {
		out = fmt.Sprintf("%s is already on workspace %d", name, res.Workspace)
	} else {
		out = fmt.Sprintf("moved %s to workspace %d (from %d)", name, res.Workspace, res.PreviousWorkspace)
	}
	if res.Followed {
		if prev, now := res.PreviousCurrentWorkspace, res.CurrentWorkspace; prev != now {
			out += fmt.Sprintf("; showing workspace %d → %d, %s focused", prev, now, name)
		} else {
			out += fmt.Sprintf("; %s focused", name)
		}
	}
	return out
}

func setWindowReport(res proto.WindowSet, asked proto.SetWindowParams) string {
	var parts []string
	changed := map[string]bool{}
	for _, c := range res.Changed {
		changed[c] = true
	}
	prev := escapeControls(res.PreviousName)
	now := escapeControls(res.DisplayName)
	if asked.Name != nil {
		switch {
		case !changed["name"]:
			parts = append(parts, fmt.Sprintf("the name was already %q", prev))
		case res.Name == "":
			parts = append(parts, fmt.Sprintf("cleared the name %q (it shows as %q)", prev, now))
		case prev == "":
			parts = append(parts, fmt.Sprintf("named %s %q", short(res.WindowID), now))
		default:
			parts = append(parts, fmt.Sprintf("renamed %q to %q", prev, now))
		}
	}
	if asked.Minimize != nil {
		m := *asked.Minimize
		switch {
		case !changed["minimized"] && m:
			parts = append(parts, now+" was already minimized")
		case !changed["minimized"]:
			parts = append(parts, now+" was not minimized")
		case m:
			parts = append(parts, "minimized "+now)
		default:
			parts = append(parts, "restored "+now)
		}
	}
	return strings.Join(parts, "; ")
}

func layoutReport(res proto.LayoutSet) string {
	var parts []string
	if res.PreviousTiling != res.Tiling {
		parts = append(parts, "tiling "+res.PreviousTiling+" → "+res.Tiling)
	} else {
		parts = append(parts, "tiling already "+res.Tiling)
	}
	if res.Equalized {
		parts = append(parts, fmt.Sprintf("equalized: %d window(s) moved", len(res.MovedWindows)))
	}
	return escapeControls(fmt.Sprintf("session %s: %s", res.Session, strings.Join(parts, "; ")))
}
