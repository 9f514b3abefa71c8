package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/fuzzy"
)

// Setting one key from the command line (tuios set-config KEY VALUE, the
// set-option verb). Some tables decide what a pane or another machine
// may do here, so they are never set this way, only written by
// the person in the file: [agents] (but enabled, which the person may set
// from a terminal outside TUIOS), [hosts], [tailscale], [hooks],
// [keybindings], [dock], [notify] (push addresses and secrets) and
// respond_from_shell. The edit changes one line of the file (or adds one
// under its table) and keeps every other byte, comments included.

// Option is one key set-config may set.
type Option struct {
	// Key is the dotted path: notifications.agent.sound.
	Key string `json:"key"`
	// Type is bool, int, number, enum or string.
	Type string `json:"type"`
	// Default is what an unset key means.
	Default any `json:"default"`
	// Accepted are an enum's values.
	Accepted []string `json:"accepted,omitempty"`
	// Min and Max bound an int or a number.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Description is one line.
	Description string `json:"description"`
	// ReadBy says who reads the key and when: "daemon" (at its start)
	// or "client" (the attach client, when it attaches).
	ReadBy string `json:"read_by"`
	// PersonOnly keys are refused from inside a pane.
	PersonOnly bool `json:"person_only,omitempty"`
	// Unlisted keys are settable but outside list-options ([agents]
	// stays out of the listing on purpose).
	Unlisted bool `json:"-"`
	// check reads a string's form (quiet_hours).
	check func(string) error
}

func bounds(lo, hi float64) (*float64, *float64) { return &lo, &hi }

// Options are the keys set-config may set, in the file's order. A
// function, not a table built at start-up: the CLI pays for it only when
// it sets or lists one.
func Options() []Option {
	b := func(key string, def bool, by, desc string) Option {
		return Option{Key: key, Type: "bool", Default: def, ReadBy: by, Description: desc}
	}
	secs := func(key string, def float64, desc string) Option {
		lo, hi := bounds(0, 3600)
		return Option{Key: key, Type: "number", Default: def, Min: lo, Max: hi, ReadBy: "client", Description: desc}
	}
	detLo, detHi := bounds(-1, 3600)
	opts := []Option{
		b("daemon.agent_autodetect", true, "daemon", "look for agent CLIs in each pane's foreground process"),
		{Key: "daemon.agent_detect_seconds", Type: "int", Default: int64(0), Min: detLo, Max: detHi, ReadBy: "daemon",
			Description: "seconds between those looks; 0 (the default) uses 2, -1 turns detection off"},
		{Key: "daemon.resume_agents", Type: "enum", Default: "ask", Accepted: []string{"ask", "auto", "off"}, ReadBy: "daemon",
			Description: "after a daemon restart: offer to resume agents (ask), resume them (auto) or not (off)"},
		b("daemon.restore", true, "daemon", "bring sessions back after a daemon restart"),
		{Key: "agents.enabled", Type: "bool", Default: true, ReadBy: "daemon", PersonOnly: true, Unlisted: true,
			Description: "false leaves only the multiplexer: no agent states, Inbox or alerts"},
		b("notifications.agent.enabled", true, "client", "raise alerts at all"),
		b("notifications.agent.notify", true, "client", "a notification through the terminal in front of you (OSC 9)"),
		b("notifications.agent.dock", true, "client", "a clickable line in the dock"),
		b("notifications.agent.sound", false, "client", "play a sound (sound_mode says which)"),
		{Key: "notifications.agent.sound_mode", Type: "enum", Default: "audio", Accepted: []string{"audio", "bell", "both"}, ReadBy: "client",
			Description: "audio (a cue from the audio player), bell (the terminal's bell) or both"},
		secs("notifications.agent.sound_cooldown_seconds", 3, "the least time between two audio cues"),
		b("notifications.agent.suppress_focused", true, "client", "nothing for the pane you are looking at"),
		secs("notifications.agent.settle_seconds", 2, "drop the alert if the state changes within this time"),
		{Key: "notifications.agent.quiet_hours", Type: "string", Default: "", ReadBy: "client",
			Description: `local time with no alert, HH:MM-HH:MM such as "22:00-07:00"; "" for none`,
			check:       func(s string) error { _, err := ParseQuietHours(s); return err }},
		{Key: "notifications.agent.command", Type: "string", Default: "", ReadBy: "client", PersonOnly: true,
			Description: "a shell command run on each alert"},
	}
	for _, st := range []string{"needs_input", "errored", "done", "idle", "working", "unknown"} {
		def := st == "needs_input" || st == "errored" || st == "done"
		opts = append(opts, b("notifications.agent.states."+st, def, "client", "alert when a pane becomes "+st))
	}
	for _, st := range []string{"default", "needs_input", "errored", "done", "idle", "working", "unknown"} {
		opts = append(opts, Option{Key: "notifications.agent.sounds." + st, Type: "string", Default: "", ReadBy: "client",
			Description: "a sound file of your own for " + st + " alerts"})
	}
	opts = append(opts,
		Option{Key: "ui.rail", Type: "enum", Default: "on", Accepted: []string{"on", "off", "left", "right"}, ReadBy: "client",
			Description: "the session rail: on (on the left), off (hidden; the toggle-rail key, prefix b, shows it), or the side it sits on"},
		b("ui.ascii_only", false, "client", "draw ASCII instead of glyphs and box rules"),
	)
	return opts
}

