package hosts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// SSHConfig is what this package reads of an OpenSSH client config
// (~/.ssh/config): Host blocks and, inside them, HostName, User, Port,
// HostKeyAlias, IdentityFile, ProxyJump, UserKnownHostsFile and
// GlobalKnownHostsFile, plus the keywords that would run a command
// (ProxyCommand, LocalCommand, KnownHostsCommand), noted so a dial can
// refuse instead of quietly connecting another way. Match blocks are not
// evaluated (Match exec runs a command): their settings are skipped and
// Lookup says so.
//
// Include is followed by ReadSSHConfigFile as ssh follows it (OrbStack,
// Colima and 1Password add such lines): each path may be a glob, a
// relative one is under ~/.ssh, the files are read in order at the place
// of the line, an Include inside a Host block applies only when that block
// does, and one inside a Match block is skipped with the block. Includes
// nest at most 16 deep, as in ssh. ParseSSHConfig has no files to follow
// and notes each Include as skipped.
type SSHConfig struct {
	blocks []sshBlock
}

type sshBlock struct {
	patterns []string   // nil for the settings before the first Host
	parents  [][]string // the Host patterns of the blocks that included this one: all must match
	match    bool       // a Match block (or inside one), never applied
	file     string     // "" for the file Lookup's callers name
	line     int
	kv       []sshKV
}

type sshKV struct {
	key, val string
	file     string
	line     int
}

// where names a line for a message: "line 4", or "line 4 of FILE" when it
// came from an included file.
func (kv sshKV) where() string {
	if kv.file == "" {
		return fmt.Sprintf("line %d", kv.line)
	}
	return fmt.Sprintf("line %d of %s", kv.line, kv.file)
}

// applies says whether the block's settings apply to host.
func (b *sshBlock) applies(host string) bool {
	if b.match {
		return false
	}
	for _, p := range b.parents {
		if !matchHost(p, host) {
			return false
		}
	}
	return b.patterns == nil || matchHost(b.patterns, host)
}

// SSHSettings are the settings ssh would use for one host alias.
type SSHSettings struct {
	HostName      string
	User          string
	Port          int
	HostKeyAlias  string
	IdentityFiles []string
	// ProxyJump is the raw value ("" for none), read by ParseProxyJump
	// when the link is dialled; ProxyJumpLine is where it was written,
	// and ProxyJumpFile the included file it was in ("" for the config
	// itself).
	ProxyJump     string
	ProxyJumpLine int
	ProxyJumpFile string
	// UserKnownHostsFiles and GlobalKnownHostsFiles are the files those
	// keywords name, as written (~ and %-tokens not expanded yet); nil
	// when the keyword is not set, empty (not nil) for "none".
	UserKnownHostsFiles   []string
	GlobalKnownHostsFiles []string
	// Commands names keywords that would run a command for this host
	// (ProxyCommand at line 4...). A dial refuses such a host.
	Commands []string
	// Skipped says what applied to the host may have been missed (a
	// Match line, or an Include that was not followed).
	Skipped []string
}

// ParseSSHConfig reads an ssh client config. Keywords are case-insensitive
// and written "Keyword value" or "Keyword=value"; a value may be quoted.
// Include lines are not followed (there is no file to be relative to):
// Lookup notes them as skipped. ReadSSHConfigFile follows them.
func ParseSSHConfig(r io.Reader) (*SSHConfig, error) {
	c := &SSHConfig{blocks: []sshBlock{{}}}
	if err := c.read(r, "", nil, nil); err != nil {
		return nil, err
	}
	return c, nil
}

// Limits of Include: ssh stops at 16 levels; the file count and size
// bound what a glob over a big folder can make a dial read.
const (
	maxIncludeDepth = 16
	maxIncludeFiles = 256
	maxSSHConfig    = 1 << 20
)

// SSHConfigFiles says where ReadSSHConfigFile looks.
type SSHConfigFiles struct {
	// Home is the user's home: ~ in a path, and ~/.ssh for a relative
	// Include. "" is the directory of the file read, one level up.
	Home string
}

// ReadSSHConfigFile reads the ssh client config at path and every file
// its Include lines name. A file that does not exist reads as empty (as
// for ssh); one that is writable by another user, or not owned by this
// user or root, is refused as ssh refuses it ("Bad owner or permissions").
func ReadSSHConfigFile(path string, opt SSHConfigFiles) (*SSHConfig, error) {
	home := opt.Home
	if home == "" {
		home = filepath.Dir(filepath.Dir(path))
	}
	inc := &includer{home: home}
	c := &SSHConfig{blocks: []sshBlock{{}}}
	data, err := inc.load(path)
	if err != nil {
		return nil, err
	}
	if err := c.read(bytes.NewReader(data), "", nil, inc); err != nil {
		return nil, err
	}
	return c, nil
}

// includer reads the files Include names.
type includer struct {
	home  string
	files int
	depth int
}

