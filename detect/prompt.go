package detect

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/tuios/tuios/agentstate"
)

// Prompt is what a harness's screen rules read as a prompt waiting for a
// person: the needs_input rule that decided, the lines it read (a dialog
// rule's box, else the rule's region), the numbered options on them and
// how the rule says an answer is typed. Everything in it came from the
// pane: data, never instructions.
type Prompt struct {
	// Rule is the index of the deciding rule in the manifest's [screen].
	Rule int `json:"rule"`
	// Kind is what the prompt waits for (approval, question).
	Kind agentstate.Kind `json:"kind,omitempty"`
	// Message is the rule's verdict message.
	Message string `json:"message,omitempty"`
	// Lines are the rows the rule read, right-trimmed.
	Lines []string `json:"lines"`
	// Options are the numbered choices found on Lines, in screen order.
	Options []PromptOption `json:"options"`
	// Answers is the rule's [screen.rule.answers]; nil when the rule has
	// none, or when two boxes held a dialog rule's words.
	Answers *Answers `json:"answers,omitempty"`
	// Dialog is the box a dialog rule read.
	Dialog *Dialog `json:"dialog,omitempty"`
}

// PromptOption is one numbered choice: "❯ 1. Yes" is N 1, Label "Yes",
// Selected true.
type PromptOption struct {
	N        int    `json:"n"`
	Label    string `json:"label"`
	Selected bool   `json:"selected,omitempty"`
}

// optionLine is a numbered choice, after the box sides and the pointer are
// cut off: "1. Yes" or "2) No".
var optionLine = regexp.MustCompile(`^([1-9])[.)]\s+(\S.*)$`)

// ReadPrompt runs m's screen rules over a pane's tail (as Classify takes
// it) and returns the prompt when a needs_input rule decides. ok is false
// when no rule matched or the deciding rule is not needs_input.
func ReadPrompt(m *Manifest, tail []string) (Prompt, bool) {
	if m == nil {
		return Prompt{}, false
	}
	rs := &m.Screen
	v := rs.Classify(tail)
	if !v.Matched || v.State != agentstate.NeedsInput || v.Rule < 0 || v.Rule >= len(rs.Rules) {
		return Prompt{}, false
	}
	r := &rs.Rules[v.Rule]
	p := Prompt{Rule: v.Rule, Kind: v.Kind, Message: v.Message, Dialog: v.Dialog, Answers: r.Answers}
	switch {
	case v.Dialog != nil:
		p.Lines = append([]string(nil), v.Dialog.Lines...)
	case r.c.dialog:
		// Two boxes hold the dialog's words: no answers, and the lines
		// read are the region's.
		p.Answers = nil
		fallthrough
	default:
		st := newScreenText(tail, rs.FoldCase)
		if a, b, ok := st.region(r.c.region, r.c.n); ok {
			p.Lines = append([]string(nil), tail[a:b]...)
		}
	}
	p.Options = PromptOptions(p.Lines)
	return p, true
}

// PromptOptions finds the numbered choices on lines: a row that reads
// "N. label" once box sides, the selection pointer and spaces are cut off.
// A number seen twice keeps its first label. A label the harness wrapped
// inside its box (a narrow tile) goes on in the rows under it that are
// indented past its number: they are joined to it, so the label an answer
// binds to is the whole one.
func PromptOptions(lines []string) []PromptOption {
	out := []PromptOption{}
	seen := map[int]bool{}
	cont := -1 // the column a continuation must start after; -1: none open
	for _, l := range lines {
		s, selected := trimOptionRow(l)
		m := optionLine.FindStringSubmatch(s)
		if m == nil {
			col := textColumn(l)
			if cont >= 0 && s != "" && col > cont && !isBoxEdge(s) && len(out) > 0 {
				out[len(out)-1].Label += " " + cleanLine(s)
				continue
			}
			cont = -1
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if seen[n] {
			cont = -1
			continue
		}
		seen[n] = true
		out = append(out, PromptOption{N: n, Label: cleanLine(m[2]), Selected: selected})
		cont = digitColumn(l, m[1])
	}
	return out
}

// textColumn is the cell where a row's text starts, past spaces and box
// sides.
func textColumn(l string) int {
	col := 0
	for _, r := range l {
		if !(unicode.IsSpace(r) || r == '│' || r == '┃' || r == '║' || r == 0xa0) {
			return col
		}
		col++
	}
	return col
}

// digitColumn is the cell of an option row's number.
func digitColumn(l, digit string) int {
	col := 0
	for _, r := range l {
		if string(r) == digit {
			return col
		}
		col++
	}
	return col
}

// isBoxEdge says whether a row is a box's top or bottom edge, or a rule.
func isBoxEdge(s string) bool {
	return strings.Trim(s, "─━═╭╮╰╯┌┐└┘+-") == ""
}

// trimOptionRow cuts box sides, spaces and a selection pointer off a row.
func trimOptionRow(l string) (string, bool) {
	s := strings.TrimFunc(l, func(r rune) bool {
		return unicode.IsSpace(r) || r == '│' || r == '┃' || r == '║' || r == 0xa0
	})
	selected := false
	for _, ptr := range []string{"❯", "›", "▶", ">", "→"} {
		if rest, ok := strings.CutPrefix(s, ptr); ok {
			s, selected = strings.TrimLeftFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == 0xa0 }), true
			break
		}
	}
	return s, selected
}

// OptionFor is the first option whose label starts with prefix, compared
// case-insensitively (an [answers] option binds by label, not number).
func OptionFor(opts []PromptOption, prefix string) (PromptOption, bool) {
	lp := strings.ToLower(prefix)
	for _, o := range opts {
		if strings.HasPrefix(strings.ToLower(o.Label), lp) {
			return o, true
		}
	}
	return PromptOption{}, false
}