// Option error kinds.
const (
	OptionUnknown  = "unknown"  // no such key
	OptionExcluded = "excluded" // a key set-config never sets
	OptionBadValue = "bad_value"
)

// OptionError is a key or a value set-config refuses.
type OptionError struct {
	Key  string
	Kind string
	// Why is the sentence that says what is wrong.
	Why string
	// DidYouMean is the nearest settable key, for an unknown one.
	DidYouMean string
	// Accepted says what the key takes, for a bad value.
	Accepted string
}

func (e *OptionError) Error() string { return e.Why }

// Code is the stable error code: forbidden for an excluded key,
// invalid_params otherwise.
func (e *OptionError) Code() string {
	if e.Kind == OptionExcluded {
		return "forbidden"
	}
	return "invalid_params"
}

// excludedWhy says why a key outside the settable ones is never set with
// set-config; "" for a key that is merely unknown.
func excludedWhy(key string) string {
	first, _, _ := strings.Cut(key, ".")
	switch {
	case key == "daemon.respond_from_shell":
		return "daemon.respond_from_shell decides who may answer prompts as the person: it is read from the file only, never set over the socket; edit the file by hand"
	case key == "daemon.agent_binaries":
		return "daemon.agent_binaries is a list: edit it in the file by hand"
	case first == "agents":
		return "[agents] decides what agents may do here (approvals, risk rules, permissions, the queue): only the person edits it, in the file; a change that widens it waits for tuios config apply"
	case first == "hosts" || first == "tailscale":
		return "[" + first + "] decides which machines this daemon links to and what they may do here: edit the file (or run tuios hosts add from a terminal outside TUIOS), then tuios config apply"
	case first == "hooks":
		return "[hooks] are shell commands the daemon runs: only the person edits them, in the file"
	case first == "keybindings":
		return "key bindings are edited in the file by hand; a client reads them when it attaches"
	case first == "dock":
		return "[dock] holds lists: edit them in the file by hand"
	case first == "notify":
		return "[notify] holds push addresses and their secrets (a pane could send your Inbox elsewhere): edit the file, then run tuios config apply from a terminal outside TUIOS"
	}
	return ""
}

// LookupOption finds a settable key. An excluded key is an *OptionError
// of kind OptionExcluded naming why; any other unknown key one of kind
// OptionUnknown with the nearest settable key.
func LookupOption(key string) (Option, error) {
	key = strings.TrimSpace(key)
	opts := Options()
	for _, o := range opts {
		if o.Key == key {
			return o, nil
		}
	}
	if why := excludedWhy(key); why != "" {
		return Option{}, &OptionError{Key: key, Kind: OptionExcluded, Why: why}
	}
	e := &OptionError{Key: key, Kind: OptionUnknown, Why: fmt.Sprintf("no option %q", clipKey(key))}
	e.DidYouMean = nearestOption(strings.ToLower(key), opts)
	return Option{}, e
}

