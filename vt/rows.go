package vt

import (
	"slices"
	"unsafe"
)

// Modes are the input-affecting modes a program asked for: what a client
// drawing this screen in its own terminal needs to encode keys, mouse
// reports and pastes the way the program expects.
type Modes struct {
	AppCursor      bool // DECCKM: arrows as ESC O x
	AppKeypad      bool // DECKPAM
	BracketedPaste bool // 2004
	AltScreen      bool // any alternate screen is shown
	// Mouse is the tracking mode: 0 (off), 9 (X10), 1000 (normal), 1002
	// (button motion) or 1003 (any motion).
	Mouse         int
	MouseSGR      bool // 1006
	FocusEvents   bool // 1004
	CursorVisible bool // DECTCEM
}

// Modes reports the screen's input-affecting modes under one lock.
func (s *Screen) Modes() Modes {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.modesLocked()
}

func (s *Screen) modesLocked() Modes {
	return Modes{
		AppCursor: s.modeAppCursor, AppKeypad: s.modeKeypad, BracketedPaste: s.modeBracketedPaste,
		AltScreen: s.altActive, Mouse: s.modeMouse, MouseSGR: s.modeMouseSGR, FocusEvents: s.modeFocus,
		CursorVisible: s.modeCursorVisible,
	}
}

// RowANSI appends row y of the active screen to dst as text with SGR
// sequences and no cursor moves, exactly as many cells wide as the screen
// once drawn: blanks are spaces (never trimmed), so a client can draw the
// row over whatever was there. A styled row ends with a reset. Out of
// range appends nothing.
func (s *Screen) RowANSI(y int, dst []byte) []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if y < 0 || y >= s.rows {
		return dst
	}
	return s.appendRowANSI(dst, s.cur.rows[y].cells)
}

func (s *Screen) appendRowANSI(b []byte, cs []cell) []byte {
	// A run of cells of one style index is one style: the table is looked
	// at only where the index changes (index 0 is the default rendition).
	var cur Style
	curIdx := uint16(0)
	for _, c := range cs {
		if c.st != curIdx {
			if st := s.styles[c.st]; st != cur {
				b = appendSGR(b, st)
				cur = st
			}
			curIdx = c.st
		}
		if c.kind == kindNarrow && c.r >= 0x20 && c.r < 0x7f {
			b = append(b, byte(c.r))
			continue
		}
		b = s.appendCellText(b, c)
	}
	if cur != (Style{}) {
		b = append(b, "\x1b[0m"...)
	}
	return b
}

// Frame is every row of the active screen with the cursor, modes and
// title, read under one lock so they belong to the same moment. Its
// buffers are reused by the next FrameANSI into it, and so is its work:
// a Frame filled again from the same Screen renders only the rows whose
// cells changed since, and copies the others' text (a key's echo changes
// one row of forty). Keep one Frame per Screen to get that.
type Frame struct {
	Cols, Rows int
	Text       []byte // the rows' ANSI text, back to back
	Ends       []int  // row y is Text[Ends[y-1]:Ends[y]] (Ends[-1] is 0)
	CursorX    int
	CursorY    int
	Modes      Modes
	Title      string

	// What the rows were rendered from: the screen, its cells, and its
	// style and cluster tables. The tables only grow between the
	// compactions and resets that replace them, so while both are the
	// same arrays an index means what it meant.
	src       *Screen
	cells     []cell
	styles    *Style
	graphemes *string
	prevText  []byte
	prevEnds  []int
}

// Row is row y's ANSI text (valid until the next FrameANSI into f).
func (f *Frame) Row(y int) []byte {
	start := 0
	if y > 0 {
		start = f.Ends[y-1]
	}
	return f.Text[start:f.Ends[y]]
}

// FrameANSI fills f with the screen as RowANSI renders each row. A reused
// Frame allocates nothing once its buffers have grown to the screen.
func (s *Screen) FrameANSI(f *Frame) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cols, rows := s.cols, s.rows
	reuse := f.src == s && f.Cols == cols && f.Rows == rows && len(f.cells) == cols*rows &&
		f.styles == unsafe.SliceData(s.styles) && f.graphemes == unsafe.SliceData(s.graphemes)
	f.src, f.styles, f.graphemes = s, unsafe.SliceData(s.styles), unsafe.SliceData(s.graphemes)
	f.Cols, f.Rows = cols, rows
	if len(f.cells) != cols*rows {
		f.cells = slices.Grow(f.cells[:0], cols*rows)[:cols*rows]
	}
	f.prevText, f.Text = f.Text, f.prevText[:0]
	f.prevEnds, f.Ends = f.Ends, f.prevEnds[:0]
	for y := 0; y < rows; y++ {
		cs := s.cur.rows[y].cells
		was := f.cells[y*cols : (y+1)*cols]
		if reuse && sameCells(cs, was) {
			start := 0
			if y > 0 {
				start = f.prevEnds[y-1]
			}
			f.Text = append(f.Text, f.prevText[start:f.prevEnds[y]]...)
		} else {
			f.Text = s.appendRowANSI(f.Text, cs)
			copy(was, cs) // a row of another length never equals it
		}
		f.Ends = append(f.Ends, len(f.Text))
	}
	f.CursorX, f.CursorY = s.x, s.y
	f.Modes = s.modesLocked()
	f.Title = s.title
}

// sameCells compares two rows of cells as memory (a cell's padding is
// always zero: cells are only ever made whole).
func sameCells(a, b []cell) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	size := int(unsafe.Sizeof(cell{}))
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(a)*size)) ==
		string(unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*size))
}
