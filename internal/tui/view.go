package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// View is the frame for bubbletea's interface: the whole outer terminal
// as text with SGR sequences, with the mouse mode and the cursor. The
// client itself draws with compose (screen.go), without the text.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = m.mouseMode()
	v.Cursor = m.cursor()
	return v
}

// mouseMode is the mouse reporting the outer terminal is asked for: all
// motion when the focused pane's program asks for it, else clicks and
// drags.
func (m *Model) mouseMode() tea.MouseMode {
	if w, ok := m.focused(); ok {
		if p := m.panes[w.ID]; p != nil && p.modes.Mouse == "any" {
			return tea.MouseModeAllMotion
		}
	}
	return tea.MouseModeCellMotion
}

// cursor is where the outer terminal's cursor goes: the focused pane's,
// or the dock's prompt.
func (m *Model) cursor() *tea.Cursor {
	if m.review != nil {
		return m.reviewCursor() // review_view.go
	}
	if m.rename != nil {
		return tea.NewCursor(min(len(m.rename.label)+len(m.rename.text), m.width-1), m.height-1)
	}
	if m.inbox != nil && m.inbox.input != nil {
		x := m.inbox.input
		return tea.NewCursor(min(ansi.StringWidth(x.label+string(x.text)), m.width-1), m.height-1)
	}
	if m.scroll != nil && m.scroll.search != nil {
		return tea.NewCursor(min(len(m.scroll.search.label)+len(m.scroll.search.text), m.width-1), m.height-1)
	}
	if m.inbox != nil || m.scroll != nil || m.confirmClose != "" {
		return nil
	}
	if m.agentsUI.palette != nil || m.agentsUI.page != nil || m.keyUI.help != nil {
		return nil // palette.go draws its own cursor; help.go has none
	}
	w, ok := m.focused()
	if !ok {
		return nil
	}
	p := m.panes[w.ID]
	if p == nil || !p.cursor.Visible {
		return nil
	}
	areaX, cols, rows, _ := m.geometry()
	x, y := p.cursor.X, p.cursor.Y
	pc, pr := paneArea(w) // popup.go: a tile's pane, or a popup's inside its frame
	if x >= pc || y >= pr || x < 0 || y < 0 {
		return nil
	}
	dx, dy := paneOffset(w)
	if w.X+dx+x >= cols || w.Y+dy+y >= rows {
		return nil // cut off: the session is larger than this client
	}
	return tea.NewCursor(areaX+w.X+dx+x, w.Y+dy+y)
}

// Render is the frame as text with SGR sequences, one line per terminal
// row.
func (m *Model) Render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return m.compose().String()
}

// drawState is what the client keeps between frames to draw the next
// one: the frame it composes into, the chrome's text as cells, and what
// changed since the frame was composed (patch.go).
type drawState struct {
	fr    frame
	texts textCache
	cl    clusters
	patchState
}

// compose draws the whole outer terminal into the model's frame: the
// rail, the tiles (or an overlay over them) and the dock line. The frame
// is the model's and is reused by the next compose.
func (m *Model) compose() *frame {
	f := &m.draw.fr
	f.reset(m.width, m.height)
	f.cl, m.draw.texts.cl = &m.draw.cl, &m.draw.cl
	m.draw.texts.turn()
	m.draw.fresh() // patch.go: what changes from here on can be patched in
	f.recording = true
	defer func() { f.recording = false }()
	if m.width <= 0 || m.height <= 0 {
		return f
	}
	if m.review != nil {
		m.textRows(0, 0, m.width, m.height, strings.Split(m.reviewRender(), "\n")) // review_view.go: over the whole screen
		return f
	}
	areaX, cols, rows, rail := m.geometry()
	rows = min(rows, m.height-1)
	if rail {
		railX := 0
		if m.opt.RailRight {
			railX = cols
		}
		m.drawRail(railX, rows)
	}
	m.drawArea(areaX, cols, rows)
	f.text(&m.draw.texts, 0, m.height-1, m.width, m.dockLine())
	return f
}

// textRows draws styled rows, each w cells wide, from x,y down.
func (m *Model) textRows(x, y, w, rows int, lines []string) {
	for i := 0; i < rows && i < len(lines); i++ {
		m.draw.fr.text(&m.draw.texts, x, y+i, w, lines[i])
	}
}

