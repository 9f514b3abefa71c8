package detect

import (
	"strings"
	"unicode"
)

// MaxDialogLines is how far above a prompt's first option ReadDialog looks
// for the top of its dialog, and how many of a pane's last lines a caller
// needs to give it.
const MaxDialogLines = 200

// WholeDialog is the dialog a prompt belongs to, read from more of the pane
// than its rule reads: a rule reads a few rows at the bottom of the screen,
// and in a short or narrow pane the command a permission prompt asks about
// is above them, or in the history. Everything in it came from the pane:
// data, never instructions.
type WholeDialog struct {
	// Lines run from the dialog's top to the end of the text; when Whole
	// is false they are the prompt's own lines.
	Lines []string
	// Body are the lines between the top and the first option, box sides
	// cut off: what the prompt asks about (a command, a file, a question).
	// When Whole is false they are what could be read, which may miss it.
	Body []string
	// Options are the numbered options read from the dialog's rows, from
	// the first option down: whole labels where the rows a rule reads cut
	// a wrapped one. Nil when Whole is false.
	Options []PromptOption
	// Whole says the dialog's top was found above its options: a box's
	// top border or the horizontal rule over it, or a dialog rule's box
	// that showed everything.
	Whole bool
}

// ReadDialog finds p's dialog whole in text, the pane's last lines as
// vt.Screen.LastLines gives them (the history included, wrapped rows
// joined, oldest first, at least MaxDialogLines of them when there are
// that many). It anchors on p's first numbered option, the one nearest the
// end of text, and walks up to the dialog's top: a border line (a run of ─
// or ━, after an optional corner), as a box's top border or the rule
// Claude Code draws over its dialogs. A prompt read by a dialog rule is its
// box, whole unless the box said it did not show everything.
//
// history says the rows that left the top of the screen were kept (the
// main screen); an alternate screen keeps none. A prompt with no frame
// (no top found) is read as its rule read it: whole where the history
// kept what scrolled up, not whole on an alternate screen, where the top
// of a prompt taller than the pane is gone and what it asks about may be
// missing. A frame whose top is more than MaxDialogLines above the options
// is not found: such a prompt too is read as its rule read it.
func ReadDialog(p Prompt, text []string, history bool) WholeDialog {
	if p.Dialog != nil {
		return WholeDialog{Lines: p.Lines, Body: p.Lines, Whole: !p.Dialog.Partial}
	}
	unframed := WholeDialog{Lines: p.Lines, Body: bodyOf(p.Lines), Whole: history}
	if len(p.Options) == 0 {
		return unframed
	}
	first := p.Options[0]
	floor := max(0, len(text)-MaxDialogLines)
	anchor := -1
	for i := len(text) - 1; i >= floor; i-- {
		if o := PromptOptions(text[i : i+1]); len(o) == 1 && o[0].N == first.N && sameLabel(o[0].Label, first.Label) {
			anchor = i
			break
		}
	}
	if anchor < 0 {
		return unframed
	}
	floor = max(0, anchor-MaxDialogLines)
	for top := anchor - 1; top >= floor; top-- {
		if isBorderLine(text[top]) {
			body := make([]string, 0, anchor-top-1)
			for _, l := range text[top+1 : anchor] {
				body = append(body, trimSides(l))
			}
			return WholeDialog{Lines: append([]string(nil), text[top:]...), Body: body, Options: PromptOptions(text[anchor:]), Whole: true}
		}
	}
	return unframed
}

// sameLabel: one label is the other, or starts it (a wrapped row's label
// is cut where the row ended).
func sameLabel(a, b string) bool {
	return a != "" && b != "" && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}

// bodyOf is lines up to the first numbered option, box sides cut off.
func bodyOf(lines []string) []string {
	var out []string
	for _, l := range lines {
		if len(PromptOptions([]string{l})) > 0 {
			break
		}
		out = append(out, trimSides(l))
	}
	return out
}

// trimSides cuts spaces and box sides off both ends of a row.
func trimSides(l string) string {
	return strings.TrimFunc(l, func(r rune) bool {
		return unicode.IsSpace(r) || r == '│' || r == '┃' || r == '║' || r == 0xa0
	})
}
