package cli

import (
	"fmt"
	"io"
	"sort"

	"strconv"
	"strings"
)

type windowInfo struct {
	WindowID     string `json:"window_id"`
	Index        int    `json:"index"`
	DisplayName  string `json:"display_name"`
	Workspace    int    `json:"workspace"`
	Focused      bool   `json:"focused"`
	Minimized    bool   `json:"minimized"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	AgentState   string `json:"agent_state"`
	AgentHarness string `json:"agent_harness"`
	Exited       bool   `json:"exited"`
}

func windowCommands() []Command {
	return []Command{
		{
			Name: "new", Summary: "create a session (it runs detached)", Usage: "[--detach] [NAME] [--cwd DIR]",
			Help:    "Creates a session with one window running your shell. The session runs in the daemon whether or not anyone is attached. On a terminal it then attaches to the new session, unless --detach (or --json) is given; elsewhere (a script, a pipe) it prints the name and returns.",
			Example: "tuios new --detach scratch\ntuios new work --cwd ~/src/api --json",
			Flags: func(fs *FlagSet) {
				fs.BoolP("detach", "d", false, "do not attach")
				fs.String("cwd", "", "the first window's working directory")
				fs.StringP("window-name", "n", "", "the first window's name")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				name := ""
				if len(ctx.Args) > 0 {
					name = ctx.Args[0]
				}
				var res map[string]any
				if err := call("new-session", params("name", name, "cwd", str(ctx, "cwd"), "window_name", str(ctx, "window-name")), &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				if !flagBool(ctx, "detach") && isTerminal(ctx.Stdin, ctx.Stdout) {
					name, _ := res["session"].(string)
					return attach(ctx, name, false)
				}
				fmt.Fprintf(ctx.Stdout, "%s\n", res["session"])
				return nil
			},
		},
		{
			Name: "ls", Summary: "list sessions", Usage: "[--json]", Example: "tuios ls\ntuios ls --json | jq -r '.sessions[].name'",
			Flags: jsonFlag,
			Run: func(ctx *Context) error {
				var res struct {
					Sessions []struct {
						Name      string `json:"name"`
						Windows   int    `json:"windows"`
						Workspace int    `json:"current_workspace"`
						Agents    int    `json:"agents"`
						Loudest   string `json:"loudest_state"`
						Created   string `json:"created"`
						Attached  bool   `json:"attached"`
					} `json:"sessions"`
				}
				var raw map[string]any
				if err := call("list-sessions", nil, &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				remarshal(raw, &res)
				if len(res.Sessions) == 0 {
					fmt.Fprintln(ctx.Stdout, "No sessions. Create one with: tuios new --detach NAME")
					return nil
				}
				var rows [][]string
				for _, s := range res.Sessions {
					name := s.Name
					if s.Attached {
						name += " (attached)" // as tmux ls says it
					}
					rows = append(rows, []string{name, strconv.Itoa(s.Windows), strconv.Itoa(s.Workspace), strconv.Itoa(s.Agents), s.Loudest, s.Created})
				}
				writeTable(ctx.Stdout, []string{"SESSION", "WINDOWS", "WS", "AGENTS", "LOUDEST", "CREATED"}, rows)
				return nil
			},
		},
		{
			Name: "kill-session", Summary: "kill a session and its windows", Usage: "-s NAME | NAME", Example: "tuios kill-session scratch",
			Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", "the session to kill") },
			Run: func(ctx *Context) error {
				name := str(ctx, "session")
				if name == "" && len(ctx.Args) > 0 {
					name = ctx.Args[0]
				}
				if name == "" {
					return usageError("tuios kill-session NAME", "name the session to kill")
				}
				return call("kill-session", params("session", name), nil)
			},
		},
		{
			Name: "session-info", Summary: "describe a session", Usage: "[-s NAME] [--json]", Example: "tuios session-info -s work --json | jq -r .current_workspace",
			Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", "the session"); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var res map[string]any
				if err := call("session-info", params("session", str(ctx, "session")), &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				fmt.Fprintf(ctx.Stdout, "session        %v\ndisplay name   %v\nwindows        %v\nworkspace      %v of %v\ntiling         %v\nsize           %vx%v\nattached       %v\n",
					res["session"], res["session"], res["windows"], res["current_workspace"], res["workspaces"], res["tiling"], res["width"], res["height"], res["attached"])
				if named, ok := res["workspace_names"].(map[string]any); ok && len(named) > 0 {
					var parts []string
					for k, v := range named {
						parts = append(parts, fmt.Sprintf("%s=%v", k, v))
					}
					sort.Strings(parts)
					fmt.Fprintf(ctx.Stdout, "named          %s\n", escapeControls(strings.Join(parts, " ")))
				}
				return nil
			},
		},
		{
			Name: "new-window", Summary: "open a window running your shell or a program", Usage: "[NAME] [--workspace N] [--cwd DIR] [--no-focus] [--json] [-- ARGV…]",
			Help:    "Opens a window in a session. Words after the name are the program to run instead of the shell (nothing re-parses them); the window closes when that program exits.",
			Example: "tuios new-window -s work build --cwd /src/api --no-focus\ntuios new-window -s work htop /usr/bin/htop\nid=$(tuios new-window -s work --json | jq -r .window_id)",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session")
				fs.Int("workspace", 0, "the workspace (1 to 9; default: the current one)")
				fs.String("cwd", "", "the working directory")
				fs.Bool("no-focus", false, "do not take the focus")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				name, argv := "", []string(nil)
				if len(ctx.Args) > 0 {
					name, argv = ctx.Args[0], ctx.Args[1:]
				}
				var res map[string]any
				if err := call("new-window", params("session", str(ctx, "session"), "name", name, "workspace", flagInt(ctx, "workspace"),
					"cwd", str(ctx, "cwd"), "no_focus", flagBool(ctx, "no-focus"), "argv", argv), &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				id, _ := res["window_id"].(string)
				fmt.Fprintf(ctx.Stdout, "%s  %s\n", short(id), escapeControls(fmt.Sprint(res["name"])))
				return nil
			},
		},
		{
			Name: "list-windows", Summary: "list a session's windows", Usage: "[-s NAME] [--json]", Example: "tuios list-windows -s work\ntuios list-windows -s work --json | jq -r '.windows[] | \"\\(.window_id) \\(.display_name)\"'",
			Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", "the session"); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var raw map[string]any
				if err := call("list-windows", params("session", str(ctx, "session")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res struct {
					Windows []windowInfo `json:"windows"`
				}
				remarshal(raw, &res)
				writeWindows(ctx.Stdout, res.Windows)
				return nil
			},
		},
		{
			Name: "get-window", Summary: "describe one window", Usage: "[-s NAME] [-w WINDOW | WINDOW] [--json]", Example: "tuios get-window -s work build --json | jq -r .agent_state",
			Flags: func(fs *FlagSet) { targetFlags(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var raw map[string]any
				if err := call("get-window", params("session", str(ctx, "session"), "window", windowArg(ctx)), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var w windowInfo
				remarshal(raw, &w)
				writeWindows(ctx.Stdout, []windowInfo{w})
				return nil
			},
		},
		{
			Name: "list-workspaces", Summary: "list a session's workspaces", Usage: "[-s NAME] [--json]", Example: "tuios list-workspaces -s work",
			Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", "the session"); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var raw map[string]any
				if err := call("list-workspaces", params("session", str(ctx, "session")), &raw); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, raw)
				}
				var res struct {
					Workspaces []struct {
						Workspace int    `json:"workspace"`
						Name      string `json:"name"`
						Windows   int    `json:"windows"`
						Current   bool   `json:"current"`
					} `json:"workspaces"`
				}
				remarshal(raw, &res)
				var rows [][]string
				for _, w := range res.Workspaces {
					mark := ""
					if w.Current {
						mark = "*"
					}
					rows = append(rows, []string{mark + strconv.Itoa(w.Workspace), w.Name, strconv.Itoa(w.Windows)})
				}
				writeTable(ctx.Stdout, []string{"WS", "NAME", "WINDOWS"}, rows)
				return nil
			},
		},
		simpleWindowVerb("focus-window", "focus a window (switching to its workspace)", "tuios focus-window -s work build", nil),
		{
			Name: "move-window", Summary: "move a window to another workspace", Usage: "[-s NAME] [-w WINDOW] --workspace N", Example: "tuios move-window -s work -w build --workspace 2",
			Flags: func(fs *FlagSet) { targetFlags(fs); fs.Int("workspace", 0, "the workspace, 1 to 9") },
			Run: func(ctx *Context) error {
				ws := flagInt(ctx, "workspace")
				if ws == 0 && len(ctx.Args) > 0 {
					ws, _ = strconv.Atoi(ctx.Args[len(ctx.Args)-1])
				}
				return call("move-window", params("session", str(ctx, "session"), "window", str(ctx, "window"), "workspace", ws), nil)
			},
		},
		{
			Name: "select-workspace", Summary: "switch a session to a workspace", Usage: "[-s NAME] N", Example: "tuios select-workspace -s work 2",
			Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", "the session") },
			Run: func(ctx *Context) error {
				if len(ctx.Args) != 1 {
					return usageError("tuios select-workspace -s work 2", "name one workspace, 1 to 9")
				}
				n, err := strconv.Atoi(ctx.Args[0])
				if err != nil {
					return usageError("tuios select-workspace -s work 2", "workspace %q is not a number", ctx.Args[0])
				}
				return call("select-workspace", params("session", str(ctx, "session"), "workspace", n), nil)
			},
		},
		{
			Name: "set-window", Summary: "rename, minimize or restore a window", Usage: "[-s NAME] [-w WINDOW] [--name NAME] [--minimize|--restore]",
			Example: "tuios set-window -s work -w 0 --name build\ntuios set-window -w build --minimize",
			Flags: func(fs *FlagSet) {
				targetFlags(fs)
				fs.String("name", "", "the new name (\"\" clears it)")
				fs.Bool("minimize", false, "minimize the window")
				fs.Bool("restore", false, "restore a minimized window")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				p := params("session", str(ctx, "session"), "window", windowArg(ctx))
				if ctx.Flags.Changed("name") {
					p["name"] = str(ctx, "name")
				}
				if flagBool(ctx, "minimize") {
					p["minimize"] = true
				} else if flagBool(ctx, "restore") {
					p["minimize"] = false
				}
				var res map[string]any
				if err := call("set-window", p, &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				return nil
			},
		},
		simpleWindowVerb("close-window", "close a window and end its process", "tuios close-window -s work -w build", nil),
		{
			Name: "run-command", Summary: "run a window-manager command by name", Usage: "[-s NAME] [-w WINDOW] NAME [WINDOW] | --list",
			Help:    "Runs one of tuios's own commands, such as CloseWindow. An argument after the name is the window it acts on.",
			Example: "tuios run-command --list\ntuios run-command -s work CloseWindow \"$id\"",
			Flags:   func(fs *FlagSet) { targetFlags(fs); fs.Bool("list", false, "list the commands"); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				if flagBool(ctx, "list") || len(ctx.Args) == 0 {
					var res struct {
						Commands []struct{ Name, Description string } `json:"commands"`
					}
					var raw map[string]any
					if err := call("run-command", params("list", true), &raw); err != nil {
						return err
					}
					if flagBool(ctx, "json") {
						return printJSON(ctx.Stdout, raw)
					}
					remarshal(raw, &res)
					for _, c := range res.Commands {
						fmt.Fprintf(ctx.Stdout, "%-16s %s\n", c.Name, c.Description)
					}
					return nil
				}
				win := str(ctx, "window")
				if win == "" && len(ctx.Args) > 1 {
					win = ctx.Args[1]
				}
				return call("run-command", params("session", str(ctx, "session"), "window", win, "command", ctx.Args[0]), nil)
			},
		},
	}
}

func simpleWindowVerb(name, summary, example string, extra map[string]any) Command {
	return Command{
		Name: name, Summary: summary, Usage: "[-s NAME] [-w WINDOW | WINDOW]", Example: example,
		Flags: targetFlags,
		Run: func(ctx *Context) error {
			return call(name, params("session", str(ctx, "session"), "window", windowArg(ctx)), nil)
		},
	}
}

func writeWindows(w io.Writer, wins []windowInfo) {
	var rows [][]string
	focused := false
	for _, x := range wins {
		idx := strconv.Itoa(x.Index)
		if x.Focused {
			idx, focused = "*"+idx, true
		}
		state := x.AgentState
		if x.Exited {
			state += " (exited)"
		}
		rows = append(rows, []string{idx, short(x.WindowID), x.DisplayName, strconv.Itoa(x.Workspace), fmt.Sprintf("%dx%d", x.Width, x.Height), state})
	}
	writeTable(w, []string{"IDX", "ID", "NAME", "WS", "SIZE", "AGENT"}, rows)
	fmt.Fprintf(w, "\n%d window(s).", len(wins))
	if focused {
		fmt.Fprint(w, " * marks the focused one.")
	}
	fmt.Fprintln(w)
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// readArgOrStdin is the text argument, or standard input for "-".
func readArgOrStdin(ctx *Context, what string) (string, error) {
	if len(ctx.Args) == 0 {
		return "", usageError(fmt.Sprintf("tuios %s -w build 'text'", what), "give the text to send, or - to read it from standard input")
	}
	if len(ctx.Args) == 1 && ctx.Args[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(ctx.Stdin, 8<<20))
		return string(b), err
	}
	return strings.Join(ctx.Args, " "), nil
}
