package hosts

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultConnectTimeout bounds one dial when a host names none.
const DefaultConnectTimeout = 10 * time.Second

// Host is one row of the hosts table, [hosts.NAME] in the config file.
type Host struct {
	// Name is how addresses and verbs name the host (ValidName).
	Name string `json:"name"`
	// Addr is the ssh destination: host, user@host, an ssh_config alias
	// or ssh://[user@]host[:port].
	Addr string `json:"addr"`
	// ConnectTimeout bounds one dial; zero is DefaultConnectTimeout.
	ConnectTimeout time.Duration `json:"connect_timeout,omitempty"`
	// Command is the far tuios ("" looks on PATH and in SearchPaths). It
	// is given to the far login shell followed by " stdio-proxy", so it
	// may be "env XDG_RUNTIME_DIR=/x /opt/tuios/bin/tuios".
	Command string `json:"command,omitempty"`
	// SSHOptions are ssh command-line options from the safe subset
	// ParseOptions accepts ("-p 2222", "-o User=me", or "-p" and "2222"
	// as two items).
	SSHOptions []string `json:"ssh_options,omitempty"`
}

// Check refuses a row that must not be dialled: a bad name, an addr or
// command that starts with '-' (it would be read as an ssh option by
// anything that hands it to ssh), control characters, or an ssh option
// outside the safe subset. The error says which and why.
func (h Host) Check() error {
	if !ValidName(h.Name) {
		return newErr(CodeInvalidParams, ReasonBadName, h.Name, "use letters, digits, '.', '-' and '_'", "%q is not a host name", h.Name)
	}
	if h.Name == Local {
		return newErr(CodeInvalidParams, ReasonBadName, h.Name, "local always means this machine; pick another name", "the name local is reserved")
	}
	if h.Addr == "" {
		return newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "give the address ssh would use, e.g. me@buildbox", "no addr")
	}
	if strings.HasPrefix(h.Addr, "-") {
		return newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "an address never starts with '-': that is how an ssh option is smuggled in", "addr %q starts with '-'", h.Addr)
	}
	if hasControl(h.Addr) || strings.ContainsAny(h.Addr, " \t") {
		return newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "an address has no spaces or control characters", "addr %q is not an ssh destination", h.Addr)
	}
	if _, _, _, err := splitAddr(h.Addr); err != nil {
		return newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "give the address ssh would use: host, user@host, user@host:port, user@[v6addr]:port or ssh://user@host:port", "%v", err)
	}
	if strings.HasPrefix(h.Command, "-") || hasControl(h.Command) {
		return newErr(CodeInvalidParams, ReasonBadAddr, h.Name, "command is the path of the far tuios", "command %q starts with '-' or has control characters", h.Command)
	}
	if _, err := ParseOptions(h.SSHOptions); err != nil {
		if e, ok := err.(*Error); ok {
			e.Host = h.Name
		}
		return err
	}
	return nil
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// Options are the ssh settings a row's ssh_options named. An empty field
// was not named.
type Options struct {
	Port          int
	User          string
	HostName      string
	HostKeyAlias  string
	IdentityFiles []string
	// ProxyJump is the chain of jump hosts named with -J or -o
	// ProxyJump; ProxyJumpNone is "none" given there, which switches off a
	// ProxyJump of ~/.ssh/config as it does for ssh.
	ProxyJump             []Jump
	ProxyJumpNone         bool
	ServerAliveInterval   time.Duration
	ServerAliveCountMax   int
	Ciphers, MACs         []string
	KexAlgorithms         []string
	HostKeyAlgorithms     []string
	PubkeyAlgorithms      []string
	ForwardAgent          bool
	IdentitiesOnly        bool
	ConnectTimeoutSeconds int
}

// refusedOption says why a keyword is refused: the keywords that run a command, read another
// file of trust, or open something besides the link. They get their own
// reason; any other keyword not in the safe list is refused as unknown.
func refusedOption(key string) (string, bool) {
	switch key {
	case "proxycommand":
		return "it runs a command on this machine", true
	case "localcommand":
		return "it runs a command on this machine", true
	case "permitlocalcommand":
		return "it lets LocalCommand run a command on this machine", true
	case "knownhostscommand":
		return "it runs a command on this machine", true
	case "remotecommand":
		return "the link picks the far command itself", true
	case "userknownhostsfile":
		return "host keys are checked against your own known_hosts only", true
	case "globalknownhostsfile":
		return "host keys are checked against your own known_hosts only", true
	case "controlpath":
		return "a control socket would let another process use the link", true
	case "controlmaster":
		return "a control socket would let another process use the link", true
	case "controlpersist":
		return "a control socket would let another process use the link", true
	case "localforward":
		return "the link opens no forwards", true
	case "remoteforward":
		return "the link opens no forwards", true
	case "dynamicforward":
		return "the link opens no forwards", true
	case "streamlocalbindunlink":
		return "the link opens no forwards", true
	case "include":
		return "it reads another file of options", true
	case "match":
		return "it can run a command (Match exec)", true
	case "setenv":
		return "the link sets no environment on the far side", true
	case "sendenv":
		return "the link sends no environment to the far side", true
	case "pkcs11provider":
		return "it loads a library into the dialling process", true
	case "securitykeyprovider":
		return "it loads a library into the dialling process", true
	}
	return "", false
}

