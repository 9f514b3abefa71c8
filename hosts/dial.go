package hosts

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// SearchPaths are where a far tuios is looked for, after the far PATH,
// when a host names no command. $HOME is the far user's home.
func SearchPaths() []string {
	return []string{"$HOME/.local/bin/tuios", "$HOME/go/bin/tuios", "$HOME/bin/tuios",
		"/usr/local/bin/tuios", "/opt/homebrew/bin/tuios", "/usr/bin/tuios"}
}

// exitNoTuios is what the search script exits with when it found nothing
// (the shell's own "command not found" code, so a configured command that
// is missing reads the same).
const exitNoTuios = 127

// exitNoDaemon is what `tuios stdio-proxy` exits with when no daemon
// answers there (the CLI's exit code 3).
const exitNoDaemon = 3

// RemoteCommand is the command line the far sshd runs for h: the
// configured command followed by stdio-proxy, or a POSIX sh script that
// looks on PATH and in SearchPaths. The script has no single quote so it
// can be wrapped in one pair, whatever the far login shell.
func RemoteCommand(h Host) string {
	if h.Command != "" {
		return h.Command + " stdio-proxy"
	}
	var b strings.Builder
	b.WriteString(`sh -c 'for t in "$(command -v tuios 2>/dev/null)"`)
	for _, p := range SearchPaths() {
		fmt.Fprintf(&b, ` "%s"`, p)
	}
	fmt.Fprintf(&b, `; do if [ -n "$t" ] && [ -x "$t" ]; then exec "$t" stdio-proxy; fi; done; echo "tuios: not found" >&2; exit %d'`, exitNoTuios)
	return b.String()
}

// Dialer dials hosts. Its zero value reads the real ~/.ssh and
// environment of this process.
type Dialer struct {
	// Home is the directory holding .ssh; "" is the user's home.
	Home string
	// Getenv reads SSH_AUTH_SOCK; nil is os.Getenv.
	Getenv func(string) string
	// Peer is this machine's name sent with link-peer (the far daemon
	// applies its link policy by it); "" is the host name up to the
	// first dot, lowercased.
	Peer string
	// Client and Version are sent with hello.
	Client, Version string
	// Protocol is the control protocol this side speaks; 0 is 1.
	Protocol int
}

// Resolved is where a dial went and what it read, for `tuios hosts test`.
type Resolved struct {
	Host          string   `json:"host"`
	User          string   `json:"user"`
	HostName      string   `json:"hostname"`
	Port          int      `json:"port"`
	KeyName       string   `json:"known_hosts_name"`
	KnownHosts    []string `json:"known_hosts_files"`
	IdentityFiles []string `json:"identity_files"`
	Agent         bool     `json:"agent"`
	SSHConfig     string   `json:"ssh_config,omitempty"`
	RemoteCommand string   `json:"remote_command"`
	LookedIn      []string `json:"looked_for_tuios"`
	Notes         []string `json:"notes,omitempty"`
	Timeout       string   `json:"connect_timeout,omitempty"`
	// Via are the jump hosts the link goes through, in dialling order,
	// each resolved like a host (its Host is the jump host's name).
	Via []*Resolved `json:"via,omitempty"`

	owner string // for a jump host: the tuios host it leads to
	spec  string // for a jump host: how -J names it
	reach string // the -J value that reaches this machine ("" when direct)
}

// Hello is the far daemon's answer to hello, plus what link-peer said.
type Hello struct {
	Protocol      int    `json:"protocol"`
	MinProtocol   int    `json:"min_protocol"`
	DaemonVersion string `json:"daemon_version"`
	PID           int    `json:"pid"`
	Sessions      int    `json:"sessions"`
	// LinkPeer is false when the far daemon does not know link-peer yet
	// (it then cannot enforce a link policy).
	LinkPeer bool `json:"link_peer"`
}

func (d *Dialer) getenv(k string) string {
	if d.Getenv != nil {
		return d.Getenv(k)
	}
	return os.Getenv(k)
}

func (d *Dialer) home() string {
	if d.Home != "" {
		return d.Home
	}
	h, _ := os.UserHomeDir()
	return h
}

