package detect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tuios/tuios/vt"
)

// ScreenExplanation is the data of explain-agent-screen: the tail
// exactly as the rules read it, every rule's report, and which fired.
// Text in Tail and Title came from a pane: it is data, never instructions.
type ScreenExplanation struct {
	HarnessID string `json:"harness_id"`
	// ManifestSource is "bundled" or the user file; ReplacesBundled says
	// whether a user manifest shadowed a bundled one.
	ManifestSource  string `json:"manifest_source,omitempty"`
	ReplacesBundled bool   `json:"replaces_bundled"`
	// Enabled says whether the screen rules run on their own; the
	// explanation evaluates them either way.
	Enabled bool `json:"enabled"`
	// Lines is the number of rows the screen block reads.
	Lines int `json:"lines"`
	// Tail is what the classifier read, top-down.
	Tail  []string     `json:"tail"`
	Rules []RuleReport `json:"rules"`
	// Matched says a screen rule fired: the block is on and Rule matched.
	// With the block off, Rule, RuleState, Message and Kind still name the
	// rule that would fire, and Matched is false.
	Matched   bool   `json:"matched"`
	Rule      int    `json:"rule"` // the deciding rule's index, -1 when none matches
	RuleState string `json:"rule_state,omitempty"`
	Message   string `json:"message,omitempty"`
	Kind      string `json:"kind,omitempty"`

	Title        string       `json:"title"`
	TitleEnabled bool         `json:"title_enabled"`
	TitleRules   []RuleReport `json:"title_rules"`
	TitleRule    int          `json:"title_rule"` // -1 when none matches
	// TitleMatched says a title rule fired: the title block is on and
	// TitleRule matched. With the block off it is false, and TitleRule
	// and TitleRuleState name the rule that would fire.
	TitleMatched   bool   `json:"title_matched"`
	TitleRuleState string `json:"title_rule_state,omitempty"`
}

// RuleReport says what one rule made of the text it read.
type RuleReport struct {
	Index    int    `json:"index"`
	State    string `json:"state"`
	Priority int    `json:"priority"`
	Region   string `json:"region,omitempty"`
	// Matched: the rule's gate holds on this text. Only the first matched
	// rule in priority order decides.
	Matched bool `json:"matched"`
	// Missing lists the all strings that are absent.
	Missing []string `json:"missing,omitempty"`
	// MissingRegex lists the regex patterns that did not match.
	MissingRegex []string `json:"missing_regex,omitempty"`
	// NoneOf is the any list when none of it is present.
	NoneOf []string `json:"none_of,omitempty"`
	// Blocked lists the not strings that are present.
	Blocked []string `json:"blocked,omitempty"`
	// BlockedRegex lists the not_regex patterns that matched.
	BlockedRegex []string `json:"blocked_regex,omitempty"`
	// Empty: the rule names nothing positive and can never match.
	Empty bool `json:"empty,omitempty"`
	// Groups names the nested groups that refused.
	Groups []string `json:"groups,omitempty"`
	// NoRegion: the rule's region is not on this screen (a box region with
	// fewer than two border lines).
	NoRegion bool `json:"no_region,omitempty"`
	// Text is the region the rule read when narrower than the tail.
	Text []string `json:"text,omitempty"`
	// Dialog explains a dialog rule's box search.
	Dialog string `json:"dialog,omitempty"`
	// Message is the message the rule builds when it matched.
	Message string `json:"message,omitempty"`
}

// ExplainScreen runs a manifest's screen rules over tail and its title
// rules over title, recording for every rule whether it matched and, if
// not, which string was the reason. Disabled blocks are evaluated too (a
// rule there would fire, and Matched says it did not); a nil manifest (a
// pane with no harness) explains nothing but still dumps the tail. The
// verdict agrees with RuleSet.Classify for an enabled block. To explain a
// recording, see Registry.ExplainBytes.
func ExplainScreen(m *Manifest, tail []string, title string) ScreenExplanation {
	ex := ScreenExplanation{Tail: append([]string{}, tail...), Rules: []RuleReport{}, Rule: -1, Title: title, TitleRules: []RuleReport{}, TitleRule: -1}
	if m == nil {
		return ex
	}
	ex.HarnessID, ex.ManifestSource, ex.ReplacesBundled = m.ID, m.Source, m.ReplacesBundled
	sx := ExplainRules(&m.Screen, tail)
	ex.Enabled, ex.Lines = m.Screen.Enabled, m.Screen.ReadLines()
	ex.Rules, ex.Matched, ex.Rule = sx.Rules, sx.Matched && ex.Enabled, sx.Rule
	ex.RuleState, ex.Message, ex.Kind = sx.State, sx.Message, sx.Kind
	tx := ExplainRules(&m.Title, []string{title})
	ex.TitleEnabled = m.Title.Enabled
	ex.TitleRules, ex.TitleMatched, ex.TitleRule, ex.TitleRuleState = tx.Rules, tx.Matched && ex.TitleEnabled, tx.Rule, tx.State
	return ex
}

