package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
)

func hostsCommands() []Command {
	return []Command{
		{
			Name: "stdio-proxy", Summary: "bridge stdin and stdout to this machine's daemon (what another machine's link runs over ssh)", Usage: "",
			Help: "Connects to this machine's daemon socket (as every verb finds it: TUIOS_SOCKET, XDG_RUNTIME_DIR) and copies stdin to it and its answers to stdout, until either side closes. " +
				"It never starts a daemon: with none running it exits 3 so the other machine can say no_daemon. Another machine's `tuios hosts` link runs it through ssh.",
			Example: "ssh buildbox tuios stdio-proxy",
			Run:     runStdioProxy,
		},
		{
			Name: "hosts", Summary: "list the other machines this one links to (the [hosts] tables of the config file)", Usage: "[--json]",
			Help: "Lists each [hosts.NAME] table of the config file: its address, command, timeout and ssh options. A host with a refused setting (an ssh option that runs a command, an address starting with '-') is shown with the reason and is never dialled. " +
				"Link states (up, reconnecting...) come from the daemon once it holds links; tuios hosts test NAME dials one now.",
			Example: "tuios hosts\ntuios hosts --json",
			Flags:   jsonFlag,
			Run:     runHostsList,
		},
		{
			Name: "hosts add", Summary: "add or replace a host in the config file", Usage: "NAME ADDR [--ssh-option ARG]... [--connect-timeout S] [--command PATH]",
			Help: "Writes [hosts.NAME] into the config file (other tables and comments are kept; the file is replaced atomically). NAME is letters, digits, '.', '-', '_'. ADDR is what ssh would take: host, user@host, an ~/.ssh/config alias, ssh://user@host:port. " +
				"--ssh-option takes the safe subset only (-p -i -l, -o Port/User/HostName/HostKeyAlias/IdentityFile/...); an option that runs a command (ProxyCommand, LocalCommand) is refused with the reason. A host that does not answer is still added.",
			Example: "tuios hosts add build gaurav@buildbox\ntuios hosts add lab lab.example.com --ssh-option '-p 2222' --command /opt/tuios/bin/tuios",
			Flags: func(fs *FlagSet) {
				fs.StringArray("ssh-option", nil, "an ssh option from the safe subset (repeat it)")
				fs.Int("connect-timeout", 0, "seconds per dial (default 10)")
				fs.String("command", "", "the tuios binary on that machine (default: PATH and the usual install paths)")
			},
			Run: runHostsAdd,
		},
		{
			Name: "hosts remove", Summary: "remove a host from the config file", Usage: "NAME",
			Help:    "Drops [hosts.NAME] from the config file, keeping everything else.",
			Example: "tuios hosts remove build",
			Run:     runHostsRemove,
		},
		{
			Name: "hosts rm", Summary: "remove a host (as hosts remove)", Usage: "NAME",
			Example: "tuios hosts rm build",
			Run:     runHostsRemove,
		},
		{
			Name: "hosts test", Summary: "dial a host once, without the daemon, and say what happened", Usage: "NAME [--json]",
			Help: "Reads ~/.ssh/config, known_hosts, the ssh-agent and identity files as a link would, connects with ssh, runs tuios stdio-proxy there and says hello to that machine's daemon. " +
				"Prints where it went, where it looked for tuios, and what failed. An unknown or changed host key is refused, never accepted: accept a new key once by hand with ssh.",
			Example: "tuios hosts test build\ntuios hosts test build --json",
			Flags:   jsonFlag,
			Run:     runHostsTest,
		},
	}
}

// runStdioProxy relays bytes between stdin/stdout and one daemon
// connection. It is what sshd runs, so it stays small: no parsing, no
// daemon start, exit when either direction ends.
func runStdioProxy(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return usageError("tuios stdio-proxy takes no arguments", "unexpected %q", ctx.Args[0])
	}
	c, err := client.Dial(client.Options{})
	if err != nil {
		var nd *client.NoDaemonError
		if errors.As(err, &nd) {
			return &Error{Code: "no_daemon", Message: err.Error(), Hint: nd.Hint(), Exit: ExitNoDaemon}
		}
		return err
	}
	conn := c.Conn()
	defer conn.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(conn, ctx.Stdin); done <- struct{}{} }()
	go func() { io.Copy(ctx.Stdout, conn); done <- struct{}{} }()
	<-done
	return nil
}

