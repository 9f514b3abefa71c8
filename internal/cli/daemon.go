package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/daemon"
	"github.com/tuios/tuios/internal/logfile"
	"github.com/tuios/tuios/internal/pretend"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
)

func daemonCommands() []Command {
	return []Command{
		{
			Name: "daemon", Summary: "run the daemon in the foreground", Usage: "[--socket PATH] [--log-file FILE] [--log-level LEVEL]",
			Help: "Runs the tuios daemon until it is killed (tuios kill-server, SIGTERM or SIGINT). Any other verb starts one in the background when none answers, so you rarely need this. " +
				"Its log lines carry a time, a level and, for a line about one pane or session, pane= and session= (log/slog's text format). In the foreground they go to stderr; " +
				"a daemon a verb started writes daemon.log next to its socket ($XDG_RUNTIME_DIR/tuios/daemon.log, else /tmp/tuios-UID/daemon.log; beside $TUIOS_SOCKET when set). " +
				"With --log-file the daemon owns the file: past 5 MiB (--log-max-size) it is renamed to FILE.1 (one older file kept, the one before it dropped) and a new one begun, and the daemon's stderr follows it, so a crash's trace lands in the current file. " +
				"--log-level debug adds a line per request (the verb, how long it ran, its error code; never its params); warn keeps warnings (what you may want to fix: a config key, a refused file, a host) and errors (what failed: a save, a panic). " +
				"TUIOS_LOG_LEVEL sets the default, for the daemon a verb starts.",
			Example: "tuios daemon\n" +
				"TUIOS_SOCKET=\"$HOME/.tuios-test/tuios.sock\" tuios daemon   # its directory must be private (mode 0700)\n" +
				"tuios kill-server; TUIOS_LOG_LEVEL=debug tuios ls   # the next daemon logs every request\n" +
				"tail -f \"$XDG_RUNTIME_DIR/tuios/daemon.log\"   # without XDG_RUNTIME_DIR: /tmp/tuios-$(id -u)/daemon.log",
			Flags: func(fs *FlagSet) {
				fs.String("socket", "", "the socket to listen on (default: $TUIOS_SOCKET, $XDG_RUNTIME_DIR/tuios/tuios.sock or /tmp/tuios-UID/tuios.sock)")
				fs.String("log-file", "", "write the log to `FILE`, rotated past --log-max-size to FILE.1, with stdout and stderr pointed at it (default: stderr)")
				fs.String("log-level", "", "the lowest `LEVEL` logged: debug, info, warn or error (default: $TUIOS_LOG_LEVEL, else info)")
				fs.Int64("log-max-size", logfile.DefaultMaxBytes, "with --log-file, the size in `BYTES` past which it is rotated (4096 to 1073741824)")
			},
			Run: func(ctx *Context) error {
				logger, closeLog, err := daemonLogger(ctx)
				if err != nil {
					return err
				}
				defer closeLog()
				srv, err := daemon.New(daemon.Options{Socket: str(ctx, "socket"), Logger: logger})
				if err != nil {
					return err
				}
				if err := srv.Listen(); err != nil {
					var ar *daemon.AlreadyRunning
					if errors.As(err, &ar) {
						return &Error{Code: "daemon_running", Message: err.Error(), Hint: "tuios kill-server stops it"}
					}
					var h interface{ Hint() string }
					e := &Error{Code: "no_daemon", Message: err.Error(), Exit: ExitNoDaemon}
					if errors.As(err, &h) {
						e.Hint = h.Hint()
					}
					return e
				}
				sigs, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
				defer stop()
				v := version.Get()
				logger.Info("tuios daemon listening on "+srv.Socket(), "pid", os.Getpid(), "version", v.Module, "revision", v.Revision)
				err = srv.Serve(sigs)
				logger.Info("tuios daemon stopped", "pid", os.Getpid())
				return err
			},
		},
		{
			Name: "version", Summary: "print the version, revision and protocol of this tuios and of the running daemon", Usage: "[--json]",
			Help:    "Prints this binary's module version, the VCS revision it was built from and the control protocol it speaks; then the same for the daemon when one answers (version never starts one). tuios --version prints the first line only.",
			Example: "tuios version\ntuios version --json | jq -r .revision",
			Flags:   jsonFlag,
			Run: func(ctx *Context) error {
				self := version.Get()
				var d *daemonVersion
				if c, err := client.Dial(client.Options{}); err == nil {
					var h proto.Hello
					if c.Call("hello", proto.HelloParams{Client: "tuios version"}, &h) == nil {
						d = &daemonVersion{Version: h.DaemonVersion, Revision: h.Revision, Protocol: h.Protocol, MinProtocol: h.MinProtocol, PID: h.PID}
					}
					c.Close()
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, struct {
						version.Info
						Daemon *daemonVersion `json:"daemon"`
					}{self, d})
				}
				fmt.Fprintln(ctx.Stdout, self.String())
				if d == nil {
					fmt.Fprintln(ctx.Stdout, "daemon: none running")
					return nil
				}
				rev := d.Revision
				if rev == "" {
					rev = "unknown"
				}
				fmt.Fprintf(ctx.Stdout, "daemon: tuios %s (rev %s, protocol %d to %d, pid %d)\n", d.Version, rev, d.MinProtocol, d.Protocol, d.PID)
				return nil
			},
		},
		{
			Name: "kill-server", Summary: "stop the daemon and every pane", Usage: "",
			Help:    "Stops the daemon and ends every pane's processes. The sessions and windows come back, each with a fresh shell in the directory it was in (TUIOS_RESTORED=1), when a daemon starts again on the same socket; kill-session forgets a session for good, and restore = false under [daemon] in ~/.config/tuios/config.toml turns restoring off. Mail, the stash and agent state do not come back.",
			Example: "tuios kill-server\ntuios kill-session scratch   # gone for good, not restored",
			Run: func(ctx *Context) error {
				c, err := client.Dial(client.Options{})
				if err != nil {
					return dialError(err)
				}
				defer c.Close()
				if err := c.Call("kill-server", nil, nil); err != nil {
					return protoError(err)
				}
				// The answer comes once every pane is gone; the daemon then
				// stops listening and hangs up. Waiting for that (briefly)
				// means the next command starts a new daemon instead of
				// reaching this one on its way out.
				c.SetDeadline(time.Now().Add(killServerWait))
				io.Copy(io.Discard, c.Conn())
				return nil
			},
		},
		{
			Name: "list-verbs", Summary: "list the control protocol's verbs and their params", Usage: "[VERB] [--json]",
			Example: "tuios list-verbs\ntuios list-verbs set-agent-state --json",
			Flags:   jsonFlag,
			Run: func(ctx *Context) error {
				verb := ""
				if len(ctx.Args) > 0 {
					verb = ctx.Args[0]
				}
				var res proto.VerbList
				if err := call("list-verbs", proto.ListVerbsParams{Verb: verb}, &res); err != nil {
					return err
				}
				if flagBool(ctx, "json") {
					return printJSON(ctx.Stdout, res)
				}
				sort.Slice(res.Verbs, func(i, j int) bool { return res.Verbs[i].Verb < res.Verbs[j].Verb })
				for _, v := range res.Verbs {
					fmt.Fprintf(ctx.Stdout, "%s — %s\n", v.Verb, v.Description)
					if verb != "" {
						for _, p := range v.Params {
							req := ""
							if p.Required {
								req = " (required)"
							}
							fmt.Fprintf(ctx.Stdout, "  %-18s %-9s %s%s\n", p.Name, p.Type, p.Description, req)
						}
						for _, e := range v.Examples {
							fmt.Fprintf(ctx.Stdout, "  example: %s\n", e)
						}
					}
				}
				return nil
			},
		},
		{
			Name: "events", Summary: "stream the daemon's events as JSON lines", Usage: "[-s NAME] [--types a,b] [--after-seq N --boot-id ID]",
			Help: "Subscribes to the daemon's event stream: window-created, window-closed, window-exit, agent-state, attention, session-created, … (output and transcript only when named). A slow reader gets a gap event counting what it missed. " +
				"--after-seq and --boot-id (list-attention --json's seq and boot_id) first replay the attention events after that seq; a first line {\"type\":\"resync\"} means list again.",
			Example: "tuios events --types agent-state\ntuios events --types attention --after-seq 41 --boot-id 3f2a9c0d5e7b1a24",
			Flags: func(fs *FlagSet) {
				fs.StringP("session", "s", "", "only this session")
				fs.StringSlice("types", nil, "only these event types")
				fs.Int("after-seq", 0, "replay the attention events after this Inbox seq")
				fs.String("boot-id", "", "the Inbox boot_id --after-seq belongs to")
			},
			Run: func(ctx *Context) error {
				c, err := client.Dial(client.Options{Autostart: true})
				if err != nil {
					return dialError(err)
				}
				defer c.Close()
				types, _ := ctx.Flags.GetStringSlice("types")
				var sub proto.Subscribed
				if err := c.Call("subscribe", proto.SubscribeParams{Session: str(ctx, "session"), Types: types, AfterSeq: flagInt(ctx, "after-seq"), BootID: str(ctx, "boot-id")}, &sub); err != nil {
					return protoError(err)
				}
				if sub.Resync != nil && *sub.Resync {
					if err := printJSONLine(ctx.Stdout, map[string]any{"type": "resync"}); err != nil {
						return nil
					}
				}
				for {
					var ev map[string]any
					if err := c.Next(&ev); err != nil {
						return nil
					}
					if err := printJSONLine(ctx.Stdout, ev); err != nil {
						return nil
					}
				}
			},
		},
		{
			Name: "pretend-agent", Summary: "a stand-in coding agent, for tests and demos", Usage: "[flags]",
			Help: "Behaves like a coding agent: works with OSC 9;4 progress and a spinner in its title (\"⠋ pretend-agent\"), stops on a permission prompt drawn like Claude Code's and waits for 1 or 2, then finishes its turn and rests at its prompt (title \"✳ pretend-agent\"), where a line typed or pasted is a new short turn and q quits. " +
				"It says it is claude-code (TUIOS_AGENT) unless --as names another harness. Its state comes from what it prints, as a hookless Claude Code's would: working from the progress bar, needs_input from the prompt on its screen, idle when the bar is cleared, errored on --error (OSC 9;4 error). " +
				"The detector finds it on its first look (every 2 s): progress printed before that is not believed (a plain shell's progress bar is not an agent), so give a turn that should read idle or errored a few seconds (--steps, --step). " +
				"Started by go run (whose go would lead the terminal's foreground, where a tracker looks) it takes the foreground for itself, as a shell gives a job (Linux). Its flags take one dash or two.",
			Example: "tuios new-window -s work agent -- \"$(command -v tuios)\" pretend-agent\n" +
				"tuios new-window -s work agent -- \"$(command -v tuios)\" pretend-agent --prompt=false --steps 12 --step 250ms\n" +
				"tuios new-window -s work agent -- \"$(command -v tuios)\" pretend-agent --error\n" +
				"go run ./examples/embed -- go run ./examples/pretend-agent   # the SDK alone, no daemon",
			// Listed for --help and completion; pretend.Main parses them.
			Flags:   func(fs *FlagSet) { fs.AddGoFlagSet(pretend.FlagSet()) },
			RawArgs: true,
			Run: func(ctx *Context) error {
				if code := pretend.Main(ctx.Args); code != 0 {
					return &Error{Code: "command_failed", Message: "the pretend agent's turn failed", Exit: code}
				}
				return nil
			},
		},
	}
}

// daemonVersion is what tuios version --json says about the daemon: the
// part of hello's answer it prints.
type daemonVersion struct {
	Version     string `json:"daemon_version"`
	Revision    string `json:"revision"`
	Protocol    int    `json:"protocol"`
	MinProtocol int    `json:"min_protocol"`
	PID         int    `json:"pid"`
}

func printJSONLine(w interface{ Write([]byte) (int, error) }, v any) error {
	b, err := jsonMarshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// killServerWait bounds how long kill-server waits for the daemon to
// hang up after it answered.
const killServerWait = 10 * time.Second
