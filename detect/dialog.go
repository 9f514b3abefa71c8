package detect

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tuios/tuios/vt"
)

// Dialog is the one bordered box a dialog rule (show = "dialog") matched.
type Dialog struct {
	// Tool is the value of the rule's tool_field, "" when the box has none.
	Tool string `json:"tool,omitempty"`
	// What is the first non-empty what_fields value (or hint_fields value,
	// which marks the dialog partial).
	What string `json:"what,omitempty"`
	// Partial says the message does not carry all the dialog says: a hint
	// stood in for the subject, the body had a scrollbar, or the message
	// was cut. The message then ends in " (not all shown)".
	Partial bool `json:"partial,omitempty"`
	// Box position in the region's lines (rows) and cells (columns).
	Top    int `json:"top"`
	Left   int `json:"left"`
	Bottom int `json:"bottom"`
	Right  int `json:"right"`
	// Lines is the inside of the box, the only text a peek shows.
	Lines []string `json:"lines"`
}

const notAllShown = " (not all shown)"

// box is one bordered box found in lines (a vt.Box).
type box = vt.Box

// classifyDialog tests a dialog rule on the region [a,b): the rule holds
// only when a box's inside holds the gate; when several boxes hold it
// only the innermost count, and only exactly one gives a Dialog.
func (rs *RuleSet) classifyDialog(r *Rule, i int, st *screenText, a, b int) (Verdict, bool) {
	// A box's inside rows are cut from the region's rows, so a one-line
	// string missing from the region is in no box: skip the box search.
	text, ftext := st.text(a, b)
	if !strings.ContainsAny(text, "╭┌┏╔") {
		return miss(), false
	}
	for _, s := range r.c.g.all {
		if !strings.Contains(s, "\n") && !strings.Contains(ftext, s) {
			return miss(), false
		}
	}
	boxes := findBoxes(st.lines[a:b])
	holding := holdingBoxes(r, boxes, rs.FoldCase)
	switch len(holding) {
	case 0:
		return miss(), false
	case 1:
		d := buildDialog(r, holding[0], rs.FoldCase)
		return Verdict{Matched: true, State: r.c.state, Kind: r.c.kind, Rule: i, Message: dialogMessage(r, d, holding[0], rs.FoldCase), Dialog: d}, true
	default:
		// Two boxes hold the dialog's words: no message from the dialog
		// and no answers.
		return Verdict{Matched: true, State: r.c.state, Kind: r.c.kind, Rule: i, Message: capRunes(r.Message, MaxMessageRunes)}, true
	}
}

// holdingBoxes returns the innermost boxes whose inside holds the rule.
func holdingBoxes(r *Rule, boxes []box, fold bool) []box {
	var hold []box
	for _, bx := range boxes {
		text := strings.Join(bx.Lines, "\n")
		ftext := text
		if fold {
			ftext = strings.ToLower(text)
		}
		if evalGate(&r.c.g, text, ftext, false, nil) {
			hold = append(hold, bx)
		}
	}
	if len(hold) < 2 {
		return hold
	}
	out := hold[:0:0]
	for i, x := range hold {
		outer := false
		for j, y := range hold {
			if i != j && boxContains(x, y) {
				outer = true
				break
			}
		}
		if !outer {
			out = append(out, x)
		}
	}
	return out
}

func boxContains(outer, inner box) bool {
	return outer.Top <= inner.Top && outer.Bottom >= inner.Bottom &&
		outer.Left <= inner.Left && outer.Right >= inner.Right &&
		(outer.Top != inner.Top || outer.Bottom != inner.Bottom || outer.Left != inner.Left || outer.Right != inner.Right)
}

// buildDialog reads the tool and the subject from a box's fields.
func buildDialog(r *Rule, bx box, fold bool) *Dialog {
	d := &Dialog{Top: bx.Top, Left: bx.Left, Bottom: bx.Bottom, Right: bx.Right, Lines: append([]string(nil), bx.Lines...)}
	toolLine := -1
	if r.ToolField != "" {
		if v, at, ok := fieldValue(bx.Lines, r.ToolField); ok {
			if v != "" && !strings.ContainsFunc(v, unicode.IsSpace) {
				d.Tool = cleanLine(v)
				toolLine = at
			}
		}
	}
	if d.Tool == "" {
		return d
	}
	// The body is the command (or diff, or text) the dialog shows; a
	// field label read there would be its first word (a command "file
	// x" is not a File field), so fields are read only outside it.
	body, bodyA, bodyB, scroll := dialogBody(bx.Lines, toolLine)
	for _, f := range r.WhatFields {
		var v string
		if strings.EqualFold(f, "body") {
			v = body
			if v != "" && scroll {
				d.Partial = true
			}
		} else if fv, _, ok := fieldValueOutside(bx.Lines, f, bodyA, bodyB); ok {
			v = fv
		}
		if v = cleanLine(v); v != "" {
			d.What = v
			return d
		}
	}
	for _, f := range r.HintFields {
		if fv, _, ok := fieldValueOutside(bx.Lines, f, bodyA, bodyB); ok {
			if v := cleanLine(fv); v != "" {
				d.What = v
				d.Partial = true
				return d
			}
		}
	}
	return d
}

