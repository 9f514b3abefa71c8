package hosts

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// MaxJumps bounds a route: at most this many jump hosts between this
// machine and a host, counting those a jump host's own ProxyJump in
// ~/.ssh/config adds. A longer chain is refused rather than dialled: it is
// more likely a loop (a Host * block whose ProxyJump matches the jump host
// itself) than a network anyone built.
const MaxJumps = 4

// maxJumpValue caps the length of one ProxyJump value read.
const maxJumpValue = 1024

// Jump is one hop of a ProxyJump value (ssh's -J): [user@]host[:port].
type Jump struct {
	User string `json:"user,omitempty"`
	Host string `json:"host"`
	Port int    `json:"port,omitempty"`
}

// String writes the hop back as ssh's -J would take it.
func (j Jump) String() string {
	s := j.Host
	if strings.Contains(s, ":") {
		s = "[" + s + "]"
	}
	if j.User != "" {
		s = j.User + "@" + s
	}
	if j.Port != 0 {
		s += ":" + strconv.Itoa(j.Port)
	}
	return s
}

// ParseProxyJump reads a ProxyJump value: comma-separated
// [user@]host[:port], at most MaxJumps of them, host names or IPv6
// literals in brackets ([::1]:2222) only. ssh also
// takes ssh:// URLs and passes a jump host to a second ssh as an argument,
// so a value that starts with '-', holds blanks, quotes, shell characters
// or a URL could carry more than a machine to go through: every such value
// is refused with the reason, never cleaned up. "none" (any case) is ssh's
// word for "no jump" and reads as no hops and no error; the caller decides
// what it overrides.
func ParseProxyJump(v string) ([]Jump, error) {
	if strings.EqualFold(v, "none") {
		return nil, nil
	}
	if v == "" {
		return nil, fmt.Errorf("ProxyJump is empty (write none for no jump)")
	}
	if len(v) > maxJumpValue {
		return nil, fmt.Errorf("ProxyJump is over %d bytes", maxJumpValue)
	}
	parts := strings.Split(v, ",")
	if len(parts) > MaxJumps {
		return nil, fmt.Errorf("ProxyJump names %d jump hosts; a route has at most %d", len(parts), MaxJumps)
	}
	out := make([]Jump, 0, len(parts))
	for _, p := range parts {
		j, err := parseJump(p)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

func parseJump(p string) (Jump, error) {
	only := func(why string) error {
		return fmt.Errorf("ProxyJump takes host names only ([user@]host[:port], comma-separated), not %q: %s", p, why)
	}
	switch {
	case p == "":
		return Jump{}, only("an empty hop")
	case strings.HasPrefix(p, "-"):
		return Jump{}, only("it starts with '-', as an ssh option would")
	case strings.Contains(p, "://"):
		return Jump{}, only("a URL")
	}
	var j Jump
	rest := p
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		j.User, rest = rest[:i], rest[i+1:]
		if !validUser(j.User) {
			return Jump{}, only("the user is not letters, digits, '.', '-' and '_'")
		}
	}
	host, port, hasPort := rest, "", false
	v6 := strings.HasPrefix(rest, "[")
	if v6 {
		// [v6]:port, as ssh writes an address literal: the brackets keep
		// the address's colons apart from the port's.
		addr, after, ok := strings.Cut(rest[1:], "]")
		if ip := net.ParseIP(addr); !ok || ip == nil || ip.To4() != nil {
			return Jump{}, only("not an IPv6 address in brackets")
		}
		if after != "" && !strings.HasPrefix(after, ":") {
			return Jump{}, only("text after the brackets that is not :port")
		}
		host, port, hasPort = addr, strings.TrimPrefix(after, ":"), after != ""
	} else {
		host, port, hasPort = strings.Cut(rest, ":")
	}
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port == "" || port[0] == '0' || port[0] == '+' {
			return Jump{}, only("the port is not 1..65535")
		}
		j.Port = n
	}
	if !v6 && (!ValidName(host) || strings.HasPrefix(host, "-")) {
		return Jump{}, only("not a host name")
	}
	j.Host = host
	return j, nil
}