func clipKey(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// nearestOption is the settable key closest to key: one whose last part
// is key ("sound"), else the nearest by edit distance.
func nearestOption(key string, opts []Option) string {
	var tail []string
	best, bestD := "", 1<<30
	for _, o := range opts {
		if o.Unlisted {
			continue
		}
		if strings.HasSuffix(o.Key, "."+key) {
			tail = append(tail, o.Key)
		}
		if d := fuzzy.Distance(key, o.Key); d < bestD {
			best, bestD = o.Key, d
		}
	}
	if len(tail) > 0 {
		return tail[0]
	}
	if bestD > max(3, len(key)/3) {
		return ""
	}
	return best
}

// AcceptedText says what the option takes, for a refusal and for help.
func (o Option) AcceptedText() string {
	switch o.Type {
	case "bool":
		return "true or false"
	case "enum":
		return strings.Join(o.Accepted, ", ")
	case "int":
		return fmt.Sprintf("a whole number from %v to %v", *o.Min, *o.Max)
	case "number":
		return fmt.Sprintf("a number from %v to %v", *o.Min, *o.Max)
	}
	if o.check != nil {
		return o.Description
	}
	return "text on one line, at most 1024 bytes"
}

// Parse reads a value as typed on the command line into the option's
// type: bool, int64, float64 or string.
func (o Option) Parse(text string) (any, error) {
	bad := func(format string, a ...any) error {
		return &OptionError{Key: o.Key, Kind: OptionBadValue, Why: o.Key + ": " + fmt.Sprintf(format, a...), Accepted: o.AcceptedText()}
	}
	t := strings.TrimSpace(text)
	show := clipKey(text)
	switch o.Type {
	case "bool":
		switch strings.ToLower(t) {
		case "true", "on", "yes", "1":
			return true, nil
		case "false", "off", "no", "0":
			return false, nil
		}
		return nil, bad("%q is not true or false", show)
	case "int":
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil || float64(n) < *o.Min || float64(n) > *o.Max {
			return nil, bad("%q is not a whole number from %v to %v", show, *o.Min, *o.Max)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < *o.Min || f > *o.Max {
			return nil, bad("%q is not a number from %v to %v", show, *o.Min, *o.Max)
		}
		return f, nil
	case "enum":
		l := strings.ToLower(t)
		for _, a := range o.Accepted {
			if a == l {
				return a, nil
			}
		}
		return nil, bad("%q is not %s", show, strings.Join(o.Accepted, ", "))
	}
	if len(text) > 1024 {
		return nil, bad("the value is %d bytes, over the cap of 1024", len(text))
	}
	if !utf8.ValidString(text) {
		return nil, bad("the value is not UTF-8 text")
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f {
			return nil, bad("the value holds a control character (a line break?): it must be text on one line")
		}
	}
	if o.check != nil {
		if err := o.check(text); err != nil {
			return nil, bad("%v", err)
		}
	}
	return text, nil
}

// OptionValue is the key's value in a config file's bytes, and whether
// the file sets it (unset: the option's default).
func OptionValue(data []byte, o Option) (any, bool, error) {
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		return nil, false, err
	}
	v, ok := lookupPath(m, strings.Split(o.Key, "."))
	if !ok {
		return o.Default, false, nil
	}
	return normalise(o, v), true, nil
}

// normalise gives a value of the file the option's Go type (a whole
// number written for a number key is still a number).
func normalise(o Option, v any) any {
	if o.Type == "number" {
		if n, ok := v.(int64); ok {
			return float64(n)
		}
	}
	return v
}

func lookupPath(m map[string]any, path []string) (any, bool) {
	var cur any = m
	for _, p := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// SetResult is what SetOption did.
type SetResult struct {
	Previous any  // the value before (the default when unset)
	WasSet   bool // the file set the key before
	Changed  bool // the file was written
}

// SetOption writes key = value into the config file at path: the key's
// one line is edited where it stands, or a line is added under its table
// (the table is added at the end when the file has none). Every other
// byte is kept. The file is checked by reading it back (it must parse,
// and differ from the old one in this key alone) and written atomically
// with mode 0600; a symlink is followed, so a config kept in a dotfiles
// repository stays a link. A file that does not parse is not touched.
func SetOption(path string, o Option, value any) (SetResult, error) {
	if path == "" {
		return SetResult{}, &Error{Path: path, Err: errors.New("no config path (HOME and XDG_CONFIG_HOME are unset)")}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return SetResult{}, &Error{Path: path, Err: err}
	}
	if _, err := Parse(data); err != nil {
		return SetResult{}, &Error{Path: path, Err: fmt.Errorf("the file does not parse, so it is not edited: %w", err)}
	}
	prev, wasSet, err := OptionValue(data, o)
	if err != nil {
		return SetResult{}, &Error{Path: path, Err: err}
	}
	res := SetResult{Previous: prev, WasSet: wasSet}
	if wasSet && reflect.DeepEqual(prev, value) {
		return res, nil
	}
	out, err := setKey(data, o.Key, literal(value))
	if err != nil {
		return res, &Error{Path: path, Err: err}
	}
	if _, err := Parse(out); err != nil {
		return res, &Error{Path: path, Err: fmt.Errorf("the edit would not parse, the file is unchanged: %w", err)}
	}
	if err := writePrivate(path, out); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

// literal is v written as TOML.
func literal(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		// A whole number is written as a person would (settle_seconds =
		// 5): the file's reader takes an integer for a number key.
		if v == math.Trunc(v) && math.Abs(v) < 1e15 {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return quoteTOML(v)
	}
	return quoteTOML(fmt.Sprint(v))
}

// quoteTOML is s as a TOML basic string.
func quoteTOML(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// quoteKey is one part of a dotted key, bare when it may be.
func quoteKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return quoteTOML(k)
		}
	}
	return k
}

func joinKey(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = quoteKey(p)
	}
	return strings.Join(parts, ".")
}

