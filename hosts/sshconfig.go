package hosts

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// SSHConfig is what this package reads of an OpenSSH client config
// (~/.ssh/config): Host blocks and, inside them, HostName, User, Port,
// HostKeyAlias, IdentityFile and ProxyJump, plus the keywords that would
// run a command (ProxyCommand, LocalCommand, KnownHostsCommand), noted so a
// dial can refuse instead of quietly connecting another way. Match blocks
// are not evaluated (Match exec runs a command): their settings are
// skipped and Lookup says so. Include is not followed, and said so too.
type SSHConfig struct {
	blocks []sshBlock
}

type sshBlock struct {
	patterns []string // nil for the settings before the first Host
	match    bool     // a Match block, never applied
	line     int
	kv       []sshKV
}

type sshKV struct {
	key, val string
	line     int
}

// SSHSettings are the settings ssh would use for one host alias.
type SSHSettings struct {
	HostName      string
	User          string
	Port          int
	HostKeyAlias  string
	IdentityFiles []string
	// ProxyJump is the raw value ("" for none), read by ParseProxyJump
	// when the link is dialled; ProxyJumpLine is where it was written.
	ProxyJump     string
	ProxyJumpLine int
	// Commands names keywords that would run a command for this host
	// (ProxyCommand at line 4...). A dial refuses such a host.
	Commands []string
	// Skipped says what applied to the host may have been missed (a
	// Match or Include line).
	Skipped []string
}

// ParseSSHConfig reads an ssh client config. Keywords are case-insensitive
// and written "Keyword value" or "Keyword=value"; a value may be quoted.
func ParseSSHConfig(r io.Reader) (*SSHConfig, error) {
	c := &SSHConfig{blocks: []sshBlock{{}}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		key, rest := splitKeyword(line)
		if key == "" {
			return nil, fmt.Errorf("ssh config line %d: no keyword", n)
		}
		vals, err := splitValues(rest)
		if err != nil {
			return nil, fmt.Errorf("ssh config line %d: %v", n, err)
		}
		switch strings.ToLower(key) {
		case "host":
			c.blocks = append(c.blocks, sshBlock{patterns: vals, line: n})
		case "match":
			c.blocks = append(c.blocks, sshBlock{match: true, line: n})
		default:
			b := &c.blocks[len(c.blocks)-1]
			b.kv = append(b.kv, sshKV{key: strings.ToLower(key), val: strings.Join(vals, " "), line: n})
		}
	}
	return c, sc.Err()
}

func splitKeyword(line string) (key, rest string) {
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return line, ""
	}
	key, rest = line[:i], strings.TrimLeft(line[i:], " \t")
	// One '=' may stand between keyword and value, with spaces around.
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	return key, rest
}

// splitValues splits on blanks, keeping "double quoted" words together.
func splitValues(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeft(s, " \t") {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				return nil, fmt.Errorf("unclosed quote")
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out, nil
}

// matchHost applies ssh's Host patterns: * and ? globs, a leading '!'
// negates and a negated match rules the block out.
func matchHost(patterns []string, host string) bool {
	matched := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		ok, _ := path.Match(strings.ToLower(p), strings.ToLower(host))
		if ok && neg {
			return false
		}
		matched = matched || ok
	}
	return matched
}

// Lookup gives the settings for alias. As in ssh, the first value of a
// keyword wins, except IdentityFile, which collects every one.
func (c *SSHConfig) Lookup(alias string) SSHSettings {
	var s SSHSettings
	if c == nil {
		return s
	}
	seen := map[string]bool{}
	for _, b := range c.blocks {
		if b.match {
			s.Skipped = append(s.Skipped, fmt.Sprintf("Match at line %d (not evaluated)", b.line))
			continue
		}
		if b.patterns != nil && !matchHost(b.patterns, alias) {
			continue
		}
		for _, kv := range b.kv {
			switch kv.key {
			case "identityfile":
				s.IdentityFiles = append(s.IdentityFiles, kv.val)
				continue
			case "proxycommand", "localcommand", "knownhostscommand":
				// "none" is ssh's way of switching a command off.
				if !strings.EqualFold(kv.val, "none") {
					s.Commands = append(s.Commands, fmt.Sprintf("%s at line %d", kv.key, kv.line))
				}
				continue
			case "include":
				s.Skipped = append(s.Skipped, fmt.Sprintf("Include at line %d (not followed)", kv.line))
				continue
			}
			if seen[kv.key] {
				continue
			}
			seen[kv.key] = true
			switch kv.key {
			case "hostname":
				s.HostName = strings.ReplaceAll(kv.val, "%h", alias)
			case "user":
				s.User = kv.val
			case "hostkeyalias":
				s.HostKeyAlias = kv.val
			case "port":
				if p, err := strconv.Atoi(kv.val); err == nil {
					s.Port = p
				}
			case "proxyjump":
				if !strings.EqualFold(kv.val, "none") {
					s.ProxyJump, s.ProxyJumpLine = kv.val, kv.line
				}
			}
		}
	}
	return s
}
