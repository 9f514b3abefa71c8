package tui

import (
	"encoding/json"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// scrollback is scrollback mode over one pane: its history fetched once,
// a cursor line, an optional selection and a search prompt.
type scrollback struct {
	window  string
	lines   []string // styled
	plain   []string // the same, styles stripped, for search and copy
	top     int      // first line shown
	cur     int      // cursor line
	height  int      // lines shown, set by the view
	anchor  int      // selection start, -1 none
	search  *lineInput
	pattern string
	loading bool
}

func (m *Model) openScrollback(window string) {
	m.scroll = &scrollback{window: window, anchor: -1, loading: true}
	m.call("capture-pane", map[string]any{"session": m.session, "window": window, "scrollback": true, "ansi": true}, "scrollback")
}

func (m *Model) scrollReply(r replyMsg) {
	s := m.scroll
	if s == nil {
		return
	}
	if r.err != nil {
		m.scroll = nil
		m.say("scrollback: %s", r.err.Error())
		return
	}
	var res struct {
		Content string `json:"content"`
	}
	json.Unmarshal(r.raw, &res)
	s.loading = false
	s.lines = strings.Split(strings.TrimRight(res.Content, "\n"), "\n")
	s.plain = make([]string, len(s.lines))
	for i, l := range s.lines {
		s.plain[i] = ansi.Strip(l)
	}
	s.cur = len(s.lines) - 1
	s.top = max(0, len(s.lines)-max(s.height, 1))
	s.move(0)
}

// move moves the cursor by d lines and keeps it on screen.
func (s *scrollback) move(d int) {
	s.cur = min(max(s.cur+d, 0), max(len(s.lines)-1, 0))
	h := max(s.height, 1)
	if s.cur < s.top {
		s.top = s.cur
	}
	if s.cur >= s.top+h {
		s.top = s.cur - h + 1
	}
}

// find moves the cursor to the nearest line above it (wrapping) that
// holds the pattern.
func (s *scrollback) find() bool {
	if s.pattern == "" || len(s.plain) == 0 {
		return false
	}
	n := len(s.plain)
	for i := 1; i <= n; i++ {
		j := ((s.cur-i)%n + n) % n
		if strings.Contains(s.plain[j], s.pattern) {
			s.move(j - s.cur)
			return true
		}
	}
	return false
}

func (m *Model) scrollKey(k tea.Key, name string) tea.Cmd {
	s := m.scroll
	if s.search != nil {
		switch name {
		case "enter":
			s.pattern = string(s.search.text)
			s.search = nil
			if !s.find() {
				m.say("not found: %s", s.pattern)
			}
		case "esc":
			s.search = nil
		case "backspace":
			if len(s.search.text) > 0 {
				s.search.text = s.search.text[:len(s.search.text)-1]
			}
		default:
			if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) {
				s.search.text = append(s.search.text, []rune(clean(k.Text))...)
			}
		}
		return nil
	}
	h := max(s.height, 1)
	switch name {
	case "q", "esc":
		if s.anchor >= 0 && name == "esc" {
			s.anchor = -1
			return nil
		}
		m.scroll = nil
	case "up", "k":
		s.move(-1)
	case "down", "j":
		s.move(1)
	case "pgup", "ctrl+b":
		s.move(-h)
	case "pgdown", "ctrl+f", "space":
		s.move(h)
	case "g", "home":
		s.move(-len(s.lines))
	case "G", "end":
		s.move(len(s.lines))
	case "/", "?":
		s.search = &lineInput{label: "search up: "}
	case "n":
		if !s.find() && s.pattern != "" {
			m.say("not found: %s", s.pattern)
		}
	case "v":
		if s.anchor >= 0 {
			s.anchor = -1
		} else {
			s.anchor = s.cur
		}
	case "y", "enter":
		if s.anchor < 0 {
			return nil
		}
		a, b := min(s.anchor, s.cur), max(s.anchor, s.cur)
		text := strings.Join(trimRight(s.plain[a:b+1]), "\n")
		m.scroll = nil
		m.say("copied %d lines", b-a+1)
		return tea.SetClipboard(text)
	}
	return nil
}

func trimRight(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}
