package vt

import (
	"io"
	"sync"
	"unicode/utf8"
)

// Options configures a Screen.
type Options struct {
	// Cols and Rows default to 80x24 when zero (or negative); larger values
	// than MaxCols and MaxRows are clamped to them.
	Cols, Rows int
	// Scrollback is the number of history lines kept for the main screen:
	// 0 means DefaultScrollback, negative means none.
	Scrollback int
	// Reply receives the answers a terminal must send (DA1/DA2, DSR/CPR,
	// DECRQM, OSC 7501 support query). It is written after the screen lock
	// is released, from the goroutine calling Write, once per Write with
	// all that Write's answers. nil drops them. It should not block for
	// long: a program that floods queries without reading its input would
	// otherwise stall the goroutine feeding Write (a PTY master write is
	// fine in practice; a queue is safer).
	Reply io.Writer
	// OnEvent receives typed events, synchronously from Write, after the
	// screen lock is released and in stream order. It may read the Screen
	// but must not call Write (it would deadlock) and must not block.
	OnEvent func(Event)
}

// MaxCols and MaxRows bound the screen size: New and Resize clamp to them,
// so a bogus size from a client cannot make a pane allocate without bound
// (a grid is 8 bytes a cell).
const (
	MaxCols = 1000
	MaxRows = 1000
)

// DefaultScrollback is the history length used when Options.Scrollback is 0.
const DefaultScrollback = 10000

// oscDataMax bounds one OSC string (OSC 7501 reports are at most 4096
// bytes by spec). A longer string is cut; a cut OSC 7, 7501 or 9;4 is
// dropped rather than misread, titles and notifications keep their
// start. The buffer grows on demand, so an idle pane does not hold it.
const oscDataMax = 4096 + len("7501;")

// styleTableMax bounds the style table (indices are uint16).
const styleTableMax = 1 << 16

// graphemeTableMax is the size of the multi-rune cluster table at which it
// is compacted against the live grids (history lines hold their text).
const graphemeTableMax = 4096

// maxClusterBytes caps the bytes kept for one grapheme cluster (the longest
// real ones, tag-sequence flags and family emoji, are under 30).
const maxClusterBytes = 48

// Screen is the terminal screen of one pane. It is safe for one writer and
// any number of concurrent readers: Write and Resize take the write lock,
// every reader takes the read lock.
type Screen struct {
	wmu sync.Mutex // serialises writers, guards events/reply buffers
	mu  sync.RWMutex

	opts       Options
	cols, rows int

	main, alt *grid
	cur       *grid
	altActive bool
	altSaved  savedCursor // the alternate screen's DECSC while it is freed
	sb        scrollback

	ps parser

	x, y        int
	pendingWrap bool
	pen         Style
	penIdx      uint16
	penValid    bool
	charsets    [4]bool // true: DEC special graphics
	gl          int
	top, bot    int // scroll region, inclusive
	tabs        []bool
	lastCell    cell // for REP
	haveLast    bool

	modeAutowrap, modeOrigin, modeInsert, modeNewline bool
	modeCursorVisible, modeBracketedPaste, modeFocus  bool
	modeAppCursor, modeReverse                        bool
	modeKeypad                                        bool // DECKPAM (ESC =) until DECKPNM (ESC >)
	modeMouse                                         int  // last enabled mouse tracking mode, 0 when off
	modeMouseSGR                                      bool
	modeAltUsed                                       int // 47, 1047 or 1049 when altActive

	styles      []Style
	styleIdx    map[Style]uint16
	graphemes   []string
	graphemeIdx map[string]uint32
	// graphemeLimit is the table size that triggers the next compaction.
	graphemeLimit int

	title, cwd string
	titles     []string // XTWINOPS 22/23 title stack

	pendUTF8 [utf8.UTFMax]byte
	runeBuf  [utf8.UTFMax]byte
	pendN    int

	// The OSC string being collected (parser state stOSC).
	osc     []byte
	oscOver bool // the payload was cut at oscDataMax
	oscBEL  bool // the string being dispatched ended with BEL

	sgrBuf  []int
	sgrMore []bool

	// kitty OSC 99 chunks waiting for their final part.
	n99id    string
	n99title []byte
	n99body  []byte
	n99has   bool

	events []Event
	reply  []byte

	mark133 markPos // where the last OSC 133 B left the cursor (osc133.go)

	// xvtDiffs counts operations where x/vt is known to behave
	// differently (wide characters at the right edge, edits in the
	// pending-wrap state); the differential tests skip such streams.
	xvtDiffs int
}

