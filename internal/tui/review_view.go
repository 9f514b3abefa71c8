package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/review"
)

// Drawing the review overlay: a header, the file list and the diff side
// by side under a rule, a row of keys, and the dock (the note line while
// one is written). Every piece of the diff is the pane's text: paths and
// notes are drawn on one line with clean, code lines with their
// indentation kept and every control character escaped (codeText).

// minSideCols is the narrowest diff column that takes old and new next
// to each other: each side then keeps about 48 cells.
const minSideCols = 100

const (
	sgrAdd  = "\x1b[32m"
	sgrDel  = "\x1b[31m"
	sgrHunk = "\x1b[36m"
	sgrNote = "\x1b[33m"
)

type rowKind int

const (
	rowHunk rowKind = iota // a hunk's @@ header
	rowLine                // a code line (or, side by side, a pair)
	rowNote                // a note under its line or hunk
	rowInfo                // a line of the overlay's own
)

// reviewRow is one row of the diff column.
type reviewRow struct {
	kind rowKind
	hunk int         // the hunk the row is in, -1 for none
	line review.Line // the line; side by side, its new side (Op "" when none)
	old  review.Line // side by side: the old side (Op "" when none)
	pair bool        // drawn side by side
	note review.Note
	text string // rowInfo's text
}

func (r reviewRow) selectable() bool { return r.kind == rowHunk || r.kind == rowLine }

// noteLine is the line c notes: side by side, the new side when there is
// one.
func (r reviewRow) noteLine() review.Line {
	if r.pair && r.line.Op == "" {
		return r.old
	}
	return r.line
}

// reviewRows are the selected file's diff rows as drawn now.
func (m *Model) reviewRows() []reviewRow {
	_, w := m.reviewColumns()
	return m.review.rows(m.reviewSideBySide(), w-4)
}

// rows lays out the selected file's diff, each note under its line (or
// under its hunk's header), wrapped to width cells; notes found on no
// line shown come last.
func (rv *reviewView) rows(side bool, width int) []reviewRow {
	f, ok := rv.selectedFile()
	if !ok {
		return nil
	}
	// Every key and frame asks for the rows: they are laid out again only
	// when the file, the sides, the width or the diff and its notes
	// changed.
	if rv.laid != nil && rv.laidFile == rv.file && rv.laidSide == side && rv.laidWidth == width {
		return rv.laid
	}
	rv.laid, rv.laidFile, rv.laidSide, rv.laidWidth = rv.layRows(f, side, width), rv.file, side, width
	return rv.laid
}

func (rv *reviewView) layRows(f review.File, side bool, width int) []reviewRow {
	var out []reviewRow
	placed := map[string]bool{}
	var mine []review.Note
	for _, n := range rv.d.Notes {
		if n.Path == f.Path {
			mine = append(mine, n)
		}
	}
	notesOn := func(match func(review.Note) bool) {
		for _, n := range mine {
			if !placed[n.ID] && !n.Outdated && match(n) {
				placed[n.ID] = true
				out = append(out, noteRows(n, width)...)
			}
		}
	}
	onLine := func(l review.Line) func(review.Note) bool {
		return func(n review.Note) bool {
			if n.HunkHeader != "" || n.Line <= 0 {
				return false
			}
			if n.Side == review.SideOld {
				return l.Op != review.OpAdd && l.Old == n.Line
			}
			return l.Op != review.OpDelete && l.New == n.Line
		}
	}
	switch {
	case f.Binary:
		out = append(out, reviewRow{kind: rowInfo, hunk: -1, text: "a binary file: its lines are not shown"})
	case f.Truncated && len(f.Hunks) == 0:
		out = append(out, reviewRow{kind: rowInfo, hunk: -1, text: fmt.Sprintf("too long to show here (+%d -%d): the review stops at %d lines in one file", f.Added, f.Removed, review.MaxFileLines)})
	case len(f.Hunks) == 0:
		out = append(out, reviewRow{kind: rowInfo, hunk: -1, text: "no lines changed (a mode change, a rename or an empty file)"})
	}
	for hi, h := range f.Hunks {
		out = append(out, reviewRow{kind: rowHunk, hunk: hi})
		notesOn(func(n review.Note) bool {
			return n.HunkHeader != "" && strings.TrimSpace(n.HunkHeader) == strings.TrimSpace(h.Header)
		})
		if !side {
			for _, l := range h.Lines {
				out = append(out, reviewRow{kind: rowLine, hunk: hi, line: l})
				notesOn(onLine(l))
			}
			continue
		}
		for _, p := range pairLines(h.Lines) {
			out = append(out, reviewRow{kind: rowLine, hunk: hi, line: p[1], old: p[0], pair: true})
			notesOn(func(n review.Note) bool {
				return p[0].Op != "" && onLine(p[0])(n) || p[1].Op != "" && onLine(p[1])(n)
			})
		}
	}
	if f.Truncated && len(f.Hunks) > 0 {
		out = append(out, reviewRow{kind: rowInfo, hunk: -1, text: "… the rest of the file is past the review's limits"})
	}
	rest := false
	for _, n := range mine {
		if placed[n.ID] {
			continue
		}
		if !rest {
			out = append(out, reviewRow{kind: rowInfo, hunk: -1, text: "notes on no line shown here:"})
			rest = true
		}
		out = append(out, noteRows(n, width)...)
	}
	return out
}