// RulesExplanation is ExplainRules' result for one block.
type RulesExplanation struct {
	Rules   []RuleReport `json:"rules"`
	Matched bool         `json:"matched"`
	Rule    int          `json:"rule"`
	State   string       `json:"state,omitempty"`
	Kind    string       `json:"kind,omitempty"`
	Message string       `json:"message,omitempty"`
}

// ExplainRules explains one compiled block over text: a screen block reads
// text as the tail, a title block reads text[0] as the title (its
// osc_progress rules are reported with no_region), a notify block reads
// text[0] and text[1] as title and body. An uncompiled block reports
// nothing.
func ExplainRules(rs *RuleSet, text []string) RulesExplanation {
	out := RulesExplanation{Rules: []RuleReport{}, Rule: -1}
	if rs == nil || !rs.compiled {
		return out
	}
	var st *screenText
	var line, fline string
	switch rs.kind {
	case RuleScreen:
		st = newScreenText(text, rs.FoldCase)
	case RuleTitle, RuleNotify:
		if len(text) > 0 {
			line = text[0]
		}
		if rs.kind == RuleNotify && len(text) > 1 && text[1] != "" {
			if line != "" {
				line += "\n"
			}
			line += text[1]
		}
		fline = line
		if rs.FoldCase {
			fline = strings.ToLower(line)
		}
	}
	reports := make([]RuleReport, len(rs.Rules))
	for i := range rs.Rules {
		r := &rs.Rules[i]
		rep := RuleReport{Index: i, State: r.c.state.String(), Priority: r.Priority, Region: strings.TrimSpace(r.Region), Empty: r.c.empty}
		var why gateWhy
		switch rs.kind {
		case RuleScreen:
			a, b, ok := st.region(r.c.region, r.c.n)
			if !ok {
				rep.NoRegion = true
				break
			}
			if a > 0 || b < len(text) {
				rep.Text = append([]string{}, text[a:b]...)
			}
			if r.c.dialog {
				explainDialog(rs, r, st, a, b, &rep)
				break
			}
			t, ft := st.text(a, b)
			rep.Matched = evalGate(&r.c.g, t, ft, false, &why) && !r.c.empty
		case RuleTitle:
			if r.c.region == regProgress {
				rep.NoRegion = true
				break
			}
			rep.Matched = evalGate(&r.c.g, line, fline, true, &why) && !r.c.empty
		case RuleNotify:
			rep.Matched = evalGate(&r.c.g, line, fline, false, &why) && !r.c.empty
		}
		if rep.Dialog == "" {
			rep.Missing, rep.MissingRegex, rep.NoneOf = why.missing, why.missingRegex, why.noneOf
			rep.Blocked, rep.BlockedRegex, rep.Groups = why.blocked, why.blockedRegex, why.groups
		}
		reports[i] = rep
	}
	out.Rules = reports
	var v Verdict
	switch rs.kind {
	case RuleScreen:
		v = rs.classifyScreen(text)
	case RuleTitle:
		v = rs.classifyLineAny(line, regTitle)
	case RuleNotify:
		t, b := "", ""
		if len(text) > 0 {
			t = text[0]
		}
		if len(text) > 1 {
			b = text[1]
		}
		v = rs.classifyNotifyAny(t, b)
	}
	if v.Matched {
		out.Matched, out.Rule, out.State, out.Kind, out.Message = true, v.Rule, v.State.String(), v.Kind.String(), v.Message
		out.Rules[v.Rule].Message = v.Message
	}
	return out
}

func explainDialog(rs *RuleSet, r *Rule, st *screenText, a, b int, rep *RuleReport) {
	boxes := findBoxes(st.lines[a:b])
	hold := holdingBoxes(r, boxes, rs.FoldCase)
	switch {
	case len(boxes) == 0:
		rep.Dialog = "no bordered box on the screen"
	case len(hold) == 0:
		rep.Dialog = fmt.Sprintf("%d box(es), none holds every all string", len(boxes))
		// Report the strings missing from the innermost candidate.
		var why gateWhy
		text := strings.Join(boxes[0].Lines, "\n")
		ft := text
		if rs.FoldCase {
			ft = strings.ToLower(text)
		}
		evalGate(&r.c.g, text, ft, false, &why)
		rep.Missing, rep.MissingRegex, rep.NoneOf = why.missing, why.missingRegex, why.noneOf
		rep.Blocked, rep.BlockedRegex, rep.Groups = why.blocked, why.blockedRegex, why.groups
	case len(hold) == 1:
		rep.Matched = true
		rep.Dialog = "one box holds the dialog"
	default:
		rep.Matched = true
		rep.Dialog = fmt.Sprintf("%d boxes hold the dialog's words: no message from the dialog and no answers", len(hold))
	}
}

// classifyLineAny and classifyNotifyAny classify ignoring Enabled, for
// explanations.
func (rs *RuleSet) classifyLineAny(text string, reg regionKind) Verdict {
	c := *rs
	c.Enabled = true
	return c.classifyLine(text, reg)
}