func (inc *includer) load(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if err := checkConfigOwner(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSSHConfig+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxSSHConfig {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxSSHConfig)
	}
	return data, nil
}

// paths expands one Include value to the files it names, in ssh's order.
func (inc *includer) paths(val string) ([]string, error) {
	words, err := splitValues(val)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, w := range words {
		if w == "~" || strings.HasPrefix(w, "~/") {
			w = inc.home + w[1:]
		} else if !filepath.IsAbs(w) {
			w = filepath.Join(inc.home, ".ssh", w)
		}
		m, err := filepath.Glob(w)
		if err != nil {
			return nil, fmt.Errorf("include %q: %v", w, err)
		}
		out = append(out, m...) // Glob sorts, as ssh's glob(3) does
	}
	return out, nil
}

// read parses one file into c. file is how messages name it ("" for the
// top file); parents are the Host patterns of the blocks it sits in; inc
// is nil when Include is not followed.
func (c *SSHConfig) read(r io.Reader, file string, parents [][]string, inc *includer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	name := func() string {
		if file == "" {
			return "ssh config"
		}
		return file
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		key, rest := splitKeyword(line)
		if key == "" {
			return fmt.Errorf("%s line %d: no keyword", name(), n)
		}
		vals, err := splitValues(rest)
		if err != nil {
			return fmt.Errorf("%s line %d: %v", name(), n, err)
		}
		cur := &c.blocks[len(c.blocks)-1]
		switch strings.ToLower(key) {
		case "host":
			c.blocks = append(c.blocks, sshBlock{patterns: vals, parents: parents, file: file, line: n})
		case "match":
			c.blocks = append(c.blocks, sshBlock{match: true, parents: parents, file: file, line: n})
		case "include":
			if inc == nil || cur.match {
				cur.kv = append(cur.kv, sshKV{key: "include", val: strings.Join(vals, " "), file: file, line: n})
				continue
			}
			if err := c.include(cur, rest, file, n, inc); err != nil {
				return err
			}
		default:
			cur.kv = append(cur.kv, sshKV{key: strings.ToLower(key), val: strings.Join(vals, " "), file: file, line: n})
		}
	}
	return sc.Err()
}

// include reads the files of one Include line found in block cur, then
// starts a block that carries cur's conditions on, so the lines after the
// Include apply as the lines before it did.
func (c *SSHConfig) include(cur *sshBlock, val, file string, line int, inc *includer) error {
	where := fmt.Sprintf("line %d", line)
	if file != "" {
		where += " of " + file
	}
	if inc.depth >= maxIncludeDepth {
		return fmt.Errorf("include at %s: nested more than %d deep", where, maxIncludeDepth)
	}
	paths, err := inc.paths(val)
	if err != nil {
		return fmt.Errorf("include at %s: %v", where, err)
	}
	parents := cur.parents
	if cur.patterns != nil {
		parents = append(append([][]string{}, cur.parents...), cur.patterns)
	}
	resume := sshBlock{patterns: cur.patterns, parents: cur.parents, file: cur.file, line: cur.line}
	for _, p := range paths {
		if inc.files++; inc.files > maxIncludeFiles {
			return fmt.Errorf("include at %s: more than %d files in all", where, maxIncludeFiles)
		}
		data, err := inc.load(p)
		if err != nil {
			return fmt.Errorf("include at %s: %v", where, err)
		}
		// An included file starts in the block that included it.
		c.blocks = append(c.blocks, sshBlock{patterns: nil, parents: parents, file: p, line: 0})
		inc.depth++
		err = c.read(bytes.NewReader(data), p, parents, inc)
		inc.depth--
		if err != nil {
			return err
		}
	}
	c.blocks = append(c.blocks, resume)
	return nil
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
	for i := range c.blocks {
		b := &c.blocks[i]
		if b.match {
			s.Skipped = append(s.Skipped, fmt.Sprintf("Match at %s (not evaluated)", sshKV{file: b.file, line: b.line}.where()))
			continue
		}
		if !b.applies(alias) {
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
					s.Commands = append(s.Commands, fmt.Sprintf("%s at %s", kv.key, kv.where()))
				}
				continue
			case "include":
				s.Skipped = append(s.Skipped, fmt.Sprintf("Include at %s (not followed)", kv.where()))
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
					s.ProxyJump, s.ProxyJumpLine, s.ProxyJumpFile = kv.val, kv.line, kv.file
				}
			case "userknownhostsfile":
				s.UserKnownHostsFiles = knownHostsList(kv.val)
			case "globalknownhostsfile":
				s.GlobalKnownHostsFiles = knownHostsList(kv.val)
			}
		}
	}
	return s
}

// knownHostsList splits a UserKnownHostsFile or GlobalKnownHostsFile
// value: several files, or "none" for none at all.
func knownHostsList(v string) []string {
	words, err := splitValues(v)
	if err != nil || (len(words) == 1 && strings.EqualFold(words[0], "none")) {
		return []string{}
	}
	return words
}