// noteRows are a note's rows: its text wrapped to width cells, so the
// whole note can be read (a note is at most 1000 bytes).
func noteRows(n review.Note, width int) []reviewRow {
	var out []reviewRow
	for _, l := range strings.Split(ansi.Wrap(noteText(n), max(width, 8), " "), "\n") {
		out = append(out, reviewRow{kind: rowNote, hunk: -1, note: n, text: l})
	}
	return out
}

// pairLines puts a hunk's lines side by side: a context line on both
// sides, a run of deleted lines next to the run of added lines after it.
// [0] is the old side, [1] the new; Op "" is an empty side.
func pairLines(lines []review.Line) [][2]review.Line {
	var out [][2]review.Line
	for i := 0; i < len(lines); {
		if lines[i].Op != review.OpDelete && lines[i].Op != review.OpAdd {
			out = append(out, [2]review.Line{lines[i], lines[i]})
			i++
			continue
		}
		var del, add []review.Line
		for i < len(lines) && lines[i].Op == review.OpDelete {
			del = append(del, lines[i])
			i++
		}
		for i < len(lines) && lines[i].Op == review.OpAdd {
			add = append(add, lines[i])
			i++
		}
		for j := 0; j < max(len(del), len(add)); j++ {
			var p [2]review.Line
			if j < len(del) {
				p[0] = del[j]
			}
			if j < len(add) {
				p[1] = add[j]
			}
			out = append(out, p)
		}
	}
	return out
}

// reviewColumns are the widths of the file list and the diff.
func (m *Model) reviewColumns() (list, diff int) {
	list = min(max(m.width/4, 16), 40)
	if m.width < 48 {
		list = m.width / 3
	}
	return list, max(m.width-list-1, 1)
}

// reviewBodyRows is how many rows the list and the diff get.
func (m *Model) reviewBodyRows() int { return max(m.height-4, 1) }

// reviewSideBySide reports whether the diff is drawn side by side now.
func (m *Model) reviewSideBySide() bool {
	_, diff := m.reviewColumns()
	return m.review != nil && m.review.side && diff >= minSideCols
}

// reviewCursor is the outer cursor: on the note line while one is
// written, else hidden.
func (m *Model) reviewCursor() *tea.Cursor {
	if m.review.compare != nil {
		return m.compareCursor() // review_compare_view.go
	}
	x := m.review.input
	if x == nil {
		return nil
	}
	return tea.NewCursor(min(ansi.StringWidth(x.label+string(x.text)), m.width-1), m.height-1)
}

// reviewRender draws the whole screen.
func (m *Model) reviewRender() string {
	rv := m.review
	if rv.compare != nil {
		return m.compareRender() // review_compare_view.go
	}
	W, body := m.width, m.reviewBodyRows()
	a := m.opt.ASCIIOnly
	listW, diffW := m.reviewColumns()
	var out []string
	out = append(out, sgrBold+fitPlain(m.reviewHeader(), W, a)+sgrReset)
	hr, tee := "─", "┬"
	if a {
		hr, tee = "-", "+"
	}
	sep := bar(a)
	out = append(out, strings.Repeat(hr, listW)+tee+strings.Repeat(hr, max(W-listW-1, 0)))
	var left, right []string
	switch {
	case rv.err != "":
		right = []string{fitPlain(" review: "+rv.err, diffW, a)}
	case !rv.loaded:
		right = []string{fitPlain(" reading the diff…", diffW, a)}
	case len(rv.d.Files) == 0 && rv.against != "":
		right = []string{fitPlain(" no differences from attempt "+clean(rv.against), diffW, a)}
	case len(rv.d.Files) == 0:
		right = []string{fitPlain(" no changes against "+clean(rv.d.Base), diffW, a)}
	default:
		left = m.reviewList(listW, body)
		right = m.reviewDiffRows(diffW, body)
	}
	for y := range body {
		l, r := strings.Repeat(" ", listW), strings.Repeat(" ", diffW)
		if y < len(left) {
			l = left[y]
		}
		if y < len(right) {
			r = right[y]
		}
		out = append(out, l+sep+r)
	}
	out = append(out, sgrReverse+fitPlain(m.reviewKeys(), W, a)+sgrReset)
	if x := rv.input; x != nil {
		out = append(out, fitPlain(x.label+string(x.text), W, a))
	} else {
		out = append(out, m.dockLine())
	}
	return strings.Join(out, "\n")
}