// refusedFlag says why a flag is refused: ssh's single-letter flags outside the subset.
func refusedFlag(flag string) (string, bool) {
	switch flag {
	case "-F":
		return "it reads another ssh config file", true
	case "-L":
		return "the link opens no forwards", true
	case "-R":
		return "the link opens no forwards", true
	case "-D":
		return "the link opens no forwards", true
	case "-W":
		return "the link opens no forwards", true
	case "-S":
		return "a control socket would let another process use the link", true
	case "-M":
		return "a control socket would let another process use the link", true
	case "-O":
		return "a control socket would let another process use the link", true
	case "-E":
		return "the link writes no log files", true
	case "-I":
		return "it loads a library into the dialling process", true
	}
	return "", false
}

// ParseOptions reads ssh_options against the safe subset: -p, -i,
// -l, -J and -o Keyword=value for Port, User, HostName, HostKeyAlias,
// IdentityFile, StrictHostKeyChecking (yes only: a key is never accepted
// silently), BatchMode (yes only), ServerAliveInterval,
// ServerAliveCountMax, ConnectTimeout, the algorithm lists, ForwardAgent
// yes|no, IdentitiesOnly, and ProxyJump with host names only. Anything
// else is refused with the reason; nothing is ignored.
func ParseOptions(args []string) (Options, error) {
	var o Options
	// "-p 2222" as one item is split, so a config written either way reads
	// the same.
	var argv []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			if f, v, ok := strings.Cut(a, " "); ok {
				argv = append(argv, f, strings.TrimSpace(v))
				continue
			}
		}
		argv = append(argv, a)
	}
	refuse := func(arg, why string) error {
		return newErr(CodeInvalidParams, ReasonOptionRefused, "", "remove it from ssh_options (tuios hosts add NAME ADDR --ssh-option ...)", "ssh option %q is refused: %s", arg, why)
	}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if hasControl(a) {
			return o, refuse(a, "it has control characters")
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			return o, refuse(a, "only options are allowed here (the address is addr)")
		}
		flag, val := a[:2], a[2:]
		if why, ok := refusedFlag(flag); ok {
			return o, refuse(a, why)
		}
		switch flag {
		case "-p", "-i", "-l", "-J", "-o":
		default:
			return o, refuse(a, "not in the safe subset (-p -i -l -J -o)")
		}
		if val == "" {
			if i+1 >= len(argv) {
				return o, refuse(a, "it needs a value")
			}
			i++
			val = argv[i]
		}
		var err error
		switch flag {
		case "-p":
			err = o.set("port", val)
		case "-i":
			err = o.set("identityfile", val)
		case "-l":
			err = o.set("user", val)
		case "-J":
			err = o.set("proxyjump", val)
		case "-o":
			k, v, ok := strings.Cut(val, "=")
			if !ok {
				k, v, ok = strings.Cut(val, " ")
			}
			if !ok {
				return o, refuse(val, "write -o Keyword=value")
			}
			key := strings.ToLower(strings.TrimSpace(k))
			if why, bad := refusedOption(key); bad {
				return o, refuse(val, why)
			}
			err = o.set(key, strings.TrimSpace(v))
		}
		if err != nil {
			return o, refuse(a+" "+val, err.Error())
		}
	}
	return o, nil
}

