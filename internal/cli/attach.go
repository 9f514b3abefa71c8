package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/tui"
)

func attachCommands() []Command {
	return []Command{{
		Name: "attach", Summary: "show a session in this terminal and type into it (here or on a linked host)",
		Usage: "[-t [HOST:]SESSION | [--host HOST] [SESSION]] [--ssh] [--reconnect-for DURATION] [--ascii-only]",
		Help: "Draws the session's windows, the session rail and the dock in this terminal, and sends what you type to the focused window. " +
			"Every colour and attribute a pane's program sets reaches this terminal, down-sampled only to what it shows (TERM, COLORTERM; NO_COLOR turns colour off). " +
			"Attached from terminals of different sizes, the session takes the size of the one used last (attached, resized or typed into); the others say so. " +
			"The prefix key (ctrl+b unless [keybindings] prefix says otherwise) then d detaches: the windows keep running. " +
			"Prefix i opens the Inbox, prefix [ scrolls back, prefix c opens a window. With no session named, attaches to the most recently active one, or makes one. " +
			"--host HOST (or -t HOST:SESSION) attaches a session on a linked host (tuios hosts lists them): the connection goes through this machine's daemon and its link, " +
			"and the session is drawn here with this machine's theme, config and prefix key; the dock names it HOST:SESSION, and the rail lists this machine's sessions under local (click one to come back). Nothing is nested. " +
			"Another machine's Inbox items are not answered from here (a link gets no human nonce). " +
			"When the link drops the session keeps running there: the screen stays, the dock says reconnecting, and the client redials for up to --reconnect-for (3m). " +
			"If the link is not back by then, it returns to the session it left on this machine, or ends saying so. " +
			"--ssh instead runs ssh -t to the host's addr and the tuios there (for a host whose tuios is too old to serve this client): " +
			"that client is nested in this terminal, so press the prefix key twice to send a key to it. " +
			"Inside, prefix ? lists every key and prefix : every action by name; after the prefix the dock names the next keys. " +
			"The keys below are the ones the config file gives ([keybindings] for the window mode, [keybindings.inbox], .inbox_peek, .mail, .copy, .review and .rail for the others); " +
			"[ui] rail = \"off\" starts with the rail hidden (prefix b shows it).",
		More:    attachKeys,
		Example: "tuios attach\ntuios attach -t work --ascii-only\ntuios attach --host build api\ntuios attach -t build:api\ntuios attach --host build api --ssh",
		Flags: func(fs *FlagSet) {
			fs.StringP("target", "t", "", "the `[HOST:]SESSION` to attach (default: the most recently active)")
			fs.String("host", "", "attach a session on the linked host `NAME` (local = this machine)")
			fs.Bool("ssh", false, "run ssh -t HOST tuios attach SESSION instead (nested: press the prefix twice)")
			fs.Duration("reconnect-for", tui.DefaultReconnectFor, "how long to redial a dropped host link before giving up")
			fs.Bool("ascii-only", false, "draw ASCII instead of glyphs and rules")
		},
		Run: func(ctx *Context) error {
			ascii, _ := ctx.Flags.GetBool("ascii-only")
			host, session, err := attachTarget(ctx)
			if err != nil {
				return err
			}
			if flagBool(ctx, "ssh") {
				return attachSSH(ctx, host, session)
			}
			d, _ := ctx.Flags.GetDuration("reconnect-for")
			return attachOn(ctx, host, session, ascii, d)
		},
	}}
}

// attachKeys is the keys section of attach --help: the client's key
// table with the config file's bindings, or the defaults (and why) when
// the file does not read.
func attachKeys() string {
	path := config.Path(os.Getenv)
	opt := tui.Options{}
	note := ""
	f, err := config.Load(path)
	if err == nil {
		err = opt.Configure(f)
	}
	if err != nil {
		opt, note = tui.Options{}, "(the defaults: "+escapeControls(err.Error())+")\n"
	}
	return "Keys:\n" + note + tui.KeysHelp(opt)
}

// attachTarget reads which session to attach and where: -t [HOST:]SESSION,
// or --host HOST with the session as -t or the one argument (as written:
// colons included, as for every --host verb).
func attachTarget(ctx *Context) (host, session string, err error) {
	target := str(ctx, "target")
	if len(ctx.Args) > 1 || len(ctx.Args) == 1 && target != "" {
		return "", "", usageError("tuios attach [-t [HOST:]SESSION | [--host HOST] SESSION]", "name the session once")
	}
	if len(ctx.Args) == 1 {
		target = ctx.Args[0]
	}
	host = str(ctx, "host")
	if host != "" {
		if !hosts.ValidName(host) {
			return "", "", usageError("tuios hosts lists the hosts; --host local is this machine", "--host %q is not a host name (letters, digits, '.', '-', '_')", escapeControls(host))
		}
		session = target
	} else {
		a := hosts.ParseSession(target)
		host, session = a.Host, a.Session
	}
	if host == hosts.Local {
		host = ""
	}
	if flagBool(ctx, "ssh") && host == "" {
		return "", "", usageError("tuios attach --host HOST SESSION --ssh", "--ssh needs a host")
	}
	return host, session, nil
}

// isTerminal reports whether both ends are terminals: only then does a
// bare `tuios` (or `tuios new`) attach.
func isTerminal(stdin io.Reader, stdout io.Writer) bool {
	in, ok1 := stdin.(*os.File)
	out, ok2 := stdout.(*os.File)
	return ok1 && ok2 && term.IsTerminal(in.Fd()) && term.IsTerminal(out.Fd())
}

// attach runs the attach client on this machine's session.
func attach(ctx *Context, session string, ascii bool) error {
	return attachOn(ctx, "", session, ascii, 0)
}

// attachOn runs the attach client with the config file's client
// settings, on host's session ("" is this machine).
func attachOn(ctx *Context, host, session string, ascii bool, reconnect time.Duration) error {
	path := config.Path(os.Getenv)
	f, err := config.Load(path)
	// The path even when the file does not exist yet: set-config may
	// write it while the client runs.
	opt := tui.Options{Session: session, Host: host, ReconnectFor: reconnect, ASCIIOnly: ascii, Stdin: ctx.Stdin, Stdout: ctx.Stdout, Stderr: ctx.Stderr, ConfigPath: path}
	if err == nil {
		err = opt.Configure(f)
	}
	if err != nil {
		return &Error{Code: "invalid_config", Message: err.Error(), Hint: "fix the file, or move it away to attach with the defaults"}
	}
	err = tui.Run(context.Background(), opt)
	var lost *tui.LinkLostError
	var oh *tui.OpenHostError
	var nd *client.NoDaemonError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &nd):
		return dialError(err)
	case errors.Is(err, tui.ErrDaemonGone), errors.Is(err, tui.ErrNested):
		// No code in the line: these read as the client's own words.
		return &Error{Message: err.Error()}
	case errors.As(err, &lost):
		hint := "tuios hosts says why the link is down; attach again with tuios attach -t " + host + ":" + escapeControls(session)
		if lost.Gone {
			hint = "tuios ls --host " + host + " lists the sessions there"
		}
		return &Error{Message: err.Error(), Hint: hint, Host: host}
	case errors.As(err, &oh):
		return openHostError(host, oh.Err)
	case host != "":
		return farError(host, err)
	}
	var e *Error
	if errors.As(protoError(err), &e) {
		return e
	}
	return dialError(err)
}