// tilesShow marks an area row an overlay leaves to the tiles under it.
const tilesShow = "\x00tiles"

// drawArea draws the tiles with their borders and popups, or the Inbox
// over them, then the palette or the Agents tab over either.
func (m *Model) drawArea(areaX, cols, rows int) {
	var over []string
	if m.inbox != nil {
		over = padRows(m.inboxRows(cols, rows), cols, rows)
	} else {
		m.drawTiles(areaX, cols, rows)
		m.drawPopups(areaX, cols, rows) // popup.go
		over = make([]string, rows)
		for i := range over {
			over[i] = tilesShow
		}
	}
	over = m.agentsUIArea(over, cols, rows) // palette.go: the palette and the Agents tab
	over = m.helpArea(over, cols, rows)     // help.go: prefix ?
	for y, l := range over {
		if y < rows && l != tilesShow {
			m.draw.fr.text(&m.draw.texts, areaX, y, cols, l)
		}
	}
}

// tiles are the layout's windows drawn as tiles, left to right.
func (m *Model) tiles() []proto.AttachWindow {
	tiles := make([]proto.AttachWindow, 0, len(m.layout.Windows))
	for _, w := range m.layout.Windows {
		if !w.Minimized && !w.Popup && w.Width > 0 && w.Height > 0 { // popups are drawn over them (popup.go)
			tiles = append(tiles, w)
		}
	}
	sort.SliceStable(tiles, func(i, j int) bool { return tiles[i].X < tiles[j].X })
	return tiles
}

// drawTiles draws each tile (its title bar and its pane's rows), the
// borders between them and, when the session is smaller than this
// client, the unused part of the area.
func (m *Model) drawTiles(areaX, cols, rows int) {
	f := &m.draw.fr
	tiles := m.tiles()
	for _, t := range tiles {
		w := min(t.Width, cols-t.X)
		if w <= 0 || t.X < 0 || t.Y < 0 {
			continue
		}
		x := areaX + t.X
		for r := 0; r < t.Height && t.Y+r < rows; r++ {
			y := t.Y + r
			switch {
			case r == 0:
				f.text(&m.draw.texts, x, y, w, m.titleBar(t, w))
			case m.scroll != nil && m.scroll.window == t.ID:
				m.scroll.height = t.Height - 1
				f.text(&m.draw.texts, x, y, w, m.scrollRow(m.scroll, r-1, w))
			default:
				if p := m.panes[t.ID]; p != nil && r-1 < len(p.rows) {
					f.putPane(t.ID, r-1, x, y, p.rows[r-1], w)
					m.selectCells(t.ID, r-1, x, y, w) // selection.go: a mouse selection over this row
				}
			}
		}
	}
	m.drawBorders(areaX, cols, rows, tiles)
	m.drawUnused(areaX, cols, rows)
	if len(tiles) == 0 && rows > 0 {
		empty := make([]string, rows)
		for i := range empty {
			empty[i] = tilesShow
		}
		m.emptyLines(empty, cols, rows) // hint.go: how to open a window here
		for y, l := range empty {
			if l != tilesShow {
				f.text(&m.draw.texts, areaX, y, cols, l)
			}
		}
	}
}

