package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/proto"
)

func windowCommands() []Command {
	return []Command{
		{
			Name: "new", Summary: "create a session (it runs detached)", Usage: "[--detach] [NAME] [--cwd DIR] [-x COLS -y ROWS] [--host NAME]",
			Help: "Creates a session with one window running your shell. The session runs in the daemon whether or not anyone is attached. On a terminal it then attaches to the new session, unless --detach (or --json) is given; elsewhere (a script, a pipe) it prints the name and returns. --host NAME creates it on that linked host and attaches it through the link, drawn here as HOST:SESSION (see tuios attach --help); a NAME written local:NAME is this machine's NAME. " +
				"-x and -y size a detached session's windows, as tmux new-session -x -y does (default 80x24, at most 1000x1000); a client that attaches sizes the session to its terminal.",
			Example: "tuios new --detach scratch\ntuios new work --cwd ~/src/api --json\ntuios new --detach wide -x 160 -y 45\ntuios new --host build\ntuios new --host build ci --detach",
			Flags: func(fs *FlagSet) {
				fs.BoolP("detach", "d", false, "do not attach")
				fs.String("cwd", "", "the first window's working directory (a relative one is from where you run tuios)")
				fs.StringP("window-name", "n", "", "the first window's name")
				fs.IntP("cols", "x", 0, "the width of a detached session's windows, in `COLS` (default 80)")
				fs.IntP("rows", "y", 0, "the height of a detached session's windows, in `ROWS` (default 24)")
				fs.String("host", "", "create it on the linked host `NAME` (local = this machine)")
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				name := ""
				if len(ctx.Args) > 0 {
					name = ctx.Args[0]
				}
				// local:NAME is this machine's NAME, as -s local:NAME
				// addresses it (a session named "local:NAME" could only be
				// reached as local:local:NAME).
				name = strings.TrimPrefix(name, hosts.Local+":")
				p := proto.NewSessionParams{Name: name, WindowName: str(ctx, "window-name"), Cols: flagInt(ctx, "cols"), Rows: flagInt(ctx, "rows")}
				h := str(ctx, "host")
				if dir := hereDir(str(ctx, "cwd"), h != "" && h != hosts.Local); dir != "" {
					p.Cwd = dir
				}
				wire := proto.ParamMap(p)
				if h != "" && h != hosts.Local {
					if !hosts.ValidName(h) {
						return usageError("tuios hosts lists the hosts", "--host %q is not a host name", escapeControls(h))
					}
					wire["session"] = h + ":" // routes new-session there (remote.go), which takes no session
				}
				var res proto.SessionCreated
				if printed, err := callResult(ctx, "new-session", wire, &res); printed || err != nil {
					return err
				}
				if !flagBool(ctx, "detach") && isTerminal(ctx.Stdin, ctx.Stdout) {
					name := res.Session
					if h := str(ctx, "host"); h != "" && h != hosts.Local {
						return attachOn(ctx, h, name, false, 0)
					}
					return attach(ctx, name, false)
				}
				fmt.Fprintf(ctx.Stdout, "%s\n", escapeControls(res.Session))
				return nil
			},
		},
		{
			Name: "ls", Summary: "list sessions (here, on one linked host, or on every host)", Usage: "[--host NAME | --all-hosts [--host-timeout MS]] [--json]",
			Help: "--host NAME lists that linked host's sessions (its daemon's word about its own). --all-hosts lists this machine's and every linked host's, asking them in parallel: " +
				"a host that does not answer within --host-timeout gets a row with its status (unreachable, no_daemon, timeout...) and the command still succeeds. " +
				"--json then prints {hosts: [{host, status, sessions, untrusted}]}, untrusted true for every host but local.",
			Example: "tuios ls\ntuios ls --json | jq -r '.sessions[].name'\ntuios ls --host build\ntuios ls --all-hosts\ntuios ls --all-hosts --json | jq -r '.hosts[] | \"\\(.host) \\(.status)\"'",
			Flags: func(fs *FlagSet) {
				fs.String("host", "", "the sessions of the linked host `NAME` (local = this machine)")
				allHostsFlags(fs)
				jsonFlag(fs)
			},
			Run: func(ctx *Context) error {
				if flagBool(ctx, "all-hosts") {
					if str(ctx, "host") != "" {
						return usageError("give one of them", "--host and --all-hosts cannot be combined")
					}
					return runAllHosts(ctx, "list-sessions", "sessions", nil)
				}
				var target map[string]any
				if h := str(ctx, "host"); h != "" {
					if !hosts.ValidName(h) {
						return usageError("tuios hosts lists the hosts", "--host %q is not a host name", escapeControls(h))
					}
					target = params("session", h+":")
				}
				var res struct {
					Sessions []sessionRow `json:"sessions"`
				}
				if printed, err := callResult(ctx, "list-sessions", target, &res); printed || err != nil {
					return err
				}
				if len(res.Sessions) == 0 {
					fmt.Fprintln(ctx.Stdout, "No sessions. Create one with: tuios new --detach NAME")
					return nil
				}
				var rows [][]string
				for _, s := range res.Sessions {
					rows = append(rows, s.cells())
				}
				writeTable(ctx.Stdout, sessionColumns(), rows)
				return nil
			},
		},
		{
			Name: "kill-session", Summary: "kill a session and its windows", Usage: "-s NAME | NAME", Example: "tuios kill-session scratch\ntuios kill-session build:api",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "the session to kill, or HOST:SESSION")
				hostFlag(fs)
			},
			Run: func(ctx *Context) error {
				name := str(ctx, "session")
				if len(ctx.Args) > 0 && (name == "" || strings.HasSuffix(name, ":") && hosts.ParseSession(name).Session == "") {
					name += ctx.Args[0] // --host build api: build's session api
				}
				if name == "" {
					return usageError("tuios kill-session NAME", "name the session to kill")
				}
				return callCtx(ctx, "kill-session", proto.KillSessionParams{Session: name}, nil)
			},
		},
		{
			Name: "session-info", Summary: "describe a session", Usage: "[-s NAME] [--json]", Example: "tuios session-info -s work --json | jq -r .current_workspace",
			Flags: func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var res proto.SessionInfo
				if printed, err := callResult(ctx, "session-info", proto.SessionParams{Session: str(ctx, "session")}, &res); printed || err != nil {
					return err
				}
				// Escaped: a session on another host is that machine's word.
				name := escapeControls(res.Session)
				display := name // a daemon that predates display names
				if res.DisplayName != "" {
					display = escapeControls(res.DisplayName)
				}
				fmt.Fprintf(ctx.Stdout, "session        %s\ndisplay name   %s\n", name, display)
				if res.Accent != "" {
					fmt.Fprintf(ctx.Stdout, "accent         %s\n", escapeControls(res.Accent))
				}
				fmt.Fprintf(ctx.Stdout, "windows        %d\nworkspace      %d of %d\ntiling         %s\nsize           %dx%d\nattached       %v\n",
					res.Windows, res.CurrentWorkspace, res.Workspaces, escapeControls(res.Tiling), res.Width, res.Height, res.Attached)
				if len(res.WorkspaceNames) > 0 {
					fmt.Fprintf(ctx.Stdout, "named          %s\n", escapeControls(workspaceNames(res.WorkspaceNames))) // session_meta.go
				}
				return nil
			},
		},
		{
			Name: "new-window", Summary: "open a window running your shell or a program", Usage: newWindowUsage,
			Help: newWindowHelp, Example: newWindowExample, Flags: newWindowFlags, Run: runNewWindow, // newwindow.go
		},
		{
			Name: "list-windows", Summary: "list a session's windows", Usage: "[-s [HOST:]NAME] [--json]", Example: "tuios list-windows -s work\ntuios list-windows -s build:api\ntuios list-windows -s work --json | jq -r '.windows[] | \"\\(.window_id) \\(.display_name)\"'",
			Flags: func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var res proto.WindowList
				if printed, err := callResult(ctx, "list-windows", proto.SessionParams{Session: str(ctx, "session")}, &res); printed || err != nil {
					return err
				}
				writeWindows(ctx.Stdout, res.Windows)
				return nil
			},
		},
		{
			Name: "get-window", Summary: "describe one window", Usage: "[-s NAME] [-w WINDOW | WINDOW] [--json]", Example: "tuios get-window -s work build --json | jq -r .agent_state",
			Flags: func(fs *FlagSet) { targetFlags(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var w proto.WindowResult
				if printed, err := callResult(ctx, "get-window", proto.WindowParams{Session: str(ctx, "session"), Window: windowArg(ctx)}, &w); printed || err != nil {
					return err
				}
				writeWindows(ctx.Stdout, []proto.Window{w.Window})
				return nil
			},
		},
		{
			Name: "list-workspaces", Summary: "list a session's workspaces", Usage: "[-s NAME] [--json]", Example: "tuios list-workspaces -s work",
			Flags: func(fs *FlagSet) { sessionFlag(fs); jsonFlag(fs) },
			Run: func(ctx *Context) error {
				var res proto.WorkspaceList
				if printed, err := callResult(ctx, "list-workspaces", proto.SessionParams{Session: str(ctx, "session")}, &res); printed || err != nil {
					return err
				}
				var rows [][]string
				for _, w := range res.Workspaces {
					mark := ""
					if w.Current {
						mark = "*"
					}
					name := w.Name
					if name == "" {
						name = "-"
					}
					rows = append(rows, []string{mark + strconv.Itoa(w.Workspace), name, strconv.Itoa(w.Windows)})
				}
				writeTable(ctx.Stdout, []string{"WS", "NAME", "WINDOWS"}, rows)
				return nil
			},
		},
		// focus-window, move-window, select-workspace, set-window,
		// close-window, run-command, split-window and set-layout are in
		// arrange.go.
	}
}

