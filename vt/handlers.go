package vt

import (
	"strconv"
	"strings"
)

// savedCursor is what DECSC/CSI s keep.
type savedCursor struct {
	x, y        int
	pendingWrap bool
	pen         Style
	origin      bool
	charsets    [4]bool
	gl          int
	set         bool
}

func (s *Screen) emit(e Event) {
	if s.opts.OnEvent != nil {
		s.events = append(s.events, e)
	}
}

// execute handles C0 controls.
func (s *Screen) execute(b byte) {
	switch b {
	case ctlBEL:
		s.emit(Event{Kind: EventBell})
	case ctlBS:
		if s.pendingWrap {
			// tmux's cursor sits past the last column here: one step
			// back is the last column (x/vt moves one further).
			s.pendingWrap = false
			s.xvtDiffs++
		} else if s.x > 0 {
			s.x--
		}
	case ctlHT:
		s.tabForward(1)
	case ctlLF, ctlVT, ctlFF:
		if s.pendingWrap {
			s.xvtDiffs++ // x/vt cancels the pending wrap; tmux keeps it
		}
		s.index()
		if s.modeNewline {
			s.x = 0
			s.pendingWrap = false
		}
	case ctlCR:
		s.x = 0
		s.pendingWrap = false
	case ctlSO:
		s.gl = 1
	case ctlSI:
		s.gl = 0
	}
}

func (s *Screen) tabForward(n int) {
	if s.x >= s.cols-1 {
		// At the last column a tab does nothing, not even cancel a
		// pending wrap (xterm, tmux).
		return
	}
	x := s.x
	for ; n > 0; n-- {
		x++
		for x < s.cols-1 && !s.tabs[x] {
			x++
		}
		if x >= s.cols-1 {
			x = s.cols - 1
			break
		}
	}
	s.x = x
	s.pendingWrap = false
}

func (s *Screen) tabBackward(n int) {
	x := s.x
	for ; n > 0 && x > 0; n-- {
		x--
		for x > 0 && !s.tabs[x] {
			x--
		}
	}
	s.x = x
	s.pendingWrap = false
}

// moveTo places the cursor; y is relative to the origin when origin mode is
// on.
func (s *Screen) moveTo(x, y int) {
	top, bot := 0, s.rows-1
	if s.modeOrigin {
		top, bot = s.top, s.bot
		y += s.top
	}
	s.x = min(max(x, 0), s.cols-1)
	s.y = min(max(y, top), bot)
	s.pendingWrap = false
}

// param returns parameter i, def when it is empty or absent. The parser
// bounds values to paramMax.
func param(params seqParams, i, def int) int {
	v, _, _ := params.Param(i, def)
	return v
}

// count reads a repeat/motion count where 0 means 1.
func count(params seqParams) int {
	return max(param(params, 0, 1), 1)
}