// New returns a blank screen.
func New(opts Options) *Screen {
	if opts.Cols <= 0 {
		opts.Cols = 80
	}
	if opts.Rows <= 0 {
		opts.Rows = 24
	}
	opts.Cols = min(opts.Cols, MaxCols)
	opts.Rows = min(opts.Rows, MaxRows)
	if opts.Scrollback == 0 {
		opts.Scrollback = DefaultScrollback
	}
	s := &Screen{
		opts:     opts,
		cols:     opts.Cols,
		rows:     opts.Rows,
		styles:   []Style{{}},
		styleIdx: map[Style]uint16{{}: 0},
	}
	s.sb.max = max(opts.Scrollback, 0)
	s.main = newGrid(s.cols, s.rows)
	s.cur = s.main
	s.resetState()
	return s
}

// resetState puts modes, cursor, tabs and region to power-on values.
func (s *Screen) resetState() {
	s.x, s.y, s.pendingWrap = 0, 0, false
	s.pen, s.penIdx, s.penValid = Style{}, 0, true
	s.charsets = [4]bool{}
	s.gl = 0
	s.top, s.bot = 0, s.rows-1
	s.modeAutowrap, s.modeOrigin, s.modeInsert, s.modeNewline = true, false, false, false
	s.modeCursorVisible, s.modeBracketedPaste, s.modeFocus = true, false, false
	s.modeAppCursor, s.modeReverse, s.modeKeypad = false, false, false
	s.modeMouse, s.modeMouseSGR = 0, false
	s.haveLast = false
	s.resetTabs()
	s.main.saved = savedCursor{}
	if s.alt != nil {
		s.alt.saved = savedCursor{}
	}
}

func (s *Screen) resetTabs() {
	if cap(s.tabs) >= s.cols {
		s.tabs = s.tabs[:s.cols]
	} else {
		s.tabs = make([]bool, s.cols)
	}
	for i := range s.tabs {
		s.tabs[i] = i%8 == 0 && i > 0
	}
}

// Write feeds output from the program. It always consumes all of p.
func (s *Screen) Write(p []byte) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	s.write(p)
	s.mu.Unlock()
	if len(s.reply) > 0 {
		if s.opts.Reply != nil {
			_, _ = s.opts.Reply.Write(s.reply)
		}
		s.reply = s.reply[:0]
	}
	if len(s.events) > 0 {
		if s.opts.OnEvent != nil {
			for i := range s.events {
				s.opts.OnEvent(s.events[i])
			}
		}
		clear(s.events)
		s.events = s.events[:0]
	}
	return len(p), nil
}

// write is the hot loop. In the ground state printable runs are taken
// straight from p (ASCII copied into cells in a tight loop, UTF-8 segmented
// into clusters) and C0 controls are executed here; escape and control
// sequences go through the parser (sequence), OSC strings through oscBytes.
func (s *Screen) write(p []byte) {
	i := 0
	if s.pendN > 0 {
		i = s.finishUTF8(p)
	}
	for i < len(p) {
		switch s.ps.state {
		case stGround:
		case stOSC:
			i = s.oscBytes(p, i)
			continue
		default:
			i = s.sequence(p, i)
			continue
		}
		b := p[i]
		if b >= 0x20 && b < 0x7f {
			j := i + 1
			for j < len(p) && p[j] >= 0x20 && p[j] < 0x7f {
				j++
			}
			if j < len(p) && p[j] >= 0x80 {
				// The last ASCII character may start a cluster with
				// the marks that follow: let the Unicode path have it.
				j--
				if j > i {
					s.printASCII(p[i:j])
				}
				i = s.printUnicode(p, j)
				continue
			}
			s.printASCII(p[i:j])
			i = j
			continue
		}
		if b >= 0x80 {
			i = s.printUnicode(p, i)
			continue
		}
		if b == ctlESC {
			s.ps.escape()
		} else {
			s.execute(b)
		}
		i++
	}
}

