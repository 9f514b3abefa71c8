package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/client"
	"github.com/tuios/tuios/internal/proto"
)

// Host routing (the colon rule is hosts.ParseSession's and
// ParseWindow's). A verb whose -s is HOST:SESSION or whose -w is
// HOST:SESSION:WINDOW, or that was given --host NAME, runs on that
// host's daemon: the CLI asks this machine's daemon to open-host-connection
// and then sends the verb, host part stripped, on the same connection,
// where the far daemon answers it with its own verb table. All of it
// happens in callCtx, so every verb that takes -s/-w crosses without code
// of its own.

// hostFlagAnnotation marks the --host flag that targetFlags defines, so
// Main folds only that flag into -s, never a --host of another meaning.
const hostFlagAnnotation = "tuios-route"

// farBase bounds one far verb that has no timeout of its own: a far
// daemon that never answers must not hang the CLI.
const farBase = 30 * time.Second

// hostFlag adds --host NAME (local = this machine).
func hostFlag(fs *FlagSet) {
	fs.String("host", "", "run on the linked host `NAME` (tuios hosts lists them; local = this machine)")
	fs.SetAnnotation("host", hostFlagAnnotation, []string{"session"})
}

// localOnly says whether a command runs only against this machine, and
// what to do instead: such a command refuses a target naming a host.
func localOnly(command string) (string, bool) {
	// None today: attach reads its own -t HOST:SESSION and --host
	// (attach.go), so it is not folded here either.
	return "", false
}

// foldHost turns --host NAME into the host part of -s, so the rest of the
// CLI sees one form: --host build -s api is -s build:api, --host build
// alone is build's most recently active session, and --host local -s a:b
// is this machine's session a:b. -s after --host is the far session's name
// as written (colons included). It also refuses a host-qualified target
// for a command that cannot cross.
func foldHost(cmd *Command, fs *pflag.FlagSet) error {
	if why, ok := localOnly(cmd.Name); ok {
		for _, name := range []string{"target", "session"} {
			f := fs.Lookup(name)
			if f == nil {
				continue
			}
			a := hosts.ParseSession(f.Value.String())
			if a.Remote() {
				return &Error{Code: "invalid_params", Message: fmt.Sprintf("tuios %s runs on this machine only; %q names host %s", cmd.Name, escapeControls(f.Value.String()), a.Host), Hint: why, Host: a.Host}
			}
			if a.Host == hosts.Local {
				fs.Set(name, a.Session) // local:NAME is this machine's NAME
			}
		}
		return nil
	}
	f := fs.Lookup("host")
	if f == nil || f.Annotations[hostFlagAnnotation] == nil || !f.Changed || cmd.Name == "agent-hook" {
		// agent-hook reports on the pane it runs in and exits 0 whatever
		// it is given: it never crosses.
		return nil
	}
	host := f.Value.String()
	if !hosts.ValidName(host) {
		return usageError("tuios hosts lists the hosts; --host local is this machine", "--host %q is not a host name (letters, digits, '.', '-', '_')", escapeControls(host))
	}
	if a := fs.Lookup("all-hosts"); a != nil && a.Changed {
		return usageError("give one of them", "--host and --all-hosts cannot be combined")
	}
	s := fs.Lookup("session")
	if s == nil {
		return usageError("", "tuios %s takes no --host", cmd.Name)
	}
	return fs.Set("session", host+":"+s.Value.String())
}

// routeTarget reads the host out of a verb's params: session (HOST:SESSION)
// and window or to (HOST:SESSION:WINDOW). It returns the host ("" or
// "local" for this machine) and a copy of the params with the host part
// stripped. Two different hosts, or two different sessions, are refused:
// the CLI never guesses which machine was meant.
func routeTarget(p map[string]any) (string, map[string]any, error) {
	out := make(map[string]any, len(p))
	for k, v := range p {
		out[k] = v
	}
	sv, _ := p["session"].(string)
	sa := hosts.ParseSession(sv)
	host, session := sa.Host, sa.Session
	for _, key := range []string{"window", "to"} {
		wv, ok := p[key].(string)
		if !ok {
			continue
		}
		wa := hosts.ParseWindow(wv)
		if wa.Host == "" {
			continue
		}
		if host != "" && host != wa.Host {
			return "", nil, usageError("name the host once: -s HOST:SESSION -w WINDOW, or -w HOST:SESSION:WINDOW alone",
				"the session names host %s but the window names host %s", host, wa.Host)
		}
		if wa.Session != "" && session != "" && wa.Session != session && sv != "" {
			return "", nil, usageError("name the session once: -w HOST:SESSION:WINDOW alone, or -s HOST:SESSION -w WINDOW",
				"-s names session %q but -w names session %q", escapeControls(session), escapeControls(wa.Session))
		}
		host = wa.Host
		if wa.Session != "" {
			session = wa.Session
		}
		setOrDrop(out, key, wa.Window)
	}
	if host == "" {
		return "", p, nil
	}
	setOrDrop(out, "session", session)
	return host, out, nil
}