// drawBorders draws the one-column line between side-by-side tiles (the
// daemon leaves that column out of both): the part beside the focused
// tile in the focus colour. Where a tile's title bar meets the line, the
// line joins it; the line goes on up only where the cell above is the
// line too (a split under a stacked tile starts at its title bars, ┬),
// and where it ends on the title bar of a tile below, that bar's line
// takes the join (┴).
func (m *Model) drawBorders(areaX, cols, rows int, tiles []proto.AttachWindow) {
	f := &m.draw.fr
	a := m.opt.ASCIIOnly
	// at says which tile, if any, covers area cell x,y.
	at := func(x, y int) (proto.AttachWindow, bool) {
		for _, t := range tiles {
			if x >= t.X && x < t.X+t.Width && y >= t.Y && y < t.Y+t.Height {
				return t, true
			}
		}
		return proto.AttachWindow{}, false
	}
	// border says whether x,y is a border cell: no tile's, with one on
	// each side.
	border := func(x, y int) bool {
		if x <= 0 || y < 0 || x >= cols-1 || y >= rows {
			return false
		}
		_, c := at(x, y)
		_, l := at(x-1, y)
		_, r := at(x+1, y)
		return !c && l && r
	}
	for _, t := range tiles {
		x := t.X + t.Width
		if x >= cols {
			continue
		}
		for y := t.Y; y < t.Y+t.Height && y < rows; y++ {
			if !border(x, y) {
				continue
			}
			right, _ := at(x+1, y)
			glyph := "|"
			if !a {
				glyph = junction(border(x, y-1), y == t.Y, y == right.Y)
			}
			st := sgrBorder
			if t.ID == m.layout.Focused || right.ID == m.layout.Focused {
				st = sgrFocusBorder
			}
			f.text(&m.draw.texts, areaX+x, y, 1, st+glyph)
		}
	}
	if a {
		return
	}
	for _, t := range tiles {
		if t.Y == 0 || t.Y >= rows {
			continue
		}
		row := f.row(t.Y)
		for x := t.X; x < t.X+t.Width && x < cols; x++ {
			if c := areaX + x; c < len(row) && row[c].r == '─' && border(x, t.Y-1) {
				row[c].r = '┴'
			}
		}
	}
}

// junction is the border's glyph where title bars may meet it: up says
// the line goes on above, left and right that a title bar ends or starts
// there (a title bar is a horizontal line, so they join).
func junction(up, left, right bool) string {
	switch {
	case !up && left && right:
		return "┬"
	case !up && left:
		return "┐"
	case !up && right:
		return "┌"
	case left && right:
		return "┼"
	case left:
		return "┤"
	case right:
		return "├"
	}
	return "│"
}

// drawUnused fills the part of this client's area that the session does
// not use, when another client of a smaller terminal sets the session's
// size (window-size latest: the client used last), and says so on one
// line; a smaller client is told what it does not see.
func (m *Model) drawUnused(areaX, cols, rows int) {
	lc, lr := m.layout.Cols, m.layout.Rows
	if !m.haveLayout || lc <= 0 || lr <= 0 || (lc == cols && lr == rows) {
		return
	}
	f := &m.draw.fr
	dot := "·"
	if m.opt.ASCIIOnly {
		dot = "."
	}
	if lc < cols {
		fill := sgrDots + strings.Repeat(dot, cols-lc)
		for y := 0; y < rows; y++ {
			f.text(&m.draw.texts, areaX+lc, y, cols-lc, fill)
		}
	}
	if lr < rows {
		fill := sgrDots + strings.Repeat(dot, cols)
		for y := lr; y < rows; y++ {
			f.text(&m.draw.texts, areaX, y, cols, fill)
		}
	}
	who := "another client"
	if s := clean(m.layout.SizedBy); s != "" {
		who = s
	}
	note := fmt.Sprintf(" %dx%d: sized by %s, used last ", lc, lr, who)
	if lc > cols || lr > rows {
		note = fmt.Sprintf(" %dx%d, cut to fit: sized by %s, used last ", lc, lr, who)
	}
	if tail := "· type here to take this size "; ansi.StringWidth(note+tail) <= cols {
		note += tail
	}
	y := rows - 1
	if lr < rows {
		y = lr + (rows-lr)/2
	}
	w := min(ansi.StringWidth(note), cols)
	x := 0
	if lr >= rows && lc < cols {
		// Only a strip on the right is unused: the note goes there when
		// it fits, else across the bottom row.
		if cols-lc >= w {
			x = lc + (cols-lc-w)/2
			y = rows / 2
		}
	} else {
		x = max((cols-w)/2, 0)
	}
	f.text(&m.draw.texts, areaX+x, y, w, sgrSizeNote+fitPlain(note, w, m.opt.ASCIIOnly))
}

