package cli

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/tui"
)

func attachCommands() []Command {
	return []Command{{
		Name: "attach", Summary: "show a session in this terminal and type into it", Usage: "[-t SESSION] [--ascii-only]",
		Help: "Draws the session's windows, the session rail and the dock in this terminal, and sends what you type to the focused window. " +
			"The prefix key (ctrl+b unless [keybindings] prefix says otherwise) then d detaches: the windows keep running. " +
			"Prefix i opens the Inbox, prefix [ scrolls back, prefix c opens a window. With no session named, attaches to the most recently active one, or makes one.",
		Example: "tuios attach\ntuios attach -t work --ascii-only",
		Flags: func(fs *FlagSet) {
			fs.StringP("target", "t", "", "the session to attach (default: the most recently active)")
			fs.Bool("ascii-only", false, "draw ASCII instead of glyphs and rules")
		},
		Run: func(ctx *Context) error {
			ascii, _ := ctx.Flags.GetBool("ascii-only")
			return attach(ctx, str(ctx, "target"), ascii)
		},
	}}
}

// isTerminal reports whether both ends are terminals: only then does a
// bare `tuios` (or `tuios new`) attach.
func isTerminal(stdin io.Reader, stdout io.Writer) bool {
	in, ok1 := stdin.(*os.File)
	out, ok2 := stdout.(*os.File)
	return ok1 && ok2 && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
}

// attach runs the attach client with the config file's client settings.
func attach(ctx *Context, session string, ascii bool) error {
	f, err := config.Load(config.Path(os.Getenv))
	opt := tui.Options{Session: session, ASCIIOnly: ascii, Stdin: ctx.Stdin, Stdout: ctx.Stdout, Stderr: ctx.Stderr}
	if err == nil {
		err = opt.Configure(f)
	}
	if err != nil {
		return &Error{Code: "invalid_config", Message: err.Error(), Hint: "fix the file, or move it away to attach with the defaults"}
	}
	err = tui.Run(context.Background(), opt)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tui.ErrDaemonGone), errors.Is(err, tui.ErrNested):
		// No code in the line: these read as the client's own words.
		return &Error{Message: err.Error()}
	}
	var e *Error
	if errors.As(protoError(err), &e) {
		return e
	}
	return dialError(err)
}
