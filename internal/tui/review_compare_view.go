package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Drawing the compare view: a box over the whole screen, as seed 003
// draws it.
//
//	╭ Compare fan/demo in api, 2 attempts vs main ──────────
//	│   session          agent  state  files  +/-    check
//	│   api-fan-demo     bash   none   0      +0 -0  test -f b.txt failed, exit 1
//	│ › api-fan-demo-2   bash   idle   2      +2 -0  test -f b.txt passed
//	├───────────────────────────────────────────────────────
//	│ ↵ review  m mark  d diff  V verify  K keep  esc back

func (m *Model) compareRender() string {
	cv := m.review.compare
	W, H := m.width, m.height
	a := m.opt.ASCIIOnly
	tl, hr, vl, tee := "╭", "─", "│", "├"
	if a {
		tl, hr, vl, tee = "+", "-", "|", "+"
	}
	title := " Compare"
	if cv.loaded {
		title = fmt.Sprintf(" Compare %s in %s, %s vs %s ", clean(cv.c.Group), clean(cv.c.RepoName), plural(len(cv.c.Attempts), "attempt"), clean(cv.c.Base))
	}
	var out []string
	head := tl + title
	out = append(out, sgrBold+fitPlain(head+strings.Repeat(hr, max(W-ansi.StringWidth(head), 0)), W, a)+sgrReset)
	rows := H - 4 // the title, the rule, the keys and the dock
	var body []string
	switch {
	case cv.err != "":
		body = []string{" compare: " + cv.err}
	case !cv.loaded:
		body = []string{" reading the attempts…"}
	default:
		body = m.compareTable()
	}
	for y := range max(rows, 0) {
		line := ""
		if y < len(body) {
			line = body[y]
		}
		out = append(out, fit(vl+line, W))
	}
	out = append(out, fitPlain(tee+strings.Repeat(hr, max(W-1, 0)), W, a))
	out = append(out, sgrReverse+fitPlain(vl+m.compareKeys(), W, a)+sgrReset)
	switch {
	case cv.input != nil:
		out = append(out, fitPlain(cv.input.label+string(cv.input.text), W, a))
	case len(cv.confirm) > 0:
		out = append(out, sgrBold+fitPlain(cv.question(), W, a)+sgrReset)
	default:
		out = append(out, m.dockLine())
	}
	return strings.Join(out, "\n")
}

// compareTable is the table's rows: a header, then one per attempt.
func (m *Model) compareTable() []string {
	cv := m.review.compare
	a := m.opt.ASCIIOnly
	head := []string{"session", "agent", "state", "files", "+/-", "check"}
	cells := [][]string{head}
	for _, x := range cv.c.Attempts {
		state := clean(x.State)
		if x.Gone {
			state = "gone"
		}
		files, lines := "-", "-"
		if x.ChangesRead {
			files, lines = strconv.Itoa(x.Files), fmt.Sprintf("+%d -%d", x.Added, x.Removed)
		}
		check := ""
		if c := x.Check; c != nil {
			switch c.Status {
			case "failed":
				check = clean(c.Command) + " failed, exit " + strconv.Itoa(c.Exit)
			case "timeout":
				check = clean(c.Command) + " did not end in time"
			default:
				check = clean(c.Command) + " " + clean(c.Status)
			}
		}
		cells = append(cells, []string{clean(x.Session), clean(x.Agent), state, files, lines, check})
	}
	widths := make([]int, len(head))
	for _, r := range cells {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	var out []string
	for i, r := range cells {
		mark := "  "
		if i > 0 && i-1 == cv.cur {
			mark = cursorMark(a) + " "
		}
		if i > 0 && slices.Contains(cv.marked, cv.c.Attempts[i-1].Session) {
			mark = strings.TrimRight(mark, " ")
			if mark == "" {
				mark = " "
			}
			mark += "*"
		}
		var b strings.Builder
		b.WriteString(" " + mark)
		for j, c := range r {
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-ansi.StringWidth(c)+2))
			}
		}
		line := b.String()
		if i == 0 {
			line = sgrMuted + line
		} else if i-1 == cv.cur {
			line = sgrBold + line
		}
		out = append(out, line)
	}
	return out
}

// compareKeys is the row of keys.
func (m *Model) compareKeys() string {
	cv := m.review.compare
	if cv.input != nil {
		return " enter run it in every attempt  esc drop it"
	}
	enter := "↵"
	if m.opt.ASCIIOnly {
		enter = "enter"
	}
	d := ""
	if len(cv.marked) == 2 {
		d = "d diff  "
	}
	return " " + enter + " review  m mark  " + d + "V verify  K keep  esc back"
}

// compareCursor is the outer cursor while a check is typed.
func (m *Model) compareCursor() *tea.Cursor {
	x := m.review.compare.input
	if x == nil {
		return nil
	}
	return tea.NewCursor(min(ansi.StringWidth(x.label+string(x.text)), m.width-1), m.height-1)
}