// reviewHeader is the top row: the pane, the counts, the base, the notes.
func (m *Model) reviewHeader() string {
	rv := m.review
	var b strings.Builder
	b.WriteString(" Review ")
	b.WriteString(clean(rv.session) + " " + rv.name + " " + rv.window[:min(8, len(rv.window))])
	if !rv.loaded {
		return b.String()
	}
	d := rv.d
	files := plural(d.Totals.Files, "file")
	if len(d.Files) < d.Totals.Files {
		files = fmt.Sprintf("%d of %d files shown", len(d.Files), d.Totals.Files)
	}
	base := clean(d.Base)
	if rv.against != "" {
		base = "attempt " + clean(rv.against)
	}
	fmt.Fprintf(&b, "  %s +%d -%d  vs %s", files, d.Totals.Added, d.Totals.Removed, base)
	if d.Uncommitted {
		b.WriteString(" (uncommitted only)")
	}
	if n := len(d.Notes); n > 0 {
		b.WriteString("  " + plural(n, "note"))
		if u := rv.unsent(); u != n {
			fmt.Fprintf(&b, " (%d unsent)", u)
		}
	}
	if d.Truncated {
		fmt.Fprintf(&b, "  [stopped at the limits: %d files, 2 MiB, %d lines a file]", review.MaxDiffFiles, review.MaxFileLines)
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// reviewKeys is the row of keys above the dock.
func (m *Model) reviewKeys() string {
	rv := m.review
	if rv.input != nil {
		return " enter add the note  esc drop it"
	}
	k := func(act string) string { return m.keys.first("review." + act) } // bindings.go: as bound now
	send := k("send") + " send"
	if u := rv.unsent(); u > 0 {
		send = fmt.Sprintf("%s send %d", k("send"), u)
	}
	side := k("side") + " side by side"
	if m.reviewSideBySide() {
		side = k("side") + " unified"
	}
	fan := ""
	if rv.d.Group != "" {
		fan = "  " + k("fan") + " compare"
	}
	return " " + k("down") + "/" + k("up") + " move  " + k("switch") + " files/diff  " + k("note") + " note line  " +
		k("note-hunk") + " note hunk  " + send + "  " + side + fan + "  " + k("close") + " close"
}

// reviewList draws the file list: status, path, +/- counts and notes.
func (m *Model) reviewList(w, body int) []string {
	rv := m.review
	a := m.opt.ASCIIOnly
	notes := map[string]int{}
	for _, n := range rv.d.Notes {
		notes[n.Path]++
	}
	rv.ftop = scrollTo(rv.ftop, rv.file, body, len(rv.d.Files))
	var out []string
	for i := rv.ftop; i < len(rv.d.Files) && len(out) < body; i++ {
		f := rv.d.Files[i]
		counts := fmt.Sprintf(" +%d -%d", f.Added, f.Removed)
		if f.Binary {
			counts = " bin"
		}
		if n := notes[f.Path]; n > 0 {
			counts += " " + noteMark(a) + strconv.Itoa(n)
		}
		mark := " "
		if i == rv.file {
			mark = cursorMark(a)
		}
		path := clean(f.Path)
		if f.OldPath != "" {
			path = clean(f.OldPath) + " → " + path
		}
		head := mark + clean(f.Status) + " "
		room := max(w-ansi.StringWidth(head)-ansi.StringWidth(counts), 1)
		row := head + fitPlain(path, room, a) + counts
		row = fitPlain(row, w, a)
		if i == rv.file && !rv.inDiff {
			row = sgrSelect + row + sgrReset
		}
		out = append(out, row)
	}
	return out
}

func cursorMark(ascii bool) string {
	if ascii {
		return ">"
	}
	return "›"
}

func noteMark(ascii bool) string {
	if ascii {
		return "|"
	}
	return "▌"
}

// reviewDiffRows draws the diff column's visible rows.
func (m *Model) reviewDiffRows(w, body int) []string {
	rv := m.review
	a := m.opt.ASCIIOnly
	rows := m.reviewRows()
	f, _ := rv.selectedFile()
	syn := syntaxOf(f.Path)
	nw := 1
	for _, h := range f.Hunks {
		nw = max(nw, len(strconv.Itoa(h.OldStart+h.OldLines)), len(strconv.Itoa(h.NewStart+h.NewLines)))
	}
	rv.cur = min(rv.cur, max(len(rows)-1, 0))
	rv.top = scrollTo(rv.top, rv.cur, body, len(rows))
	var out []string
	for i := rv.top; i < len(rows) && len(out) < body; i++ {
		r := rows[i]
		mark := " "
		if i == rv.cur && r.selectable() {
			mark = cursorMark(a)
		}
		var s string
		switch r.kind {
		case rowHunk:
			s = fit(mark+" "+sgrHunk+codeText(f.Hunks[r.hunk].Header), w)
		case rowLine:
			if r.pair {
				half := max((w-3)/2, 1)
				s = mark + " " + fit(sideText(r.old, r.old.Old, nw, syn), half) + bar(a) + fit(sideText(r.line, r.line.New, nw, syn), w-3-half)
			} else {
				s = fit(mark+" "+unifiedText(r.line, nw, syn), w)
			}
		case rowNote:
			s = fit(mark+" "+sgrNote+noteMark(a)+" "+r.text, w)
		case rowInfo:
			s = fit(mark+" "+sgrMuted+safetext.OneLine(r.text), w)
		}
		if i == rv.cur && r.selectable() && rv.inDiff {
			s = sgrSelect + ansi.Strip(s) + sgrReset
		}
		out = append(out, s)
	}
	return out
}

func bar(ascii bool) string {
	if ascii {
		return "|"
	}
	return "│"
}

// unifiedText is a code line: its old and new numbers, +/- and the text,
// coloured by what happened to it and by its file type (syn).
func unifiedText(l review.Line, nw int, syn *syntax) string {
	num := func(n int) string {
		if n <= 0 {
			return strings.Repeat(" ", nw)
		}
		return fmt.Sprintf("%*d", nw, n)
	}
	op, color := " ", ""
	switch l.Op {
	case review.OpAdd:
		op, color = "+", sgrAdd
	case review.OpDelete:
		op, color = "-", sgrDel
	}
	return color + num(l.Old) + " " + num(l.New) + " " + op + " " + syn.paint(codeText(l.Text), color)
}

// sideText is one side of a side-by-side pair: the number and the text.
func sideText(l review.Line, n, nw int, syn *syntax) string {
	if l.Op == "" {
		return ""
	}
	op, color := " ", ""
	switch l.Op {
	case review.OpAdd:
		op, color = "+", sgrAdd
	case review.OpDelete:
		op, color = "-", sgrDel
	}
	return color + fmt.Sprintf("%*d", nw, n) + " " + op + " " + syn.paint(codeText(l.Text), color)
}

// noteText is a note's row: who wrote it and what it says, and whether it
// was sent or its line is gone.
func noteText(n review.Note) string {
	var b strings.Builder
	b.WriteString("note from " + noteAuthor(n.By))
	if n.HunkHeader != "" {
		b.WriteString(" on the hunk")
	} else if n.Outdated {
		fmt.Fprintf(&b, " on line %d", n.Line)
	}
	b.WriteString(": " + clean(n.Text))
	switch {
	case n.Outdated:
		b.WriteString("  (outdated)")
	case n.SentAt != 0:
		b.WriteString("  (sent)")
	}
	return b.String()
}

// noteAuthor names who wrote a note, as the message the agent gets does.
func noteAuthor(by string) string {
	switch by {
	case "human":
		return "you"
	case "shell", "":
		return "a script"
	}
	if strings.HasPrefix(by, "link:") {
		return "host " + clean(by[5:])
	}
	return "pane " + clean(by[:min(8, len(by))])
}

// codeText is a line of the pane's code made safe to draw: tabs become
// spaces to the next stop of 4, every other control character (escape
// sequences, carriage returns, bidi overrides) a visible escape.
func codeText(s string) string {
	s = safetext.Escape(s, true)
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += max(ansi.StringWidth(string(r)), 0)
	}
	return b.String()
}