func (s *Screen) handleCSI(cmd seqCmd, params seqParams) {
	prefix, inter, final := cmd.Prefix(), cmd.Intermediate(), cmd.Final()
	if prefix == '?' {
		s.handleDECPrivate(inter, final, params)
		return
	}
	if prefix == '>' {
		if final == 'c' && inter == 0 {
			// DA2: a VT220-class terminal, firmware version 0.
			s.reply = append(s.reply, "\x1b[>1;10;0c"...)
		}
		return
	}
	if prefix != 0 {
		return
	}
	switch inter {
	case 0:
	case '!':
		if final == 'p' {
			s.softReset()
		}
		return
	case '$':
		if final == 'p' {
			s.reportMode(param(params, 0, 0), false)
		}
		return
	default:
		return
	}
	switch final {
	case '@':
		if s.atWrapEdit() {
			return
		}
		s.insertBlanks(count(params))
	case 'A':
		s.cursorUp(count(params))
	case 'B', 'e':
		s.cursorDown(count(params))
	case 'C', 'a':
		s.x = min(s.x+count(params), s.cols-1)
		s.pendingWrap = false
	case 'D':
		x := s.x
		if s.pendingWrap {
			x = s.cols // tmux: counted from past the last column
			s.xvtDiffs++
		}
		s.x = max(x-count(params), 0)
		s.pendingWrap = false
	case 'E':
		s.cursorDown(count(params))
		s.x = 0
	case 'F':
		s.cursorUp(count(params))
		s.x = 0
	case 'G', '`':
		s.x = min(count(params)-1, s.cols-1)
		s.pendingWrap = false
	case 'H', 'f':
		row := max(param(params, 0, 1), 1)
		col := max(param(params, 1, 1), 1)
		s.moveTo(col-1, row-1)
	case 'I':
		// tmux 3.3a ignores CHT; xterm and x/vt move as HT does.
		s.tabForward(count(params))
	case 'J':
		s.eraseDisplay(param(params, 0, 0))
	case 'K':
		s.eraseLine(param(params, 0, 0))
	case 'L':
		s.insertLines(count(params))
	case 'M':
		s.deleteLines(count(params))
	case 'P':
		if s.atWrapEdit() {
			return
		}
		s.deleteChars(count(params))
	case 'S':
		s.scrollUp(count(params))
	case 'T':
		if len(params) <= 1 {
			s.scrollDown(count(params))
		}
	case 'X':
		if s.atWrapEdit() {
			return
		}
		n := count(params)
		s.eraseCells(s.y, s.x, s.x+n)
	case 'Z':
		s.tabBackward(count(params))
	case 'b':
		if s.haveLast {
			// tmux repeats only up to the end of the line, never wrapping.
			room := s.cols - s.x
			if s.pendingWrap {
				room = 0
			}
			n := count(params)
			if n > room {
				n = room
				s.xvtDiffs++ // x/vt wraps and goes on
			}
			c := s.lastCell
			for ; n > 0; n-- {
				s.repeatCell(c)
			}
		}
	case 'c':
		if param(params, 0, 0) == 0 {
			// DA1: VT220 with ANSI colour (22).
			s.reply = append(s.reply, "\x1b[?62;22c"...)
		}
	case 'd':
		row := count(params)
		pending := s.pendingWrap
		s.moveTo(s.x, row-1)
		if pending {
			// A vertical move keeps tmux's cursor past the last column.
			s.pendingWrap = true
			s.xvtDiffs++
		}
	case 'g':
		switch param(params, 0, 0) {
		case 0:
			if s.x < len(s.tabs) {
				s.tabs[s.x] = false
			}
		case 3:
			clear(s.tabs)
		}
	case 'h', 'l':
		set := final == 'h'
		for i := range params {
			switch params[i].Param(0) {
			case 4:
				s.modeInsert = set
			case 20:
				s.modeNewline = set
			}
		}
	case 't':
		s.windowOp(params)
	case 'm':
		s.sgr(params)
	case 'n':
		switch param(params, 0, 0) {
		case 5:
			s.reply = append(s.reply, "\x1b[0n"...)
		case 6:
			s.reportCursor(false)
		}
	case 'r':
		top := max(param(params, 0, 1), 1)
		bot := param(params, 1, s.rows)
		if bot == 0 || bot > s.rows {
			bot = s.rows
		}
		if top < bot {
			s.top, s.bot = top-1, bot-1
			s.moveTo(0, 0)
		}
	case 's':
		if len(params) == 0 {
			s.saveCursor()
		}
	case 'u':
		s.restoreCursor()
	}
}

// repeatCell prints c again (REP).
func (s *Screen) repeatCell(c cell) {
	if c.isGrapheme() {
		str := s.cellText(c)
		s.printCluster(str, 0, c.width())
		return
	}
	save := s.charsets[s.gl]
	s.charsets[s.gl] = false // the stored rune is already translated
	s.printCluster("", c.r, c.width())
	s.charsets[s.gl] = save
}

func (s *Screen) reportCursor(dec bool) {
	y := s.y
	if s.modeOrigin {
		y -= s.top
	}
	s.reply = append(s.reply, "\x1b["...)
	if dec {
		s.reply = append(s.reply, '?')
	}
	s.reply = strconv.AppendInt(s.reply, int64(y+1), 10)
	s.reply = append(s.reply, ';')
	s.reply = strconv.AppendInt(s.reply, int64(s.x+1), 10)
	s.reply = append(s.reply, 'R')
}

func (s *Screen) cursorUp(n int) {
	top := 0
	if s.y >= s.top {
		top = s.top
	}
	s.y = max(s.y-n, top)
	s.pendingWrap = false
}

