package detect

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/tuios/tuios/detect/transcript"
)

// SchemaVersion is the manifest schema this build understands.
const SchemaVersion = 1

// shortName is the length below which a comm or argv0 name is generic and
// needs corroboration by a [detect.require] block.
const shortName = 5

// Manifest describes one harness (agent CLI): how to recognise its process,
// how to read its screen, title and notifications, where its transcript is,
// and how to type into it. It is decoded from one TOML file (schema 1).
type Manifest struct {
	SchemaVersion int    `toml:"schema_version" json:"schema_version"`
	ID            string `toml:"id" json:"id"`
	DisplayName   string `toml:"display_name" json:"display_name"` // defaults to ID
	Priority      int    `toml:"priority" json:"priority"`         // higher is looked up first

	Detect     DetectSpec     `toml:"detect" json:"detect"`
	Screen     RuleSet        `toml:"screen" json:"screen"`
	Title      RuleSet        `toml:"title" json:"title"`
	Notify     RuleSet        `toml:"notify" json:"notify"`
	Transcript TranscriptSpec `toml:"transcript" json:"transcript"`
	Input      InputSpec      `toml:"input" json:"input"`
	Resume     ResumeSpec     `toml:"resume" json:"resume"`

	// Source is "bundled" or the path of the user file it came from.
	Source string `toml:"-" json:"manifest_source"`
	// ReplacesBundled is true for a user manifest whose id shadowed a
	// bundled one (which it replaces whole).
	ReplacesBundled bool `toml:"-" json:"replaces_bundled"`
}

// DetectSpec is the [detect] block: predicates over a process's own
// identity, ORed. All names are trimmed and lowercased at load.
type DetectSpec struct {
	Comm     []string    `toml:"comm" json:"comm,omitempty"`           // base names of the kernel process name
	Argv0    []string    `toml:"argv0" json:"argv0,omitempty"`         // base names of argv[0] and of an interpreter's run token
	ArgvPath []string    `toml:"argv_path" json:"argv_path,omitempty"` // package names/paths for an interpreter's run token
	ExeGlob  []string    `toml:"exe_glob" json:"exe_glob,omitempty"`   // component-wise globs on the resolved executable
	Require  RequireSpec `toml:"require" json:"require"`

	exeGlobC  []exeGlob  // ExeGlob compiled by ParseManifest
	argvPathC [][]string // ArgvPath split into components by ParseManifest
}

// RequireSpec is [detect.require]: corroboration for comm and argv0 names.
// When not empty, the exe must be readable and either its base name is in
// ExeBase or one of ExeGlob matches it.
type RequireSpec struct {
	ExeBase []string `toml:"exe_base" json:"exe_base,omitempty"`
	ExeGlob []string `toml:"exe_glob" json:"exe_glob,omitempty"`

	exeGlobC []exeGlob // ExeGlob compiled by ParseManifest
}

// Empty reports whether the block asks for nothing.
func (r RequireSpec) Empty() bool { return len(r.ExeBase) == 0 && len(r.ExeGlob) == 0 }

// TranscriptSpec is [transcript]. All fields empty means no transcript.
//
// SessionFile, when set, is where the harness keeps a file per running
// process naming the session it is in (Claude Code:
// "{home}/.claude/sessions/{pid}.json"; the reader's format, read by
// transcript.ReadSession). It joins a hookless pane exactly, by the pid of
// its agent: the transcript is Dir/<session id>.jsonl, and a session file
// that names another working directory than the pane's, or a file outside
// Dir or not matching Glob, is ignored. Placeholders: {home}, and {pid}
// once, in the file name (the directory is watched). It must be absolute.
type TranscriptSpec struct {
	Reader      string   `toml:"reader" json:"reader,omitempty"`             // only "claude-code-jsonl"
	Dir         string   `toml:"dir" json:"dir,omitempty"`                   // placeholders {home} and {cwd:dashes}
	Glob        string   `toml:"glob" json:"glob,omitempty"`                 // a filepath glob inside Dir
	Verify      []string `toml:"verify" json:"verify,omitempty"`             // subset of cwd, version, session_id
	SessionFile string   `toml:"session_file" json:"session_file,omitempty"` // placeholders {home} and {pid}
}

// Enabled reports whether the manifest names a transcript.
func (t TranscriptSpec) Enabled() bool { return t.Reader != "" }