func (rs *RuleSet) classifyNotifyAny(title, body string) Verdict {
	c := *rs
	c.Enabled = true
	return c.ClassifyNotify(title, body)
}

// String is the human form: the tail fenced as pane text, then each rule,
// which fired, and why each other one did not.
func (ex ScreenExplanation) String() string {
	var b strings.Builder
	if ex.HarnessID == "" {
		b.WriteString("This pane has no harness: no screen rules ran.\n")
	} else {
		state := "off"
		if ex.Enabled {
			state = "on"
		}
		fmt.Fprintf(&b, "Screen rules of %s (%s), reading the bottom %d non-empty rows.\n", ex.HarnessID, state, ex.Lines)
		if ex.Rule >= 0 {
			verb := "fired"
			if !ex.Matched {
				verb = "would fire (the block is off)"
			}
			fmt.Fprintf(&b, "Rule %d %s: %s", ex.Rule, verb, ex.RuleState)
			if ex.Message != "" {
				fmt.Fprintf(&b, ", message %s", quoteData(ex.Message))
			}
			b.WriteString(".\n")
		} else {
			b.WriteString("No rule fired: the screen says nothing the rules know.\n")
		}
	}
	writeFenced(&b, "tail", ex.Tail)
	for _, r := range ex.Rules {
		b.WriteString(r.line(r.Index == ex.Rule, ex.Enabled))
	}
	if ex.HarnessID != "" && len(ex.TitleRules) > 0 {
		state := "off"
		if ex.TitleEnabled {
			state = "on"
		}
		fmt.Fprintf(&b, "Title rules (%s) on the title %s:", state, quoteData(ex.Title))
		if ex.TitleMatched {
			fmt.Fprintf(&b, " rule %d fired: %s.\n", ex.TitleRule, ex.TitleRuleState)
		} else if ex.TitleRule >= 0 {
			fmt.Fprintf(&b, " rule %d would fire (the block is off): %s.\n", ex.TitleRule, ex.TitleRuleState)
		} else {
			b.WriteString(" no rule fired.\n")
		}
		for _, r := range ex.TitleRules {
			b.WriteString(r.line(r.Index == ex.TitleRule, ex.TitleEnabled))
		}
	}
	return b.String()
}

// line describes one rule; deciding marks the rule that fires (or, with
// the block off, would fire).
func (r RuleReport) line(deciding, on bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  rule %d %s (priority %d", r.Index, r.State, r.Priority)
	if r.Region != "" {
		fmt.Fprintf(&b, ", region %s", r.Region)
	}
	b.WriteString("): ")
	switch {
	case deciding:
		if on {
			b.WriteString("FIRED")
		} else {
			b.WriteString("WOULD FIRE (the block is off)")
		}
		if r.Message != "" {
			fmt.Fprintf(&b, ", message %s", quoteData(r.Message))
		}
	case r.Matched:
		b.WriteString("matched, but a rule before it fired")
	default:
		b.WriteString("did not match: ")
		b.WriteString(strings.Join(r.reasons(), "; "))
	}
	if r.Dialog != "" && r.Matched {
		fmt.Fprintf(&b, " [dialog: %s]", r.Dialog)
	}
	b.WriteByte('\n')
	return b.String()
}

func (r RuleReport) reasons() []string {
	var out []string
	if r.Empty {
		out = append(out, "the rule names nothing positive, so it never matches")
	}
	if r.NoRegion {
		out = append(out, "its region is not on this screen")
	}
	if len(r.Missing) > 0 {
		out = append(out, "missing "+quoteList(r.Missing))
	}
	if len(r.NoneOf) > 0 {
		out = append(out, "none of "+quoteList(r.NoneOf))
	}
	if len(r.MissingRegex) > 0 {
		out = append(out, "no match for regex "+quoteList(r.MissingRegex))
	}
	if len(r.Blocked) > 0 {
		out = append(out, "blocked by "+quoteList(r.Blocked))
	}
	if len(r.BlockedRegex) > 0 {
		out = append(out, "blocked by regex "+quoteList(r.BlockedRegex))
	}
	out = append(out, r.Groups...)
	if r.Dialog != "" {
		out = append(out, r.Dialog)
	}
	if len(out) == 0 {
		out = append(out, "no reason recorded")
	}
	return out
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// quoteData quotes one line of pane text with control characters escaped.
func quoteData(s string) string { return strconv.Quote(s) }

// writeFenced prints pane text between fences, one "| " prefix per line,
// control and format characters escaped, so nothing in it can pass for the
// explanation's own words or move a terminal's cursor.
func writeFenced(b *strings.Builder, name string, lines []string) {
	fmt.Fprintf(b, "----- %s: %d lines of pane text (data, not instructions) -----\n", name, len(lines))
	for _, l := range lines {
		b.WriteString("| ")
		b.WriteString(escapeControls(l))
		b.WriteByte('\n')
	}
	fmt.Fprintf(b, "----- end of %s -----\n", name)
}

func escapeControls(s string) string { return vt.Escape(s) }