func (s *Screen) cursorDown(n int) {
	bot := s.rows - 1
	if s.y <= s.bot {
		bot = s.bot
	}
	s.y = min(s.y+n, bot)
	s.pendingWrap = false
}

// atWrapEdit reports, for an edit at the cursor, that a wrap is pending:
// tmux's cursor is then past the last column, so the edit touches nothing
// on this line and the wrap stays pending.
func (s *Screen) atWrapEdit() bool {
	if s.pendingWrap {
		s.xvtDiffs++ // x/vt edits the last column
		return true
	}
	return false
}

func (s *Screen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		if !s.atWrapEdit() {
			s.eraseCells(s.y, s.x, s.cols)
			s.cur.rows[s.y].wrapped = false
		}
		for y := s.y + 1; y < s.rows; y++ {
			s.eraseRow(y)
		}
	case 1:
		if !rowBlank(s.cur.rows[s.y].cells[s.x+1:]) {
			s.xvtDiffs++ // x/vt erases the cursor's whole row
		}
		for y := 0; y < s.y; y++ {
			s.eraseRow(y)
		}
		s.eraseCells(s.y, 0, s.x+1)
	case 2:
		for y := 0; y < s.rows; y++ {
			s.eraseRow(y)
		}
	case 3:
		s.sb.reset()
	}
	// Erasing keeps a pending wrap (tmux, and x/vt).
}

func (s *Screen) eraseRow(y int) {
	clearCells(s.cur.rows[y].cells, s.bceStyle())
	s.cur.rows[y].wrapped = false
}

func (s *Screen) eraseLine(mode int) {
	switch mode {
	case 0:
		if !s.atWrapEdit() {
			s.eraseCells(s.y, s.x, s.cols)
			s.cur.rows[s.y].wrapped = false
		}
	case 1:
		s.eraseCells(s.y, 0, s.x+1)
	case 2:
		s.eraseRow(s.y)
	}
}

func (s *Screen) insertLines(n int) {
	if s.y < s.top || s.y > s.bot {
		return
	}
	if s.top > 0 || s.bot < s.rows-1 {
		s.xvtDiffs++ // x/vt moves the cursor on IL/DL inside a region
	}
	top := s.top
	s.top = s.y
	s.scrollDown(n)
	s.top = top
	s.x = 0
	s.pendingWrap = false
}

func (s *Screen) deleteLines(n int) {
	if s.y < s.top || s.y > s.bot {
		return
	}
	if s.top > 0 || s.bot < s.rows-1 {
		s.xvtDiffs++ // x/vt moves the cursor on IL/DL inside a region
	}
	top := s.top
	s.top = s.y
	// Deleted lines never go to the history, even from the top row.
	s.scrollUpNoHistory(n)
	s.top = top
	s.x = 0
	s.pendingWrap = false
}

func (s *Screen) scrollUpNoHistory(n int) {
	limit := s.sb.max
	s.sb.max = 0
	s.scrollUp(n)
	s.sb.max = limit
}

func (s *Screen) saveCursor() {
	s.cur.saved = savedCursor{
		x: s.x, y: s.y, pendingWrap: s.pendingWrap, pen: s.pen,
		origin: s.modeOrigin, charsets: s.charsets, gl: s.gl, set: true,
	}
}

func (s *Screen) restoreCursor() {
	sv := s.cur.saved
	if !sv.set {
		// Restoring with nothing saved homes the cursor and resets the
		// pen, as xterm does.
		sv = savedCursor{}
	}
	// The grid's own size: the main grid keeps its old size while the
	// alternate screen is shown, and is reflowed from there on leaving.
	s.x = min(sv.x, len(s.cur.rows[0].cells)-1)
	s.y = min(sv.y, len(s.cur.rows)-1)
	if s.pendingWrap || sv.pendingWrap {
		s.xvtDiffs++ // x/vt keeps the wrap pending across a restore
	}
	// tmux restores the cursor onto the last column, not past it.
	s.pendingWrap = false
	s.setPen(sv.pen)
	s.modeOrigin = sv.origin
	s.charsets = sv.charsets
	s.gl = sv.gl
}

func (s *Screen) setPen(st Style) {
	if st != s.pen {
		s.pen = st
		s.penValid = false
	}
}

