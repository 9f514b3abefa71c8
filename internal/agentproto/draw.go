package agentproto

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// row is one screen row: its text (clean, at most the width) and the SGR
// it is drawn in.
type row struct {
	text  string
	style string
}

// Styles, plain SGR so every terminal draws them.
const (
	styleNone    = ""
	styleDim     = "\x1b[2m"
	styleBold    = "\x1b[1m"
	styleUser    = "\x1b[1;36m"
	styleErr     = "\x1b[1;31m"
	styleAsk     = "\x1b[1;33m"
	styleOK      = "\x1b[32m"
	styleHeader  = "\x1b[7m"
	styleThought = "\x1b[2;3m"
)

// wrap cuts text into rows of at most width cells, at spaces where it
// can. Lines of the text stay lines.
func wrap(text string, width int, style string, indent string) []row {
	if width < 4 {
		width = 4
	}
	var out []row
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			line = indent + line
		}
		out = append(out, wrapLine(line, width, style, indent)...)
	}
	return out
}

func wrapLine(line string, width int, style, indent string) []row {
	if displaywidth.String(line) <= width {
		return []row{{text: line, style: style}}
	}
	var out []row
	for line != "" {
		cut, w, lastSpace := 0, 0, -1
		for i, r := range line {
			rw := displaywidth.Rune(r)
			if w+rw > width {
				break
			}
			w += rw
			cut = i + len(string(r))
			if r == ' ' {
				lastSpace = i
			}
		}
		if cut == 0 { // one character wider than the row
			_, n := firstRune(line)
			cut = n
		}
		if cut < len(line) && lastSpace > len(indent) {
			cut = lastSpace + 1
		}
		out = append(out, row{text: strings.TrimRight(line[:cut], " "), style: style})
		line = line[cut:]
		if line != "" {
			line = indent + line
		}
	}
	return out
}

// tailFor is the end of s that can fill need rows of width cells: at most
// need*width*4 bytes (a cell takes at most four), from a line start when
// one is in that span.
func tailFor(s string, width, need int) string {
	max := (need + 1) * width * 4
	if len(s) <= max {
		return s
	}
	cut := len(s) - max
	if i := strings.IndexByte(s[cut:], '\n'); i >= 0 {
		return s[cut+i+1:]
	}
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[cut:]
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return 0, len(s)
}

// statusGlyph is a tool call's status as a mark that reads without colour.
func statusGlyph(status string) (string, string) {
	switch status {
	case "completed":
		return "✓", styleOK
	case "failed":
		return "✗", styleErr
	case "in_progress":
		return "…", styleBold
	}
	return "·", styleDim
}

// blockRows draws one block; need is how many of its last rows can show
// (a long message is wrapped from its tail only, so a frame costs what the
// screen holds, not what the message holds).
func blockRows(b *block, width, need int) []row {
	switch b.kind {
	case blockUser:
		return wrap("› "+b.text, width, styleUser, "  ")
	case blockAgent:
		return wrap(tailFor(b.body(), width, need), width, styleNone, "")
	case blockThought:
		return wrap(tailFor(b.body(), width, need), width, styleThought, "")
	case blockNotice:
		return wrap("· "+b.text, width, styleDim, "  ")
	case blockError:
		return wrap("× "+b.text, width, styleErr, "  ")
	case blockPlan:
		rows := []row{{text: "Plan", style: styleBold}}
		for _, s := range b.plan {
			mark := "[ ]"
			switch s.Status {
			case "completed":
				mark = "[x]"
			case "in_progress":
				mark = "[>]"
			}
			rows = append(rows, wrap("  "+mark+" "+s.Text, width, styleNone, "      ")...)
		}
		return rows
	case blockTool:
		g, st := statusGlyph(b.status)
		what := b.title
		if what == "" {
			what = b.target
		}
		if b.toolKind != "" && what != "" {
			what = b.toolKind + ": " + what
		} else if what == "" {
			what = b.toolKind
		}
		if what == "" {
			what = "a tool call"
		}
		rows := wrap(g+" "+what+" ("+strings.ReplaceAll(b.status, "_", " ")+")", width, st, "  ")
		if b.output != "" {
			lines := strings.Split(strings.TrimRight(b.output, "\n"), "\n")
			if len(lines) > 4 {
				lines = append([]string{"…"}, lines[len(lines)-4:]...)
			}
			for _, l := range lines {
				rows = append(rows, wrapLine("  │ "+l, width, styleDim, "  │ ")...)
			}
		}
		return rows
	}
	return nil
}