// oscBytes consumes OSC payload bytes from p[i:] up to and including the
// terminator (BEL or ESC \), dispatching the sequence, and returns the
// index after what it used.
func (s *Screen) oscBytes(p []byte, i int) int {
	for ; i < len(p); i++ {
		b := p[i]
		if s.ps.oscEsc {
			s.ps.oscEsc = false
			s.ps.state = stGround
			s.dispatchOSC(false)
			if b == '\\' {
				return i + 1
			}
			// ESC ends the string and starts a new sequence.
			s.ps.escape()
			return i
		}
		switch {
		case b == ctlBEL:
			s.ps.state = stGround
			s.dispatchOSC(true)
			return i + 1
		case b == ctlESC:
			s.ps.oscEsc = true
		case b == ctlCAN || b == ctlSUB:
			s.ps.state = stGround // CAN/SUB abort the string
			return i + 1
		case b < 0x20:
			// other C0 controls are ignored inside a string
		default:
			if len(s.osc) < oscDataMax {
				s.osc = append(s.osc, b)
			} else {
				s.oscOver = true
			}
		}
	}
	return i
}

// dispatchOSC hands the collected string to handleOSC: "Ps;Pt" where Ps is
// the command number.
func (s *Screen) dispatchOSC(bel bool) {
	s.oscBEL = bel
	cmd := -1
	for _, c := range s.osc {
		if c < '0' || c > '9' {
			break
		}
		if cmd < 0 {
			cmd = 0
		}
		if cmd < 1<<20 {
			cmd = cmd*10 + int(c-'0')
		}
	}
	if cmd < 0 {
		return
	}
	s.handleOSC(cmd, s.osc)
}

// finishUTF8 completes a character split across two writes; it returns how
// many bytes of p it used.
func (s *Screen) finishUTF8(p []byte) int {
	need := utf8SeqLen(s.pendUTF8[0])
	i := 0
	for s.pendN < need && i < len(p) && p[i]&0xc0 == 0x80 {
		s.pendUTF8[s.pendN] = p[i]
		s.pendN++
		i++
	}
	if s.pendN < need && i == len(p) {
		return i // still incomplete
	}
	r, _ := utf8.DecodeRune(s.pendUTF8[:s.pendN])
	s.pendN = 0
	s.printCluster("", r, -1)
	return i
}

func utf8SeqLen(b byte) int {
	switch {
	case b&0xe0 == 0xc0:
		return 2
	case b&0xf0 == 0xe0:
		return 3
	case b&0xf8 == 0xf0:
		return 4
	}
	return 1
}

// printUnicode prints the run of printable bytes starting at p[i] that holds
// non-ASCII text, segmented into grapheme clusters, and returns the index
// after it.
func (s *Screen) printUnicode(p []byte, i int) int {
	j := i
	for j < len(p) && (p[j] >= 0x80 || (p[j] >= 0x20 && p[j] < 0x7f)) {
		j++
	}
	run := p[i:j]
	if j == len(p) {
		// Hold back a character cut by the end of this write.
		k := len(run) - 1
		for k >= 0 && k > len(run)-utf8.UTFMax && run[k]&0xc0 == 0x80 {
			k--
		}
		if k >= 0 && run[k] >= 0xc0 && !utf8.FullRune(run[k:]) {
			s.pendN = copy(s.pendUTF8[:], run[k:])
			run = run[:k]
		}
	}
	for len(run) > 0 {
		if run[0] < 0x80 && (len(run) == 1 || run[1] < 0x80) {
			// ASCII followed by ASCII never joins a cluster.
			k := 1
			for k < len(run) && run[k] < 0x80 && (k+1 == len(run) || run[k+1] < 0x80) {
				k++
			}
			s.printASCII(run[:k])
			run = run[k:]
			continue
		}
		r, sz := utf8.DecodeRune(run)
		if r == utf8.RuneError && sz == 1 {
			// Invalid UTF-8 shows as U+FFFD, one per bad byte.
			s.printCluster("", utf8.RuneError, 1)
			run = run[1:]
			continue
		}
		if simpleRune(r) && (sz == len(run) || run[sz] < 0x80 || simpleRune(firstRune(run[sz:]))) {
			// Box drawing, Latin-1 and the like, followed by something
			// that cannot join them: one column, no segmenter needed.
			s.printCluster("", r, 1)
			run = run[sz:]
			continue
		}
		cl, w := firstCluster(run)
		if len(cl) == 0 {
			break
		}
		if !utf8.Valid(cl) {
			// Marks followed by a bad byte: keep the valid start.
			cl = cl[:sz]
			w = widthOpts.Bytes(cl)
		}
		if sz == len(cl) {
			s.printCluster("", r, w)
		} else {
			s.printCluster(string(cl), r, w)
		}
		run = run[len(cl):]
	}
	return j
}