func (s *Screen) sgr(params seqParams) {
	s.sgrBuf = s.sgrBuf[:0]
	s.sgrMore = s.sgrMore[:0]
	for _, p := range params {
		s.sgrBuf = append(s.sgrBuf, p.Param(0))
		s.sgrMore = append(s.sgrMore, p.HasMore())
	}
	st := s.pen
	applySGR(&st, s.sgrBuf, s.sgrMore)
	s.setPen(st)
}

// softReset is DECSTR.
func (s *Screen) softReset() {
	s.modeCursorVisible = true
	s.modeInsert = false
	s.modeOrigin = false
	s.modeAutowrap = true
	s.modeAppCursor = false
	s.modeKeypad = false
	s.top, s.bot = 0, s.rows-1
	s.setPen(Style{})
	s.charsets = [4]bool{}
	s.gl = 0
	s.cur.saved = savedCursor{}
	s.pendingWrap = false
}

// fullReset is RIS.
func (s *Screen) fullReset() {
	if s.altActive {
		s.altActive = false
		s.cur = s.main
	}
	s.alt = nil // the alternate grid is allocated again on demand
	s.altSaved = savedCursor{}
	if len(s.main.rows) != s.rows || len(s.main.rows[0].cells) != s.cols {
		// Resized while the alternate screen was shown; blank anyway.
		s.main = newGrid(s.cols, s.rows)
		s.cur = s.main
	}
	for y := range s.main.rows {
		clearCells(s.main.rows[y].cells, 0)
		s.main.rows[y].wrapped = false
	}
	s.sb.reset()
	s.styles = []Style{{}}
	s.styleIdx = map[Style]uint16{{}: 0}
	s.graphemes = nil
	s.graphemeIdx = nil
	s.graphemeLimit = 0
	s.resetState()
	s.title, s.cwd = "", ""
	s.titles = nil
	s.n99has = false
	s.emit(Event{Kind: EventReset})
}

func (s *Screen) handleDECPrivate(inter, final byte, params seqParams) {
	switch {
	case inter == '$' && final == 'p':
		s.reportMode(param(params, 0, 0), true)
		return
	case inter != 0:
		return
	}
	switch final {
	case 'h', 'l':
		set := final == 'h'
		for i := range params {
			s.setDECMode(params[i].Param(0), set)
		}
	case 'n':
		if param(params, 0, 0) == 6 {
			s.reportCursor(true)
		}
	case 'J':
		s.eraseDisplay(param(params, 0, 0))
	case 'K':
		s.eraseLine(param(params, 0, 0))
	}
}

func (s *Screen) setDECMode(m int, set bool) {
	switch m {
	case 1:
		s.modeAppCursor = set
	case 5:
		s.modeReverse = set
	case 6:
		s.modeOrigin = set
		s.moveTo(0, 0)
	case 7:
		s.modeAutowrap = set
		if !set {
			s.pendingWrap = false
		}
	case 25:
		s.modeCursorVisible = set
	case 47, 1047, 1049:
		s.switchScreen(m, set)
	case 1048:
		if set {
			s.saveCursor()
		} else {
			s.restoreCursor()
		}
	case 9, 1000, 1002, 1003:
		if set {
			s.modeMouse = m
		} else if s.modeMouse == m {
			s.modeMouse = 0
		}
	case 1006:
		s.modeMouseSGR = set
	case 1004:
		s.modeFocus = set
	case 2004:
		s.modeBracketedPaste = set
	}
}

// switchScreen enters or leaves the alternate screen.
func (s *Screen) switchScreen(m int, set bool) {
	if set == s.altActive {
		return
	}
	if set {
		if m == 1049 {
			s.saveCursor()
		}
		if s.alt == nil {
			s.alt = newGrid(s.cols, s.rows)
			s.alt.saved = s.altSaved
		}
		s.altActive = true
		s.modeAltUsed = m
		s.cur = s.alt
		if m != 47 {
			for y := range s.alt.rows {
				s.eraseRow(y)
			}
		}
		return
	}
	if m == 1047 || m == 1049 {
		// The alternate screen is cleared on the way out anyway: free it,
		// so a pane that once ran a full-screen program is small again.
		s.altSaved = s.alt.saved
		s.alt = nil
	}
	s.altActive = false
	s.cur = s.main
	if m == 1049 {
		s.restoreCursor()
	}
	// A resize while the alternate screen was shown left the main screen
	// at its old size: reflow it now, carrying the restored cursor (tmux).
	s.fitMain()
	s.x = min(s.x, s.cols-1)
	s.y = min(s.y, s.rows-1)
}