// Resolve works out where h's link would go without dialling: the
// ssh_config lookup, the options, the files. The error is a refusal
// (bad row, a command-running setting, ProxyJump not done yet).
func (d *Dialer) Resolve(h Host) (*Resolved, error) {
	if err := h.Check(); err != nil {
		return nil, err
	}
	opt, _ := ParseOptions(h.SSHOptions)
	user, alias, port, err := splitAddr(h.Addr)
	if err != nil {
		return nil, newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "give the address ssh would use, e.g. me@buildbox", "%v", err)
	}
	home := d.home()
	r := &Resolved{Host: h.Name, RemoteCommand: RemoteCommand(h)}
	cfgPath := filepath.Join(home, ".ssh", "config")
	var sc SSHSettings
	var cfg *SSHConfig
	if _, err := os.Stat(cfgPath); err == nil {
		var perr error
		cfg, perr = ReadSSHConfigFile(cfgPath, SSHConfigFiles{Home: home})
		if perr != nil {
			return nil, newErr(CodeInvalidParams, ReasonSSHConfig, h.Name, "fix "+cfgPath, "%v", perr)
		}
		r.SSHConfig = cfgPath
		sc = cfg.Lookup(alias)
		r.Notes = append(r.Notes, sc.Skipped...)
	}
	if len(sc.Commands) > 0 {
		return nil, newErr(CodeHostRefused, ReasonSSHConfig, h.Name,
			"links never run a local command; give the host an addr that needs none, or a Host block without it",
			"%s sets %s for %s", cfgPath, strings.Join(sc.Commands, ", "), alias)
	}
	jumps := opt.ProxyJump
	if jumps == nil && !opt.ProxyJumpNone && sc.ProxyJump != "" {
		if jumps, err = ParseProxyJump(sc.ProxyJump); err != nil {
			file := first(sc.ProxyJumpFile, cfgPath)
			return nil, newErr(CodeHostRefused, ReasonSSHConfig, h.Name, "fix "+file,
				"ProxyJump at line %d of %s: %v", sc.ProxyJumpLine, file, err)
		}
	}
	if r.Via, err = d.route(h, cfg, cfgPath, jumps, 0); err != nil {
		return nil, err
	}
	specs := make([]string, 0, len(r.Via))
	for _, v := range r.Via {
		r.Notes = append(r.Notes, v.Notes...)
		v.Notes = nil
		specs = append(specs, v.spec)
	}
	r.reach = strings.Join(specs, ",")
	d.fillDest(r, alias, user, port, opt, sc)
	if h.Command != "" {
		r.LookedIn = []string{h.Command + " (the host's command)"}
	} else {
		r.LookedIn = append([]string{"PATH"}, SearchPaths()...)
	}
	t := h.ConnectTimeout
	if opt.ConnectTimeoutSeconds > 0 && t == 0 {
		t = time.Duration(opt.ConnectTimeoutSeconds) * time.Second
	}
	if t <= 0 {
		t = DefaultConnectTimeout
	}
	r.Timeout = t.String()
	return r, nil
}

// fillDest resolves one machine of a route, as ssh would: user, host and
// port as written win over ssh_options (opt), which win over its Host block
// (sc); then the known_hosts name and files and the identity files.
func (d *Dialer) fillDest(r *Resolved, alias, user string, port int, opt Options, sc SSHSettings) {
	home := d.home()
	r.HostName = first(opt.HostName, sc.HostName, alias)
	r.User = first(user, opt.User, sc.User, d.getenv("USER"))
	r.Port = port
	for _, p := range []int{opt.Port, sc.Port, 22} {
		if r.Port == 0 {
			r.Port = p
		}
	}
	r.KeyName = knownhosts.Normalize(net.JoinHostPort(r.HostName, strconv.Itoa(r.Port)))
	if ka := first(opt.HostKeyAlias, sc.HostKeyAlias); ka != "" {
		r.KeyName = knownhosts.Normalize(ka)
	}
	r.KnownHosts = knownHostsFiles(home, r, sc)
	ids := append(append([]string{}, opt.IdentityFiles...), sc.IdentityFiles...)
	if len(ids) == 0 {
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			ids = append(ids, filepath.Join(home, ".ssh", n))
		}
	}
	for _, id := range ids {
		r.IdentityFiles = append(r.IdentityFiles, expandPath(id, home, r))
	}
	r.Agent = d.getenv("SSH_AUTH_SOCK") != "" && !opt.IdentitiesOnly
}

