package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
)

// Verdict is what one rule block made of what it read. A miss (Matched
// false) is "no opinion", never a state.
type Verdict struct {
	Matched bool             `json:"matched"`
	State   agentstate.State `json:"state"`
	Kind    agentstate.Kind  `json:"kind,omitempty"`
	// Message is "<kind>: <prompt line>" for a screen rule, the
	// rule's message for a title rule or a match on patterns only, and
	// "approve <tool>: <what>" for a dialog rule that found one box.
	Message string `json:"message,omitempty"`
	// Rule is the index of the deciding rule in RuleSet.Rules, -1 on a miss.
	Rule int `json:"rule"`
	// Dialog is set when a dialog rule found exactly one box holding its
	// strings. Two or more boxes match the rule but give no dialog.
	Dialog *Dialog `json:"dialog,omitempty"`
}

// noRule is Verdict.Rule on a miss.
const noRule = -1

// miss is a verdict of no opinion.
func miss() Verdict { return Verdict{Rule: noRule} }

// Classify runs the screen rules over a pane's tail: the bottom non-empty
// rows of the active screen, top-down, right-trimmed (what vt.Screen.Tail
// returns for ReadLines rows). A disabled or uncompiled set, or a set that
// is not a screen block, returns a miss.
func (rs *RuleSet) Classify(tail []string) Verdict {
	if rs == nil || !rs.compiled || !rs.Enabled || rs.kind != RuleScreen {
		return miss()
	}
	return rs.classifyScreen(tail)
}

func (rs *RuleSet) classifyScreen(tail []string) Verdict {
	st := newScreenText(tail, rs.FoldCase)
	for _, i := range rs.order {
		r := &rs.Rules[i]
		if r.c.empty {
			continue
		}
		a, b, ok := st.region(r.c.region, r.c.n)
		if !ok {
			continue
		}
		if r.c.dialog {
			if v, ok := rs.classifyDialog(r, i, st, a, b); ok {
				return v
			}
			continue
		}
		text, ftext := st.text(a, b)
		if !evalGate(&r.c.g, text, ftext, false, nil) {
			continue
		}
		return rs.screenVerdict(r, i, st, a, b)
	}
	return miss()
}

func (rs *RuleSet) screenVerdict(r *Rule, i int, st *screenText, a, b int) Verdict {
	v := Verdict{Matched: true, State: r.c.state, Kind: r.c.kind, Rule: i}
	line := st.promptLine(&r.c.g, a, b)
	if line != "" && r.c.state == agentstate.NeedsInput {
		v.Message = capRunes(r.c.kind.String()+": "+line, MaxMessageRunes)
	} else {
		v.Message = capRunes(r.Message, MaxMessageRunes)
	}
	return v
}

// ClassifyTitle runs the title rules that read the window title (region
// title/osc_title). A substring matches only whole tokens of the title, so
// a glyph rule is not set off by the same glyph inside a word.
func (rs *RuleSet) ClassifyTitle(title string) Verdict {
	return rs.classifyLine(title, regTitle)
}

// ClassifyProgress runs the title rules that read the text of the last
// OSC 9;4 progress report (region osc_progress).
func (rs *RuleSet) ClassifyProgress(progress string) Verdict {
	return rs.classifyLine(progress, regProgress)
}

func (rs *RuleSet) classifyLine(text string, reg regionKind) Verdict {
	if rs == nil || !rs.compiled || !rs.Enabled || rs.kind != RuleTitle {
		return miss()
	}
	ftext := text
	if rs.FoldCase {
		ftext = strings.ToLower(text)
	}
	for _, i := range rs.order {
		r := &rs.Rules[i]
		if r.c.empty || r.c.region != reg {
			continue
		}
		if evalGate(&r.c.g, text, ftext, true, nil) {
			return Verdict{Matched: true, State: r.c.state, Kind: r.c.kind, Message: capRunes(r.Message, MaxMessageRunes), Rule: i}
		}
	}
	return miss()
}

// ClassifyNotify runs the notify rules over a desktop notification; title
// and body are read as one text, title first, and substrings match
// anywhere. The message is the notification's words, fronted by the kind
// for needs_input.
func (rs *RuleSet) ClassifyNotify(title, body string) Verdict {
	if rs == nil || !rs.compiled || !rs.Enabled || rs.kind != RuleNotify {
		return miss()
	}
	text := title
	if body != "" {
		if text != "" {
			text += "\n"
		}
		text += body
	}
	ftext := text
	if rs.FoldCase {
		ftext = strings.ToLower(text)
	}
	for _, i := range rs.order {
		r := &rs.Rules[i]
		if r.c.empty || !evalGate(&r.c.g, text, ftext, false, nil) {
			continue
		}
		v := Verdict{Matched: true, State: r.c.state, Kind: r.c.kind, Rule: i}
		words := cleanLine(strings.ReplaceAll(strings.TrimSpace(title)+": "+strings.TrimSpace(body), "\n", " "))
		if strings.TrimSpace(title) == "" {
			words = cleanLine(body)
		} else if strings.TrimSpace(body) == "" {
			words = cleanLine(title)
		}
		switch {
		case words == "":
			v.Message = capRunes(r.Message, MaxMessageRunes)
		case r.c.state == agentstate.NeedsInput:
			v.Message = capRunes(r.c.kind.String()+": "+words, MaxMessageRunes)
		default:
			v.Message = capRunes(words, MaxMessageRunes)
		}
		return v
	}
	return miss()
}