func loadHosts() (*config.File, string, error) {
	path := config.Path(os.Getenv)
	if path == "" {
		return nil, "", &Error{Code: "invalid_params", Message: "no config file path (neither XDG_CONFIG_HOME nor HOME is set)", Hint: "set HOME"}
	}
	f, err := config.Load(path)
	return f, path, err
}

func hostOf(name string, h config.Host) hosts.Host {
	return hosts.Host{Name: name, Addr: h.Addr, Command: h.Command, SSHOptions: h.SSHOptions,
		ConnectTimeout: time.Duration(h.ConnectTimeout) * time.Second}
}

type hostRow struct {
	hosts.Host
	ConnectTimeout int    `json:"connect_timeout,omitempty"`
	Refused        string `json:"refused,omitempty"`
}

func runHostsList(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return unknownVerb(commands(), append([]string{"hosts"}, ctx.Args...))
	}
	f, _, err := loadHosts()
	if err != nil {
		return err
	}
	rows := []hostRow{}
	for _, n := range f.HostNames() {
		h := hostOf(n, f.Hosts[n])
		r := hostRow{Host: h, ConnectTimeout: f.Hosts[n].ConnectTimeout}
		if err := h.Check(); err != nil {
			r.Refused = err.Error()
		}
		rows = append(rows, r)
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, map[string]any{"type": "host_list", "hosts": rows})
	}
	if len(rows) == 0 {
		fmt.Fprintln(ctx.Stdout, "no hosts; add one with tuios hosts add NAME ADDR")
		return nil
	}
	for _, r := range rows {
		line := fmt.Sprintf("%s  %s", r.Name, r.Addr)
		if r.Command != "" {
			line += "  command=" + r.Command
		}
		if len(r.SSHOptions) > 0 {
			line += "  ssh_options=" + strings.Join(r.SSHOptions, " ")
		}
		if r.Refused != "" {
			line += "  REFUSED: " + r.Refused
		}
		fmt.Fprintln(ctx.Stdout, escapeControls(line))
	}
	return nil
}

func runHostsAdd(ctx *Context) error {
	if len(ctx.Args) != 2 {
		return usageError("tuios hosts add NAME ADDR (put options before NAME, or after --)", "hosts add takes NAME and ADDR")
	}
	opts, _ := ctx.Flags.GetStringArray("ssh-option")
	secs := flagInt(ctx, "connect-timeout")
	if secs < 0 {
		return usageError("give whole seconds, or 0 for the default 10", "--connect-timeout %d is negative", secs)
	}
	row := config.Host{Addr: ctx.Args[1], Command: str(ctx, "command"), SSHOptions: opts, ConnectTimeout: secs}
	if err := hostOf(ctx.Args[0], row).Check(); err != nil {
		return err
	}
	path := config.Path(os.Getenv)
	f, err := config.Load(path)
	if err != nil {
		return err
	}
	// Keep what the person set by hand for the policy (allow, hold_mail…):
	// add replaces only the dialling keys.
	if old, ok := f.Hosts[ctx.Args[0]]; ok {
		row.ReposRoot, row.Allow, row.HoldMail, row.HostedGrace = old.ReposRoot, old.Allow, old.HoldMail, old.HostedGrace
	}
	if err := config.SetHost(path, ctx.Args[0], row); err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, "added host %s (%s) to %s; dial it with tuios hosts test %s\n", ctx.Args[0], escapeControls(ctx.Args[1]), path, ctx.Args[0])
	return nil
}

func runHostsRemove(ctx *Context) error {
	if len(ctx.Args) != 1 {
		return usageError("tuios hosts remove NAME", "hosts remove takes one NAME")
	}
	f, path, err := loadHosts()
	if err != nil {
		return err
	}
	name := ctx.Args[0]
	if _, ok := f.Hosts[name]; !ok {
		return unknownHost(name, f)
	}
	if err := config.RemoveHost(path, name); err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, "removed host %s from %s\n", name, path)
	return nil
}