// titleBar is a tile's first row: glyph, name and state. The focused
// tile's is a solid bar (reverse video: the cue that needs no colour);
// the others' are their text on a border line.
func (m *Model) titleBar(t proto.AttachWindow, w int) string {
	var s strings.Builder
	s.WriteByte(' ')
	state := shownState(t.State, t.Asking)
	if m.agentsShown() {
		if g := glyph(state, t.Seen, m.opt.ASCIIOnly); g != "" {
			s.WriteString(g + " ")
		}
	}
	s.WriteString(strconv.Itoa(t.Index) + ":" + clean(t.Name))
	if m.agentsShown() && stateWord(state) != "" {
		s.WriteString("  " + stateWord(state))
	}
	if t.Exited {
		s.WriteString("  [exited]")
	}
	if m.scroll != nil && m.scroll.window == t.ID {
		s.WriteString("  [scrollback]")
	}
	if m.layout.Zoomed && t.ID == m.layout.Focused {
		s.WriteString("  [zoom]")
	}
	if n := m.layout.Hidden; n > 0 && t.ID == m.hiddenNoteTile() {
		// The daemon could not fit them: say so rather than lose them.
		s.WriteString(fmt.Sprintf("  [+%d not shown: too small]", n))
	}
	s.WriteString(titleAfterName(t, m.opt.ASCIIOnly)) // title_text.go
	if t.ID == m.layout.Focused {
		return sgrFocusBar + fitPlain(s.String(), w, m.opt.ASCIIOnly) + sgrReset
	}
	s.WriteByte(' ')
	text := fitPlain(s.String(), min(w, ansi.StringWidth(s.String())), m.opt.ASCIIOnly)
	line := "─"
	if m.opt.ASCIIOnly {
		line = "-"
	}
	return sgrTitle + text + sgrBorder + strings.Repeat(line, max(w-ansi.StringWidth(text), 0)) + sgrReset
}

// hiddenNoteTile is the tile whose title bar counts the windows that do
// not fit the area: the focused one, else the first.
func (m *Model) hiddenNoteTile() string {
	tiles := m.tiles()
	for _, t := range tiles {
		if t.ID == m.layout.Focused {
			return t.ID
		}
	}
	if len(tiles) > 0 {
		return tiles[0].ID
	}
	return ""
}

// drawRail draws the rail at column x: its lines, and the border
// between it and the area.
func (m *Model) drawRail(x, rows int) {
	sep := sgrBorder + "│"
	if m.opt.ASCIIOnly {
		sep = sgrBorder + "|"
	}
	lineX, sepX := x, x+railWidth-1
	if m.opt.RailRight {
		lineX, sepX = x+1, x
	}
	m.textRows(lineX, 0, railWidth-1, rows, m.rail())
	for y := 0; y < rows; y++ {
		m.draw.fr.text(&m.draw.texts, sepX, y, 1, sep)
	}
}

// rail is the rail's lines, railWidth-1 cells wide: sessions, then
// agents.
func (m *Model) rail() []string {
	inner := railWidth - 1
	var lines []string
	lines = append(lines, sgrBold+fitPlain(" Sessions", inner, m.opt.ASCIIOnly)+sgrReset)
	agents := m.agentsShown()
	for _, r := range m.sessionRailRows() { // rail_fan.go: a fan's sessions under its name
		lines = append(lines, m.sessionRailLine(r, agents, inner))
	}
	// remote_local.go: this machine's sessions, while on a host.
	lines = append(lines, m.localRailLines(inner)...)
	lines = append(lines, m.hostRailLines(inner)...) // inbox_hosts.go
	if agents && len(m.layout.Agents) > 0 || m.mailOnRail() {
		// mail_notify.go: "Agents · 3 mail", shown for the mail alone too
		lines = append(lines, "", sgrBold+fitPlain(m.agentsHeader(), inner, m.opt.ASCIIOnly)+sgrReset)
		for _, a := range m.layout.Agents {
			state := shownState(a.State, a.Asking)
			text := clean(a.Name)
			msg := clean(a.Message)
			if msg == "" {
				msg = clean(a.Now) // what its hooks say it is doing
			}
			if len(a.Risk) > 0 {
				msg = riskyText(msg) // risky.go: the rail's word is risky
			}
			if msg := withQueuedNote(msg, a.Queued); msg != "" { // queued_row.go: "1 queued"
				text += " " + msg
			}
			g := glyph(state, a.Seen, m.opt.ASCIIOnly)
			lines = append(lines, " "+stateSGR(state)+g+sgrReset+" "+fitPlain(text, max(inner-2-ansi.StringWidth(g), 0), m.opt.ASCIIOnly))
			lines = append(lines, m.subagentRailLines(a, inner)...) // rail_subagent.go
		}
	}
	m.railCursorLine(lines, inner) // rail_cursor.go
	return lines
}