// printASCII writes a run of printable ASCII bytes.
func (s *Screen) printASCII(b []byte) {
	if s.charsets[s.gl] || s.modeInsert {
		for _, c := range b {
			s.printCluster("", rune(c), 1)
		}
		return
	}
	st := s.penIndex()
	for len(b) > 0 {
		if s.pendingWrap {
			s.wrap()
		}
		cs := s.cur.rows[s.y].cells
		x := s.x
		n := min(len(b), s.cols-x)
		if !s.modeAutowrap && n < len(b) {
			// Without autowrap, the characters that do not fit all land
			// on the last column; only the last one stays.
			if n > 1 {
				s.fixWideAt(cs, x, x+n-1)
				for k := 0; k < n-1; k++ {
					cs[x+k] = cell{r: rune(b[k]), st: st}
				}
			}
			s.fixWideAt(cs, s.cols-1, s.cols)
			cs[s.cols-1] = cell{r: rune(b[len(b)-1]), st: st}
			s.lastCell, s.haveLast = cs[s.cols-1], true
			s.x = s.cols - 1
			return
		}
		s.fixWideAt(cs, x, x+n)
		for k, c := range b[:n] {
			cs[x+k] = cell{r: rune(c), st: st}
		}
		s.lastCell, s.haveLast = cs[x+n-1], true
		b = b[n:]
		x += n
		if x >= s.cols {
			x = s.cols - 1
			s.pendingWrap = s.modeAutowrap
		}
		s.x = x
	}
}

// fixWideAt blanks the halves of wide characters that [from,to) cuts.
func (s *Screen) fixWideAt(cs []cell, from, to int) {
	if from < len(cs) && from > 0 && cs[from].kind == kindCont {
		cs[from-1] = cell{st: cs[from-1].st}
	}
	if to > 0 && to <= len(cs) {
		last := cs[to-1]
		if (last.kind == kindWide || last.kind == kindWideGrapheme) && to < len(cs) {
			cs[to] = cell{st: cs[to].st}
		}
	}
}

