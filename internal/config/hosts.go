package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tuios/tuios/internal/atomicfile"
)

// Host is one [hosts.NAME] table: a machine this daemon links to over
// ssh, and what that machine may do here. The hosts package checks
// the values (names, the ssh option subset); this is only the schema.
type Host struct {
	// Addr is the ssh destination (required to dial).
	Addr string `toml:"addr,omitempty"`
	// ConnectTimeout is seconds per dial; 0 is 10.
	ConnectTimeout int `toml:"connect_timeout,omitzero"`
	// Command is the far tuios; "" looks on PATH and the usual paths.
	Command string `toml:"command,omitempty"`
	// SSHOptions are ssh options from the safe subset.
	SSHOptions []string `toml:"ssh_options,omitempty"`
	// ReposRoot and HostedGrace are read for hosted panes (drawn here,
	// their process on that machine; the grace is how long it keeps the
	// process while the link is down).
	ReposRoot string `toml:"repos_root,omitempty"`
	// Allow is what that machine may do here over its link: nil
	// leaves it to [hosts."*"] and then the built-in default, a set list
	// (even an empty one) replaces it. LinkPolicy resolves it.
	Allow *[]string `toml:"allow,omitempty"`
	// HoldMail (nil: as [hosts."*"] says, else off) stores that
	// machine's mail to anyone but human with the person, held.
	HoldMail    *bool  `toml:"hold_mail,omitempty"`
	HostedGrace string `toml:"hosted_grace,omitempty"`
}

// HostNames lists the hosts that can be dialled (every table but "*"),
// sorted.
func (f *File) HostNames() []string {
	var out []string
	for n := range f.Hosts {
		if n != "*" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// hostHeader matches the header of [hosts.NAME], bare or quoted.
func hostHeader(name string) *regexp.Regexp {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`^\s*\[\s*hosts\s*\.\s*(` + q + `|"` + q + `"|'` + q + `')\s*\]\s*(#.*)?$`)
}

// SetHost writes [hosts.NAME] into the config file at path: an existing
// table of that name is replaced where it stands, a new one is appended.
// Every other line (other tables, comments) is kept as written. The file
// is written atomically (a temporary file renamed over it, mode kept). If
// the host is written some other way this edit cannot see (an inline
// table, dotted keys under [hosts]), the result is checked by reading it
// back and the file is left alone with an error.
func SetHost(path, name string, h Host) error {
	var enc bytes.Buffer
	if err := toml.NewEncoder(&enc).Encode(map[string]map[string]Host{"hosts": {name: h}}); err != nil {
		return err
	}
	section := strings.TrimLeft(enc.String(), "\n")
	// The encoder writes an empty [hosts] parent first; only the
	// [hosts.NAME] table itself is ours to write.
	if i := strings.Index(section, "[hosts."); i >= 0 {
		section = section[i:]
	}
	return editHosts(path, name, section, func(f *File) error {
		got, ok := f.Hosts[name]
		if !ok || got.Addr != h.Addr {
			return fmt.Errorf("host %s is written in a form this edit does not change (an inline table?): edit the file by hand", name)
		}
		return nil
	})
}

// RemoveHost drops [hosts.NAME] from the config file at path. A host
// that is not there is an error naming the hosts that are.
func RemoveHost(path, name string) error {
	return editHosts(path, name, "", func(f *File) error {
		if _, ok := f.Hosts[name]; ok {
			return fmt.Errorf("host %s is written in a form this edit does not change (an inline table?): edit the file by hand", name)
		}
		return nil
	})
}

func editHosts(path, name, section string, check func(*File) error) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return &Error{Path: path, Err: err}
	}
	if _, perr := Parse(data); perr != nil {
		return &Error{Path: path, Err: fmt.Errorf("the file does not parse, so it is not edited: %w", perr)}
	}
	lines := strings.SplitAfter(string(data), "\n")
	head := hostHeader(name)
	tableHeader := regexp.MustCompile(`^\s*\[`)
	var out []string
	found := false
	for i := 0; i < len(lines); i++ {
		if !head.MatchString(strings.TrimRight(lines[i], "\r\n")) {
			out = append(out, lines[i])
			continue
		}
		found = true
		// Skip the table's body, up to the next table header.
		for i+1 < len(lines) && !tableHeader.MatchString(lines[i+1]) {
			i++
		}
		if section != "" {
			out = append(out, section, "\n")
			section = ""
		}
	}
	if section == "" && !found {
		return &Error{Path: path, Err: &noHostError{name: name}}
	}
	text := strings.Join(out, "")
	if section != "" {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		text += section
	}
	f, err := Parse([]byte(text))
	if err != nil {
		return &Error{Path: path, Err: fmt.Errorf("the edit would not parse, the file is unchanged: %w", err)}
	}
	if err := check(f); err != nil {
		return &Error{Path: path, Err: err}
	}
	return writeAtomic(path, []byte(text))
}

type noHostError struct{ name string }

func (e *noHostError) Error() string { return "no [hosts." + e.name + "] table" }

// IsNoHost reports whether err says the host had no table.
func IsNoHost(err error) bool {
	var n *noHostError
	return errors.As(err, &n)
}

// writeAtomic replaces path with data, keeping the old file's mode (0600
// for a new one), so a crash leaves the old file or the new one, never
// half of one.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, atomicfile.Options{Perm: 0o600, KeepMode: true, MkdirPerm: 0o700}); err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}