func (o *Options) set(key, v string) error {
	if strings.HasPrefix(v, "-") {
		return fmt.Errorf("a value never starts with '-'")
	}
	yesNo := func() (bool, error) {
		switch strings.ToLower(v) {
		case "yes", "true":
			return true, nil
		case "no", "false":
			return false, nil
		}
		return false, fmt.Errorf("%s takes yes or no", key)
	}
	list := func() []string { return strings.Split(v, ",") }
	var err error
	switch key {
	case "port":
		o.Port, err = parsePort(v)
	case "user":
		o.User = v
	case "hostname":
		o.HostName = v
	case "hostkeyalias":
		o.HostKeyAlias = v
	case "identityfile":
		o.IdentityFiles = append(o.IdentityFiles, v)
	case "proxyjump":
		// One ProxyJump only (ssh refuses a second -J): a chain is
		// written a,b.
		if o.ProxyJump != nil || o.ProxyJumpNone {
			return fmt.Errorf("ProxyJump is given twice; write a chain as one value, jump1,jump2")
		}
		if strings.EqualFold(v, "none") {
			o.ProxyJumpNone = true
			return nil
		}
		o.ProxyJump, err = ParseProxyJump(v)
	case "stricthostkeychecking":
		if strings.ToLower(v) != "yes" {
			return fmt.Errorf("only yes: an unknown or changed host key is never accepted silently; add it to known_hosts by hand (ssh once, or ssh-keyscan)")
		}
	case "batchmode":
		if strings.ToLower(v) != "yes" {
			return fmt.Errorf("only yes: a link never prompts")
		}
	case "serveraliveinterval":
		var n int
		if n, err = strconv.Atoi(v); err == nil && n >= 0 {
			o.ServerAliveInterval = time.Duration(n) * time.Second
		} else if err == nil {
			err = fmt.Errorf("a number of seconds")
		}
	case "serveralivecountmax":
		o.ServerAliveCountMax, err = strconv.Atoi(v)
	case "connecttimeout":
		o.ConnectTimeoutSeconds, err = strconv.Atoi(v)
	case "ciphers":
		o.Ciphers = list()
	case "macs":
		o.MACs = list()
	case "kexalgorithms":
		o.KexAlgorithms = list()
	case "hostkeyalgorithms":
		o.HostKeyAlgorithms = list()
	case "pubkeyacceptedalgorithms", "pubkeyacceptedkeytypes":
		o.PubkeyAlgorithms = list()
	case "forwardagent":
		// yes|no only: ForwardAgent also takes a socket path, which
		// would hand another agent's keys to the far machine.
		o.ForwardAgent, err = yesNo()
		if o.ForwardAgent {
			err = fmt.Errorf("agent forwarding is not done by links yet; use ForwardAgent=no")
		}
	case "identitiesonly":
		o.IdentitiesOnly, err = yesNo()
	default:
		return fmt.Errorf("not in the safe subset (%s)", strings.Join(safeKeywords(), ", "))
	}
	return err
}

func safeKeywords() []string {
	k := []string{"Port", "User", "HostName", "HostKeyAlias", "IdentityFile", "ProxyJump", "StrictHostKeyChecking",
		"BatchMode", "ServerAliveInterval", "ServerAliveCountMax", "ConnectTimeout", "Ciphers", "MACs", "KexAlgorithms",
		"HostKeyAlgorithms", "PubkeyAcceptedAlgorithms", "ForwardAgent", "IdentitiesOnly"}
	sort.Strings(k)
	return k
}

func parsePort(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 65535 || v[0] < '1' || v[0] > '9' {
		return 0, fmt.Errorf("port %q is not 1..65535", v)
	}
	return n, nil
}

// splitAddr reads addr into user, host and port (0 when not given):
// host, user@host, host:port, user@host:port, ssh://[user@]host[:port],
// and an IPv6 literal bare (no port: its colons are the address's) or in
// brackets ([v6], [v6]:port).
func splitAddr(addr string) (user, host string, port int, err error) {
	rest := addr
	if r, ok := strings.CutPrefix(rest, "ssh://"); ok {
		rest = strings.TrimSuffix(r, "/")
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		user, rest = rest[:i], rest[i+1:]
	}
	switch {
	case strings.HasPrefix(rest, "["):
		inner, after, ok := strings.Cut(rest[1:], "]")
		if !ok {
			return "", "", 0, fmt.Errorf("%q opens a [ it does not close", addr)
		}
		if after != "" {
			p, ok := strings.CutPrefix(after, ":")
			if !ok {
				return "", "", 0, fmt.Errorf("%q has %q after the brackets, not :port", addr, after)
			}
			if port, err = parsePort(p); err != nil {
				return "", "", 0, err
			}
		}
		host = inner
	case strings.Count(rest, ":") == 1:
		var p string
		host, p, _ = strings.Cut(rest, ":")
		if port, err = parsePort(p); err != nil {
			return "", "", 0, err
		}
	default: // a name, or an IPv6 literal without brackets (and so without a port)
		host = rest
	}
	if host == "" || strings.HasPrefix(host, "-") || strings.ContainsAny(host, "[]/@") {
		return "", "", 0, fmt.Errorf("no host in %q", addr)
	}
	return user, host, port, nil
}