// dockLine is the bottom row: a prompt, or the session, its workspaces
// and the last notice.
func (m *Model) dockLine() string {
	switch {
	case m.rename != nil:
		return fitPlain(m.rename.label+string(m.rename.text), m.width, m.opt.ASCIIOnly)
	case m.inbox != nil && m.inbox.input != nil:
		x := m.inbox.input
		return fitPlain(x.label+string(x.text), m.width, m.opt.ASCIIOnly)
	case m.railKeys.reply != nil && m.review == nil:
		l, _ := m.railReplyLine() // rail_agent.go: r on a rail agent row
		return l
	case m.scroll != nil && m.scroll.search != nil:
		return fitPlain(m.scroll.search.label+string(m.scroll.search.text), m.width, m.opt.ASCIIOnly)
	case m.confirmClose != "":
		name := m.confirmClose
		if w, ok := m.windowByID(name); ok {
			name = clean(w.Name)
		}
		return sgrReverse + fitPlain(fmt.Sprintf("close window %s? (y/n)", name), m.width, m.opt.ASCIIOnly) + sgrReset
	}
	var s strings.Builder
	s.WriteString("[" + m.sessionLabel() + "]") // remote.go: HOST:SESSION on a host
	for _, ws := range m.layout.Workspaces {
		if ws.Windows == 0 && ws.N != m.layout.Workspace {
			continue
		}
		s.WriteString(" " + strconv.Itoa(ws.N))
		if ws.N == m.layout.Workspace {
			s.WriteString("*")
		}
	}
	if m.prefix {
		return m.prefixDock(s.String()) // hint.go: the next keys
	}
	if m.scroll != nil {
		return m.copyDock(s.String()) // hint.go: copy mode's keys
	} else if n := m.noticeText(); n != "" { // notice.go: the integration notice
		return m.noticeDockLine(s.String(), n)
	} else if m.dock != "" {
		s.WriteString("  " + m.dock)
	} else if m.railOn {
		s.WriteString("  " + m.railHint()) // rail_cursor.go: the keys on the row under the cursor
	}
	return sgrReverse + fitPlain(s.String(), m.width, m.opt.ASCIIOnly) + sgrReset
}