func setOrDrop(m map[string]any, k, v string) {
	if v == "" {
		delete(m, k)
		return
	}
	m[k] = v
}

// callCtx runs one verb where its target says: on this machine, or on
// another host through this machine's daemon. With a ctx and no --json, a
// verb that crossed says on stderr which host answered (stdout stays the
// far answer alone, for scripts). A result that crossed carries "host" and
// "untrusted": true; so does an error the far daemon answered.
func callCtx(ctx *Context, verb string, p any, result any) error {
	host, rp, err := routeTarget(proto.ParamMap(p))
	if err != nil {
		return err
	}
	if host == "" || host == hosts.Local {
		return callLocal(verb, rp, result)
	}
	if verb == "send-agent-message" {
		// Mail crosses through this machine's daemon, which delivers it
		// over the link (or, with queue, keeps it in the outbox while the
		// link is down). An error the far daemon answered comes back as
		// "host NAME: ...": that machine's word, so untrusted.
		rp["host"] = host
		var raw json.RawMessage
		if err := callLocal(verb, rp, &raw); err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Host = host
				// Why a link is down may quote what ssh or the far side
				// said, as for every other verb (openHostError).
				e.Untrusted = e.Untrusted || e.Code == "host_unreachable" || strings.HasPrefix(e.Message, "host "+host+": ")
			}
			return err
		}
		return decodeRemote(host, raw, result)
	}
	if err := callHost(host, verb, rp, result); err != nil {
		return err
	}
	if ctx != nil && !flagBool(ctx, "json") {
		fmt.Fprintf(ctx.Stderr, "answered by host %s\n", host)
	}
	return nil
}

// callLocal runs one verb on this machine's daemon (starting one if none
// answers).
func callLocal(verb string, p any, result any) error {
	c, err := client.Dial(client.Options{Autostart: true})
	if err != nil {
		return dialError(err)
	}
	defer c.Close()
	return protoError(c.Call(verb, proto.ParamMap(p), result))
}

// dialHost opens a connection to host's daemon through this machine's
// daemon: after open-host-connection every line on c is the far daemon's.
func dialHost(host string, deadline time.Time) (*client.Client, error) {
	c, err := client.Dial(client.Options{Autostart: true})
	if err != nil {
		return nil, dialError(err)
	}
	c.SetDeadline(deadline)
	var hc struct {
		Status string `json:"status"`
	}
	if err := c.Call("open-host-connection", proto.OpenHostParams{Host: host}, &hc); err != nil {
		c.Close()
		return nil, openHostError(host, err)
	}
	return c, nil
}

// openHostError is this machine's daemon refusing the link: its word, so
// not untrusted, but it names the host.
func openHostError(host string, err error) error {
	var pe *proto.Error
	if errors.As(err, &pe) && pe.Code == proto.CodeUnknownVerb {
		return &Error{Code: "host_unreachable", Host: host,
			Message: "this machine's daemon cannot open links to other hosts (it is older than this tuios)",
			Hint:    "restart it with this tuios (tuios kill-server stops it and every pane), then try again"}
	}
	var e *Error
	if !errors.As(protoError(err), &e) {
		return transportError(host, "opening the link", err)
	}
	e.Host = host
	// Why a link is down may quote what the far side said, which is
	// another machine's text: data, marked untrusted. Only unknown_host
	// is this machine's word alone.
	e.Untrusted = e.Code != "unknown_host"
	if e.Code == "host_unreachable" && !strings.Contains(e.Hint, "tuios hosts") {
		e.Hint = strings.TrimPrefix(e.Hint+"; tuios hosts says why the link is down", "; ")
	}
	return e
}