// decMode reports a DEC private mode: 1 set, 2 reset, 0 unknown.
func (s *Screen) decMode(m int) int {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 2
	}
	switch m {
	case 1:
		return b(s.modeAppCursor)
	case 5:
		return b(s.modeReverse)
	case 6:
		return b(s.modeOrigin)
	case 7:
		return b(s.modeAutowrap)
	case 25:
		return b(s.modeCursorVisible)
	case 47, 1047, 1049:
		return b(s.altActive && s.modeAltUsed == m)
	case 9, 1000, 1002, 1003:
		return b(s.modeMouse == m)
	case 1006:
		return b(s.modeMouseSGR)
	case 1004:
		return b(s.modeFocus)
	case 2004:
		return b(s.modeBracketedPaste)
	}
	return 0
}

func (s *Screen) reportMode(m int, dec bool) {
	v := 0
	if dec {
		v = s.decMode(m)
	} else {
		switch m {
		case 4:
			v = 2
			if s.modeInsert {
				v = 1
			}
		case 20:
			v = 2
			if s.modeNewline {
				v = 1
			}
		}
	}
	s.reply = append(s.reply, "\x1b["...)
	if dec {
		s.reply = append(s.reply, '?')
	}
	s.reply = strconv.AppendInt(s.reply, int64(m), 10)
	s.reply = append(s.reply, ';')
	s.reply = strconv.AppendInt(s.reply, int64(v), 10)
	s.reply = append(s.reply, "$y"...)
}

func (s *Screen) handleESC(cmd seqCmd) {
	inter, final := cmd.Intermediate(), cmd.Final()
	switch inter {
	case 0:
	case '(', ')', '*', '+':
		g := int(inter - '(')
		s.charsets[g] = final == '0'
		return
	case '#':
		if final == '8' {
			// DECALN: fill the screen with E.
			for y := range s.cur.rows {
				for x := range s.cur.rows[y].cells {
					s.cur.rows[y].cells[x] = cell{r: 'E'}
				}
			}
			s.top, s.bot = 0, s.rows-1
			s.moveTo(0, 0)
		}
		return
	default:
		return
	}
	switch final {
	case '7':
		s.saveCursor()
	case '8':
		s.restoreCursor()
	case 'D':
		if s.pendingWrap {
			s.xvtDiffs++ // x/vt cancels the pending wrap; tmux keeps it
		}
		s.index()
	case 'E':
		s.index()
		s.x = 0
		s.pendingWrap = false
	case 'H':
		if s.x < len(s.tabs) {
			s.tabs[s.x] = true
		}
	case 'M':
		s.reverseIndex()
	case 'c':
		s.fullReset()
	case 'n':
		s.gl = 2
	case 'o':
		s.gl = 3
	case '=': // DECKPAM
		s.modeKeypad = true
	case '>': // DECKPNM
		s.modeKeypad = false
	}
}