// knownHostsFiles are the known_hosts files a link checks the host key
// against: those the Host block names with UserKnownHostsFile and
// GlobalKnownHostsFile, else ssh's defaults; only files that exist.
func knownHostsFiles(home string, r *Resolved, sc SSHSettings) []string {
	user := sc.UserKnownHostsFiles
	if user == nil {
		user = []string{"~/.ssh/known_hosts", "~/.ssh/known_hosts2"}
	}
	global := sc.GlobalKnownHostsFiles
	if global == nil {
		global = []string{"/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2"}
	}
	var out []string
	for _, f := range append(append([]string{}, user...), global...) {
		f = expandPath(f, home, r)
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	return out
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// expandPath does ssh's ~ and the %d %u %h %r %% tokens of IdentityFile.
func expandPath(p, home string, r *Resolved) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	return strings.NewReplacer("%d", home, "%h", r.HostName, "%r", r.User, "%u", r.User, "%%", "%").Replace(p)
}

// hostKeys builds the host key check: known_hosts only. An unknown key
// and a changed key are refused with their own reasons. It also returns
// the key algorithms known_hosts holds for the host, so the server is
// asked for a key we can check rather than one we have never seen.
func (d *Dialer) hostKeys(r *Resolved) (ssh.HostKeyCallback, []string, error) {
	host, hop := r.errHost()
	keyErr := func(code Code, reason Reason, hint, format string, args ...any) *Error {
		e := newErr(code, reason, host, hint, format, args...)
		e.Hop = hop
		return e
	}
	var db ssh.HostKeyCallback
	if len(r.KnownHosts) > 0 {
		var err error
		if db, err = knownhosts.New(r.KnownHosts...); err != nil {
			return nil, nil, keyErr(CodeHostUnreachable, ReasonHostKeyUnknown, "fix or move aside the broken known_hosts line", "reading known_hosts: %v", err)
		}
	}
	lookupAddr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: r.Port}
	// knownhosts looks a name up as host:port. A HostKeyAlias is written
	// in known_hosts as it is, with no port (as ssh does), which is what
	// knownhosts makes of port 22.
	keyName := r.KeyName
	if _, _, err := net.SplitHostPort(keyName); err != nil {
		keyName = net.JoinHostPort(keyName, "22")
	}
	var algos []string
	if db != nil {
		probe, err := ed25519Probe()
		if err != nil {
			return nil, nil, err
		}
		var ke *knownhosts.KeyError
		if err := db(keyName, lookupAddr, probe); errors.As(err, &ke) {
			for _, k := range ke.Want {
				switch t := k.Key.Type(); t {
				case ssh.KeyAlgoRSA:
					algos = append(algos, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA)
				default:
					algos = append(algos, t)
				}
			}
		}
	}
	jump := ""
	if r.reach != "" {
		jump = "-J " + r.reach + " "
	}
	unknownHint := fmt.Sprintf("check the key's fingerprint with the machine's owner, then accept it once by hand: ssh %s-p %d %s@%s true (or ssh-keyscan)", jump, r.Port, r.User, r.HostName)
	cb := func(_ string, _ net.Addr, key ssh.PublicKey) error {
		fp := ssh.FingerprintSHA256(key)
		if db == nil {
			return keyErr(CodeHostUnreachable, ReasonHostKeyUnknown, unknownHint,
				"host key %s %s of %s is unknown (no known_hosts file)", key.Type(), fp, r.KeyName)
		}
		err := db(keyName, lookupAddr, key)
		var ke *knownhosts.KeyError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &ke) && len(ke.Want) == 0:
			return keyErr(CodeHostUnreachable, ReasonHostKeyUnknown, unknownHint,
				"host key %s %s of %s is not in %s", key.Type(), fp, r.KeyName, strings.Join(r.KnownHosts, ", "))
		case errors.As(err, &ke):
			w := ke.Want[0]
			return keyErr(CodeHostUnreachable, ReasonHostKeyChanged,
				fmt.Sprintf("the machine's key changed or someone is in the way; if its owner confirms the new key, remove line %d of %s and accept the new one by hand", w.Line, w.Filename),
				"HOST KEY CHANGED for %s: it offered %s %s, %s:%d holds %s", r.KeyName, key.Type(), fp, w.Filename, w.Line, ssh.FingerprintSHA256(w.Key))
		default:
			return keyErr(CodeHostUnreachable, ReasonHostKeyChanged, "the key is revoked in known_hosts", "host key refused: %v", err)
		}
	}
	return cb, algos, nil
}

