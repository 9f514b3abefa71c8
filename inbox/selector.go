package inbox

// This file is the selector: the one parser and matcher behind every
// "which panes" question tuios answers (the Inbox's / filter, and the
// --select of list-attention, list-agents, wait-for and the writes that
// address many agents at once).

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/fuzzy"
)

// Bounds on a selector's text. A selector over any of them is refused.
const (
	// MaxSelectorBytes is the longest selector, in bytes.
	MaxSelectorBytes = 1024
	// MaxSelectorTerms is the most space-separated terms a selector may
	// have. There are only eight keys and each may appear once, so a
	// selector that parses has at most eight.
	MaxSelectorTerms = 16
	// MaxSelectorAlternatives is the most comma-separated values one term
	// may have.
	MaxSelectorAlternatives = 32
)

// SelectorKey is the key of a selector term, as written before the colon.
type SelectorKey string

// The selector keys, in the order the docs list them. These are the only
// keys: any other word is refused.
const (
	// SelectorHarness matches the harness id ("claude-code") or the
	// detected program name ("claude"), without regard to case. A value
	// that is the first word of an id matches it: "claude" matches
	// "claude-code", "gemini" matches "gemini-cli". No glob.
	SelectorHarness SelectorKey = "harness"
	// SelectorState matches the agent state by its wire name (idle, done,
	// needs_input, …). No glob; an unknown state name is refused.
	SelectorState SelectorKey = "state"
	// SelectorNeeds takes only the value "you": a pane on needs_input or
	// errored.
	SelectorNeeds SelectorKey = "needs"
	// SelectorSession matches the session name, a glob.
	SelectorSession SelectorKey = "session"
	// SelectorGroup matches the fan group (the branch stem, such as
	// "fan/add-retry"), a glob.
	SelectorGroup SelectorKey = "group"
	// SelectorHost matches the machine: "local", or a host name from
	// [hosts], a glob.
	SelectorHost SelectorKey = "host"
	// SelectorName matches the window's name, a glob.
	SelectorName SelectorKey = "name"
	// SelectorCwd matches the pane's directory or any directory under it.
	// "~" and "~/…" are the home directory. No glob.
	SelectorCwd SelectorKey = "cwd"
)

// SelectorKeys returns the accepted keys in the docs' order. The slice is
// new on every call.
func SelectorKeys() []string {
	return []string{"harness", "state", "needs", "session", "group", "host", "name", "cwd"}
}

// selectorKeyIndex returns the key's position in SelectorKeys, or -1.
func selectorKeyIndex(k string) int {
	switch SelectorKey(k) {
	case SelectorHarness:
		return 0
	case SelectorState:
		return 1
	case SelectorNeeds:
		return 2
	case SelectorSession:
		return 3
	case SelectorGroup:
		return 4
	case SelectorHost:
		return 5
	case SelectorName:
		return 6
	case SelectorCwd:
		return 7
	}
	return -1
}

func selectorIsGlobKey(k SelectorKey) bool {
	return k == SelectorSession || k == SelectorGroup || k == SelectorHost || k == SelectorName
}

// selectorParam is the request parameter every selector refusal names.
const selectorParam = "select"

// SelectorError is a selector the parser refused. Its code is
// invalid_params, it names the parameter "select" (Param) and the term at
// fault (Term, as written, "" when the fault is the whole line), and
// Accepted lists the selector keys, as the wire error's hint fields do.
type SelectorError struct {
	Message    string // one line, without the "inbox: " prefix
	Param      string // always "select", the parameter a selector is given in
	Term       string // the term at fault as written, or ""
	DidYouMean string // the nearest accepted key or value, or ""
	// Why names the fault exactly, for tests and callers that tell
	// refusals apart: too_long, bad_utf8, control, unclosed_quote,
	// trailing_backslash, too_many_terms, empty, not_key_value, no_key,
	// quoted_key, unknown_key, duplicate_key, empty_value,
	// empty_alternative, too_many_alternatives, glob_not_allowed,
	// bad_glob, unknown_state, bad_needs, bad_cwd.
	Why  string
	hint string
}

func (e *SelectorError) Error() string { return "inbox: " + e.Message }

