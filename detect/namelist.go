package detect

import (
	"strings"
	"unicode/utf8"
)

// builtinNames is the flat name list: programs known to be agents that a
// manifest may not describe. A list match names no harness (identity
// "list"), so no screen or title rules run for it. Generic words (agent,
// pi, cn, forge, goose) are deliberately absent.
var builtinNames = [...]string{"claude", "claude-code", "codex", "aider", "cursor-agent", "opencode",
	"crush", "gemini", "amp", "droid", "cline", "kilocode", "auggie", "octofriend", "qwen"}

// NameList is the built-in name list plus user additions, lowercased and
// trimmed, without duplicates.
//
// Gap fix (tuios beats the engine it replaces here): a list name shorter
// than 5 characters (amp, qwen, or a short user addition) is a generic
// word, so it counts only with the same exe corroboration a manifest
// needs: some manifest that names it in comm or argv0 must have its
// [detect.require] block satisfied by the process. A static binary called
// amp that fails Amp's require is therefore not an agent by the list
// either, and a short user name that no manifest corroborates never
// matches (add a manifest with a [detect.require] block instead).
type NameList struct {
	names []string
}

// NewNameList returns the built-in names plus extra.
func NewNameList(extra ...string) NameList {
	l := NameList{names: append([]string(nil), builtinNames[:]...)}
	for _, e := range extra {
		e = strings.ToLower(strings.TrimSpace(e))
		if e != "" && !nameIn(l.names, e) {
			l.names = append(l.names, e)
		}
	}
	return l
}

// ParseNameList splits a comma-separated list (as in TUIOS_AGENT_BINARIES).
func ParseNameList(csv string) []string {
	var out []string
	for _, p := range strings.Split(csv, ",") {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Names returns the names, built-in first.
func (l NameList) Names() []string { return append([]string(nil), l.names...) }

// Contains reports whether name (already a base name) is listed.
func (l NameList) Contains(name string) bool { return name != "" && nameIn(l.names, name) }

// corroborated says whether a short list name is backed by a manifest that
// names it in comm or argv0 and whose require block the process satisfies.
func corroborated(name string, v *procView, reg *Registry) bool {
	for _, m := range reg.list {
		d := &m.Detect
		if d.Require.Empty() || !(nameIn(d.Comm, name) || nameIn(d.Argv0, name)) {
			continue
		}
		if d.requireMet(v) {
			return true
		}
	}
	return false
}

// match checks the list against one process's own identity: comm base,
// exe base, argv0 base, the run token's base name, and "the run token sits
// under a package directory named X". It returns the rule ("name comm=…")
// or, when a short name was seen but not corroborated, why it did not
// count.
func (l NameList) match(v *procView, reg *Registry) (rule string, refused []string) {
	try := func(kind, name string) bool {
		if !l.Contains(name) {
			return false
		}
		if utf8.RuneCountInString(name) < shortName && !corroborated(name, v, reg) {
			refused = append(refused, `name `+kind+`=`+name+` not counted: a name shorter than 5 characters needs the exe corroboration a manifest's [detect.require] gives, and none was met`)
			return false
		}
		rule = "name " + kind + "=" + name
		return true
	}
	if try("comm", v.comm) || try("exe", v.exeBase) || try("argv0", v.argv0) || try("run token", v.runName) {
		return rule, nil
	}
	if rc := v.runParts(); rc != nil {
		for _, n := range l.names {
			if matchPackage([]string{n}, rc) && try("package", n) {
				return rule, nil
			}
		}
	}
	return "", refused
}