// gateWhy collects why a gate refused (or what it saw), for ExplainScreen.
type gateWhy struct {
	missing      []string
	missingRegex []string
	noneOf       []string
	blocked      []string
	blockedRegex []string
	groups       []string
}

// evalGate tests a compiled gate against text (ftext is the folded copy
// used for substrings). token selects title matching (whole tokens). With
// why != nil every predicate is tested and the refusals recorded.
func evalGate(g *gate, text, ftext string, token bool, why *gateWhy) bool {
	return evalGateAt(g, text, ftext, token, why, "")
}

func evalGateAt(g *gate, text, ftext string, token bool, why *gateWhy, path string) bool {
	has := strings.Contains
	if token {
		has = containsToken
	}
	ok := true
	for i, s := range g.all {
		if !has(ftext, s) {
			if why == nil {
				return false
			}
			ok = false
			why.missing = append(why.missing, path+g.rawAll[i])
		}
	}
	if len(g.any) > 0 {
		found := false
		for _, s := range g.any {
			if has(ftext, s) {
				found = true
				break
			}
		}
		if !found {
			if why == nil {
				return false
			}
			ok = false
			for _, s := range g.rawAny {
				why.noneOf = append(why.noneOf, path+s)
			}
		}
	}
	for i, s := range g.not {
		if has(ftext, s) {
			if why == nil {
				return false
			}
			ok = false
			why.blocked = append(why.blocked, path+g.rawNot[i])
		}
	}
	for i, re := range g.regex {
		if !re.MatchString(text) {
			if why == nil {
				return false
			}
			ok = false
			why.missingRegex = append(why.missingRegex, path+g.rawRegex[i])
		}
	}
	for i, re := range g.notRegex {
		if re.MatchString(text) {
			if why == nil {
				return false
			}
			ok = false
			why.blockedRegex = append(why.blockedRegex, path+g.rawNotRegex[i])
		}
	}
	for i := range g.allOf {
		if !evalGateAt(&g.allOf[i], text, ftext, token, nil, "") {
			if why == nil {
				return false
			}
			ok = false
			why.groups = append(why.groups, path+groupName("all_of", i)+" does not hold")
		}
	}
	if len(g.anyOf) > 0 {
		found := false
		for i := range g.anyOf {
			if evalGateAt(&g.anyOf[i], text, ftext, token, nil, "") {
				found = true
				break
			}
		}
		if !found {
			if why == nil {
				return false
			}
			ok = false
			why.groups = append(why.groups, path+"no any_of group holds")
		}
	}
	for i := range g.noneOf {
		if evalGateAt(&g.noneOf[i], text, ftext, token, nil, "") {
			if why == nil {
				return false
			}
			ok = false
			why.groups = append(why.groups, path+groupName("none_of", i)+" holds")
		}
	}
	return ok
}

func groupName(field string, i int) string {
	return field + "[" + itoa(i) + "]"
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// isTokenRune reports whether c continues a title token.
func isTokenRune(c rune) bool {
	return c == '_' || c == '-' || c == '.' || unicode.IsLetter(c) || unicode.IsDigit(c)
}

// containsToken reports whether p occurs in s as a whole token: the rune
// before the match and the rune after it must not continue a token, unless
// p's own first (last) rune is itself a boundary rune, which is matched
// plainly at that end.
func containsToken(s, p string) bool {
	if p == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	checkStart := isTokenRune(first)
	checkEnd := isTokenRune(last)
	from := 0
	for from <= len(s)-len(p) {
		j := strings.Index(s[from:], p)
		if j < 0 {
			return false
		}
		at := from + j
		end := at + len(p)
		okStart := true
		if checkStart && at > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:at])
			okStart = !isTokenRune(r)
		}
		okEnd := true
		if checkEnd && end < len(s) {
			r, _ := utf8.DecodeRuneInString(s[end:])
			okEnd = !isTokenRune(r)
		}
		if okStart && okEnd {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		from = at + size
	}
	return false
}

// screenText is one look's tail with its joined and folded copies and the
// positions of its border lines.
type screenText struct {
	lines   []string
	fold    bool
	joined  string
	offs    []int // byte offset of line i in joined; offs[len(lines)] = len(joined)+1
	fjoined string
	foffs   []int
	folded  bool
	borders []int // indexes of border lines, top-down
	flines  []string
}

func newScreenText(tail []string, fold bool) *screenText {
	st := &screenText{lines: tail, fold: fold}
	st.joined, st.offs = joinLines(tail)
	for i, l := range tail {
		if isBorderLine(l) {
			st.borders = append(st.borders, i)
		}
	}
	return st
}

