package integration

import (
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// tomlHooks wires hook entries into a TOML config file as an array of
// tables, one table per event, the way Kimi Code 2.1's config.toml holds
// them:
//
//	[[hooks]]
//	event = "SessionStart"
//	command = "..."
//	timeout = 10
//
// The edit is line by line, so every byte of the person's file stays: an
// install appends tuios's tables at the end (one blank line before each),
// an uninstall removes exactly those lines and the blank line before each.
// A table is tuios's when its command runs agent-hook for the harness
// (ourCommand). The result must parse as TOML, else nothing is written: a
// file that holds hooks as an inline array cannot take a [[hooks]] table.
type tomlHooks struct {
	events  []string // the events to wire, in the order they are added
	timeout int      // seconds
}

// tomlHookTable is one [[hooks]] table tuios wrote: its lines [start, end)
// and what it says.
type tomlHookTable struct {
	ourHook
	start, end int
}

// tomlKeyLine matches the key lines a hooks table of tuios's holds.
func tomlKeyLine(line string) bool {
	k, _, ok := strings.Cut(strings.TrimSpace(line), "=")
	if !ok {
		return false
	}
	switch strings.TrimSpace(k) {
	case "event", "command", "timeout", "matcher":
		return true
	}
	return false
}

// blocks finds tuios's [[hooks]] tables in lines.
func (t *tomlHooks) blocks(lines []string, harness string) []tomlHookTable {
	re := ourCommand(harness)
	var out []tomlHookTable
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "[[hooks]]" {
			continue
		}
		end := i + 1
		for end < len(lines) && tomlKeyLine(lines[end]) {
			end++
		}
		var h struct {
			Hooks []struct {
				Event   string `toml:"event"`
				Command string `toml:"command"`
			} `toml:"hooks"`
		}
		if _, err := toml.Decode(strings.Join(lines[i:end], "\n"), &h); err != nil || len(h.Hooks) != 1 {
			continue
		}
		ours, ok := readOurHook(re, h.Hooks[0].Event, h.Hooks[0].Command)
		if !ok {
			continue
		}
		out = append(out, tomlHookTable{ourHook: ours, start: i, end: end})
		i = end - 1
	}
	return out
}

func splitLines(src string) []string {
	if src == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(src, "\n"), "\n")
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// parseTOML refuses text that is not TOML.
func parseTOML(text string) error {
	var v map[string]any
	_, err := toml.Decode(text, &v)
	return err
}

// uninstall removes every table tuios wrote for the harness.
func (t *tomlHooks) uninstall(src, harness string) (string, error) {
	if err := parseTOML(src); err != nil {
		return "", err
	}
	lines := splitLines(src)
	bs := t.blocks(lines, harness)
	if len(bs) == 0 {
		return src, nil
	}
	for k := len(bs) - 1; k >= 0; k-- {
		b := bs[k]
		start := b.start
		if start > 0 && strings.TrimSpace(lines[start-1]) == "" {
			start-- // the blank line install put before it
		}
		lines = append(lines[:start:start], lines[b.end:]...)
	}
	return joinLines(lines), nil
}

// install returns the file with exactly one current table per event.
func (t *tomlHooks) install(src, harness, command string) (string, error) {
	out, err := t.uninstall(src, harness)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(out)
	if out != "" && !strings.HasSuffix(out, "\n") {
		b.WriteString("\n")
	}
	for i, e := range t.events {
		if out != "" || i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "[[hooks]]\nevent = %s\ncommand = %s\ntimeout = %d\n", tomlString(e), tomlString(command), t.timeout)
	}
	next := b.String()
	if err := parseTOML(next); err != nil {
		return "", fmt.Errorf("cannot add [[hooks]] tables to it (%v); is hooks an inline array there?", err)
	}
	return next, nil
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (t *tomlHooks) wired() []string { return t.events }

// same: the TOML edit is by lines, so only equal text is the same file.
func (t *tomlHooks) same(a, b string) bool { return a == b }

// state reads how the harness's tables stand against what install would
// write.
func (t *tomlHooks) state(src, harness string, version int) (installed, current bool, command string, err error) {
	if strings.TrimSpace(src) == "" {
		return false, false, "", nil
	}
	if err := parseTOML(src); err != nil {
		return false, false, "", err
	}
	bs := t.blocks(splitLines(src), harness)
	if len(bs) == 0 {
		return false, false, "", nil
	}
	current, command = hooksStanding(bs, t.events, version)
	return true, current, command, nil
}

// installDoc is Install for a harness whose hooks live in its own config
// document (Kimi Code's TOML, Hermes's YAML).
func installDoc(h Harness, d docHooks, path string, opt Options) (changed bool, program string, err error) {
	original := func(old string) bool {
		ours, _, _, err := d.state(old, h.ID, h.Version)
		return err == nil && !ours
	}
	changed, err = editFileKeeping(path, original, func(old string, _ bool) (string, error) {
		prog := opt.Program
		if prog == "" {
			if _, _, cmd, err := d.state(old, h.ID, h.Version); err == nil {
				prog = programOf(cmd)
			}
		}
		if prog == "" {
			prog = opt.Default
		}
		program = prog
		out, err := d.install(old, h.ID, h.HookCommand(prog))
		if err != nil {
			return "", &Error{code: CodeCannotRead, Path: path, Detail: err.Error()}
		}
		return out, nil
	})
	return changed, program, err
}

// uninstallDoc is Uninstall for a harness whose hooks live in its own
// config document: the file itself goes only when tuios created it (no
// backup) and nothing else is left in it.
func uninstallDoc(h Harness, d docHooks, path string) (bool, error) {
	real, err := resolve(path)
	if err != nil {
		return false, err
	}
	if _, exists, rerr := readFile(real); rerr != nil || !exists {
		return false, rerr
	}
	never := func(string) bool { return false }
	changed, err := editFileKeeping(path, never, func(old string, exists bool) (string, error) {
		if !exists {
			return old, nil
		}
		out, err := d.uninstall(old, h.ID)
		if err != nil {
			return "", &Error{code: CodeCannotRead, Path: path, Detail: err.Error()}
		}
		// An editor that rewrites the document (YAML) may have moved a
		// blank line; when the person changed nothing else since, their
		// original comes back byte for byte.
		if bak, ok, _ := readFile(real + BackupSuffix); ok && out != old && out != bak && d.same(out, bak) {
			out = bak
		}
		return out, nil
	})
	if err == nil && changed && real == path {
		_, hasBak, _ := readFile(real + BackupSuffix)
		if text, ok, _ := readFile(path); ok && !hasBak && strings.TrimSpace(text) == "" {
			err = removeFile(path)
		}
	}
	return changed, err
}