// InputSpec is [input]: how text is typed into the harness.
type InputSpec struct {
	Submit            string `toml:"submit" json:"submit"`                   // "cr" (default) or "lf"
	BracketedPaste    bool   `toml:"bracketed_paste" json:"bracketed_paste"` // default true; false = never bracket
	FocusBeforeSubmit bool   `toml:"focus_before_submit" json:"focus_before_submit"`
	// SubmitDelayMS is the least time between the end of a paste and the
	// submit key, 0 to 5000 ms (0: the typer's own short wait): a harness
	// that takes a submit key too soon after a paste as part of it.
	SubmitDelayMS int    `toml:"submit_delay_ms" json:"submit_delay_ms,omitempty"`
	Source        string `toml:"source" json:"source,omitempty"`               // provenance, free text
	Images        string `toml:"images" json:"images"`                         // path_paste | path_text (default) | none
	ImagesSource  string `toml:"images_source" json:"images_source,omitempty"` // provenance, free text
}

// SubmitKey is the byte sequence that submits a line: "\r" or "\n".
func (in InputSpec) SubmitKey() string {
	if in.Submit == "lf" {
		return "\n"
	}
	return "\r"
}

// ResumeSpec is [resume]: the command that resumes a stored session.
type ResumeSpec struct {
	Argv   []string `toml:"argv" json:"argv,omitempty"` // {session_id} may appear after the program
	Source string   `toml:"source" json:"source,omitempty"`
}

// Code is the stable code of this package's errors (LoadError, Error).
type Code string

// Codes of LoadError.
const (
	CodeRead           Code = "read"            // the file could not be read
	CodeParse          Code = "parse"           // not valid TOML, or a value of the wrong type
	CodeSchemaVersion  Code = "schema_version"  // schema_version is not 1
	CodeMissingID      Code = "missing_id"      // id is empty
	CodeUnknownKey     Code = "unknown_key"     // a key this schema does not define
	CodeGenericName    Code = "generic_name"    // a short comm/argv0 name without [detect.require]
	CodeMatchesNothing Code = "matches_nothing" // [detect] names no predicate
	CodeInvalidValue   Code = "invalid_value"   // a value outside its allowed set
	CodeInvalidRule    Code = "invalid_rule"    // a screen/title/notify rule failed to compile
)

// CodeProcUnreadable is the code of Error: a /proc file exists but could
// not be read.
const CodeProcUnreadable Code = "proc_unreadable"

// LoadError says why one manifest file was refused. The other files still
// load. Load returns them, and a Tracker that loads its own manifests
// passes each to TrackerOptions.OnLoadError and keeps them (LoadErrors).
// Its methods have value receivers, so a LoadError value prints as its
// message; ParseManifest's error is a *LoadError.
type LoadError struct {
	Source string // file path, or "bundled/<name>.toml"
	Line   int    // 1-based; 0 when unknown
	Reason string // one line, plain words
	code   Code
}

// Code returns the stable code, one of the Code* constants of LoadError.
func (e LoadError) Code() Code { return e.code }

// MarshalJSON writes {"source", "line", "code", "reason", "hint"}.
func (e LoadError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Source string `json:"source"`
		Line   int    `json:"line,omitempty"`
		Code   Code   `json:"code"`
		Reason string `json:"reason"`
		Hint   string `json:"hint"`
	}{e.Source, e.Line, e.code, e.Reason, e.Hint()})
}

func (e LoadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("harness manifest %s:%d: %s", e.Source, e.Line, e.Reason)
	}
	return fmt.Sprintf("harness manifest %s: %s", e.Source, e.Reason)
}

// Hint says what to do next.
func (e LoadError) Hint() string {
	switch e.code {
	case CodeRead:
		return "check the file's permissions"
	case CodeGenericName:
		return "add a [detect.require] block with exe_base or exe_glob that only the real install satisfies"
	case CodeMatchesNothing:
		return "name at least one of comm, argv0, argv_path or exe_glob under [detect]"
	case CodeSchemaVersion:
		return "set schema_version = 1"
	}
	return "fix the manifest and load it again (the tuios daemon loads manifests when it starts)"
}