func joinLines(lines []string) (string, []int) {
	offs := make([]int, len(lines)+1)
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		offs[i] = b.Len()
		if i > 0 {
			offs[i] = b.Len() + 1
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	offs[len(lines)] = b.Len() + 1
	return b.String(), offs
}

func (st *screenText) foldLines() {
	if st.folded {
		return
	}
	st.folded = true
	st.flines = make([]string, len(st.lines))
	changed := false
	for i, l := range st.lines {
		if hasUpper(l) {
			st.flines[i] = strings.ToLower(l)
			changed = true
		} else {
			st.flines[i] = l
		}
	}
	if !changed {
		st.fjoined, st.foffs = st.joined, st.offs
		return
	}
	st.fjoined, st.foffs = joinLines(st.flines)
}

// hasUpper reports whether lowercasing would change s. Box drawing,
// arrows, symbols and braille have no case and are skipped cheaply.
func hasUpper(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if (r >= 0x2190 && r <= 0x23FF) || (r >= 0x2500 && r <= 0x28FF) {
			continue
		}
		if unicode.ToLower(r) != r {
			return true
		}
	}
	return false
}

// text returns the region's lines [a,b) joined, and the copy substrings
// are tested against (folded when the set folds case).
func (st *screenText) text(a, b int) (string, string) {
	if a >= b {
		return "", ""
	}
	t := st.joined[st.offs[a] : st.offs[b]-1]
	if !st.fold {
		return t, t
	}
	st.foldLines()
	return t, st.fjoined[st.foffs[a] : st.foffs[b]-1]
}

// line returns line i for substring tests.
func (st *screenText) cmpLine(i int) string {
	if !st.fold {
		return st.lines[i]
	}
	st.foldLines()
	return st.flines[i]
}

// region cuts a region from the tail as a line range [a,b). ok is false
// when the region does not exist on this screen (a box region with fewer
// than two border lines).
func (st *screenText) region(k regionKind, n int) (a, b int, ok bool) {
	total := len(st.lines)
	switch k {
	case regTail:
		return 0, total, total > 0
	case regBottom:
		a = total - n
		if a < 0 {
			a = 0
		}
		return a, total, total > 0
	case regAfterRule:
		if len(st.borders) == 0 {
			return 0, total, total > 0
		}
		a = st.borders[len(st.borders)-1] + 1
		return a, total, a < total
	}
	if len(st.borders) < 2 {
		return 0, 0, false
	}
	top, bottom := st.borders[len(st.borders)-2], st.borders[len(st.borders)-1]
	switch k {
	case regPromptBox:
		return top + 1, bottom, top+1 < bottom
	case regAbovePromptBox:
		return 0, top, top > 0
	case regLastAbovePromptBox:
		for i := top - 1; i >= 0; i-- {
			if strings.TrimSpace(st.lines[i]) != "" {
				return i, i + 1, true
			}
		}
	}
	return 0, 0, false
}

// isBorderLine: after trimming and an optional leading corner, a run of
// at least three ─ or ━.
func isBorderLine(l string) bool {
	s := strings.TrimSpace(l)
	if s == "" {
		return false
	}
	r, size := utf8.DecodeRuneInString(s)
	switch r {
	case '╭', '╰', '┌', '└', '├', '┏', '┗', '┣':
		s = s[size:]
	}
	run := 0
	for _, c := range s {
		if c != '─' && c != '━' {
			break
		}
		run++
	}
	return run >= 3
}

// promptLine is the first line of the region holding one of the gate's
// all strings, then any, then nested positive strings, cleaned.
func (st *screenText) promptLine(g *gate, a, b int) string {
	for _, list := range [2][]string{g.all, g.any} {
		if l := st.firstLineWith(list, a, b); l != "" {
			return l
		}
	}
	var nested func(gs []gate) string
	nested = func(gs []gate) string {
		for i := range gs {
			for _, list := range [2][]string{gs[i].all, gs[i].any} {
				if l := st.firstLineWith(list, a, b); l != "" {
					return l
				}
			}
			if l := nested(gs[i].allOf); l != "" {
				return l
			}
			if l := nested(gs[i].anyOf); l != "" {
				return l
			}
		}
		return ""
	}
	if l := nested(g.allOf); l != "" {
		return l
	}
	return nested(g.anyOf)
}

func (st *screenText) firstLineWith(list []string, a, b int) string {
	if len(list) == 0 {
		return ""
	}
	for i := a; i < b; i++ {
		l := st.cmpLine(i)
		for _, s := range list {
			if strings.Contains(l, s) {
				if c := cleanLine(st.lines[i]); c != "" {
					return c
				}
			}
		}
	}
	return ""
}

// cleanLine makes one line of pane text fit for a message: control runes,
// box-drawing and block characters (U+2500–U+259F) and the cursor marks
// ❯ ▶ › are removed, a leading '>' is dropped, whitespace is collapsed, and
// the result is cut to 160 runes.
func cleanLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r), r >= 0x2500 && r <= 0x259F, r == '❯', r == '▶', r == '›',
			unicode.Is(unicode.Cf, r) && r != 0x200D:
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if strings.HasPrefix(out, ">") {
		out = strings.TrimLeft(out[1:], " ")
	}
	return capRunes(out, MaxMessageRunes)
}

// capRunes cuts s to at most n runes.
func capRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