// setKey is the line edit: data with the dotted key set to lit (a TOML
// value). It refuses, changing nothing, when the result would read
// differently from data in anything but that key (a key written in a form
// the edit does not follow, such as an inline table).
func setKey(data []byte, key, lit string) ([]byte, error) {
	var before map[string]any
	if _, err := toml.Decode(string(data), &before); err != nil {
		return nil, err
	}
	var want map[string]any
	if _, err := toml.Decode("v = "+lit, &want); err != nil {
		return nil, fmt.Errorf("the value does not read as TOML: %v", err)
	}
	path := strings.Split(key, ".")
	doc, err := scanTOML(data)
	if err != nil {
		return nil, err
	}
	out := doc.edit(data, path, lit)
	var after map[string]any
	if _, err := toml.Decode(string(out), &after); err != nil {
		return nil, fmt.Errorf("%s is written in a form this edit does not change (an inline table, or dotted keys?): edit the file by hand", key)
	}
	if !setPath(before, path, want["v"]) || !reflect.DeepEqual(before, after) {
		return nil, fmt.Errorf("%s is written in a form this edit does not change (an inline table, or dotted keys?): edit the file by hand", key)
	}
	return out, nil
}

// setPath sets path in m, making the tables on the way; false when a
// value that is not a table is in the way.
func setPath(m map[string]any, path []string, v any) bool {
	for _, p := range path[:len(path)-1] {
		next, ok := m[p]
		if !ok {
			n := map[string]any{}
			m[p] = n
			m = n
			continue
		}
		if m, ok = next.(map[string]any); !ok {
			return false
		}
	}
	m[path[len(path)-1]] = v
	return true
}

// writePrivate writes data to path through a sibling temporary file
// renamed over it: a crash leaves the old file or the new one. The file
// is 0600, as it may hold secrets.
func writePrivate(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700}); err != nil {
		return &Error{Path: path, Err: err}
	}
	return nil
}

// ---- a TOML reader that knows where each line is ----

// tomlEntry is one key = value line (the value may run over lines).
type tomlEntry struct {
	path            []string // the table's path + the dotted key
	tableLen        int      // how many parts of path are the table's
	indent          string
	start, valStart int // offsets: the line, the value
	valEnd, lineEnd int // the value's end, after the line's newline
	inArrayTable    bool
	headerIdx       int // the header this entry is under, -1 for the root
}

type tomlHeader struct {
	path    []string
	array   bool
	lineEnd int
}

