package cli

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/proto"
)

// new-window's words: [flags] [NAME [flags] [--] [ARGV…]].
//
// The docs put the program's argv after the name ("Nothing re-parses it,
// so nothing needs quoting") and, in the same chapter, tuios's own flags
// after the name too (tuios new-window -s work tests --workspace 2
// --no-focus). Both hold with one rule: tuios reads its flags before the
// name and between the name and the program; the first word after the name
// that is not one of new-window's flags (or its value) starts the argv, and
// from there every word is the program's, verbatim, dashes included. "--"
// starts the argv at once; with no name before it the window has no name
// (the first argv word is never taken for one).

const newWindowUsage = "[NAME] [--workspace N] [--cwd DIR] [--no-focus] [--grants LIST] [--json] [[--] ARGV…]"

const newWindowHelp = "Opens a window in a session. With no program it runs your shell. " +
	"To run a program instead, put its argv after the name: the first word after the name that is not one of the flags below starts it, " +
	"and from there every word belongs to the program as written (its own flags included; nothing re-parses or re-quotes it). " +
	"The window closes when that program exits; its exit code stays readable with tuios wait-for window-exit for a while after. " +
	"-- starts the argv at once, which is how to run a program whose first word looks like a flag or to open an unnamed window running a program: " +
	"tuios new-window -s work -- make test has no name. " +
	"--grants says what a program in the new pane may do through tuios (read, write, fan, respond, files, admin, or none; default: [agents.permissions]); " +
	"from a pane it can give no more than that pane holds, and never respond. " +
	"--json prints where the window went; unplaced true says its width and height are a placeholder until a client attaches and places it."

const newWindowExample = "tuios new-window -s work build --cwd /src/api --no-focus\n" +
	"tuios new-window -s work htop /usr/bin/htop\n" +
	"tuios new-window -s work logs --no-focus tail -f /var/log/syslog   # -f is tail's\n" +
	"tuios new-window -s work -- make test                              # no name\n" +
	"tuios new-window -s work reviewer --grants read                    # it may only read\n" +
	"id=$(tuios new-window -s work --json | jq -r .window_id)"

func newWindowFlags(fs *FlagSet) {
	// Parsing stops at the name; runNewWindow reads the flags after it.
	fs.SetInterspersed(false)
	fs.StringP("session", "s", "", "the session")
	fs.Int("workspace", 0, "the workspace (1 to 9; default: the current one)")
	fs.String("cwd", "", "the working directory (a relative one is from where you run tuios)")
	fs.Bool("no-focus", false, "do not take the focus")
	fs.String("grants", "", "what the pane may do: read, write, fan, respond, files, admin (comma-separated), or none")
	jsonFlag(fs)
}

// splitNewWindow reads the name and the argv from the words left after the
// flags before the name (fs parsed them, stopping at the first word that
// is not a flag, or at "--": dashAt is fs.ArgsLenAtDash()). The flags
// between the name and the program are parsed into fs.
func splitNewWindow(fs *pflag.FlagSet, args []string, dashAt int) (name string, argv []string, err error) {
	if dashAt == 0 { // "--" came before any name: every word is the argv
		return "", args, nil
	}
	if len(args) == 0 {
		return "", nil, nil
	}
	name = args[0]
	if err := fs.Parse(args[1:]); err != nil {
		return "", nil, err
	}
	return name, fs.Args(), nil
}

func runNewWindow(ctx *Context) error {
	name, argv, err := splitNewWindow(ctx.Flags, ctx.Args, ctx.Flags.ArgsLenAtDash())
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return writeNewWindowHelp(ctx)
		}
		return usageError("run tuios new-window --help; put the program after -- when its first word looks like a flag",
			"tuios new-window: %v", err)
	}
	if flagBool(ctx, "help") { // --help between the name and the program
		return writeNewWindowHelp(ctx)
	}
	// 0 is what an omitted --workspace sends (the current one), so the
	// daemon cannot tell it from a typed 0: refuse it here.
	if n := flagInt(ctx, "workspace"); ctx.Flags.Changed("workspace") && (n < 1 || n > 9) {
		return usageError("tuios new-window -s work tests --workspace 2", "--workspace is %d, out of range (1 to 9)", n)
	}
	p := proto.NewWindowParams{Session: str(ctx, "session"), Name: name, Workspace: flagInt(ctx, "workspace"), NoFocus: flagBool(ctx, "no-focus"), Argv: argv, Grants: str(ctx, "grants")}
	if dir := hereDir(str(ctx, "cwd"), remoteOf(p) != ""); dir != "" {
		p.Cwd = dir
	}
	var res proto.WindowCreated
	if printed, err := callResult(ctx, "new-window", p, &res); printed || err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, "%s  %s\n", short(res.WindowID), escapeControls(res.Name))
	return nil
}

// hereDir is a --cwd as the caller meant it: a relative one is made
// absolute against the directory the command runs in, since the daemon
// that starts the shell runs elsewhere. A far host's folders are its own,
// so a path for one is passed as written.
func hereDir(cwd string, remote bool) string {
	if cwd == "" || remote || filepath.IsAbs(cwd) {
		return cwd
	}
	if abs, err := filepath.Abs(cwd); err == nil {
		return abs
	}
	return cwd
}

func writeNewWindowHelp(ctx *Context) error {
	table := commands()
	if c, _ := lookup(table, []string{"new-window"}); c != nil {
		writeHelp(ctx.Stdout, table, c)
	}
	return nil
}