// printCluster writes one grapheme cluster. str is empty for a single rune
// r; w < 0 means "compute the width".
func (s *Screen) printCluster(str string, r rune, w int) {
	if w < 0 {
		if r < 0x80 {
			w = 1
		} else {
			// A scratch buffer in the Screen: a local array would escape
			// through the generic segmenter and allocate.
			n := utf8.EncodeRune(s.runeBuf[:], r)
			w = widthOpts.Bytes(s.runeBuf[:n])
		}
	}
	if str == "" && r < 0x80 && s.charsets[s.gl] {
		if m, ok := decGraphics(r); ok {
			r = m
		}
	}
	if w == 0 {
		s.appendToPrevious(str, r)
		return
	}
	if w > 2 {
		w = 2
	}
	if w > s.cols {
		return
	}
	if s.pendingWrap {
		s.wrap()
	}
	if w == 2 && s.x+w >= s.cols {
		// x/vt handles wide characters at the right edge differently
		// (it clips them); the differential tests skip such streams.
		s.xvtDiffs++
	}
	if s.x+w > s.cols {
		// A wide character does not fit in the last column: wrap first
		// (or, without autowrap, overwrite the last columns).
		if !s.modeAutowrap {
			// Without autowrap a character that does not fit is dropped
			// (tmux).
			return
		}
		// The last column keeps what it had (xterm, tmux).
		s.pendingWrap = true
		s.wrap()
	}
	cs := s.cur.rows[s.y].cells
	if s.modeInsert {
		s.insertBlanks(w)
	}
	st := s.penIndex()
	var c cell
	if str == "" {
		c = cell{r: r, st: st}
		if w == 2 {
			c.kind = kindWide
		}
	} else {
		c = cell{r: rune(s.internGrapheme(str)), st: st, kind: kindGrapheme}
		if w == 2 {
			c.kind = kindWideGrapheme
		}
	}
	s.fixWideAt(cs, s.x, s.x+w)
	cs[s.x] = c
	if w == 2 {
		cs[s.x+1] = cell{st: st, kind: kindCont}
	}
	s.lastCell, s.haveLast = c, true
	s.x += w
	if s.x >= s.cols {
		s.x = s.cols - 1
		s.pendingWrap = s.modeAutowrap
	}
}

// appendToPrevious attaches a zero-width character (a combining mark that
// arrived on its own) to the cell before the cursor.
func (s *Screen) appendToPrevious(str string, r rune) {
	if str == "" {
		str = string(r)
	}
	x := s.x
	if !s.pendingWrap {
		x--
	}
	cs := s.cur.rows[s.y].cells
	if x < 0 || x >= len(cs) {
		return
	}
	if cs[x].kind == kindCont && x > 0 {
		x--
	}
	c := cs[x]
	if c.r == 0 && c.kind == kindNarrow {
		return
	}
	base := s.cellText(c)
	nc := cell{r: rune(s.internGrapheme(base + str)), st: c.st, kind: kindGrapheme}
	if c.width() == 2 {
		nc.kind = kindWideGrapheme
	}
	cs[x] = nc
}

func (s *Screen) internGrapheme(str string) uint32 {
	if len(str) > maxClusterBytes {
		// Only an adversarial stream makes clusters this long (a base
		// followed by thousands of marks); keep their start.
		n := maxClusterBytes
		for n > 0 && !utf8.RuneStart(str[n]) {
			n--
		}
		str = str[:n]
	}
	if i, ok := s.graphemeIdx[str]; ok {
		return i
	}
	if len(s.graphemes) >= max(graphemeTableMax, s.graphemeLimit) {
		s.compactGraphemes()
		// If most clusters are live, wait for the table to double before
		// walking the grids again.
		s.graphemeLimit = 2 * len(s.graphemes)
	}
	if s.graphemeIdx == nil {
		s.graphemeIdx = make(map[string]uint32)
	}
	i := uint32(len(s.graphemes))
	s.graphemes = append(s.graphemes, str)
	s.graphemeIdx[str] = i
	return i
}

// compactGraphemes drops clusters no live cell uses. History lines hold
// their text inline, so only the two grids are walked.
func (s *Screen) compactGraphemes() {
	old := s.graphemes
	s.graphemes = nil
	s.graphemeIdx = make(map[string]uint32)
	remap := func(g *grid) {
		if g == nil {
			return
		}
		for _, r := range g.rows {
			for i, c := range r.cells {
				if c.isGrapheme() {
					str := old[c.r]
					j, ok := s.graphemeIdx[str]
					if !ok {
						j = uint32(len(s.graphemes))
						s.graphemes = append(s.graphemes, str)
						s.graphemeIdx[str] = j
					}
					r.cells[i].r = rune(j)
				}
			}
		}
	}
	remap(s.main)
	remap(s.alt)
	if s.lastCell.isGrapheme() {
		s.haveLast = false
	}
}

// penIndex returns the style-table index of the current pen.
func (s *Screen) penIndex() uint16 {
	if s.penValid {
		return s.penIdx
	}
	s.penIdx = s.styleIndex(s.pen)
	s.penValid = true
	return s.penIdx
}

