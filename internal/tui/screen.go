package tui

import (
	"bytes"
	"image/color"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/vt"
)

// screen draws frames on the outer terminal. It does what bubbletea's
// renderer did (the alternate screen, the modes, a cell diff of each
// frame against the last, the cursor) but only when asked: bubbletea's
// renderer flushes on a 60 Hz ticker for as long as the program runs,
// and an idle attached client must not wake at all.
//
// A frame arrives as cells (frame.go). The cells that differ from the
// last frame, and only those, are handed to ultraviolet's renderer, which
// writes them with as few bytes as it can, down-sampling colours to what
// the terminal shows (its colour profile, read from the real terminal
// and the environment: TERM, COLORTERM, terminfo, NO_COLOR,
// CLICOLOR_FORCE).
type screen struct {
	out io.Writer
	r   *uv.TerminalRenderer
	// frame is where r writes; it is handed to out in one write, wrapped
	// in the cursor and synchronized output sequences.
	frame  bytes.Buffer
	wire   bytes.Buffer
	buf    uv.ScreenBuffer
	last   frame                  // what buf holds, as cells
	uvc    map[cellStyle]uv.Style // styles converted for buf
	uvCell uv.Cell

	mouse  tea.MouseMode
	cursor bool // the last frame showed the cursor
	sync   bool // the terminal has synchronized output (mode 2026)
	open   bool
}

// newScreen draws on out, a terminal described by env. The colour
// profile is read from out itself (a terminal, or not) and env, not from
// the buffer the renderer writes into.
func newScreen(out io.Writer, env []string, width, height int) *screen {
	return newScreenProfile(out, env, colorprofile.Detect(out, env), width, height)
}

// newScreenProfile is newScreen with the colour profile given.
func newScreenProfile(out io.Writer, env []string, p colorprofile.Profile, width, height int) *screen {
	s := &screen{out: out, buf: uv.NewScreenBuffer(width, height), uvc: map[cellStyle]uv.Style{}}
	s.forget(width, height)
	s.r = uv.NewTerminalRenderer(&s.frame, env)
	s.r.SetColorProfile(p)
	// Scrolling regions let a pane's scroll cost a few bytes instead of
	// a repaint of its rows, as in bubbletea.
	s.r.SetScrollOptim(true)
	s.r.SetTabStops(-1)
	s.r.Resize(width, height)
	return s
}