type tomlDoc struct {
	headers []tomlHeader
	entries []tomlEntry
	crlf    bool
}

// edit places lit at path: over the value of the key's line, else on a
// new line under the key's table (after its last key), else under a table
// added at the end.
func (d *tomlDoc) edit(data []byte, path []string, lit string) []byte {
	nl := "\n"
	if d.crlf {
		nl = "\r\n"
	}
	for _, e := range d.entries {
		if !e.inArrayTable && slices.Equal(e.path, path) {
			return concat(data[:e.valStart], []byte(lit), data[e.valEnd:])
		}
	}
	parent := path[:len(path)-1]
	insertAfter := func(at int, indent, key string) []byte {
		head := data[:at]
		line := indent + key + " = " + lit + nl
		if len(head) > 0 && head[len(head)-1] != '\n' {
			line = nl + line
		}
		return concat(head, []byte(line), data[at:])
	}
	for hi, h := range d.headers {
		if h.array || !slices.Equal(h.path, parent) {
			continue
		}
		at, indent := h.lineEnd, ""
		for _, e := range d.entries {
			if e.headerIdx == hi {
				at, indent = e.lineEnd, e.indent
			}
		}
		return insertAfter(at, indent, quoteKey(path[len(path)-1]))
	}
	// The table made by dotted keys under a table above it
	// ([notifications] agent.dock = true): add a sibling dotted key.
	var last *tomlEntry
	for i, e := range d.entries {
		if !e.inArrayTable && len(e.path) > len(parent) && e.tableLen < len(parent) && slices.Equal(e.path[:len(parent)], parent) {
			last = &d.entries[i]
		}
	}
	if last != nil {
		return insertAfter(last.lineEnd, last.indent, joinKey(path[last.tableLen:]))
	}
	var b bytes.Buffer
	b.Write(data)
	if b.Len() > 0 {
		if data[len(data)-1] != '\n' {
			b.WriteString(nl)
		}
		b.WriteString(nl)
	}
	b.WriteString("[" + joinKey(parent) + "]" + nl + quoteKey(path[len(path)-1]) + " = " + lit + nl)
	return b.Bytes()
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// tomlScanner walks a TOML document that parses (the caller checked),
// noting where each header and key line is. It reads only what it needs
// to find where values end: strings of the four kinds, arrays and inline
// tables over lines, comments.
type tomlScanner struct {
	s   []byte
	i   int
	doc tomlDoc
}

func scanTOML(data []byte) (*tomlDoc, error) {
	sc := &tomlScanner{s: data}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		sc.doc.crlf = true
	}
	var table []string
	array := false
	headerIdx := -1
	for sc.i < len(sc.s) {
		start := sc.i
		sc.skipSpace()
		indent := string(sc.s[start:sc.i])
		if sc.i >= len(sc.s) {
			break
		}
		switch c := sc.s[sc.i]; {
		case c == '\n' || c == '\r' || c == '#':
			sc.toLineEnd()
		case c == '[':
			sc.i++
			array = sc.i < len(sc.s) && sc.s[sc.i] == '['
			if array {
				sc.i++
			}
			p, err := sc.key(']')
			if err != nil {
				return nil, err
			}
			sc.i++ // ]
			if array {
				sc.i++
			}
			sc.toLineEnd()
			table = p
			sc.doc.headers = append(sc.doc.headers, tomlHeader{path: p, array: array, lineEnd: sc.i})
			headerIdx = len(sc.doc.headers) - 1
		default:
			k, err := sc.key('=')
			if err != nil {
				return nil, err
			}
			sc.i++ // =
			sc.skipSpace()
			vs := sc.i
			if err := sc.value(); err != nil {
				return nil, err
			}
			ve := sc.i
			sc.toLineEnd()
			full := append(append([]string{}, table...), k...)
			sc.doc.entries = append(sc.doc.entries, tomlEntry{path: full, tableLen: len(table), indent: indent,
				start: start, valStart: vs, valEnd: ve, lineEnd: sc.i, inArrayTable: array, headerIdx: headerIdx})
		}
	}
	return &sc.doc, nil
}

var errScan = errors.New("the file has a form the edit cannot follow: edit it by hand")

