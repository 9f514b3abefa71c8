package transcript

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// ProjectDir is where Claude Code keeps the transcripts of a working
// directory: it expands the manifest placeholders {home} and
// {cwd:dashes}, the second to ProjectName(cwd). ok is false when a
// placeholder's value is unknown.
func ProjectDir(pattern, home, cwd string) (string, bool) {
	if strings.Contains(pattern, "{home}") && home == "" {
		return "", false
	}
	if strings.Contains(pattern, "{cwd:dashes}") && cwd == "" {
		return "", false
	}
	out := strings.ReplaceAll(pattern, "{home}", home)
	out = strings.ReplaceAll(out, "{cwd:dashes}", ProjectName(cwd))
	return out, true
}

// projectNameMax is the longest project name Claude Code keeps whole.
const projectNameMax = 200

// ProjectName is the name Claude Code (2.1.197, read from its package)
// gives the project directory of the working directory cwd: every UTF-16
// code unit of the path that is not an ASCII letter or digit becomes "-"
// (so "/", ".", "_", a space and "é" each give one dash, a character
// outside the Basic Multilingual Plane two, and a doubled dash stays
// doubled); a name longer than 200 characters is cut to 200 and followed
// by "-" and a hash of the whole path (the Java string hash over its
// UTF-16 code units, as a 32-bit signed integer, its absolute value in
// base 36). cwd is the real path: Claude Code resolves symlinks before it
// names the project. A byte that is not UTF-8 counts as U+FFFD.
//
// Qwen Code names its projects the same way without shortening
// (~/.qwen/projects/<name>/chats). The other harnesses do not name
// directories after the path: Codex files sessions by date
// (~/.codex/sessions/YYYY/MM/DD), Gemini CLI by a slug of the folder's
// base name that a registry (~/.gemini/projects.json) disambiguates, and
// opencode keeps a database. tuios reads none of their records.
func ProjectName(cwd string) string {
	b := make([]byte, 0, len(cwd))
	var h int32
	for _, r := range cwd {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h = h*31 + hi
			h = h*31 + lo
			b = append(b, '-', '-')
			continue
		}
		h = h*31 + r
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b = append(b, byte(r))
		} else {
			b = append(b, '-')
		}
	}
	if len(b) <= projectNameMax {
		return string(b)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(b[:projectNameMax]) + "-" + strconv.FormatInt(abs, 36)
}

// SearchOptions describe a hookless search for a pane's transcript.
type SearchOptions struct {
	Dir  string // the expanded project directory
	Glob string // "*.jsonl"
	// Verify lists what a candidate must match: "cwd" (the pane's working
	// directory), "version" (the version of the agent's install: Version
	// or any of Versions), "session_id".
	Verify []string
	CWD    string
	// Version and Versions are what the agent's install says its version
	// is: a native Claude Code install names its executable by it, an npm
	// install has it in its package.json (see detect). A record verifies
	// "version" when its version equals one of them; none given, nothing
	// verifies.
	Version   string
	Versions  []string
	SessionID string
	// Since, when set, skips (unread) every candidate last modified
	// before it: the caller's agent started then, so an older file is an
	// earlier session's, however well it verifies.
	Since time.Time
	// Cache, when set, remembers what earlier searches read of each
	// candidate, so a search repeated on every change in Dir reads only
	// the files that changed since (by size, modification time and inode).
	Cache *SearchCache
}

// SearchCache is what Search read of each candidate file. It holds only
// the identity fields and the turn of each file's newest turn-bearing
// record, never conversation text. It is not safe for concurrent use: one
// search at a time.
type SearchCache struct {
	files map[string]cachedFile
}

type cachedFile struct {
	size int64
	mod  time.Time
	ino  uint64
	obs  Observation
	ok   bool
}

// Len is how many candidates the cache remembers.
func (c *SearchCache) Len() int { return len(c.files) }

// Search finds the one transcript in Dir that verifies. Unreadable files,
// anything but a regular file, and files with no turn-bearing record are
// skipped. Two that verify is an "ambiguous" error: there is no tie-break
// by time, because a wrong join would report another agent's turns.
func Search(opt SearchOptions) (string, error) {
	if opt.Dir == "" {
		return "", &Error{code: CodeNoLocation}
	}
	glob := opt.Glob
	if glob == "" {
		glob = "*.jsonl"
	}
	paths, err := filepath.Glob(filepath.Join(opt.Dir, glob))
	if err != nil {
		return "", &Error{code: CodeNoCandidate}
	}
	sort.Strings(paths)
	var seen map[string]cachedFile
	if opt.Cache != nil {
		seen = make(map[string]cachedFile, len(paths))
	}
	var found string
	ambiguous := false
	for _, p := range paths {
		obs, ok := look(p, opt.Cache, seen, opt.Since)
		if !ok || !verifies(obs, opt) {
			continue
		}
		if found != "" {
			ambiguous = true
			if opt.Cache == nil {
				break
			}
			continue // keep reading, so the cache stays whole
		}
		found = p
	}
	if opt.Cache != nil {
		opt.Cache.files = seen // files gone from Dir are forgotten
	}
	if ambiguous {
		return "", &Error{code: CodeAmbiguous}
	}
	if found == "" {
		return "", &Error{code: CodeNoCandidate}
	}
	return found, nil
}

// look reads one candidate's newest turn-bearing record, through the
// cache when there is one: an unchanged file is not read again.
func look(p string, c *SearchCache, seen map[string]cachedFile, since time.Time) (Observation, bool) {
	if c == nil && since.IsZero() {
		obs, ok, err := NewReader(p).Read()
		return obs, ok && err == nil
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() || st.ModTime().Before(since) {
		return Observation{}, false
	}
	if c == nil {
		obs, ok, err := NewReader(p).Read()
		return obs, ok && err == nil
	}
	key := cachedFile{size: st.Size(), mod: st.ModTime(), ino: inode(st)}
	if old, hit := c.files[p]; hit && old.size == key.size && old.mod.Equal(key.mod) && old.ino == key.ino {
		seen[p] = old
		return old.obs, old.ok
	}
	obs, ok, err := NewReader(p).Read()
	key.obs, key.ok = obs, ok && err == nil
	if err == nil {
		seen[p] = key // a failed read is tried again next time
	}
	return key.obs, key.ok
}

func verifies(obs Observation, opt SearchOptions) bool {
	for _, v := range opt.Verify {
		switch v {
		case "cwd":
			if opt.CWD == "" || obs.CWD != opt.CWD {
				return false
			}
		case "version":
			if !versionIn(obs.Version, opt) {
				return false
			}
		case "session_id":
			if opt.SessionID == "" || obs.SessionID != opt.SessionID {
				return false
			}
		}
	}
	return true
}

func versionIn(v string, opt SearchOptions) bool {
	if v == "" {
		return false
	}
	if v == opt.Version {
		return true
	}
	for _, w := range opt.Versions {
		if v == w {
			return true
		}
	}
	return false
}
