package tui

import (
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// screen draws frames on the outer terminal. It does what bubbletea's
// renderer did (the alternate screen, the modes, a cell diff of each
// frame against the last, the cursor) but only when asked: bubbletea's
// renderer flushes on a 60 Hz ticker for as long as the program runs,
// and an idle attached client must not wake at all.
//
// A frame arrives as cells (frame.go); the painter (paint.go) writes the
// ones that changed, down-sampling colours to the terminal's colour
// profile, read from the real terminal and the environment (TERM,
// COLORTERM, terminfo, NO_COLOR, CLICOLOR_FORCE) as colorprofile reads
// them.
type screen struct {
	out   io.Writer
	p     *painter
	body  []byte // the frame's output
	wire  []byte // body wrapped in the cursor and synchronized output
	w, h  int
	mouse tea.MouseMode

	cursor bool // the last frame showed the cursor
	sync   bool // the terminal has synchronized output (mode 2026)
	open   bool
}

// newScreen draws on out, a terminal described by env. The colour
// profile is read from out itself (a terminal, or not) and env.
func newScreen(out io.Writer, env []string, width, height int) *screen {
	return newScreenProfile(out, colorprofile.Detect(out, env), width, height)
}

// newScreenProfile is newScreen with the colour profile given.
func newScreenProfile(out io.Writer, p colorprofile.Profile, width, height int) *screen {
	return &screen{out: out, p: newPainter(p), w: width, h: height}
}

// enter takes the terminal: alternate screen, bracketed paste, the
// keyboard disambiguation bubbletea asked for (so keys decode the same),
// mouse reports, and a hidden cursor until a frame places it. askSync
// asks whether the terminal has synchronized output; the answer comes
// back as a tea.ModeReportMsg.
func (s *screen) enter(askSync bool) {
	b := append(s.body[:0], ansi.SetModeAltScreenSaveCursor...)
	b = append(b, ansi.SetModeBracketedPaste+ansi.SetModifyOtherKeys2+ansi.PushKittyKeyboard(1)+
		ansi.ResetModeTextCursorEnable+ansi.SetModeMouseButtonEvent+ansi.SetModeMouseExtSgr...)
	s.mouse = tea.MouseModeCellMotion
	if askSync {
		b = append(b, ansi.RequestModeSynchronizedOutput...)
	}
	b = s.p.clear(b, s.w, s.h)
	s.out.Write(b)
	s.body = b[:0]
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
	b := append(s.body[:0], "\x1b[m"+ansi.ResetModifyOtherKeys+ansi.PopKittyKeyboard(1)+ansi.ResetModeAltScreenSaveCursor...)
	b = append(b, ansi.SetModeTextCursorEnable+ansi.ResetModeBracketedPaste+
		ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseExtSgr...)
	s.out.Write(b)
	s.body = b[:0]
}

// resize follows the terminal's new size: the next frame repaints all,
// on a cleared screen (the terminal may have moved what it showed).
func (s *screen) resize(width, height int) {
	if width <= 0 || height <= 0 || (width == s.w && height == s.h) {
		return
	}
	s.w, s.h = width, height
	s.p.shown.reset(0, 0)
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

// draw writes the cells of f that differ from what the terminal shows,
// the mouse mode if it changed, and the cursor (nil: hidden). A frame
// equal to the last writes nothing.
func (s *screen) draw(f *frame, cur *tea.Cursor, mouse tea.MouseMode) {
	if !s.open || f.w <= 0 || f.h <= 0 {
		return
	}
	b := s.body[:0]
	if mouse != s.mouse {
		b = append(b, mouseSeq(s.mouse, mouse)...)
		s.mouse = mouse
	}
	b = s.p.paint(b, f)
	show := cur != nil
	if show {
		b = s.p.cursor(b, cur.X, cur.Y)
	}
	s.body = b

	// Without synchronized output a visible cursor would be seen running
	// over the changed cells: hide it while they are written.
	body := len(b) > 0
	shown := s.cursor
	w := s.wire[:0]
	if body && s.sync {
		w = append(w, ansi.SetModeSynchronizedOutput...)
	}
	if shown && (!show || (body && !s.sync)) {
		w = append(w, ansi.ResetModeTextCursorEnable...)
	}
	w = append(w, b...)
	if show && (!shown || (body && !s.sync)) {
		w = append(w, ansi.SetModeTextCursorEnable...)
	}
	if body && s.sync {
		w = append(w, ansi.ResetModeSynchronizedOutput...)
	}
	s.wire = w
	s.cursor = show
	if len(w) > 0 {
		s.out.Write(w)
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
