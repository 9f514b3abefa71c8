package cli

import (
	"fmt"

	"github.com/tuios/tuios/internal/proto"
)

// popupCommands is `tuios popup`: one command in a floating pane centred
// over the session's tiles (seed: "A popup for one command"). The words
// after the flags are the command's argv, verbatim: parsing stops at the
// first word that is not one of popup's flags, or at "--", so the
// command's own flags are never read as tuios's.
func popupCommands() []Command {
	return []Command{{
		Name: "popup", Summary: "run one command in a floating pane over the layout (needs a client attached)",
		Usage: "[-s NAME] [--width W] [--height H] [--cwd DIR] [--json] [--] COMMAND [ARG…]",
		Help: "Runs one command in a floating pane centred over the session's layout, focused, and prints its window id. " +
			"The pane closes when the command exits, and the focus goes back to the window that had it. " +
			"It is not tiled, it is not in the window cycle, and it cannot be minimized, so it disturbs nothing that is open. " +
			"--width and --height take cells (60) or a share of the pane region (60%); the defaults are 80% and 60%, and a size larger than the region is cut down to it. " +
			"Neither has a short form: -w selects a window everywhere else, and -h is help. " +
			"The command runs without a shell; the first word after the flags (or after --) starts it, and every word from there is its own. " +
			"A popup needs a client attached to the session and says needs_client when there is none. " +
			"The command writes to the popup's screen, not to this command's output: to keep an answer, redirect inside the popup. " +
			"A popup outlives a detach and is there on the next attach; a daemon restart does not bring it back. " +
			"The person closes one with esc in window mode (after the prefix key); a script closes it like any pane: tuios close-window -w ID, or tuios run-command CloseWindow while it is focused. " +
			"--json prints the window id, its place (x, y) and size (width, height, frame included) in the session's area, and the window that had the focus.",
		Example: "tuios popup -s work -- fzf\n" +
			"tuios popup -s work --width 60 --height 20 -- gum choose one two three\n" +
			"tuios popup -s work -- sh -c 'ls | fzf > /tmp/pick'\n" +
			"id=$(tuios popup -s work --json -- htop | jq -r .window_id)",
		Flags: func(fs *FlagSet) {
			// Parsing stops at the command: its flags are its own.
			fs.SetInterspersed(false)
			sessionFlag(fs)
			fs.String("width", "", "the width: cells (60) or a share of the pane region (60%); default 80%")
			fs.String("height", "", "the height: cells (20) or a share of the pane region (20%); default 60%")
			fs.String("cwd", "", "the command's working directory")
			jsonFlag(fs)
		},
		Run: runPopup,
	}}
}

func runPopup(ctx *Context) error {
	argv := ctx.Args
	if len(argv) == 0 || argv[0] == "" {
		return usageError("tuios popup -s work -- fzf", "name the command to run in the popup")
	}
	var res map[string]any
	p := proto.PopupParams{Session: str(ctx, "session"), Width: str(ctx, "width"), Height: str(ctx, "height"), Cwd: str(ctx, "cwd"), Argv: argv}
	if err := callCtx(ctx, "popup", p, &res); err != nil {
		return err
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, res)
	}
	id, _ := res["window_id"].(string)
	_, err := fmt.Fprintf(ctx.Stdout, "%s  popup %vx%v at %v,%v\n", id, res["width"], res["height"], res["x"], res["y"])
	return err
}