func writeWindows(w io.Writer, wins []proto.Window) {
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

// maxStdinText is the most send-text and the like read from "-".
const maxStdinText = 8 << 20

// readArgOrStdin is the text argument, or standard input for "-".
func readArgOrStdin(ctx *Context, what string) (string, error) {
	if len(ctx.Args) == 0 {
		return "", usageError(fmt.Sprintf("tuios %s -w build 'text'", what), "give the text to send, or - to read it from standard input")
	}
	if len(ctx.Args) == 1 && ctx.Args[0] == "-" {
		// One byte past the cap tells "exactly 8 MB" from "more": more is
		// refused before anything is typed, since half a command line
		// typed is worse than none.
		b, err := io.ReadAll(io.LimitReader(ctx.Stdin, maxStdinText+1))
		if err == nil && len(b) > maxStdinText {
			return "", &Error{Code: "invalid_params", Message: "standard input is over 8 MB; nothing was sent", Hint: "send it in parts, or stash the file and send its path"}
		}
		return string(b), err
	}
	return strings.Join(ctx.Args, " "), nil
}

// sessionFlag is -s for verbs that take a session but no window; with
// --host, or -s HOST:SESSION, the verb runs on that host (remote.go).
func sessionFlag(fs *FlagSet) {
	fs.StringP("session", "s", "", "the session, or HOST:SESSION on a linked host")
	hostFlag(fs)
}

// sessionRow is one session of list-sessions, as tuios ls and
// ls --all-hosts show it.
type sessionRow struct{ proto.SessionRow }

// sessionColumns head sessionRow.cells.
func sessionColumns() []string {
	return []string{"SESSION", "WINDOWS", "WS", "AGENTS", "LOUDEST", "CREATED"}
}

func (s sessionRow) cells() []string {
	name := s.Name
	if s.Attached {
		name += " (attached)" // as tmux ls says it
	}
	return []string{name, strconv.Itoa(s.Windows), strconv.Itoa(s.Workspace), strconv.Itoa(s.Agents), s.Loudest, s.Created}
}