// callHost runs verb on host's daemon and decodes its answer into result.
func callHost(host, verb string, params any, result any) error {
	p := proto.ParamMap(params)
	c, err := dialHost(host, time.Now().Add(farBase))
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(farWait(p)))
	var raw json.RawMessage
	if err := c.Call(verb, p, &raw); err != nil {
		return farError(host, err)
	}
	return decodeRemote(host, raw, result)
}

// farWait is how long a far verb may take: the base plus whatever wait the
// verb itself was given (wait-for's timeout, ask-agent's waits).
func farWait(p map[string]any) time.Duration {
	d := farBase
	for _, k := range []string{"timeout", "ready_timeout"} {
		if ms, ok := p[k].(int); ok && ms > 0 {
			d += time.Duration(ms) * time.Millisecond
		}
	}
	return d
}

// farError reports a far failure. A far daemon's error keeps its code,
// its message says the host, and it is marked untrusted: another machine
// wrote it.
func farError(host string, err error) error {
	var pe *proto.Error
	if !errors.As(err, &pe) {
		return transportError(host, "waiting for its answer", err)
	}
	var e *Error
	errors.As(protoError(err), &e)
	if !strings.HasPrefix(e.Message, "host "+host+": ") {
		e.Message = "host " + host + ": " + e.Message
	}
	if e.Hint != "" && !strings.HasPrefix(e.Hint, "host "+host) {
		// A far hint names commands for that machine.
		e.Hint = "host " + host + " says: " + e.Hint
	}
	e.Host, e.Untrusted = host, true
	return e
}

// transportError is a link that broke, timed out or carried garbage.
func transportError(host, doing string, err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded) {
		return &Error{Code: "timeout", Host: host, Untrusted: true, Message: fmt.Sprintf("host %s did not answer in time (%s)", host, doing),
			Hint: "tuios hosts shows the link; tuios hosts test " + host + " dials it again"}
	}
	msg := strings.Replace(err.Error(), "the daemon", "host "+host+"'s daemon", 1)
	return &Error{Code: "host_unreachable", Host: host, Untrusted: true, Message: msg,
		Hint: "tuios hosts says why the link is down; tuios hosts test " + host + " dials it again"}
}

// decodeRemote marks a far answer as such: "host" and "untrusted": true
// on the object (it is that machine's word about its own sessions), then
// decodes it into result.
func decodeRemote(host string, raw json.RawMessage, result any) error {
	var obj map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" {
		obj = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(raw, &obj); err != nil {
		return &Error{Code: "host_unreachable", Host: host, Untrusted: true,
			Message: fmt.Sprintf("host %s answered something that is not a result object", host),
			Hint:    "tuios hosts test " + host + " says which tuios answers there"}
	}
	obj["host"], _ = json.Marshal(host)
	obj["untrusted"] = json.RawMessage("true")
	if result == nil {
		return nil
	}
	b, _ := json.Marshal(obj)
	if err := json.Unmarshal(b, result); err != nil {
		return &Error{Code: "host_unreachable", Host: host, Untrusted: true,
			Message: fmt.Sprintf("host %s answered a result this tuios cannot read: %v", host, err),
			Hint:    "the two machines may run different tuios versions: tuios hosts test " + host}
	}
	return nil
}

// remoteOf says which host a verb's target names ("" for this machine),
// for output that changes with it (capture-pane's fence).
func remoteOf(p any) string {
	host, _, err := routeTarget(proto.ParamMap(p))
	if err != nil || host == hosts.Local {
		return ""
	}
	return host
}

// targetName is a far target written back as HOST:SESSION:WINDOW (parts
// the caller left out are empty), to name it in a fence.
func targetName(p any) string {
	host, rp, err := routeTarget(proto.ParamMap(p))
	if err != nil {
		return ""
	}
	s, _ := rp["session"].(string)
	w, _ := rp["window"].(string)
	return host + ":" + s + ":" + w
}

// writeMaybeFenced prints a verb's text: as it is when this machine
// wrote it, fenced when a far host did (it quotes that machine's panes).
func writeMaybeFenced(ctx *Context, p any, text string) {
	if remoteOf(p) != "" {
		fmt.Fprint(ctx.Stdout, fenceRemote(targetName(p), text, false))
		return
	}
	fmt.Fprint(ctx.Stdout, text)
}