// frame lays the whole screen out: the header, the transcript's tail,
// the permission being asked, the status line and the editor. It returns
// the rows and where the cursor goes.
func (m *model) frame(width, height int) (rows []row, curRow, curCol int) {
	if width < 10 {
		width = 10
	}
	if height < 4 {
		height = 4
	}
	header := " " + m.title()
	head := row{text: padTo(header, width), style: styleHeader}

	// Bottom part: the permission box, the status line, the editor.
	var bottom []row
	if p := m.front(); p != nil {
		bottom = append(bottom, wrap("▲ "+m.permLine(p), width, styleAsk, "  ")...)
		keys := m.permKeys(p)
		st := styleBold
		if !m.dwellOver(p) {
			st = styleDim
		}
		bottom = append(bottom, wrap(keys, width, st, "  ")...)
	}
	bottom = append(bottom, row{text: clip(m.statusLine(), width), style: styleDim})
	edRows, cr, cc := m.editorRows(width)
	if len(edRows) > 5 {
		skip := len(edRows) - 5
		if cr >= 5 {
			skip = min(skip, cr-4)
		} else {
			skip = 0
		}
		edRows = edRows[skip : skip+5]
		cr -= skip
	}
	edTop := len(bottom)
	bottom = append(bottom, edRows...)
	room := height - 1 - len(bottom)
	if room < 0 {
		// Too small: keep the editor, drop from the top of the bottom part.
		drop := -room
		bottom = bottom[drop:]
		edTop -= drop
		room = 0
	}

	// The transcript's tail, newest blocks first until the room is full.
	var body []row
	for i := len(m.tr.blocks) - 1; i >= 0 && len(body) < room; i-- {
		br := blockRows(m.tr.blocks[i], width, room-len(body))
		if len(body) > 0 {
			br = append(br, row{})
		}
		body = append(br, body...)
	}
	if len(body) > room {
		body = body[len(body)-room:]
	}
	rows = append(rows, head)
	rows = append(rows, body...)
	for len(rows) < height-len(bottom) {
		rows = append(rows, row{})
	}
	top := len(rows)
	rows = append(rows, bottom...)
	return rows, top + edTop + cr, cc
}

// editorRows draws the prompt being typed, and where the cursor is in it.
func (m *model) editorRows(width int) ([]row, int, int) {
	prefix := "› "
	text := m.ed.text()
	before := string(m.ed.buf[:m.ed.cur])
	var rows []row
	curRow, curCol := 0, 0
	lines := strings.Split(text, "\n")
	beforeLines := strings.Split(before, "\n")
	for li, line := range lines {
		p := "  "
		if li == 0 {
			p = prefix
		}
		clean := Clean(line)
		rs := wrapLine(p+clean, width, styleNone, "  ")
		if li == len(beforeLines)-1 {
			// The cursor's line: count cells to it.
			at := p + Clean(beforeLines[li])
			w := displaywidth.String(at)
			r := len(rows) + w/width
			c := w % width
			curRow, curCol = r, c
		}
		rows = append(rows, rs...)
	}
	if curRow >= len(rows) {
		rows = append(rows, row{})
	}
	return rows, curRow, curCol
}

func padTo(s string, width int) string {
	s = clip(s, width)
	if w := displaywidth.String(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// clip cuts s to width cells.
func clip(s string, width int) string {
	if displaywidth.String(s) <= width {
		return s
	}
	return displaywidth.TruncateString(s, width, "…")
}

// render is the bytes that draw rows over the screen, the cursor placed.
func render(rows []row, curRow, curCol int, showCursor bool) []byte {
	var b strings.Builder
	b.WriteString("\x1b[?25l")
	for i, r := range rows {
		// Clear first: an erase after a full row would take its last cell.
		b.WriteString("\x1b[" + strconv.Itoa(i+1) + ";1H\x1b[K")
		if r.style != "" {
			b.WriteString(r.style)
		}
		b.WriteString(r.text)
		if r.style != "" {
			b.WriteString("\x1b[m")
		}
	}
	b.WriteString("\x1b[" + strconv.Itoa(curRow+1) + ";" + strconv.Itoa(curCol+1) + "H")
	if showCursor {
		b.WriteString("\x1b[?25h")
	}
	return []byte(b.String())
}