func (s *Screen) styleIndex(st Style) uint16 {
	if i, ok := s.styleIdx[st]; ok {
		return i
	}
	if len(s.styles) >= styleTableMax {
		s.compactStyles()
		if len(s.styles) >= styleTableMax {
			// Every slot is on screen: degrade to the default style
			// rather than grow without bound.
			return 0
		}
	}
	i := uint16(len(s.styles))
	s.styles = append(s.styles, st)
	s.styleIdx[st] = i
	return i
}

// compactStyles rebuilds the style table from the styles live cells use.
func (s *Screen) compactStyles() {
	old := s.styles
	s.styles = []Style{{}}
	s.styleIdx = map[Style]uint16{{}: 0}
	re := func(i uint16) uint16 {
		st := old[i]
		j, ok := s.styleIdx[st]
		if !ok {
			j = uint16(len(s.styles))
			s.styles = append(s.styles, st)
			s.styleIdx[st] = j
		}
		return j
	}
	for _, g := range []*grid{s.main, s.alt} {
		if g == nil {
			continue
		}
		for _, r := range g.rows {
			for i := range r.cells {
				r.cells[i].st = re(r.cells[i].st)
			}
		}
	}
	s.lastCell.st = re(s.lastCell.st)
	s.penValid = false
}

// wrap performs the deferred autowrap.
func (s *Screen) wrap() {
	s.pendingWrap = false
	s.cur.rows[s.y].wrapped = true
	s.x = 0
	s.index()
}

// index moves the cursor down one line, scrolling at the region bottom. A
// pending wrap stays pending (tmux: its cursor stays past the last column).
func (s *Screen) index() {
	if s.y == s.bot {
		s.scrollUp(1)
	} else if s.y < s.rows-1 {
		s.y++
	}
}

// reverseIndex moves the cursor up one line, scrolling at the region top,
// keeping a pending wrap as index does.
func (s *Screen) reverseIndex() {
	if s.y == s.top {
		s.scrollDown(1)
	} else if s.y > 0 {
		s.y--
	}
}

// scrollUp scrolls the region up n lines.
func (s *Screen) scrollUp(n int) {
	top, bot := s.top, s.bot
	h := bot - top + 1
	n = min(max(n, 0), h)
	if n == 0 {
		return
	}
	rows := s.cur.rows
	// Lines leaving a region anchored at the top row go to the history,
	// as in xterm: programs with a pinned footer scroll their transcript
	// that way. Regions lower down do not feed it.
	toHistory := s.cur == s.main && top == 0
	bg := s.bceStyle()
	if n == 1 {
		// The common case: rotate one row without a temporary slice.
		first := rows[top]
		if toHistory {
			if l := s.sb.next(); l != nil {
				s.pack(l, first.cells, first.wrapped)
			}
		}
		copy(rows[top:bot], rows[top+1:bot+1])
		clearCells(first.cells, bg)
		first.wrapped = false
		rows[bot] = first
		return
	}
	var tmp [64]row
	out := tmp[:0]
	out = append(out, rows[top:top+n]...)
	if toHistory {
		for _, r := range out {
			if l := s.sb.next(); l != nil {
				s.pack(l, r.cells, r.wrapped)
			}
		}
	}
	copy(rows[top:], rows[top+n:bot+1])
	for i, r := range out {
		clearCells(r.cells, bg)
		r.wrapped = false
		rows[bot-n+1+i] = r
	}
}

// scrollDown scrolls the region down n lines (blank lines at the top).
func (s *Screen) scrollDown(n int) {
	top, bot := s.top, s.bot
	h := bot - top + 1
	n = min(max(n, 0), h)
	if n == 0 {
		return
	}
	rows := s.cur.rows
	var tmp [64]row
	out := append(tmp[:0], rows[bot-n+1:bot+1]...)
	copy(rows[top+n:bot+1], rows[top:bot-n+1])
	bg := s.bceStyle()
	for i, r := range out {
		clearCells(r.cells, bg)
		r.wrapped = false
		rows[top+i] = r
	}
}