// dialogMessage builds "approve <tool>: <what>" from the one box that holds
// the rule's words, or the matched line in the box when it names no tool.
func dialogMessage(r *Rule, d *Dialog, bx box, fold bool) string {
	if d.Tool == "" {
		for _, l := range bx.Lines {
			cmp := l
			if fold {
				cmp = strings.ToLower(l)
			}
			for _, s := range r.c.g.all {
				if strings.Contains(cmp, s) {
					if c := cleanLine(l); c != "" {
						return capRunes(r.c.kind.String()+": "+c, MaxMessageRunes)
					}
				}
			}
		}
		return capRunes(r.Message, MaxMessageRunes)
	}
	msg := "approve " + d.Tool
	if d.What != "" {
		msg += ": " + d.What
	}
	if utf8.RuneCountInString(msg) > MaxMessageRunes {
		d.Partial = true
	}
	if d.Partial {
		msg = capRunes(msg, MaxMessageRunes-utf8.RuneCountInString(notAllShown)) + notAllShown
	}
	return msg
}

// fieldValue finds the first line whose first word is label (any case,
// an optional ':' after it) and returns its value, continued on the
// following lines indented further than the label.
func fieldValue(lines []string, label string) (string, int, bool) {
	return fieldValueOutside(lines, label, 0, 0)
}

// fieldValueOutside is fieldValue skipping the label lines in [skipA,skipB)
// (the dialog's body).
func fieldValueOutside(lines []string, label string, skipA, skipB int) (string, int, bool) {
	for i, l := range lines {
		if i >= skipA && i < skipB {
			continue
		}
		trimmed := strings.TrimLeft(l, " \t")
		indent := utf8.RuneCountInString(l[:len(l)-len(trimmed)])
		word, rest := firstWord(trimmed)
		if !strings.EqualFold(word, label) {
			continue
		}
		value := strings.TrimSpace(rest)
		spaced := strings.ContainsFunc(value, unicode.IsSpace)
		for j := i + 1; j < len(lines); j++ {
			next := lines[j]
			nt := strings.TrimLeft(next, " \t")
			if nt == "" || utf8.RuneCountInString(next[:len(next)-len(nt)]) <= indent {
				break
			}
			nt = strings.TrimSpace(nt)
			if value == "" || !spaced {
				value += nt
			} else {
				value += " " + nt
			}
		}
		return value, i, true
	}
	return "", -1, false
}

// firstWord splits "Tool: bash" into "Tool" and " bash".
func firstWord(s string) (string, string) {
	end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ':' })
	if end < 0 {
		return s, ""
	}
	word, rest := s[:end], s[end:]
	rest = strings.TrimLeft(rest, " \t")
	rest = strings.TrimPrefix(rest, ":")
	return word, rest
}

// dialogBody is the blank-line-separated blocks after the block holding
// the tool field and before the dialog's last two blocks (buttons and
// help), joined into one line, and the lines [a,b) it spans. scroll
// reports a scrollbar glyph in it.
func dialogBody(lines []string, toolLine int) (body string, a, b int, scroll bool) {
	type block struct{ a, b int }
	var blocks []block
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			if start >= 0 {
				blocks = append(blocks, block{start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		blocks = append(blocks, block{start, len(lines)})
	}
	tb := -1
	for k, bl := range blocks {
		if toolLine >= bl.a && toolLine < bl.b {
			tb = k
		}
	}
	if tb < 0 || tb+1 >= len(blocks)-2 {
		return "", 0, 0, false
	}
	a, b = blocks[tb+1].a, blocks[len(blocks)-3].b
	var parts []string
	for k := tb + 1; k < len(blocks)-2; k++ {
		for _, l := range lines[blocks[k].a:blocks[k].b] {
			if strings.ContainsAny(l, "┃│") {
				scroll = true
			}
			parts = append(parts, strings.TrimSpace(l))
		}
	}
	return strings.Join(parts, " "), a, b, scroll
}

// findBoxes lists the bordered boxes in lines, bottom first, with vt's box
// finder. It counts cell columns, so borders under wide characters line up.
func findBoxes(lines []string) []box {
	return vt.BoxesInLines(lines)
}
