package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/version"
	"github.com/tuios/tuios/mail"
)

func hostsCommands() []Command {
	return []Command{
		{
			Name: "stdio-proxy", Summary: "bridge stdin and stdout to this machine's daemon (what another machine's link runs over ssh)", Usage: "[--as NAME]",
			Help: "Connects to this machine's daemon socket (as every verb finds it: TUIOS_SOCKET, XDG_RUNTIME_DIR) and copies stdin to it and its answers to stdout, until either side closes. " +
				"It never starts a daemon: with none running it exits 3 so the other machine can say no_daemon. Another machine's `tuios hosts` link runs it through ssh. " +
				"The connection is a link: before bridging it says link-peer itself, so every verb the other machine sends passes this machine's link policy ([hosts.NAME] allow, hold_mail). " +
				"Without --as the other machine names itself, and can claim any name. With --as NAME the name is pinned: put it in authorized_keys as " +
				"command=\"tuios stdio-proxy --as NAME\",restrict before that machine's key, and the policy of [hosts.NAME] holds whatever the other side claims.",
			Example: "ssh buildbox tuios stdio-proxy\n" +
				"# in ~/.ssh/authorized_keys on this machine, before the key of the machine called lab:\n" +
				"command=\"tuios stdio-proxy --as lab\",restrict ssh-ed25519 AAAA... lab",
			Flags: func(fs *FlagSet) {
				fs.String("as", "", "pin the other machine's name (authorized_keys command=); it cannot claim another")
			},
			Run: runStdioProxy,
		},
		{
			Name: "hosts", Summary: "list the other machines this one links to (the [hosts] tables of the config file)", Usage: "[--json]",
			Help: "Lists each [hosts.NAME] table of the config file with its link state as the running daemon holds it: up, connecting, reconnecting, no_daemon, no_tuios, unreachable or incompatible, " +
				"and under the table why a link is down. A host with a refused setting (an ssh option that runs a command, an address starting with '-') is shown with the reason and is never dialled. " +
				"With no daemon running the states are unknown (nothing is started to find out); tuios hosts test NAME dials one now. --json adds the address, command, timeout, ssh options, reason, hint, since and queued mail of each.",
			Example: "tuios hosts\ntuios hosts --json",
			Flags:   jsonFlag,
			Run:     runHostsList,
		},
		{
			Name: "hosts add", Summary: "add or replace a host in the config file", Usage: "NAME ADDR [--ssh-option ARG]... [--connect-timeout S] [--command PATH]",
			Help: "Writes [hosts.NAME] into the config file (other tables and comments are kept; the file is replaced atomically). NAME is letters, digits, '.', '-', '_'. ADDR is what ssh would take: host, user@host, an ~/.ssh/config alias, ssh://user@host:port, and also user@host:port and user@[v6addr]:port (a port there wins over -p). " +
				"--ssh-option takes the safe subset only (-p -i -l, -o Port/User/HostName/HostKeyAlias/IdentityFile/...); an option that runs a command (ProxyCommand, LocalCommand) is refused with the reason. A host that does not answer is still added. " +
				"From a terminal outside tuios the running daemon applies it at once (it starts dialling); from inside a pane it is saved and waits for tuios config apply, run outside tuios.",
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
			Help:    "Drops [hosts.NAME] from the config file, keeping everything else. From a terminal outside tuios the running daemon closes the link at once; from inside a pane it waits for tuios config apply.",
			Example: "tuios hosts remove build",
			Run:     runHostsRemove,
		},
		{
			Name: "hosts rm", Summary: "remove a host (as hosts remove)", Usage: "NAME",
			Example: "tuios hosts rm build",
			Run:     runHostsRemove,
		},
		{
			Name: "config", Summary: "the config file and the changes that wait for it",
			Help:    "tuios config apply makes the running daemon read the config file again.",
			Example: "tuios config apply",
		},
		{
			Name: "config apply", Summary: "apply the config changes that wait: wider grants, hosts, link policy and push addresses", Usage: "[--json]",
			Help: "Makes the running daemon read the config file again and apply what waits for you: [agents.permissions] that gives panes more (strict to open, a grant added), " +
				"the [hosts] tables (a new host is dialled, a changed one redialled, a removed one's link closed at once), a link policy that allows more, " +
				"and [notify] (push notifications: a new address or secret source), one line per change. " +
				"A change that narrows applies as soon as the file is saved; one that widens waits for this, because a program in a pane can edit the file too. " +
				"It prints each change that waited. Refused inside a pane: run it in a terminal outside tuios.",
			Example: "tuios config apply\ntuios config apply --json",
			Flags:   jsonFlag,
			Run:     runConfigApply,
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

// runStdioProxy says link-peer for the other machine (pinned with --as),
// then relays bytes between stdin/stdout and one daemon
// connection. It is what sshd runs, so it stays small: nothing that
// crosses is parsed, no daemon start, exit when either direction ends.
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
	as := str(ctx, "as")
	// The daemon answers this before anything the other machine sends
	// reaches it, so its answer is the only line read here.
	err = c.Call("link-peer", proto.LinkPeerParams{Peer: as, Pinned: as != ""}, nil)
	var pe *proto.Error
	switch {
	case err == nil:
	case as == "" && errors.As(err, &pe) && pe.Code == proto.CodeUnknownVerb:
		// A daemon that predates links: bridge as before.
	case errors.As(err, &pe):
		c.Close()
		e := protoError(err).(*Error)
		e.Message = "this machine's daemon refused the link: " + e.Message
		return e
	default:
		c.Close()
		return &Error{Code: "no_daemon", Message: "this machine's daemon hung up before the link began: " + err.Error(), Exit: ExitNoDaemon}
	}
	conn := c.Conn()
	defer conn.Close()
	in, out := make(chan struct{}), make(chan struct{})
	go func() { io.Copy(conn, ctx.Stdin); close(in) }()
	go func() { io.Copy(ctx.Stdout, conn); close(out) }()
	select {
	case <-out:
	case <-in:
		// The other side stopped writing: the daemon still answers what
		// it was sent (it hangs up once it has), briefly, in case the
		// far end is gone and nothing can tell us.
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		select {
		case <-out:
		case <-time.After(stdioDrain):
		}
	}
	return nil
}

// stdioDrain bounds how long stdio-proxy relays answers after its stdin
// ended.
const stdioDrain = 10 * time.Second

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

// runHostsList shows every host: the config file's tables, and each
// link's state as the running daemon holds it (list-hosts). With no
// daemon running the states are unknown; nothing is started to find out.
func runHostsList(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return unknownVerb(commands(), append([]string{"hosts"}, ctx.Args...))
	}
	f, _, err := loadHosts()
	if err != nil {
		return err
	}
	rows, order := map[string]map[string]any{}, []string{}
	for _, n := range f.HostNames() {
		h := hostOf(n, f.Hosts[n])
		r := hostRow{Host: h, ConnectTimeout: f.Hosts[n].ConnectTimeout}
		if err := h.Check(); err != nil {
			r.Refused = err.Error()
		}
		var m map[string]any
		remarshal(r, &m)
		m["status"] = "unknown"
		rows[n], order = m, append(order, n)
	}
	live, derr := daemonHosts()
	for _, d := range live {
		name, _ := d["name"].(string)
		m, ok := rows[name]
		if !ok {
			// Held by the daemon but no longer (or not yet) in the file.
			m, order = map[string]any{}, append(order, name)
			rows[name] = m
		}
		for k, v := range d {
			if k == "refused" && m["refused"] != nil {
				continue // the file's reason says more than true
			}
			m[k] = v
		}
	}
	list := make([]map[string]any, 0, len(order))
	for _, n := range order {
		if derr == nil && rows[n]["status"] == "unknown" && rows[n]["refused"] == nil {
			// In the file, not applied: the daemon follows removals and
			// narrowing by itself; additions wait for the person.
			rows[n]["status"], rows[n]["reason"] = "pending", "in the config file, not applied yet: run tuios config apply from a terminal outside TUIOS"
		}
		list = append(list, rows[n])
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, map[string]any{"type": "host_list", "hosts": list, "daemon": derr == nil})
	}
	if len(list) == 0 {
		fmt.Fprintln(ctx.Stdout, "no hosts; add one with tuios hosts add NAME ADDR")
		return nil
	}
	var cells [][]string
	for _, m := range list {
		since := ""
		if t, err := time.Parse(time.RFC3339Nano, fmt.Sprint(m["since"])); err == nil {
			since = mail.Age(time.Since(t))
		}
		queued := ""
		if q, ok := m["queued"].(float64); ok && q > 0 {
			queued = strconv.Itoa(int(q))
		}
		cells = append(cells, []string{str0(m["name"]), str0(m["addr"]), str0(m["status"]), since, queued})
	}
	writeTable(ctx.Stdout, []string{"HOST", "ADDR", "STATUS", "SINCE", "QUEUED"}, cells)
	for _, m := range list {
		why := str0(m["refused"])
		if why == "" || why == "true" {
			why = str0(m["reason"])
		}
		if why == "" {
			continue
		}
		line := str0(m["name"]) + ": " + why
		if h := str0(m["hint"]); h != "" {
			line += " (" + h + ")"
		}
		// The reason may quote what the far side said: one escaped line.
		fmt.Fprintln(ctx.Stdout, escapeControls(line))
	}
	var pe *proto.Error
	switch {
	case errors.As(derr, &pe):
		fmt.Fprintf(ctx.Stdout, "The running daemon did not list its links (%s): the states are unknown. tuios hosts test NAME dials one now.\n", escapeControls(pe.Message))
	case derr != nil:
		fmt.Fprintln(ctx.Stdout, "No daemon is running, so no link is held: the states are unknown. tuios hosts test NAME dials one now.")
	}
	return nil
}