// bceStyle is the style erased cells get: the pen's background only
// (background colour erase), so erased cells keep no attributes.
func (s *Screen) bceStyle() uint16 {
	if s.pen.Bg == 0 {
		return 0
	}
	return s.styleIndex(Style{Bg: s.pen.Bg})
}

// insertBlanks shifts the cells from the cursor right by n (ICH).
func (s *Screen) insertBlanks(n int) {
	cs := s.cur.rows[s.y].cells
	x := s.x
	n = min(n, s.cols-x)
	if n <= 0 {
		return
	}
	s.fixWideAt(cs, x, x)
	copy(cs[x+n:], cs[x:s.cols-n])
	clearCells(cs[x:x+n], s.bceStyle())
	// A wide character pushed past the edge loses its second half.
	if last := cs[s.cols-1]; last.kind == kindWide || last.kind == kindWideGrapheme {
		cs[s.cols-1] = cell{st: last.st}
	}
}

// deleteChars removes n cells at the cursor, shifting the rest left (DCH).
func (s *Screen) deleteChars(n int) {
	cs := s.cur.rows[s.y].cells
	x := s.x
	n = min(n, s.cols-x)
	if n <= 0 {
		return
	}
	s.fixWideAt(cs, x, x+n)
	copy(cs[x:], cs[x+n:])
	clearCells(cs[s.cols-n:], s.bceStyle())
	if cs[x].kind == kindCont {
		cs[x] = cell{st: cs[x].st}
	}
}

// eraseCells blanks [from,to) on row y.
func (s *Screen) eraseCells(y, from, to int) {
	cs := s.cur.rows[y].cells
	from = max(from, 0)
	to = min(to, s.cols)
	if from >= to {
		return
	}
	s.fixWideAt(cs, from, to)
	if from > 0 && cs[from].kind == kindCont {
		cs[from-1] = cell{st: cs[from-1].st}
	}
	clearCells(cs[from:to], s.bceStyle())
}

// cellText is the text of one cell ("" for a wide character's second half,
// " " for a blank).
func (s *Screen) cellText(c cell) string {
	switch c.kind {
	case kindCont:
		return ""
	case kindGrapheme, kindWideGrapheme:
		if int(c.r) < len(s.graphemes) {
			return s.graphemes[c.r]
		}
		return " "
	}
	if c.r == 0 {
		return " "
	}
	if c.r >= 0x20 && c.r < 0x7f {
		// A slice of a constant: no allocation for the common cell.
		const printable = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
		return printable[c.r-0x20 : c.r-0x1f]
	}
	return string(c.r)
}

// appendCellText appends a cell's text without allocating.
func (s *Screen) appendCellText(b []byte, c cell) []byte {
	switch c.kind {
	case kindCont:
		return b
	case kindGrapheme, kindWideGrapheme:
		if int(c.r) < len(s.graphemes) {
			return append(b, s.graphemes[c.r]...)
		}
		return append(b, ' ')
	}
	if c.r == 0 {
		return append(b, ' ')
	}
	if c.r < 0x80 {
		return append(b, byte(c.r))
	}
	return utf8.AppendRune(b, c.r)
}

// decGraphics maps ASCII to the DEC special graphics set (line drawing).
// '_' stays itself, as in x/vt.
func decGraphics(r rune) (rune, bool) {
	const set = "◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·"
	if r < '`' || r > '~' {
		return r, false
	}
	i := int(r - '`')
	for _, m := range set {
		if i == 0 {
			return m, true
		}
		i--
	}
	return r, false
}

// simpleRune reports whether r is one column wide and never part of a
// multi-rune grapheme cluster, so printing it needs no segmentation.
// TestSimpleRunes checks the set against the segmenter.
func simpleRune(r rune) bool {
	return (r >= 0xa1 && r < 0x300 && r != 0xad) ||
		(r >= 0x2010 && r <= 0x2027) ||
		(r >= 0x2500 && r <= 0x259f)
}

func firstRune(b []byte) rune {
	r, _ := utf8.DecodeRune(b)
	return r
}