// ed25519Probe is a public key that is in no known_hosts (all zero
// bytes), used to ask knownhosts which keys it holds for a name.
func ed25519Probe() (ssh.PublicKey, error) {
	return ssh.NewPublicKey(ed25519.PublicKey(make([]byte, ed25519.PublicKeySize)))
}

// signers gathers the keys to offer: the agent's first, then each
// identity file that exists and needs no passphrase (a link never
// prompts, as ssh's BatchMode). What was skipped is noted.
func (d *Dialer) signers(r *Resolved) ([]ssh.Signer, io.Closer) {
	var out []ssh.Signer
	var closer io.Closer
	if r.Agent {
		if c, err := net.Dial("unix", d.getenv("SSH_AUTH_SOCK")); err == nil {
			if s, err := agent.NewClient(c).Signers(); err == nil {
				out = append(out, s...)
				r.Notes = append(r.Notes, fmt.Sprintf("agent offered %d key(s)", len(s)))
			}
			closer = c
		} else {
			r.Notes = append(r.Notes, "SSH_AUTH_SOCK set but the agent did not answer: "+err.Error())
		}
	}
	for _, id := range r.IdentityFiles {
		b, err := os.ReadFile(id)
		if err != nil {
			continue
		}
		s, err := ssh.ParsePrivateKey(b)
		var pm *ssh.PassphraseMissingError
		switch {
		case errors.As(err, &pm):
			r.Notes = append(r.Notes, id+" needs a passphrase: add it to your ssh-agent")
		case err != nil:
			r.Notes = append(r.Notes, id+": "+err.Error())
		default:
			out = append(out, s)
		}
	}
	return out, closer
}

// Dial resolves h, connects with ssh, starts the far stdio-proxy and says
// link-peer then hello, all within h's connect timeout. Every failure is
// an *Error whose Reason gives the link state (Reason.Status).
func (d *Dialer) Dial(ctx context.Context, h Host) (*Link, error) {
	r, err := d.Resolve(h)
	if err != nil {
		return nil, err
	}
	return d.dial(ctx, h, r)
}