// daemonHosts is the running daemon's list-hosts, without starting one.
func daemonHosts() ([]map[string]any, error) {
	c, err := client.Dial(client.Options{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(farBase))
	var res struct {
		Hosts []map[string]any `json:"hosts"`
	}
	if err := c.Call("list-hosts", nil, &res); err != nil {
		return nil, err
	}
	return res.Hosts, nil
}

func str0(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// inPane reports whether this process runs in a tuios pane (the variables
// every pane is given). The daemon decides for itself by peer credentials;
// this only picks the words when the CLI does not ask it.
func inPane() bool {
	return os.Getenv("TUIOS_PANE_ID") != "" || os.Getenv("TUIOS_WINDOW_ID") != ""
}

// applyHosts asks the running daemon to re-read the config file after a
// hosts change, and says what became of the change: applied now, waiting
// for tuios config apply (from a pane), or read by the next daemon.
func applyHosts(w io.Writer, what string) error {
	if inPane() {
		fmt.Fprintf(w, "%s; from inside a pane it waits for tuios config apply, run in a terminal outside tuios\n", what)
		return nil
	}
	c, err := client.Dial(client.Options{})
	if err != nil {
		fmt.Fprintf(w, "%s; no daemon is running, the next one reads it when it starts\n", what)
		return nil
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(farBase))
	var res configApplied
	err = c.Call("apply-config", nil, &res)
	var pe *proto.Error
	switch {
	case err == nil:
		fmt.Fprintf(w, "%s and applied: %s\n", what, res.summary())
		return nil
	case errors.As(err, &pe) && pe.Code == proto.CodeForbidden:
		fmt.Fprintf(w, "%s; it waits for tuios config apply, run in a terminal outside tuios\n", what)
		return nil
	case errors.As(err, &pe) && pe.Code == proto.CodeUnknownVerb:
		fmt.Fprintf(w, "%s; the running daemon is older than this tuios and reads it when restarted\n", what)
		return nil
	}
	return protoError(err)
}

// configApplied is apply-config's answer.
type configApplied struct {
	Path    string   `json:"path"`
	Applied []string `json:"applied"` // the changes that waited
	Added   []string `json:"added"`
	Changed []string `json:"changed"`
	Removed []string `json:"removed"`
	Refused []struct {
		Host   string `json:"host"`
		Reason string `json:"reason"`
	} `json:"refused"`
	Notify []string `json:"notify"` // [notify]'s changes (notify.go)
}

func (r configApplied) summary() string {
	var parts []string
	for _, p := range []struct {
		verb  string
		hosts []string
	}{{"dialling", r.Added}, {"redialling", r.Changed}, {"closed", r.Removed}} {
		if len(p.hosts) > 0 {
			parts = append(parts, p.verb+" "+strings.Join(p.hosts, ", "))
		}
	}
	for _, x := range r.Refused {
		parts = append(parts, "refused "+x.Host+" ("+x.Reason+")")
	}
	if len(parts) == 0 {
		return "no link changed"
	}
	return escapeControls(strings.Join(parts, "; ")) + "; tuios hosts shows the links"
}

// runConfigApply is tuios config apply.
func runConfigApply(ctx *Context) error {
	if len(ctx.Args) > 0 {
		return usageError("tuios config apply", "config apply takes no arguments")
	}
	if inPane() {
		return &Error{Code: "forbidden", Message: "tuios config apply is refused inside a pane: it widens what this machine's daemon reaches and allows",
			Hint: "run it in a terminal outside tuios"}
	}
	c, err := client.Dial(client.Options{})
	if err != nil {
		if flagBool(ctx, "json") {
			return printJSON(ctx.Stdout, map[string]any{"type": "config_applied", "daemon": false})
		}
		fmt.Fprintln(ctx.Stdout, "No daemon is running: the next one reads the config file when it starts.")
		return nil
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(farBase))
	var raw map[string]any
	if err := c.Call("apply-config", nil, &raw); err != nil {
		return protoError(err)
	}
	if flagBool(ctx, "json") {
		return printJSON(ctx.Stdout, raw)
	}
	var res configApplied
	remarshal(raw, &res)
	fmt.Fprintf(ctx.Stdout, "applied %s: %s\n", escapeControls(res.Path), res.summary())
	for _, a := range res.Applied {
		fmt.Fprintf(ctx.Stdout, "  now applies: %s\n", escapeControls(a))
	}
	for _, l := range res.Notify {
		fmt.Fprintln(ctx.Stdout, escapeControls(l))
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
	return applyHosts(ctx.Stdout, fmt.Sprintf("added host %s (%s) to %s", ctx.Args[0], escapeControls(ctx.Args[1]), path))
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
	return applyHosts(ctx.Stdout, fmt.Sprintf("removed host %s from %s", name, path))
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
		// What the far daemon said is another machine's word: data,
		// marked so a script never obeys it.
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
		if len(res.Via) > 0 {
			fmt.Fprintf(w, "  route:       %s\n", res.Route())
		}
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