// ParseManifest decodes and validates one manifest file. source names the
// file in errors. The error, when not nil, is a *LoadError. The returned
// manifest's rule sets are compiled and its predicate names normalised.
func ParseManifest(data []byte, source string) (*Manifest, error) {
	m := &Manifest{Input: InputSpec{BracketedPaste: true}}
	src := string(data)
	fail := func(line int, code Code, format string, args ...any) (*Manifest, error) {
		return nil, &LoadError{Source: source, Line: line, code: code, Reason: fmt.Sprintf(format, args...)}
	}
	md, err := toml.Decode(src, m)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fail(pe.Position.Line, CodeParse, "%s", pe.Message)
		}
		line, reason := tomlErrLine(firstLineOf(err.Error()))
		return fail(line, CodeParse, "%s", reason)
	}
	if m.SchemaVersion != SchemaVersion {
		return fail(keyLine(src, nil, "schema_version"), CodeSchemaVersion,
			"schema_version %d, this build understands %d", m.SchemaVersion, SchemaVersion)
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return fail(keyLine(src, k[:len(k)-1], k[len(k)-1]), CodeUnknownKey, "unknown key %q", k.String())
	}
	m.ID = strings.TrimSpace(m.ID)
	if m.ID == "" {
		return fail(keyLine(src, nil, "id"), CodeMissingID, "id is required")
	}
	m.DisplayName = strings.TrimSpace(m.DisplayName)
	if m.DisplayName == "" {
		m.DisplayName = m.ID
	}
	if le := m.validateDetect(src, source); le != nil {
		return nil, le
	}
	if le := m.validateRest(src, source); le != nil {
		return nil, le
	}
	for _, b := range [...]struct {
		rs   *RuleSet
		kind RuleKind
	}{{&m.Screen, RuleScreen}, {&m.Title, RuleTitle}, {&m.Notify, RuleNotify}} {
		if err := b.rs.Compile(b.kind); err != nil {
			return fail(ruleLine(src, b.kind.String(), err.Error()), CodeInvalidRule, "%s", firstLineOf(err.Error()))
		}
	}
	if err := checkBudgets(&m.Screen, &m.Title, &m.Notify); err != nil {
		return fail(0, CodeInvalidRule, "%s", firstLineOf(err.Error()))
	}
	return m, nil
}

