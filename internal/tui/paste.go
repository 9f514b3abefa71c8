package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// Copy and paste. What the person copies (copy mode's y, a mouse drag
// over a pane) goes two ways: to the outer terminal's clipboard as an
// OSC 52 sequence written to the terminal itself (not through
// bubbletea, whose own output is discarded: the client draws its frames
// itself, screen.go), and into the client's paste buffer, which prefix
// ] types into the focused pane: bracketed when the pane's program
// asked for bracketed paste, with each newline sent as a carriage
// return, as a terminal's own paste and tmux's paste-buffer send them.
//
// The buffer is the client's, not the daemon's (doc.go says why).

// keysState is what the client keeps for the keys' own views: the help
// screen, the paste buffer, a mouse selection and whether the rail is
// hidden (help.go, paste.go, selection.go, hint.go).
type keysState struct {
	help       *helpView
	paste      string
	sel        *mouseSel
	railHidden bool
}

// maxClipboard bounds the text one copy hands the outer terminal: OSC 52
// carries it base64 in one sequence, and terminals cap that. A longer
// copy still fills the paste buffer, and the dock says where it went.
const maxClipboard = 1 << 20

// copied keeps text in the paste buffer and sends it to the terminal's
// clipboard; the dock says what was copied.
func (m *Model) copied(text string) tea.Cmd {
	text = pasteSafe(text)
	if strings.TrimSpace(text) == "" {
		m.say("nothing to copy: the selection is blank")
		return nil
	}
	m.keyUI.paste = text
	what := strconv.Itoa(len([]rune(text))) + " characters"
	if n := strings.Count(text, "\n") + 1; n > 1 {
		what = strconv.Itoa(n) + " lines"
	}
	paste := m.keys.first(ActPaste)
	if len(text) > maxClipboard {
		m.say("copied %s for prefix %s (too long for the terminal's clipboard)", what, paste)
		return nil
	}
	if paste != "" {
		m.say("copied %s (prefix %s pastes)", what, paste)
	} else {
		m.say("copied %s", what)
	}
	return tea.Raw(ansi.SetSystemClipboard(text))
}

// pasteBuffer is prefix ]: the paste buffer typed into the focused pane.
func (m *Model) pasteBuffer() {
	text := m.keyUI.paste
	if text == "" {
		m.say("nothing copied yet: prefix %s, %s, move, %s (or drag with the mouse)",
			m.keys.first(ActScrollback), m.keys.first("copy.select"), m.keys.first("copy.copy"))
		return
	}
	m.typeFocused(func(modes proto.AttachModes) string { return pasteBytes(text, modes) })
}

// pasteBytes is what a paste of text types into a pane in modes.
func pasteBytes(text string, modes proto.AttachModes) string {
	return encodePaste(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\r"), "\n", "\r"), modes)
}

// pasteSafe keeps what a copy may carry from pane text into another
// pane: printable text, tabs and newlines. Control characters (a ^C, an
// ESC that would end a bracketed paste early) are dropped, so a paste
// types text and nothing else.
func pasteSafe(text string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r >= ' ' && r != 0x7f && (r < 0x80 || r > 0x9f) {
			return r
		}
		return -1
	}, text)
}