func unknownHost(name string, f *config.File) *Error {
	hint := "no hosts are configured; add one with tuios hosts add NAME ADDR"
	if names := f.HostNames(); len(names) > 0 {
		hint = "configured hosts: " + strings.Join(names, ", ")
	}
	return &Error{Code: "unknown_host", Message: fmt.Sprintf("no host is named %q", escapeControls(name)), Hint: hint}
}

func runHostsTest(ctx *Context) error {
	if len(ctx.Args) != 1 {
		return usageError("tuios hosts test NAME", "hosts test takes one NAME")
	}
	f, _, err := loadHosts()
	if err != nil {
		return err
	}
	name := ctx.Args[0]
	row, ok := f.Hosts[name]
	if !ok || name == "*" {
		return unknownHost(name, f)
	}
	h := hostOf(name, row)
	d := &hosts.Dialer{Client: "tuios hosts test", Version: version.Get().Module, Protocol: proto.Version}
	res, err := d.Resolve(h)
	asJSON := flagBool(ctx, "json")
	var link *hosts.Link
	if err == nil {
		link, err = d.Dial(context.Background(), h)
		if link != nil {
			res = link.Where
			defer link.Close()
		}
	}
	out := map[string]any{"type": "host_test", "host": name, "ok": err == nil}
	if res != nil {
		out["resolved"] = res
	}
	status := "up"
	var he *hosts.Error
	if errors.As(err, &he) {
		status = he.Reason.Status()
		out["reason"] = he.Reason
	}
	out["status"] = status
	if link != nil {
		out["hello"] = link.Hello
		// What the far daemon said is another machine's word (§1.6).
		out["untrusted"] = true
	}
	if asJSON {
		if err != nil {
			out["error"] = map[string]string{"code": string(codeOfHostErr(err)), "message": err.Error(), "hint": hintOf(err)}
		}
		if perr := printJSON(ctx.Stdout, out); perr != nil {
			return perr
		}
		if err != nil {
			return &Error{Code: string(codeOfHostErr(err)), Message: "host " + name + ": " + status, Hint: hintOf(err)}
		}
		return nil
	}
	w := ctx.Stdout
	if res != nil {
		fmt.Fprintf(w, "host %s: ssh %s@%s port %d (timeout %s)\n", name, res.User, res.HostName, res.Port, res.Timeout)
		if res.SSHConfig != "" {
			fmt.Fprintf(w, "  ssh config:  %s\n", res.SSHConfig)
		}
		fmt.Fprintf(w, "  known_hosts: %s as %s\n", orNone(res.KnownHosts), res.KeyName)
		fmt.Fprintf(w, "  keys:        agent=%v, files %s\n", res.Agent, orNone(res.IdentityFiles))
		fmt.Fprintf(w, "  far command: %s\n", res.RemoteCommand)
		fmt.Fprintf(w, "  looked for tuios in: %s\n", strings.Join(res.LookedIn, ", "))
		for _, n := range res.Notes {
			fmt.Fprintf(w, "  note: %s\n", escapeControls(n))
		}
	}
	if err != nil {
		fmt.Fprintf(w, "status: %s\n", status)
		return err
	}
	hl := link.Hello
	fmt.Fprintf(w, "status: up: far daemon %s (protocol %d, pid %d, %d sessions), link-peer %v\n",
		escapeControls(hl.DaemonVersion), hl.Protocol, hl.PID, hl.Sessions, hl.LinkPeer)
	return nil
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, ", ")
}

func codeOfHostErr(err error) hosts.Code {
	var he *hosts.Error
	if errors.As(err, &he) {
		return he.Code()
	}
	if code, _, ok := proto.CodeOf(err); ok {
		return hosts.Code(code)
	}
	return "internal"
}

func hintOf(err error) string {
	if _, hint, ok := proto.CodeOf(err); ok {
		return hint
	}
	return ""
}