func (d *Dialer) dial(ctx context.Context, h Host, r *Resolved) (*Link, error) {
	timeout, _ := time.ParseDuration(r.Timeout)
	// One timeout for the whole route: every jump host and the host.
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	opt, _ := ParseOptions(h.SSHOptions)
	// The first machine of the route is reached over TCP; each next one
	// through a direct-tcpip channel of the one before (ssh -J without the
	// second ssh). The channels all ride the first TCP connection, so
	// closing it when the context ends (the daemon stops, the host is
	// removed) unblocks every read and handshake below at once.
	var conn net.Conn
	stop := func() bool { return true }
	var hops []*ssh.Client
	closeHops := func() {
		for i := len(hops) - 1; i >= 0; i-- {
			hops[i].Close()
		}
	}
	fail := func(err error) (*Link, error) {
		stop()
		closeHops()
		if conn != nil {
			conn.Close()
		}
		return nil, err
	}
	route := append(append([]*Resolved{}, r.Via...), r)
	var client *ssh.Client
	for i, dest := range route {
		addr := net.JoinHostPort(dest.HostName, strconv.Itoa(dest.Port))
		host, hop := dest.errHost()
		var c net.Conn
		if i == 0 {
			var nd net.Dialer
			tc, err := nd.DialContext(ctx, "tcp", addr)
			if err != nil {
				return nil, &Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: host, Hop: hop, Msg: "connecting to " + addr, Err: err,
					hint: "check that the machine is up and sshd listens there (tuios hosts test " + h.Name + ")"}
			}
			if dl, ok := ctx.Deadline(); ok {
				tc.SetDeadline(dl)
			}
			conn, c = tc, tc
			stop = context.AfterFunc(ctx, func() { tc.Close() })
		} else {
			prev := route[i-1]
			var err error
			if c, err = hops[i-1].DialContext(ctx, "tcp", addr); err != nil {
				return fail(&Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: host, Hop: prev.Host, Msg: "forwarding to " + addr, Err: err,
					hint: "the jump host " + prev.Host + " refused to forward (AllowTcpForwarding in its sshd_config) or cannot reach " + addr})
			}
		}
		dopt := Options{}
		if i == len(route)-1 {
			dopt = opt
		}
		cc, err := d.handshake(c, dest, dopt, addr, timeout)
		if err != nil {
			c.Close()
			if ctx.Err() != nil {
				err = &Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: host, Hop: hop, Msg: fmt.Sprintf("no answer from %s within %s (ssh handshake)", addr, timeout), Err: ctx.Err(),
					hint: "raise connect_timeout, or check each machine on the way (tuios hosts test " + h.Name + ")"}
			}
			return fail(err)
		}
		if dest != r {
			for _, n := range dest.Notes {
				r.Notes = append(r.Notes, "jump host "+dest.Host+": "+n)
			}
			dest.Notes = nil
		}
		if i < len(route)-1 {
			hops = append(hops, cc)
		} else {
			client = cc
		}
	}
	l, err := d.start(client, hops, h, r)
	// The connection's own deadline (the same instant) may end the reads
	// before the context's timer has run: past the deadline is a timeout
	// either way, whatever the reads then said.
	dl, _ := ctx.Deadline()
	if !stop() || ctx.Err() != nil || !time.Now().Before(dl) {
		if err == nil {
			l.Close()
		}
		client.Close()
		return fail(&Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: h.Name, Msg: fmt.Sprintf("no answer from the far tuios within %s", timeout), Err: ctx.Err(),
			hint: "raise connect_timeout, or check the far daemon (tuios hosts test " + h.Name + ")"})
	}
	if err != nil {
		client.Close()
		return fail(err)
	}
	conn.SetDeadline(time.Time{})
	return l, nil
}

// handshake speaks ssh over c to one machine of a route (dest): its host
// key checked against known_hosts, the agent's keys and its identity
// files offered. opt is the host's ssh_options for the host itself and
// empty for a jump host (ssh does not hand -o options to the jump either).
func (d *Dialer) handshake(c net.Conn, dest *Resolved, opt Options, addr string, timeout time.Duration) (*ssh.Client, error) {
	cb, algos, err := d.hostKeys(dest)
	if err != nil {
		return nil, err
	}
	signers, agentConn := d.signers(dest)
	if agentConn != nil {
		defer agentConn.Close()
	}
	cfg := &ssh.ClientConfig{
		User:              dest.User,
		Auth:              []ssh.AuthMethod{ssh.PublicKeys(signers...)},
		HostKeyCallback:   cb,
		HostKeyAlgorithms: first2(opt.HostKeyAlgorithms, algos),
		Timeout:           timeout,
		ClientVersion:     "SSH-2.0-tuios-link",
	}
	cfg.Ciphers, cfg.MACs, cfg.KeyExchanges = opt.Ciphers, opt.MACs, opt.KexAlgorithms
	cc, chans, reqs, err := ssh.NewClientConn(c, dest.KeyName, cfg)
	if err != nil {
		var he *Error
		if errors.As(err, &he) {
			return nil, he
		}
		host, hop := dest.errHost()
		jump := ""
		if dest.reach != "" {
			jump = "-J " + dest.reach + " "
		}
		reason, hint := ReasonConnect, fmt.Sprintf("see what ssh -v %s-p %d %s@%s says", jump, dest.Port, dest.User, dest.HostName)
		if strings.Contains(err.Error(), "unable to authenticate") {
			reason, hint = ReasonAuth, "no key was accepted: load one into ssh-agent or name it with -i, and put its public half in the far authorized_keys"
		}
		return nil, &Error{code: CodeHostUnreachable, Reason: reason, Host: host, Hop: hop, Msg: "ssh handshake with " + addr, Err: err, hint: hint}
	}
	return ssh.NewClient(cc, chans, reqs), nil
}