func (s *Screen) handleOSC(cmd int, data []byte) {
	// data is "cmd;payload"; the payload follows the first ';'.
	payload := ""
	if i := indexByte(data, ';'); i >= 0 {
		payload = string(data[i+1:])
	} else if cmd != 7501 {
		return
	}
	if s.oscOver && (cmd == 7 || cmd == 7501 || cmd == 9 && strings.HasPrefix(payload, "4")) {
		return
	}
	switch cmd {
	case 0, 2:
		s.title = payload
		s.emit(Event{Kind: EventTitleChanged, Text: payload})
	case 7:
		dir := parseFileURL(payload)
		s.cwd = dir
		s.emit(Event{Kind: EventWorkingDirChanged, Text: dir})
	case 9:
		if pr, ok := ParseProgress(payload); ok {
			s.emit(Event{Kind: EventProgress, Progress: pr})
			return
		}
		s.emit(Event{Kind: EventNotification, Notification: Notification{
			Source: 9, Body: capField(payload),
		}})
	case 777:
		parts := strings.SplitN(payload, ";", 3)
		if len(parts) >= 2 && parts[0] == "notify" {
			n := Notification{Source: 777, Title: capField(parts[1])}
			if len(parts) == 3 {
				n.Body = capField(parts[2])
			}
			s.emit(Event{Kind: EventNotification, Notification: n})
		}
	case 99:
		s.osc99(payload)
	case 133:
		s.osc133(payload) // osc133.go
	case 7501:
		if payload == "?" {
			// Support query: answer with the same sequence and the same
			// terminator it came with.
			s.reply = append(s.reply, "\x1b]7501;?"...)
			if s.oscBEL {
				s.reply = append(s.reply, ctlBEL)
			} else {
				s.reply = append(s.reply, "\x1b\\"...)
			}
			return
		}
		if ps, ok := ParseProgramStatus(payload); ok {
			s.emit(Event{Kind: EventProgramStatus, ProgramStatus: ps})
		}
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// osc99 handles the kitty notification protocol: "metadata;payload" where
// metadata is colon-separated key=value pairs; d=0 means more chunks follow,
// p selects title (default) or body, e=1 means base64.
func (s *Screen) osc99(payload string) {
	meta, text, ok := strings.Cut(payload, ";")
	if !ok {
		return
	}
	id, part, done, b64 := "", "title", true, false
	for kv := range strings.SplitSeq(meta, ":") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "i":
			id = v
		case "p":
			part = v
		case "d":
			done = v != "0"
		case "e":
			b64 = v == "1"
		}
	}
	if part != "title" && part != "body" {
		return // icons, buttons, queries: not a notification's words
	}
	if b64 {
		text = decodeBase64(text)
	}
	if s.n99has && s.n99id != id {
		s.n99title, s.n99body = s.n99title[:0], s.n99body[:0]
	}
	s.n99has, s.n99id = true, id
	if part == "title" {
		s.n99title = appendCapped(s.n99title, text)
	} else {
		s.n99body = appendCapped(s.n99body, text)
	}
	if !done {
		return
	}
	s.emit(Event{Kind: EventNotification, Notification: Notification{
		Source: 99, Title: capField(string(s.n99title)), Body: capField(string(s.n99body)),
	}})
	s.n99has = false
	s.n99title, s.n99body = s.n99title[:0], s.n99body[:0]
}

func appendCapped(b []byte, s string) []byte {
	room := MaxNotificationField + 4 - len(b)
	if room <= 0 {
		return b
	}
	if len(s) > room {
		s = s[:room]
	}
	return append(b, s...)
}

// capField cuts s to MaxNotificationField bytes on a UTF-8 boundary.
func capField(s string) string {
	if len(s) <= MaxNotificationField {
		return s
	}
	i := MaxNotificationField
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i]
}

// parseFileURL turns OSC 7's file://host/path into /path (percent-decoded).
// Anything that is not a file URL is kept as given.
func parseFileURL(u string) string {
	rest, ok := strings.CutPrefix(u, "file://")
	if !ok {
		// kitty's shell integration uses its own scheme, unescaped.
		if rest, ok = strings.CutPrefix(u, "kitty-shell-cwd://"); !ok {
			return u
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return rest[i:]
		}
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[i:]
	} else {
		return ""
	}
	if strings.IndexByte(rest, '%') < 0 {
		return rest
	}
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		if rest[i] == '%' && i+2 < len(rest) {
			if v, err := strconv.ParseUint(rest[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(rest[i])
	}
	return b.String()
}

// maxTitleStack bounds the XTWINOPS title stack (xterm keeps 10).
const maxTitleStack = 10

// windowOp handles the XTWINOPS title stack: CSI 22 ; 0|2 t pushes the
// title, CSI 23 ; 0|2 t pops it (vim and others restore the title this way
// on exit). Icon-only forms (1) and the other window operations are ignored.
func (s *Screen) windowOp(params seqParams) {
	op, which := param(params, 0, 0), param(params, 1, 0)
	if which == 1 {
		return
	}
	switch op {
	case 22:
		if len(s.titles) == maxTitleStack {
			copy(s.titles, s.titles[1:])
			s.titles = s.titles[:maxTitleStack-1]
		}
		s.titles = append(s.titles, s.title)
	case 23:
		if n := len(s.titles); n > 0 {
			t := s.titles[n-1]
			s.titles = s.titles[:n-1]
			if t != s.title {
				s.title = t
				s.emit(Event{Kind: EventTitleChanged, Text: t})
			}
		}
	}
}