// validUser is a login name that cannot be read as anything else: what
// ValidName allows, never starting with '-'.
func validUser(u string) bool {
	return ValidName(u) && !strings.HasPrefix(u, "-") && len(u) <= 64
}

// route works out the jump hosts in front of h, in dialling order. listed
// is what ssh_options or h's Host block named. As ssh does it (each hop is
// reached by a second ssh whose -J is the hops before it), the first
// listed hop's own ProxyJump in ~/.ssh/config puts its route in front;
// the later hops' own ProxyJump lines are overridden by the chain. Each
// hop is resolved like a host: HostName, User, Port, HostKeyAlias and
// IdentityFile from its Host block; a block that would run a command is
// refused, naming the hop.
func (d *Dialer) route(h Host, cfg *SSHConfig, cfgPath string, listed []Jump, depth int) ([]*Resolved, error) {
	if len(listed) == 0 {
		return nil, nil
	}
	tooLong := func(n int) error {
		return newErr(CodeHostRefused, ReasonSSHConfig, h.Name, "shorten the chain, or look for a Host block whose ProxyJump names a jump host that itself matches it (a loop)",
			"the route to %s has over %d jump hosts (%d or more)", h.Name, MaxJumps, n)
	}
	if depth+len(listed) > MaxJumps {
		return nil, tooLong(depth + len(listed))
	}
	var out []*Resolved
	firstSC := cfg.Lookup(listed[0].Host)
	if firstSC.ProxyJump != "" {
		more, err := ParseProxyJump(firstSC.ProxyJump)
		if err != nil {
			file := first(firstSC.ProxyJumpFile, cfgPath)
			e := newErr(CodeHostRefused, ReasonSSHConfig, h.Name, "fix "+file, "its ProxyJump at line %d of %s: %v", firstSC.ProxyJumpLine, file, err)
			e.Hop = listed[0].Host
			return nil, e
		}
		if out, err = d.route(h, cfg, cfgPath, more, depth+len(listed)); err != nil {
			return nil, err
		}
	}
	reach := make([]string, 0, len(out)+len(listed))
	for _, r := range out {
		reach = append(reach, r.spec)
	}
	for _, j := range listed {
		sc := cfg.Lookup(j.Host)
		if len(sc.Commands) > 0 {
			e := newErr(CodeHostRefused, ReasonSSHConfig, h.Name,
				"links never run a local command; give the jump host a Host block without it",
				"%s sets %s for it", cfgPath, strings.Join(sc.Commands, ", "))
			e.Hop = j.Host
			return nil, e
		}
		r := &Resolved{Host: j.Host, owner: h.Name, spec: j.String(), reach: strings.Join(reach, ",")}
		d.fillDest(r, j.Host, j.User, j.Port, Options{}, sc)
		for _, n := range sc.Skipped {
			r.Notes = append(r.Notes, "jump host "+j.Host+": "+n)
		}
		out = append(out, r)
		reach = append(reach, r.spec)
	}
	return out, nil
}

// Route says how a link goes, for `tuios hosts test`: "direct", or "via"
// and each jump host with where it resolved to.
func (r *Resolved) Route() string {
	if len(r.Via) == 0 {
		return "direct"
	}
	parts := make([]string, len(r.Via))
	for i, v := range r.Via {
		parts[i] = fmt.Sprintf("%s (%s@%s port %d)", Jump{Host: v.Host}, v.User, v.HostName, v.Port)
	}
	return "via " + strings.Join(parts, ", ")
}

// errHost is the tuios host a failure concerns, and the jump host on
// the way to it that failed ("" for the host itself).
func (r *Resolved) errHost() (host, hop string) {
	if r.owner != "" {
		return r.owner, r.Host
	}
	return r.Host, ""
}
