package tui

import (
	"bytes"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// screen draws frames on the outer terminal. It does what bubbletea's
// renderer did (the alternate screen, the modes, a cell diff of each
// frame against the last, the cursor) but only when asked: bubbletea's
// renderer flushes on a 60 Hz ticker for as long as the program runs,
// and an idle attached client must not wake at all.
type screen struct {
	out io.Writer
	r   *uv.TerminalRenderer
	// frame is where r writes; it is handed to out in one write, wrapped
	// in the cursor and synchronized output sequences.
	frame bytes.Buffer
	wire  bytes.Buffer
	buf   uv.ScreenBuffer

	mouse  tea.MouseMode
	cursor bool // the last frame showed the cursor
	sync   bool // the terminal has synchronized output (mode 2026)
	open   bool
}

func newScreen(out io.Writer, env []string, width, height int) *screen {
	s := &screen{out: out, buf: uv.NewScreenBuffer(width, height)}
	s.r = uv.NewTerminalRenderer(&s.frame, env)
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

// draw writes the cells of v that differ from the last frame, the mouse
// mode if it changed, and the cursor. A frame equal to the last writes
// nothing.
func (s *screen) draw(v tea.View) {
	if !s.open {
		return
	}
	uv.NewStyledString(v.Content).Draw(s.buf, s.buf.Bounds())
	if v.MouseMode != s.mouse {
		s.r.WriteString(mouseSeq(s.mouse, v.MouseMode))
		s.mouse = v.MouseMode
	}
	s.r.Render(s.buf.RenderBuffer)
	show := v.Cursor != nil
	if show {
		// After Render: drawing moves the cursor.
		s.r.MoveTo(v.Cursor.X, v.Cursor.Y)
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
