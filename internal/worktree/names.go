package worktree

import (
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// FanPrefix starts every fan's branches.
const FanPrefix = "fan/"

// stopWords are left out of a stem: the words a prompt starts with that
// say nothing of the task.
var stopWords = map[string]bool{"a": true, "an": true, "the": true, "to": true, "of": true, "in": true, "on": true, "for": true,
	"and": true, "or": true, "with": true, "please": true, "can": true, "you": true, "could": true, "would": true, "is": true, "it": true,
	"this": true, "that": true, "me": true, "my": true, "our": true, "i": true, "we": true, "at": true, "by": true, "from": true, "into": true}

// Stem is a fan's branch stem: fan/ and the first words of its prompt
// that say something (at most three, lower case, letters and digits), such
// as fan/add-retry-backoff for "Add a retry with backoff to the client".
// A name given by the person (--name) is used as it is, with fan/ put in
// front when missing.
func Stem(prompt, name string) string {
	if name != "" {
		if strings.HasPrefix(name, FanPrefix) {
			return name
		}
		return FanPrefix + name
	}
	var words []string
	for _, f := range strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !(r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)))
	}) {
		if stopWords[f] || len(f) > 24 {
			continue
		}
		words = append(words, f)
		if len(words) == 3 {
			break
		}
	}
	if len(words) == 0 {
		return FanPrefix + "attempt"
	}
	return FanPrefix + strings.Join(words, "-")
}

// Branches are a fan's branches: stem, stem-2, … stem-count.
func Branches(stem string, count int) []string {
	out := make([]string, 0, count)
	for i := 1; i <= count; i++ {
		if i == 1 {
			out = append(out, stem)
		} else {
			out = append(out, stem+"-"+strconv.Itoa(i))
		}
	}
	return out
}

// SessionName is a worktree's session: <repo>-<branch>, every / turned
// into - and anything but letters, digits, '.', '_' and '-' into -, so the
// name never reads as HOST:SESSION.
func SessionName(repo, branch string) string {
	return safeName(repo + "-" + strings.ReplaceAll(branch, "/", "-"))
}

// Dir is a worktree's folder: <data>/worktrees/<repo>/<branch>, the
// branch's / turned into -.
func Dir(dataDir, repo, branch string) string {
	return filepath.Join(dataDir, "worktrees", safeName(repo), safeName(strings.ReplaceAll(branch, "/", "-")))
}

// DataDir is tuios's data folder: $XDG_DATA_HOME/tuios, else
// ~/.local/share/tuios. getenv reads the environment.
func DataDir(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tuios")
	}
	return filepath.Join(getenv("HOME"), ".local", "share", "tuios")
}

func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	out := string(b)
	if out == "" || out == "." || out == ".." {
		return "repo"
	}
	return out
}