// Code returns CodeInvalidParams: every selector refusal is one.
func (e *SelectorError) Code() Code { return CodeInvalidParams }

// Hint says what to do next.
func (e *SelectorError) Hint() string { return e.hint }

// Accepted lists the selector keys (the wire hint's accepted field).
func (e *SelectorError) Accepted() []string { return SelectorKeys() }

// selectorErr builds a refusal. term is the term as written; it is quoted
// and clipped in the message, so a long or odd term cannot spoil the line.
func selectorErr(why, term, hint, format string, args ...any) *SelectorError {
	msg := "select: " + fmt.Sprintf(format, args...)
	if term != "" {
		msg += " in term " + strconv.Quote(selectorClip(term))
	}
	if hint == "" {
		hint = "write key:value terms separated by spaces; keys: " + strings.Join(SelectorKeys(), ", ")
	}
	return &SelectorError{Message: msg, Param: selectorParam, Term: term, hint: hint, Why: why}
}

// selectorClip cuts s to at most 64 bytes on a rune boundary.
func selectorClip(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	i := limit
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// SelectorOptions tells the parser what a cwd value is relative to. Both
// fields may be empty; a value that needs a missing one is refused.
type SelectorOptions struct {
	// Home is the absolute home directory that "~" stands for in a cwd
	// value.
	Home string
	// Dir is the absolute directory a relative cwd value is read against
	// (the CLI's working directory). Empty: relative cwd values are refused.
	Dir string
}

// SelectorFields is what a selector is matched against: one pane (a row of
// list-agents, a pane a wait-for watches) or one Inbox item. The caller
// fills what it knows; an empty field is a field the pane cannot answer, and
// a term on it does not match (even "*").
type SelectorFields struct {
	// Host is the machine: "" or "local" for this one, else the host name.
	Host string
	// Session is the session name.
	Session string
	// Name is the window's name as listings show it (the name the person
	// gave, else the title).
	Name string
	// Group is the fan group (branch stem) of the pane's session, such as
	// "fan/add-retry"; "" for none. Leave it empty for a host's item.
	Group string
	// Harness is the harness id ("claude-code"); Program is the detected
	// program name ("claude"). A harness term matches either.
	Harness string
	Program string
	// Cwd is the pane's absolute directory; "" when unknown (the Inbox
	// filter, a host's item).
	Cwd string
	// State is the agent state. For an Inbox item it comes from the kind:
	// approval and question are needs_input, errored is errored, finished
	// is done. Set NoState when the state cannot be told: state and needs
	// terms then do not match.
	State   agentstate.State
	NoState bool
}

// Selector is a parsed selector: space-separated key:value terms that must
// all match, each a comma-separated list of alternatives of which one must
// match. The zero value and a nil *Selector match everything (no selector
// was given). A Selector is immutable and safe for concurrent use.
type Selector struct {
	terms []selectorTerm
}

type selectorTerm struct {
	key  SelectorKey
	alts []selectorAlt
}

type selectorAlt struct {
	text  string           // canonical form, as String prints it
	glob  [][]selectorAtom // glob keys: the pattern cut at each literal '/'
	word  string           // harness: the value, lower case
	state agentstate.State // state
	dir   string           // cwd: clean absolute directory
}

type selectorAtomOp uint8

const (
	selectorLit   selectorAtomOp = iota // one rune, itself
	selectorOne                         // ?: any one rune but '/'
	selectorStar                        // *: any run of runes without '/'
	selectorClass                       // [...]: one rune in (or not in) the ranges
)

type selectorAtom struct {
	op     selectorAtomOp
	neg    bool            // class: [!...] or [^...]
	r      rune            // lit
	ranges []selectorRange // class
}

type selectorRange struct{ lo, hi rune }

// selectorRune is one rune of a term after quotes and escapes are read:
// lit is true when it was quoted or escaped and so is never special.
type selectorRune struct {
	r   rune
	lit bool
}

type selectorLexTerm struct {
	raw   string
	runes []selectorRune
}

// ParseSelector reads a selector:
//
//	selector    = term { sep term }        ; at least one term, all must match
//	sep         = 1*( " " | TAB )          ; outside quotes
//	term        = key ":" value            ; the first bare ':' ends the key
//	key         = "harness" | "state" | "needs" | "session" | "group"
//	            | "host" | "name" | "cwd"  ; lower case, written bare, once each
//	value       = alt { "," alt }          ; a bare ',' separates alternatives
//	alt         = 1*( char | "\" char | '"' { char | "\" char } '"' )
//
// A backslash makes the next character literal, and so does a double-quoted
// run: that is how a value holds a space, a comma or a glob character as
// itself (name:"api tests", or name:api\ tests). Quotes may open anywhere
// in a value (name:"api tests"*). Every character must be printable:
// control characters, invisible format characters and invalid UTF-8 are
// refused; a tab outside quotes separates terms like a space.
//
// Values by key: session, group, host and name are globs, where * is any run
// of characters without '/', ? one character but '/', and [abc], [a-z],
// [!abc] or [^abc] one character in (or not in) the set; '/' is only ever
// matched by a literal '/'. A ']' first in a set is a member. Broken globs
// (an unclosed '[', a reversed range, a '/' inside a set) are refused.
// harness is an id, a first word of one, or a program name; state a list of
// state wire names; needs only "you"; cwd an absolute directory, "~",
// "~/dir", or (with opts.Dir) a relative one. Glob characters in harness,
// state, needs and cwd are refused unless quoted.
//
// Refused as well: an empty selector, an unknown key (with the nearest key),
// a key written twice (alternatives go after one key, state:idle,done), an
// empty value or alternative, an unclosed quote, a trailing backslash, and a
// selector over MaxSelectorBytes, MaxSelectorTerms or
// MaxSelectorAlternatives. Every refusal is a *SelectorError.
//
// Decisions the grammar leaves open: there is no negation; a key may be given
// once (state:idle state:done would never match, so it is refused with a
// hint to write state:idle,done); harness values compare without regard to
// case and, besides an id or a program name, match an id they are the
// first dash-separated words of (claude → claude-code, not claudette);
// "host:local" also matches a pane with no host (this machine); an empty
// field is one the pane cannot answer, so even "*" does not match it.
func ParseSelector(text string, opts SelectorOptions) (*Selector, error) {
	if len(text) > MaxSelectorBytes {
		return nil, selectorErr("too_long", "", "shorten the selector",
			"selector is %d bytes, more than %d", len(text), MaxSelectorBytes)
	}
	if !utf8.ValidString(text) {
		return nil, selectorErr("bad_utf8", "", "write the selector as UTF-8 text", "selector is not valid UTF-8")
	}
	lex, err := selectorLex(text)
	if err != nil {
		return nil, err
	}
	if len(lex) == 0 {
		return nil, selectorErr("empty", "", "give at least one key:value term, such as harness:claude; keys: "+
			strings.Join(SelectorKeys(), ", "), "selector is empty")
	}
	sel := &Selector{terms: make([]selectorTerm, 0, len(lex))}
	var seen [8]bool
	for _, lt := range lex {
		t, err := selectorCompileTerm(lt, opts)
		if err != nil {
			return nil, err
		}
		i := selectorKeyIndex(string(t.key))
		if seen[i] {
			return nil, selectorErr("duplicate_key", lt.raw,
				"give "+string(t.key)+" once, with alternatives after a comma, such as state:idle,done",
				"key %q given twice", t.key)
		}
		seen[i] = true
		sel.terms = append(sel.terms, t)
	}
	return sel, nil
}

// selectorLex cuts the line into terms and reads quotes and escapes.
func selectorLex(text string) ([]selectorLexTerm, error) {
	var (
		terms   []selectorLexTerm
		cur     []selectorRune
		start   = -1
		inQuote bool
	)
	flush := func(end int) error {
		if start < 0 {
			return nil
		}
		if len(terms) == MaxSelectorTerms {
			return selectorErr("too_many_terms", "", "use at most one term per key",
				"selector has more than %d terms", MaxSelectorTerms)
		}
		terms = append(terms, selectorLexTerm{raw: text[start:end], runes: cur})
		cur, start = nil, -1
		return nil
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !inQuote && (r == ' ' || r == '\t') {
			if err := flush(i); err != nil {
				return nil, err
			}
			i += size
			continue
		}
		if start < 0 {
			start = i
		}
		if !unicode.IsPrint(r) {
			return nil, selectorErr("control", text[start:i], "remove control and invisible characters",
				"character %U is not printable", r)
		}
		switch r {
		case '\\':
			if i+size >= len(text) {
				return nil, selectorErr("trailing_backslash", text[start:], "a backslash makes the next character literal; write \\\\ for one backslash",
					"nothing after the backslash")
			}
			n, nsize := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsPrint(n) {
				return nil, selectorErr("control", text[start:i+size], "remove control and invisible characters",
					"character %U is not printable", n)
			}
			cur = append(cur, selectorRune{r: n, lit: true})
			i += size + nsize
		case '"':
			inQuote = !inQuote
			i += size
		default:
			cur = append(cur, selectorRune{r: r, lit: inQuote})
			i += size
		}
	}
	if inQuote {
		return nil, selectorErr("unclosed_quote", text[start:], "close the quote with \"", "unclosed quote")
	}
	if err := flush(len(text)); err != nil {
		return nil, err
	}
	return terms, nil
}

func selectorCompileTerm(lt selectorLexTerm, opts SelectorOptions) (selectorTerm, error) {
	colon := -1
	for i, c := range lt.runes {
		if c.r == ':' && !c.lit {
			colon = i
			break
		}
	}
	if colon < 0 {
		return selectorTerm{}, selectorErr("not_key_value", lt.raw,
			"write key:value, such as harness:"+selectorClip(selectorPlain(lt.runes))+"; keys: "+strings.Join(SelectorKeys(), ", "),
			"not a key:value term")
	}
	if colon == 0 {
		return selectorTerm{}, selectorErr("no_key", lt.raw, "", "no key before the colon")
	}
	for _, c := range lt.runes[:colon] {
		if c.lit {
			return selectorTerm{}, selectorErr("quoted_key", lt.raw, "write the key bare, without quotes or backslashes; keys: "+
				strings.Join(SelectorKeys(), ", "), "quoted key")
		}
	}
	key := selectorPlain(lt.runes[:colon])
	if selectorKeyIndex(key) < 0 {
		e := selectorErr("unknown_key", lt.raw, "", "unknown key %q", selectorClip(key))
		if near := selectorNearestKey(key); near != "" {
			e.DidYouMean = near
			e.hint = "did you mean " + near + "? keys: " + strings.Join(SelectorKeys(), ", ")
		}
		return selectorTerm{}, e
	}
	t := selectorTerm{key: SelectorKey(key)}
	value := lt.runes[colon+1:]
	if len(value) == 0 {
		return selectorTerm{}, selectorErr("empty_value", lt.raw, "give a value after "+key+":", "empty value")
	}
	begin := 0
	for i := 0; i <= len(value); i++ {
		if i < len(value) && (value[i].r != ',' || value[i].lit) {
			continue
		}
		if len(t.alts) == MaxSelectorAlternatives {
			return selectorTerm{}, selectorErr("too_many_alternatives", lt.raw, "split the selector into several calls",
				"more than %d alternatives", MaxSelectorAlternatives)
		}
		alt := value[begin:i]
		begin = i + 1
		if len(alt) == 0 {
			return selectorTerm{}, selectorErr("empty_alternative", lt.raw,
				"remove the extra comma; a comma separates values, such as state:idle,done", "empty alternative")
		}
		a, err := selectorCompileAlt(t.key, alt, lt.raw, opts)
		if err != nil {
			return selectorTerm{}, err
		}
		t.alts = append(t.alts, a)
	}
	return t, nil
}

// selectorPlain is the text of runes, quotes and escapes dropped.
func selectorPlain(rs []selectorRune) string {
	var b strings.Builder
	for _, c := range rs {
		b.WriteRune(c.r)
	}
	return b.String()
}

// selectorNearestKey names the key a misspelt or synonymous key most likely
// meant, or "".
func selectorNearestKey(k string) string {
	switch strings.ToLower(k) {
	case "agent", "program", "cli", "tool":
		return "harness"
	case "status":
		return "state"
	case "need", "needs_you", "needsyou":
		return "needs"
	case "window", "pane", "title":
		return "name"
	case "dir", "directory", "path", "folder", "pwd":
		return "cwd"
	case "fan", "branch", "stem":
		return "group"
	case "machine", "remote":
		return "host"
	case "s", "sess":
		return "session"
	}
	best, bestDist := "", max(1, len(k)/3)+1
	for _, c := range SelectorKeys() {
		if d := fuzzy.Distance(strings.ToLower(k), c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func selectorCompileAlt(key SelectorKey, alt []selectorRune, raw string, opts SelectorOptions) (selectorAlt, error) {
	if selectorIsGlobKey(key) {
		segs, err := selectorCompileGlob(alt, raw)
		if err != nil {
			return selectorAlt{}, err
		}
		return selectorAlt{glob: segs, text: selectorRenderGlob(segs)}, nil
	}
	for _, c := range alt {
		if !c.lit && (c.r == '*' || c.r == '?' || c.r == '[') {
			hint := string(key) + " takes no glob; quote the character to mean it as itself"
			if key == SelectorCwd {
				hint = "cwd:DIR already matches DIR and every directory under it; give the directory, no glob"
			}
			return selectorAlt{}, selectorErr("glob_not_allowed", raw, hint, "%s takes no glob", key)
		}
	}
	val := selectorPlain(alt)
	switch key {
	case SelectorHarness:
		return selectorAlt{word: strings.ToLower(val), text: selectorEscape(strings.ToLower(val))}, nil
	case SelectorState:
		s, err := agentstate.ParseState(val)
		if err != nil {
			e := selectorErr("unknown_state", raw, "states: "+selectorStateNames(), "unknown state %q", selectorClip(val))
			if se, ok := err.(*agentstate.StateError); ok && se.DidYouMean != "" {
				e.DidYouMean = se.DidYouMean
				e.hint = "did you mean " + se.DidYouMean + "? states: " + selectorStateNames()
			}
			return selectorAlt{}, e
		}
		return selectorAlt{state: s, text: s.String()}, nil
	case SelectorNeeds:
		if val != "you" {
			e := selectorErr("bad_needs", raw, "write needs:you (a pane on needs_input or errored), or use state:", "needs takes only \"you\", not %q", selectorClip(val))
			e.DidYouMean = "you"
			return selectorAlt{}, e
		}
		return selectorAlt{text: "you"}, nil
	case SelectorCwd:
		return selectorCompileCwd(alt, raw, opts)
	}
	panic("inbox: selector key without a compiler: " + string(key))
}

func selectorStateNames() string {
	names := make([]string, 0, 7)
	for _, s := range agentstate.States() {
		names = append(names, s.String())
	}
	return strings.Join(names, ", ")
}

func selectorCompileCwd(alt []selectorRune, raw string, opts SelectorOptions) (selectorAlt, error) {
	tilde := !alt[0].lit && alt[0].r == '~'
	rest := selectorPlain(alt)
	text := selectorEscape(rest)
	if !tilde && alt[0].r == '~' {
		text = "\\" + text // a quoted ~ is a directory named ~, not home
	}
	var dir string
	switch {
	case tilde:
		after := rest[1:]
		if after != "" && after[0] != '/' {
			return selectorAlt{}, selectorErr("bad_cwd", raw, "write ~ or ~/DIR for your home; give another user's home as an absolute path",
				"~user is not supported")
		}
		if !path.IsAbs(opts.Home) {
			return selectorAlt{}, selectorErr("bad_cwd", raw, "give the directory as an absolute path",
				"~ cannot be read here: the home directory is not known")
		}
		dir = path.Join(opts.Home, after)
		text = "~" + selectorEscape(after)
	case path.IsAbs(rest):
		dir = path.Clean(rest)
	default:
		if !path.IsAbs(opts.Dir) {
			return selectorAlt{}, selectorErr("bad_cwd", raw, "give an absolute directory, ~ or ~/DIR",
				"cwd %q is relative", selectorClip(rest))
		}
		dir = path.Join(opts.Dir, rest)
	}
	return selectorAlt{dir: dir, text: text}, nil
}

// selectorEscape writes s so that the lexer reads it back as the same
// literal runes.
func selectorEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		selectorEscapeRune(&b, r)
	}
	return b.String()
}

func selectorEscapeRune(b *strings.Builder, r rune) {
	switch r {
	case ' ', ',', '"', '\\', '*', '?', '[', ']':
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// selectorCompileGlob reads one glob alternative into atoms, cut into
// segments at each literal '/'. Runs of * are one *.
func selectorCompileGlob(alt []selectorRune, raw string) ([][]selectorAtom, error) {
	segs := [][]selectorAtom{nil}
	last := func() *[]selectorAtom { return &segs[len(segs)-1] }
	for i := 0; i < len(alt); i++ {
		c := alt[i]
		if c.lit || (c.r != '*' && c.r != '?' && c.r != '[') {
			if c.r == '/' {
				segs = append(segs, nil)
				continue
			}
			*last() = append(*last(), selectorAtom{op: selectorLit, r: c.r})
			continue
		}
		switch c.r {
		case '*':
			if s := *last(); len(s) > 0 && s[len(s)-1].op == selectorStar {
				continue
			}
			*last() = append(*last(), selectorAtom{op: selectorStar})
		case '?':
			*last() = append(*last(), selectorAtom{op: selectorOne})
		case '[':
			a, n, err := selectorCompileClass(alt[i+1:], raw)
			if err != nil {
				return nil, err
			}
			*last() = append(*last(), a)
			i += n
		}
	}
	return segs, nil
}

// selectorCompileClass reads a set after its '[' and returns it with the
// number of runes read, the closing ']' included.
func selectorCompileClass(rs []selectorRune, raw string) (selectorAtom, int, error) {
	a := selectorAtom{op: selectorClass}
	i := 0
	if i < len(rs) && !rs[i].lit && (rs[i].r == '!' || rs[i].r == '^') {
		a.neg = true
		i++
	}
	first := i
	for ; i < len(rs); i++ {
		c := rs[i]
		if !c.lit && c.r == ']' && i > first {
			return a, i + 1, nil
		}
		lo, hi := c.r, c.r
		if i+2 < len(rs) && !rs[i+1].lit && rs[i+1].r == '-' && (rs[i+2].lit || rs[i+2].r != ']') {
			hi = rs[i+2].r
			i += 2
			if hi < lo {
				return a, 0, selectorErr("bad_glob", raw, "write a range low to high, such as [a-z]",
					"range %c-%c is reversed", lo, hi)
			}
		}
		if lo <= '/' && '/' <= hi {
			return a, 0, selectorErr("bad_glob", raw, "write / outside [...]; only a plain / matches /",
				"a [...] set cannot hold /")
		}
		a.ranges = append(a.ranges, selectorRange{lo, hi})
	}
	return a, 0, selectorErr("bad_glob", raw, "close the set with ], or write \\[ for a literal [", "unclosed [ in glob")
}

// selectorRenderGlob writes the canonical text of a compiled glob.
func selectorRenderGlob(segs [][]selectorAtom) string {
	var b strings.Builder
	for si, seg := range segs {
		if si > 0 {
			b.WriteByte('/')
		}
		for _, a := range seg {
			switch a.op {
			case selectorLit:
				selectorEscapeRune(&b, a.r)
			case selectorOne:
				b.WriteByte('?')
			case selectorStar:
				b.WriteByte('*')
			case selectorClass:
				b.WriteByte('[')
				if a.neg {
					b.WriteByte('!')
				}
				for _, rg := range a.ranges {
					selectorClassRune(&b, rg.lo)
					if rg.hi != rg.lo {
						b.WriteByte('-')
						selectorClassRune(&b, rg.hi)
					}
				}
				b.WriteByte(']')
			}
		}
	}
	return b.String()
}

func selectorClassRune(b *strings.Builder, r rune) {
	if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// String returns the selector in canonical form: its terms in the order
// given, one space apart, each value's quotes turned into backslashes and
// runs of * made one. ParseSelector reads it back to an equal selector
// (with the same options). A nil or zero selector prints "".
func (s *Selector) String() string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	for i, t := range s.terms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(t.key))
		b.WriteByte(':')
		for j, a := range t.alts {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(a.text)
		}
	}
	return b.String()
}

// Uses reports whether the selector has a term on key. The Inbox uses it to
// know that a group or cwd term cannot match a host's items.
func (s *Selector) Uses(key SelectorKey) bool {
	if s == nil {
		return false
	}
	for _, t := range s.terms {
		if t.key == key {
			return true
		}
	}
	return false
}

// Match reports whether f satisfies every term. A nil or zero selector
// matches everything; nil fields answer nothing. Match does not allocate.
func (s *Selector) Match(f *SelectorFields) bool {
	if s == nil {
		return true
	}
	if f == nil {
		f = &SelectorFields{NoState: true}
	}
	for i := range s.terms {
		if !s.terms[i].match(f) {
			return false
		}
	}
	return true
}

func (t *selectorTerm) match(f *SelectorFields) bool {
	var field string
	switch t.key {
	case SelectorState:
		if f.NoState {
			return false
		}
		for i := range t.alts {
			if t.alts[i].state == f.State {
				return true
			}
		}
		return false
	case SelectorNeeds:
		return !f.NoState && f.State.NeedsYou()
	case SelectorHarness:
		if f.Harness == "" && f.Program == "" {
			return false
		}
		for i := range t.alts {
			if selectorHarnessMatch(t.alts[i].word, f.Harness, f.Program) {
				return true
			}
		}
		return false
	case SelectorCwd:
		if !path.IsAbs(f.Cwd) {
			return false
		}
		cwd := path.Clean(f.Cwd)
		for i := range t.alts {
			if selectorUnder(cwd, t.alts[i].dir) {
				return true
			}
		}
		return false
	case SelectorHost:
		field = f.Host
		if field == "" {
			field = "local"
		}
	case SelectorSession:
		field = f.Session
	case SelectorGroup:
		field = f.Group
	case SelectorName:
		field = f.Name
	}
	if field == "" {
		return false
	}
	for i := range t.alts {
		if selectorGlobMatch(t.alts[i].glob, field) {
			return true
		}
	}
	return false
}

func selectorHarnessMatch(word, id, program string) bool {
	if id != "" {
		if strings.EqualFold(word, id) {
			return true
		}
		if len(id) > len(word) && id[len(word)] == '-' && strings.EqualFold(id[:len(word)], word) {
			return true
		}
	}
	return program != "" && strings.EqualFold(word, program)
}

// selectorUnder reports whether cwd (clean, absolute) is dir or under it.
func selectorUnder(cwd, dir string) bool {
	if dir == "/" || cwd == dir {
		return true
	}
	return len(cwd) > len(dir) && cwd[len(dir)] == '/' && cwd[:len(dir)] == dir
}

// selectorGlobMatch matches s against a glob cut into segments at '/': s
// must have as many '/'-separated parts, each matching its segment.
func selectorGlobMatch(segs [][]selectorAtom, s string) bool {
	for i, seg := range segs {
		part := s
		if i < len(segs)-1 {
			j := strings.IndexByte(s, '/')
			if j < 0 {
				return false
			}
			part, s = s[:j], s[j+1:]
		} else if strings.IndexByte(s, '/') >= 0 {
			return false
		}
		if !selectorSegMatch(seg, part) {
			return false
		}
	}
	return true
}

// selectorSegMatch matches one segment (no '/' on either side). A * that
// fails is retried one rune longer from the last * only: with no '/' to
// stop it, a later * can always take what an earlier one would have, so the
// cost is at most len(pattern)×len(s).
func selectorSegMatch(p []selectorAtom, s string) bool {
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			a := &p[pi]
			if a.op == selectorStar {
				starP, starS = pi, si
				pi++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[si:])
			if a.matchRune(r) {
				pi++
				si += size
				continue
			}
		}
		if starP < 0 {
			return false
		}
		_, size := utf8.DecodeRuneInString(s[starS:])
		starS += size
		pi, si = starP+1, starS
	}
	for pi < len(p) && p[pi].op == selectorStar {
		pi++
	}
	return pi == len(p)
}

func (a *selectorAtom) matchRune(r rune) bool {
	switch a.op {
	case selectorLit:
		return a.r == r
	case selectorOne:
		return true
	case selectorClass:
		in := false
		for _, rg := range a.ranges {
			if rg.lo <= r && r <= rg.hi {
				in = true
				break
			}
		}
		return in != a.neg
	}
	return false
}