func padRows(lines []string, cols, rows int) []string {
	out := make([]string, rows)
	for i := range out {
		if i < len(lines) {
			out[i] = lines[i]
		} else {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

// inboxFrame is how the Inbox's body is laid out for the selected row:
// the list on top, the selected row's detail (an ask's options, a held
// line and its rules, a plan's text) below it.
type inboxFrame struct {
	list       []string // group headings and rows
	sel        int      // the selected row's index in list
	detail     []string
	listRows   int // rows the list gets
	detailRows int // rows the detail gets, below a one-row rule
	top        int // the first detail row shown
}

// inboxFrame lays out an area of cols×rows: a header row, the body, a
// note row and the footer. The selected row stays in view; the detail
// gets what the list leaves, at least half the body when it needs it.
func (m *Model) inboxFrame(cols, rows int) inboxFrame {
	in := m.inbox
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	var f inboxFrame
	now := m.clock.Now()
	group := ""
	for i, it := range in.items {
		if g := groupOf(it); g != group { // inbox.go: the documented headings
			group = g
			f.list = append(f.list, sgrBold+line(fmt.Sprintf(" %s (%d)", g, in.groupCount(g)))+sgrReset)
		}
		mark := "  "
		if i == in.sel {
			mark = "> "
			f.sel = len(f.list)
		}
		// inbox.go: the row's kind at a glance
		mark += kindGlyph(it.Kind, a) + " "
		who := rowWho(it) // inbox_mail.go, inbox_hosts.go: a host's row carries its name
		summary := clean(it.Summary)
		if len(it.Risk) > 0 {
			summary = riskyText(summary) // risky.go
		}
		if n := fmt.Sprintf(" (%d lines)", it.PlanLines); it.Kind == "plan" && it.PlanLines > 0 && !strings.HasSuffix(summary, n) {
			summary += n // the daemon's summary may carry the length already
		}
		summary = hostSummary(it, rowSummary(it, summary), now)
		summary = snoozedSummary(it, summary) // inbox_snooze.go: until when
		if it.Host == "" {
			summary = withQueuedNote(summary, m.queuedFor(it.Window)) // queued_row.go: "1 queued"
		}
		row := line(fmt.Sprintf(" %s%5s  %s  %s", mark, age(now, it.Since), who, summary))
		if i == in.sel {
			row = sgrSelect + row + sgrReset
		} else if it.Stale {
			row = sgrMuted + row + sgrReset
		}
		f.list = append(f.list, row)
	}
	if !in.loaded {
		f.list = append(f.list, line(" reading…"))
	} else if len(in.items) == 0 {
		f.list = append(f.list, line(in.emptyText()))
	}
	body := max(rows-3, 1)
	if it, ok := in.selected(); ok {
		f.detail = m.detailLines(it, cols)
	}
	f.listRows = min(len(f.list), body)
	if len(f.detail) > 0 {
		f.listRows = min(len(f.list), max(body/2, body-len(f.detail)-1), body)
		f.detailRows = max(body-f.listRows-1, 0)
	}
	f.top = min(max(in.top, 0), max(len(f.detail)-f.detailRows, 0))
	return f
}

// detailLines is what the Inbox says under the list about a row: every
// line of it came from an agent or a pane and is cleaned.
func (m *Model) detailLines(it item, cols int) []string {
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	var out []string
	switch {
	case it.Kind == "ask":
		out = append(out, line(" "+clean(firstOf(it.Name, it.Session))+" asks: "+clean(it.Summary)))
		for i, o := range it.Options {
			out = append(out, line(fmt.Sprintf("   %d. %s", i+1, clean(o))))
		}
	case it.Kind == "approval" && (held(it) || len(it.Risk) > 0): // an unheld risky approval names its rules too
		out = append(out, line(" "+clean(it.Name)+" waits for: "+clean(it.Summary)))
		for _, h := range it.Risk {
			s := "   risky: " + clean(h.Rule)
			if w := clean(h.Why); w != "" {
				s += ": " + w
			}
			if t := clean(h.Text); t != "" {
				s += " (" + t + ")"
			}
			out = append(out, line(s))
		}
		if offers(it, "always") && len(it.AlwaysScope) > 0 {
			out = append(out, line("   2 always allows from now on:"))
			for _, r := range it.AlwaysScope {
				out = append(out, line("     "+clean(r)))
			}
		}
	case held(it) && it.Kind == "plan":
		out = append(out, sgrBold+line(" "+clean(it.Summary))+sgrReset)
		p := m.inbox.plan
		if p == nil || p.held != it.HeldID || !p.loaded {
			return append(out, line("   reading the plan…"))
		}
		// The plan is shown whole: long lines wrap rather than being
		// cut, so its last row on screen is really its end.
		for _, l := range p.lines {
			for _, w := range wrapPlan(l, cols-3) {
				out = append(out, "   "+fitPlain(w, cols-3, a))
			}
		}
	case it.Kind == "finished":
		for _, l := range m.recapDetail(it) { // recap.go: what it did while you were away
			out = append(out, line(l))
		}
	}
	return out
}

// wrapPlan cleans one line of a plan, keeping its indentation, and wraps
// it to w cells.
func wrapPlan(l string, w int) []string {
	l = strings.ReplaceAll(l, "\t", "    ")
	indent := len(l) - len(strings.TrimLeft(l, " "))
	text := strings.Repeat(" ", min(indent, 16)) + clean(l)
	if w < 1 {
		return []string{text}
	}
	// Words wrap whole; only a word wider than the line is broken.
	return strings.Split(ansi.Wrap(text, w, ""), "\n")
}

// inboxRows draws the Inbox overlay: the groups with their rows and the
// selected row's detail, or the peek of one prompt, and a footer of the
// keys that act on the selected row.
func (m *Model) inboxRows(cols, rows int) []string {
	in := m.inbox
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	var out []string
	out = append(out, sgrReverse+line(fmt.Sprintf(" Inbox  %d waiting%s", in.waiting(), in.viewTitle()))+sgrReset) // inbox_snooze.go
	if in.thread != nil {
		return m.threadRows(cols, rows, out) // mail_thread.go
	}
	if in.box != nil {
		return m.boxRows(cols, rows, out) // mail_box.go
	}
	if in.peek != nil {
		return m.promptRows(cols, rows, out) // inbox_prompt.go
	}
	f := m.inboxFrame(cols, rows)
	start := 0
	if f.sel >= f.listRows {
		start = f.sel - f.listRows + 1
	}
	out = append(out, f.list[start:min(start+f.listRows, len(f.list))]...)
	if f.detailRows > 0 {
		rule := strings.Repeat("─", cols)
		if a {
			rule = strings.Repeat("-", cols)
		}
		out = append(out, "\x1b[2m"+rule+sgrReset)
		out = append(out, f.detail[f.top:min(f.top+f.detailRows, len(f.detail))]...)
	}
	for len(out) < rows-2 {
		out = append(out, "")
	}
	out = out[:max(rows-2, 1)]
	note := in.note
	if it, ok := in.selected(); ok && note == "" && (it.Kind == "ask" || held(it)) {
		if ok, _ := m.ready(); !ok {
			note = "reading…"
		}
	}
	out = append(out, line(" "+note))
	out = append(out, sgrReverse+line(" "+m.inboxKeys())+sgrReset)
	for i, l := range out {
		if l == "" {
			out[i] = strings.Repeat(" ", cols)
		}
	}
	return out
}

// inboxKeys is the footer: only the keys that act on the selected row,
// the answering key first, then moving and closing.
func (m *Model) inboxKeys() string {
	in := m.inbox
	if in.snoozing != nil {
		return snoozeKeys() // inbox_snooze.go
	}
	if in.input != nil {
		if in.input.sel {
			return "enter keep  esc cancel"
		}
		if in.input.reply {
			return "enter send when ready  esc cancel"
		}
		return "enter send  esc cancel"
	}
	it, ok := in.selected()
	var k []string
	switch {
	case !ok:
		if in.only == "Mail" {
			k = append(k, "m mailbox") // mail_box.go: read mail stays there
		}
	case it.SnoozedUntil != 0:
		k = append(k, "z wake", "enter go")
	case it.Kind == "ask":
		k = append(k, fmt.Sprintf("1-%d answer", max(len(it.Options), 1)), "enter go", "d dismiss")
	case held(it) && it.Kind == "plan":
		if read, _ := m.planRead(it); read && offers(it, "once") {
			k = append(k, "1 approve")
			if offers(it, "always") {
				k = append(k, "2 approve + accept edits")
			}
		}
		if offers(it, "deny") {
			k = append(k, "3 keep planning", "n with reason")
		}
		k = append(k, m.keys.first(InDetailDown)+"/"+m.keys.first(InDetailUp)+" scroll", "enter answer in pane", "d dismiss")
	case held(it):
		if offers(it, "once") {
			k = append(k, "1 allow once")
		}
		if offers(it, "always") {
			k = append(k, "2 always")
		}
		if offers(it, "deny") {
			k = append(k, "3 deny", "n deny with reason")
		}
		k = append(k, "enter hand back", "d dismiss")
	case it.Kind == "finished" || it.Kind == "errored":
		k = append(k, "r reply", "enter go")
		if it.Window != "" {
			k = append(k, "space peek")
		}
		if it.Window != "" && it.Host == "" {
			k = append(k, "v review") // review.go
		}
		k = append(k, "d dismiss", "z snooze")
	case it.Kind == "approval" || it.Kind == "question":
		k = append(k, "space peek", "enter go", "d dismiss", "z snooze")
	case heldMail(it):
		k = append(k, "p pass on", "d dismiss", "z snooze")
	case readsThread(it): // mail_thread.go
		k = append(k, "enter read", "r reply", "m mailbox", "d dismiss", "z snooze")
	case it.Kind == "outbox":
		k = append(k, "d dismiss")
	case it.Kind == "resume" && it.Host == "": // inbox_resume.go
		k = append(k, "y resume", "enter go", "d dismiss", "z snooze")
	default:
		k = append(k, "enter go", "d dismiss", "z snooze")
	}
	k = append(k, m.viewKeys()...) // inbox_snooze.go: u, f, /, S
	k = append(k, "q close")
	return strings.Join(m.boundHints(ModeInbox, k), "  ") // hint.go: the keys bound now
}

// age is how long ago a unix-ns time was, in one short unit.
func age(now time.Time, ns int64) string {
	if ns <= 0 {
		return ""
	}
	d := now.Sub(time.Unix(0, ns))
	switch {
	case d < time.Minute:
		return strconv.Itoa(max(0, int(d.Seconds()))) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}