// enter takes the terminal: alternate screen, bracketed paste, the
// keyboard disambiguation bubbletea asked for (so keys decode the same),
// mouse reports, and a hidden cursor until a frame places it. askSync
// asks whether the terminal has synchronized output; the answer comes
// back as a tea.ModeReportMsg.
func (s *screen) enter(askSync bool) {
	s.r.EnterAltScreen()
	s.r.WriteString(ansi.SetModeBracketedPaste + ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(1) +
		ansi.ResetModeTextCursorEnable + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
	s.mouse = tea.MouseModeCellMotion
	if askSync {
		s.r.WriteString(ansi.RequestModeSynchronizedOutput)
	}
	s.r.Flush()
	s.out.Write(s.frame.Bytes())
	s.frame.Reset()
	s.open = true
}

// leave gives the terminal back as enter found it.
func (s *screen) leave() {
	if !s.open {
		return
	}
	s.open = false
	// The keyboard stack is per screen: pop ours before leaving the
	// alternate one.
	s.r.WriteString(ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1))
	s.r.ExitAltScreen()
	s.r.WriteString(ansi.SetModeTextCursorEnable + ansi.ResetModeBracketedPaste +
		ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	s.r.Flush()
	s.out.Write(s.frame.Bytes())
	s.frame.Reset()
}

// resize follows the terminal's new size: the next frame repaints all.
func (s *screen) resize(width, height int) {
	if width <= 0 || height <= 0 || (width == s.buf.Width() && height == s.buf.Height()) {
		return
	}
	s.buf.Touched = nil
	s.buf.Resize(width, height)
	s.r.Resize(width, height)
	s.r.Erase()
	s.forget(width, height)
}

// forget makes every cell of the next frame count as changed.
func (s *screen) forget(width, height int) {
	s.last.reset(width, height)
	for i := range s.last.cells {
		s.last.cells[i].width = 0xff
	}
}

// write sends bytes that are not part of a frame (a bell, an OSC 9).
func (s *screen) write(seq string) {
	if s.open && seq != "" {
		io.WriteString(s.out, seq)
	}
}

// modeReport reads the terminal's answer to enter's question.
func (s *screen) modeReport(m tea.ModeReportMsg) {
	if m.Mode == ansi.ModeSynchronizedOutput && (m.Value == ansi.ModeReset || m.Value == ansi.ModeSet) {
		s.sync = true
	}
}

// draw writes the cells of f that differ from the last frame, the mouse
// mode if it changed, and the cursor (nil: hidden). A frame equal to the
// last writes nothing.
func (s *screen) draw(f *frame, cur *tea.Cursor, mouse tea.MouseMode) {
	if !s.open {
		return
	}
	if f.w != s.last.w || f.h != s.last.h {
		s.resize(f.w, f.h)
	}
	if f.w != s.last.w || f.h != s.last.h {
		return // a frame of no size
	}
	for i := range f.cells {
		c := &f.cells[i]
		if *c == s.last.cells[i] {
			continue
		}
		s.last.cells[i] = *c
		if c.width == 0 {
			continue // the right half of a wide cell: set with its left
		}
		s.uvCell = uv.Cell{Content: f.cl.text(c.r), Width: int(c.width), Style: s.style(c.st)}
		s.buf.SetCell(i%f.w, i/f.w, &s.uvCell)
	}
	if mouse != s.mouse {
		s.r.WriteString(mouseSeq(s.mouse, mouse))
		s.mouse = mouse
	}
	s.r.Render(s.buf.RenderBuffer)
	show := cur != nil
	if show {
		// After Render: drawing moves the cursor.
		s.r.MoveTo(cur.X, cur.Y)
	}
	s.r.Flush()

	// Without synchronized output a visible cursor would be seen running
	// over the changed cells: hide it while they are written.
	body := s.frame.Len() > 0
	shown := s.cursor
	s.wire.Reset()
	if body && s.sync {
		s.wire.WriteString(ansi.SetModeSynchronizedOutput)
	}
	if shown && (!show || (body && !s.sync)) {
		s.wire.WriteString(ansi.ResetModeTextCursorEnable)
	}
	s.wire.Write(s.frame.Bytes())
	if show && (!shown || (body && !s.sync)) {
		s.wire.WriteString(ansi.SetModeTextCursorEnable)
	}
	if body && s.sync {
		s.wire.WriteString(ansi.ResetModeSynchronizedOutput)
	}
	s.frame.Reset()
	s.cursor = show
	if s.wire.Len() > 0 {
		s.out.Write(s.wire.Bytes())
	}
}

// mouseSeq switches the terminal's mouse reports from one mode to
// another, always in SGR encoding.
func mouseSeq(from, to tea.MouseMode) string {
	switch to {
	case tea.MouseModeCellMotion:
		seq := ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr
		if from == tea.MouseModeAllMotion {
			seq = ansi.ResetModeMouseAnyEvent + seq
		}
		return seq
	case tea.MouseModeAllMotion:
		seq := ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr
		if from == tea.MouseModeCellMotion {
			seq = ansi.ResetModeMouseButtonEvent + seq
		}
		return seq
	}
	return ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr
}

// askSync says whether to ask the terminal about synchronized output:
// as bubbletea decides: not over ssh (unless the terminal is known to
// answer) and not in Apple's Terminal, which does not know the question.
func askSync(getenv func(string) string) bool {
	if getenv("WT_SESSION") != "" {
		return true
	}
	for _, t := range []string{"ghostty", "wezterm", "alacritty", "kitty", "rio"} {
		if strings.Contains(getenv("TERM"), t) {
			return true
		}
	}
	if getenv("SSH_TTY") != "" {
		return false
	}
	return !strings.Contains(getenv("TERM_PROGRAM"), "Apple")
}

// maxStyles bounds the converted styles kept: a program cycling through
// true colours would otherwise grow the map without end.
const maxStyles = 4096

// style is st as ultraviolet's renderer takes it: palette colours 0-15
// as the basic ones (SGR 30-37, 90-97), the rest as 256-colour indexes,
// RGB as true colour; the renderer down-samples what the terminal cannot
// show.
func (s *screen) style(st cellStyle) uv.Style {
	if st == (cellStyle{}) {
		return uv.Style{}
	}
	if u, ok := s.uvc[st]; ok {
		return u
	}
	u := uv.Style{Fg: uvColor(st.fg), Bg: uvColor(st.bg), UnderlineColor: uvColor(st.ul)}
	for _, a := range [...]struct {
		a  vt.Attr
		to uint8
	}{
		{vt.AttrBold, uv.AttrBold}, {vt.AttrDim, uv.AttrFaint}, {vt.AttrItalic, uv.AttrItalic},
		{vt.AttrBlink, uv.AttrBlink}, {vt.AttrReverse, uv.AttrReverse}, {vt.AttrInvisible, uv.AttrConceal},
		{vt.AttrStrike, uv.AttrStrikethrough},
	} {
		if st.attrs&a.a != 0 {
			u.Attrs |= a.to
		}
	}
	switch {
	case st.attrs&vt.AttrUnderline != 0:
		u.Underline = uv.UnderlineSingle
	case st.attrs&vt.AttrDoubleUnderline != 0:
		u.Underline = uv.UnderlineDouble
	case st.attrs&vt.AttrCurlyUnderline != 0:
		u.Underline = uv.UnderlineCurly
	case st.attrs&vt.AttrDottedUnderline != 0:
		u.Underline = uv.UnderlineDotted
	case st.attrs&vt.AttrDashedUnderline != 0:
		u.Underline = uv.UnderlineDashed
	}
	if len(s.uvc) >= maxStyles {
		clear(s.uvc)
	}
	s.uvc[st] = u
	return u
}

func uvColor(c vt.Color) color.Color {
	if c.IsDefault() {
		return nil
	}
	if i, ok := c.Index(); ok {
		if i < 16 {
			return ansi.BasicColor(i)
		}
		return ansi.IndexedColor(i)
	}
	r, g, b, _ := c.RGB()
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}