// normNames trims, lowercases and drops empty names.
func normNames(l []string) []string {
	out := l[:0]
	for _, s := range l {
		s = strings.ToLower(strings.TrimSpace(s))
		if s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (m *Manifest) validateDetect(src, source string) *LoadError {
	d := &m.Detect
	d.Comm = normNames(d.Comm)
	d.Argv0 = normNames(d.Argv0)
	d.ArgvPath = normNames(d.ArgvPath)
	d.ExeGlob = normNames(d.ExeGlob)
	d.Require.ExeBase = normNames(d.Require.ExeBase)
	d.Require.ExeGlob = normNames(d.Require.ExeGlob)
	le := func(table []string, key string, code Code, format string, args ...any) *LoadError {
		return &LoadError{Source: source, Line: keyLine(src, table, key), code: code, Reason: fmt.Sprintf(format, args...)}
	}
	det := []string{"detect"}
	if len(d.Comm)+len(d.Argv0)+len(d.ArgvPath)+len(d.ExeGlob) == 0 {
		l := keyLine(src, det, "")
		return &LoadError{Source: source, Line: l, code: CodeMatchesNothing,
			Reason: "[detect] matches nothing: name at least one of comm, argv0, argv_path or exe_glob"}
	}
	if d.Require.Empty() {
		for _, f := range [...]struct {
			key   string
			names []string
		}{{"comm", d.Comm}, {"argv0", d.Argv0}} {
			for _, n := range f.names {
				if utf8.RuneCountInString(n) < shortName {
					return le(det, f.key, CodeGenericName,
						"%s %q matches on the generic name %q alone; add a [detect.require] block", f.key, n, n)
				}
			}
		}
	}
	for _, g := range d.ExeGlob {
		if !validGlob(g) {
			return le(det, "exe_glob", CodeInvalidValue, "exe_glob %q is not a valid glob", g)
		}
	}
	for _, g := range d.Require.ExeGlob {
		if !validGlob(g) {
			return le([]string{"detect", "require"}, "exe_glob", CodeInvalidValue, "require exe_glob %q is not a valid glob", g)
		}
	}
	d.compile()
	return nil
}

// transcriptReaders are the transcript formats this build reads.
var transcriptReaders = [...]string{"claude-code-jsonl"}

func (m *Manifest) validateRest(src, source string) *LoadError {
	le := func(table, key, format string, args ...any) *LoadError {
		return &LoadError{Source: source, Line: keyLine(src, []string{table}, key), code: CodeInvalidValue,
			Reason: fmt.Sprintf(format, args...)}
	}
	t := &m.Transcript
	t.Reader, t.Dir, t.Glob = strings.TrimSpace(t.Reader), strings.TrimSpace(t.Dir), strings.TrimSpace(t.Glob)
	t.SessionFile = strings.TrimSpace(t.SessionFile)
	if t.Reader != "" || t.Dir != "" || t.Glob != "" || len(t.Verify) > 0 || t.SessionFile != "" {
		if !nameIn(transcriptReaders[:], t.Reader) {
			return le("transcript", "reader", "[transcript] unknown reader %q (this build reads %s)", t.Reader, strings.Join(transcriptReaders[:], ", "))
		}
		if t.Dir == "" || t.Glob == "" {
			return le("transcript", "", "[transcript] needs both dir and glob")
		}
		if bad := badPlaceholder(t.Dir, "{home}", "{cwd:dashes}"); bad != "" {
			return le("transcript", "dir", "[transcript] dir uses unknown placeholder %q (only {home} and {cwd:dashes})", bad)
		}
		if t.SessionFile != "" {
			if reason := badSessionFile(t.SessionFile); reason != "" {
				return le("transcript", "session_file", "[transcript] session_file %q %s", t.SessionFile, reason)
			}
		}
		if _, err := filepath.Match(t.Glob, ""); err != nil || strings.ContainsAny(t.Glob, "/") {
			return le("transcript", "glob", "[transcript] glob %q is not a valid file glob", t.Glob)
		}
		for _, v := range t.Verify {
			if v != "cwd" && v != "version" && v != "session_id" {
				return le("transcript", "verify", "[transcript] unknown verify field %q (cwd, version, session_id)", v)
			}
		}
	}
	in := &m.Input
	switch in.Submit {
	case "":
		in.Submit = "cr"
	case "cr", "lf":
	default:
		return le("input", "submit", "[input] submit %q is not cr or lf", in.Submit)
	}
	if in.SubmitDelayMS < 0 || in.SubmitDelayMS > 5000 {
		return le("input", "submit_delay_ms", "[input] submit_delay_ms %d is not 0 to 5000", in.SubmitDelayMS)
	}
	switch in.Images {
	case "":
		in.Images = "path_text"
	case "path_paste", "path_text", "none":
	default:
		return le("input", "images", "[input] images %q is not path_paste, path_text or none", in.Images)
	}
	for i, tok := range m.Resume.Argv {
		if i == 0 && (tok == "" || strings.Contains(tok, "{session_id}")) {
			return le("resume", "argv", "[resume] argv must start with the program, not %q", tok)
		}
		if !resumeToken(strings.ReplaceAll(tok, "{session_id}", "")) {
			return le("resume", "argv", "[resume] argv token %q may hold only letters, digits, _ . / : = + - and {session_id}", tok)
		}
	}
	hasID := false
	for _, tok := range m.Resume.Argv {
		hasID = hasID || strings.Contains(tok, "{session_id}")
	}
	if len(m.Resume.Argv) > 0 && !hasID {
		// A command without the id would start a new conversation, not
		// resume the pane's.
		return le("resume", "argv", "[resume] argv must hold {session_id} after the program")
	}
	return nil
}

func resumeToken(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_./:=+-", r):
		default:
			return false
		}
	}
	return true
}

// badSessionFile says what is wrong with a session_file pattern, "" when
// nothing: only {home} and {pid}, {pid} exactly once and in the last
// element (the directory is fixed, so it can be watched), absolute ("/"
// or "{home}/" first), no "." or ".." element, no backslash or NUL.
func badSessionFile(p string) string {
	if bad := badPlaceholder(p, "{home}", "{pid}"); bad != "" {
		return fmt.Sprintf("uses unknown placeholder %q (only {home} and {pid})", bad)
	}
	if strings.Count(p, "{pid}") != 1 {
		return "must hold {pid} exactly once"
	}
	if strings.Contains(p[:strings.LastIndexByte(p, '/')+1], "{pid}") {
		return "must hold {pid} in its file name, not in a directory"
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "{home}/") {
		return "must be absolute: start with / or {home}/"
	}
	if strings.ContainsAny(p, "\\\x00") {
		return "must not hold a backslash or NUL"
	}
	for _, e := range strings.Split(p, "/") {
		if e == "." || e == ".." {
			return "must not hold a . or .. element"
		}
	}
	if strings.HasSuffix(p, "/") {
		return "must name a file"
	}
	return ""
}