func (sc *tomlScanner) skipSpace() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// toLineEnd skips the rest of the line (a comment) and its newline.
func (sc *tomlScanner) toLineEnd() {
	for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
		sc.i++
	}
	if sc.i < len(sc.s) {
		sc.i++
	}
}

// key reads a dotted key up to end (not consumed).
func (sc *tomlScanner) key(end byte) ([]string, error) {
	var parts []string
	for {
		sc.skipSpace()
		if sc.i >= len(sc.s) {
			return nil, errScan
		}
		switch c := sc.s[sc.i]; c {
		case '"':
			j := sc.i + 1
			for j < len(sc.s) && sc.s[j] != '"' && sc.s[j] != '\n' {
				if sc.s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(sc.s) || sc.s[j] != '"' {
				return nil, errScan
			}
			var m map[string]any
			if _, err := toml.Decode("v = "+string(sc.s[sc.i:j+1]), &m); err != nil {
				return nil, errScan
			}
			s, _ := m["v"].(string)
			parts = append(parts, s)
			sc.i = j + 1
		case '\'':
			j := bytes.IndexByte(sc.s[sc.i+1:], '\'')
			if j < 0 {
				return nil, errScan
			}
			parts = append(parts, string(sc.s[sc.i+1:sc.i+1+j]))
			sc.i += j + 2
		default:
			j := sc.i
			for j < len(sc.s) && isBare(sc.s[j]) {
				j++
			}
			if j == sc.i {
				return nil, errScan
			}
			parts = append(parts, string(sc.s[sc.i:j]))
			sc.i = j
		}
		sc.skipSpace()
		if sc.i >= len(sc.s) {
			return nil, errScan
		}
		switch sc.s[sc.i] {
		case '.':
			sc.i++
		case end:
			return parts, nil
		default:
			return nil, errScan
		}
	}
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips one value.
func (sc *tomlScanner) value() error {
	if sc.i >= len(sc.s) {
		return errScan
	}
	switch sc.s[sc.i] {
	case '"':
		if bytes.HasPrefix(sc.s[sc.i:], []byte(`"""`)) {
			return sc.multi(`"""`, true)
		}
		j := sc.i + 1
		for j < len(sc.s) && sc.s[j] != '"' {
			if sc.s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(sc.s) {
			return errScan
		}
		sc.i = j + 1
	case '\'':
		if bytes.HasPrefix(sc.s[sc.i:], []byte(`'''`)) {
			return sc.multi(`'''`, false)
		}
		j := bytes.IndexByte(sc.s[sc.i+1:], '\'')
		if j < 0 {
			return errScan
		}
		sc.i += j + 2
	case '[':
		return sc.container(']')
	case '{':
		return sc.container('}')
	default:
		for sc.i < len(sc.s) {
			c := sc.s[sc.i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == '#' {
				break
			}
			sc.i++
		}
	}
	return nil
}

// multi skips a multi-line string; its closing quotes may be followed by
// up to two more of the same, which belong to the string.
func (sc *tomlScanner) multi(delim string, escapes bool) error {
	j := sc.i + 3
	for j < len(sc.s) {
		if escapes && sc.s[j] == '\\' {
			j += 2
			continue
		}
		if bytes.HasPrefix(sc.s[j:], []byte(delim)) {
			j += 3
			for n := 0; n < 2 && j < len(sc.s) && sc.s[j] == delim[0]; n++ {
				j++
			}
			sc.i = j
			return nil
		}
		j++
	}
	return errScan
}

// container skips an array or an inline table, over lines and comments.
func (sc *tomlScanner) container(end byte) error {
	sc.i++
	for sc.i < len(sc.s) {
		switch c := sc.s[sc.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',':
			sc.i++
		case c == '#':
			for sc.i < len(sc.s) && sc.s[sc.i] != '\n' {
				sc.i++
			}
		case c == end:
			sc.i++
			return nil
		case end == '}':
			if _, err := sc.key('='); err != nil {
				return err
			}
			sc.i++
			sc.skipSpace()
			if err := sc.value(); err != nil {
				return err
			}
		default:
			if err := sc.value(); err != nil {
				return err
			}
		}
	}
	return errScan
}