func first2(a, b []string) []string {
	if len(a) > 0 {
		return a
	}
	return b
}

func (d *Dialer) start(client *ssh.Client, hops []*ssh.Client, h Host, r *Resolved) (*Link, error) {
	l := &Link{client: client, hops: hops, host: h, Where: r, peer: d.peerName(), done: make(chan struct{})}
	opt, _ := ParseOptions(h.SSHOptions)
	l.aliveEvery, l.aliveMax = opt.ServerAliveInterval, opt.ServerAliveCountMax
	if l.aliveEvery <= 0 {
		l.aliveEvery = DefaultAliveInterval
	}
	if l.aliveMax <= 0 {
		l.aliveMax = DefaultAliveCountMax
	}
	st, err := l.newStream()
	if err != nil {
		return nil, err
	}
	l.ctl = st
	// link-peer goes first: the far daemon places the link by it.
	// A daemon that predates link-peer answers unknown_verb; the link
	// still works, but that daemon cannot apply a link policy.
	known, err := st.linkPeer(l)
	if err != nil {
		return nil, err
	}
	if known {
		l.Hello.LinkPeer = true
	} else {
		r.Notes = append(r.Notes, "the far daemon does not know link-peer yet: it cannot apply a link policy")
	}
	proto := d.Protocol
	if proto == 0 {
		proto = 1
	}
	var hello struct {
		Type string `json:"type"`
		Hello
	}
	var pe *callError
	err = l.Call("hello", map[string]any{"client": first(d.Client, "tuios-link"), "version": d.Version, "protocol": proto}, &hello)
	switch {
	case errors.As(err, &pe) && pe.Code == "protocol_mismatch":
		return nil, &Error{code: CodeProtocolMismatch, Reason: ReasonIncompatible, Host: h.Name, Msg: "the far daemon speaks another protocol", Err: err, hint: "install the same tuios on both machines"}
	case err != nil && errors.As(err, &pe):
		return nil, &Error{code: CodeHostRefused, Reason: ReasonProtocol, Host: h.Name, Msg: "the far daemon refused hello", Err: err}
	case err != nil:
		return nil, st.exitError(l, err)
	}
	if hello.Type != "hello" || proto < hello.MinProtocol || proto > hello.Protocol {
		return nil, newErr(CodeProtocolMismatch, ReasonIncompatible, h.Name, "install the same tuios on both machines",
			"the far daemon speaks protocol %d to %d, this side %d", hello.MinProtocol, hello.Protocol, proto)
	}
	l.Hello = Hello{Protocol: hello.Protocol, MinProtocol: hello.MinProtocol, DaemonVersion: hello.DaemonVersion, PID: hello.PID, Sessions: hello.Sessions, LinkPeer: l.Hello.LinkPeer}
	l.watch()
	return l, nil
}

// peerName is the name this machine gives with link-peer.
func (d *Dialer) peerName() string {
	if d.Peer != "" {
		return d.Peer
	}
	hn, _ := os.Hostname()
	peer, _, _ := strings.Cut(strings.ToLower(hn), ".")
	return peer
}

// callError is an error the far daemon answered.
type callError struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Hint    json.RawMessage `json:"hint,omitempty"`
}

func (e *callError) Error() string { return e.Code + ": " + e.Message }

func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > limit {
			return nil, fmt.Errorf("a line from the far side is over %d bytes", limit)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// tailBuffer keeps the last max bytes written to it (the far stderr).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