// badPlaceholder returns the first {…} in s that is not one of known, or
// "" when all are known.
func badPlaceholder(s string, known ...string) string {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			if strings.IndexByte(s, '}') >= 0 {
				return "}"
			}
			return ""
		}
		if strings.IndexByte(s[:i], '}') >= 0 {
			return "}"
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return s[i:]
		}
		p := s[i : i+j+1]
		if !slices.Contains(known, p) {
			return p
		}
		s = s[i+j+1:]
	}
}

// ExpandTranscriptDir fills the placeholders of the [transcript] dir:
// {home} with home and {cwd:dashes} with the name Claude Code gives the
// project directory of cwd (transcript.ProjectName).
func (t TranscriptSpec) ExpandTranscriptDir(home, cwd string) string {
	return strings.NewReplacer("{home}", home, "{cwd:dashes}", transcript.ProjectName(cwd)).Replace(t.Dir)
}

// tomlErrLine takes the line out of a decoding error the TOML library
// reports as text: `toml: line 3 (last key "detect.comm"): incompatible
// types: …` → 3, `detect.comm: incompatible types: …`.
func tomlErrLine(msg string) (int, string) {
	rest, ok := strings.CutPrefix(msg, "toml: line ")
	if !ok {
		return 0, strings.TrimPrefix(msg, "toml: ")
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	n, good := atoiBytes([]byte(rest[:i]))
	if !good {
		return 0, msg
	}
	rest = rest[i:]
	key := ""
	if k, ok := strings.CutPrefix(rest, ` (last key "`); ok {
		if j := strings.Index(k, `")`); j >= 0 {
			key, rest = k[:j], k[j+2:]
		}
	}
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	if key != "" {
		rest = key + ": " + rest
	}
	return n, rest
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// tomlHeader parses a table header line: "[a.b]" → (["a","b"], false),
// "[[a.b]]" → (["a","b"], true); ok false for other lines.
func tomlHeader(line string) (path []string, array, ok bool) {
	line = strings.TrimSpace(line)
	if i := strings.IndexByte(line, '#'); i >= 0 && !strings.ContainsAny(line[:i], `"'`) {
		line = strings.TrimSpace(line[:i])
	}
	if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "]") {
		return nil, false, false
	}
	if strings.HasPrefix(line, "[[") && strings.HasSuffix(line, "]]") {
		array = true
		line = line[2 : len(line)-2]
	} else {
		line = line[1 : len(line)-1]
	}
	for _, p := range strings.Split(line, ".") {
		path = append(path, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return path, array, true
}

func sameTablePath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// keyLine finds the 1-based line of key in the table at path (nil for the
// top level), or of the table's header when key is ""; 0 when not found.
// It is a plain scan, good enough to point a person at the right line.
func keyLine(src string, table []string, key string) int {
	var cur []string
	for i, line := range strings.Split(src, "\n") {
		if p, _, ok := tomlHeader(line); ok {
			cur = p
			if key == "" && sameTablePath(p, table) {
				return i + 1
			}
			continue
		}
		if key == "" || !sameTablePath(cur, table) {
			continue
		}
		l := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(l, key); ok {
			rest = strings.TrimSpace(rest)
			if strings.HasPrefix(rest, "=") {
				return i + 1
			}
		}
		if rest, ok := strings.CutPrefix(l, `"`+key+`"`); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return i + 1
		}
	}
	return 0
}

// ruleLine finds the header line of the rule a compile error names, as in
// "screen.rule[2]: …"; else the block's header.
func ruleLine(src, block, msg string) int {
	prefix := block + ".rule["
	if strings.HasPrefix(msg, prefix) {
		rest := msg[len(prefix):]
		if j := strings.IndexByte(rest, ']'); j > 0 {
			n, ok := atoiBytes([]byte(rest[:j]))
			if ok {
				seen := 0
				for i, line := range strings.Split(src, "\n") {
					if p, arr, ok := tomlHeader(line); ok && arr && sameTablePath(p, []string{block, "rule"}) {
						if seen == n {
							return i + 1
						}
						seen++
					}
				}
			}
		}
	}
	return keyLine(src, []string{block}, "")
}
