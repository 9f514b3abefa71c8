package transcript

import (
	"path/filepath"
	"sort"
	"strings"
)

// ProjectDir is where Claude Code keeps the transcripts of a working
// directory: dir with every "/" of cwd replaced by "-" (literally: a
// doubled dash stays doubled). It expands the manifest placeholders
// {home} and {cwd:dashes}.
func ProjectDir(pattern, home, cwd string) (string, bool) {
	if strings.Contains(pattern, "{home}") && home == "" {
		return "", false
	}
	if strings.Contains(pattern, "{cwd:dashes}") && cwd == "" {
		return "", false
	}
	out := strings.ReplaceAll(pattern, "{home}", home)
	out = strings.ReplaceAll(out, "{cwd:dashes}", strings.ReplaceAll(cwd, "/", "-"))
	return out, true
}

// SearchOptions describe a hookless search for a pane's transcript.
type SearchOptions struct {
	Dir  string // the expanded project directory
	Glob string // "*.jsonl"
	// Verify lists what a candidate must match: "cwd" (the pane's working
	// directory), "version" (the base name of the agent's executable, as a
	// native Claude Code install names it), "session_id".
	Verify    []string
	CWD       string
	Version   string
	SessionID string
}

// Search finds the one transcript in Dir that verifies. Unreadable files
// and files with no turn-bearing record are skipped. Two that verify is an
// "ambiguous" error: there is no tie-break by time, because a wrong join
// would report another agent's turns.
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
	var found string
	for _, p := range paths {
		obs, ok, err := NewReader(p).Read()
		if err != nil || !ok || !verifies(obs, opt) {
			continue
		}
		if found != "" {
			return "", &Error{code: CodeAmbiguous}
		}
		found = p
	}
	if found == "" {
		return "", &Error{code: CodeNoCandidate}
	}
	return found, nil
}

func verifies(obs Observation, opt SearchOptions) bool {
	for _, v := range opt.Verify {
		switch v {
		case "cwd":
			if opt.CWD == "" || obs.CWD != opt.CWD {
				return false
			}
		case "version":
			if opt.Version == "" || obs.Version != opt.Version {
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
