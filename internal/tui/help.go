package tui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The help screen (prefix ?): every key of every mode, made from the key
// table with the keys bound now (bindings.go), so a key rebound in the
// config file is listed at its new place. It covers the area; j/k and
// the arrows scroll a line, PgUp/PgDn (ctrl+b/ctrl+f, space) a page,
// g/G the ends, esc, q or ? close it. The prefix still works: the
// help closes and the key after it runs.

// helpView is the open help screen.
type helpView struct {
	top int
}

func (m *Model) openHelp() {
	m.keyUI.help = &helpView{}
	m.railOn = false
}

// helpKey takes every key while the help is open, and clears a mouse
// selection on any key (selection.go). ok is false when the help is
// closed and the key goes on as usual.
func (m *Model) helpKey(k tea.Key) (tea.Cmd, bool) {
	if m.keyUI.sel != nil && !m.keyUI.sel.dragging {
		m.keyUI.sel = nil
	}
	h := m.keyUI.help
	if h == nil {
		return nil, false
	}
	name := keyName(k)
	if m.prefix {
		m.prefix = false
		m.keyUI.help = nil
		return m.prefixAction(name), true
	}
	_, _, rows, _ := m.geometry()
	page := max(rows-3, 1)
	switch name {
	case m.keys.prefix:
		m.prefix = true
	case "esc", "q", "?", "ctrl+c":
		m.keyUI.help = nil
	case "j", "down", "ctrl+n":
		h.top++
	case "k", "up", "ctrl+p":
		h.top--
	case "pgdown", "ctrl+f", "space", "ctrl+d":
		h.top += page
	case "pgup", "ctrl+b", "ctrl+u":
		h.top -= page
	case "g", "home":
		h.top = 0
	case "G", "end":
		h.top = 1 << 30
	}
	return nil, true
}

// helpLines are the help's lines for a screen cols wide: a heading per
// mode, then one line per binding: its keys, what it does, and the name
// the config file rebinds it by.
// Until an agent has been seen, the rows about agents are left out
// (their keys work all the same).
func (m *Model) helpLines(cols int) []string {
	km := m.keys
	if !m.agentsShown() {
		km.rows = slices.DeleteFunc(slices.Clone(km.rows), func(b binding) bool { return b.agent })
	}
	return helpText(km, cols, m.opt.ASCIIOnly, true)
}

// helpText lays the key table out, mode by mode: styled adds bold
// headings and dim config names placed at the right edge of cols (the
// help screen); plain text (for --help) puts the names in a column.
func helpText(km keymap, cols int, ascii, styled bool) []string {
	bold, dim, reset := "", "", ""
	if styled {
		bold, dim, reset = sgrBold, "\x1b[2m", sgrReset
	}
	keyW, doesW := 0, 0
	for _, b := range km.rows {
		keyW = max(keyW, ansi.StringWidth(keysText(b.keys)))
		doesW = max(doesW, ansi.StringWidth(b.does))
	}
	keyW, doesW = min(keyW, 14), min(doesW, 52)
	nameW := map[string]int{}
	for _, b := range km.rows {
		if !b.fixed {
			table, n := fileName(b.action)
			nameW[b.mode] = max(nameW[b.mode], ansi.StringWidth("["+table+"] "+n))
		}
	}
	var out []string
	for _, md := range keyModes {
		if !slices.ContainsFunc(km.rows, func(b binding) bool { return b.mode == md.mode }) {
			continue // a mode with no rows shown (the Inbox before any agent): no heading either
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		title := md.title
		if md.mode == ModeWindow {
			title = "Window mode: after the prefix, " + km.prefix
		}
		if styled {
			title = fitPlain(" "+title, cols, ascii)
		}
		out = append(out, bold+title+reset)
		for _, b := range km.rows {
			if b.mode != md.mode {
				continue
			}
			keys := keysText(b.keys)
			line := "   " + keys + strings.Repeat(" ", max(keyW-ansi.StringWidth(keys), 0)) + "  " + b.does
			name := ""
			if !b.fixed {
				table, n := fileName(b.action)
				name = "[" + table + "] " + n
			}
			// The names make a column at the right, as wide as the
			// mode's widest; a line too long for it is cut before it.
			nameX := cols - nameW[b.mode] - 1
			switch {
			case !styled && name != "":
				out = append(out, line+strings.Repeat(" ", max(doesW-ansi.StringWidth(b.does), 0))+"  "+name)
			case !styled:
				out = append(out, line)
			case name != "" && nameX-2 >= 3+keyW+2+12:
				out = append(out, fitPlain(line, nameX-2, ascii)+"  "+dim+name+reset)
			default:
				out = append(out, fitPlain(line, cols, ascii))
			}
		}
	}
	return out
}

// helpArea draws the help over the whole area when it is open.
func (m *Model) helpArea(area []string, cols, rows int) []string {
	h := m.keyUI.help
	if h == nil {
		return area
	}
	a := m.opt.ASCIIOnly
	lines := m.helpLines(cols)
	body := max(rows-2, 1)
	h.top = min(max(h.top, 0), max(len(lines)-body, 0))
	out := make([]string, 0, rows)
	out = append(out, sgrReverse+fitPlain(" Keys   j/k scroll · PgUp/PgDn page · esc closes · "+
		"rebind them in config.toml", cols, a)+sgrReset)
	for i := h.top; i < len(lines) && len(out) < rows-1; i++ {
		out = append(out, fit(lines[i], cols))
	}
	for len(out) < rows-1 {
		out = append(out, strings.Repeat(" ", cols))
	}
	more := " end"
	if h.top+body < len(lines) {
		more = " more below: j, PgDn"
	}
	return append(out, sgrReverse+fitPlain(more, cols, a)+sgrReset)
}

// KeysHelp is the key table as `tuios attach --help` prints it: every
// mode's keys, with the prefix and bindings of opt (Configure them from
// the config file first to list the keys a client would have).
func KeysHelp(opt Options) string {
	km := newKeymap(opt.Prefix, opt.Bindings)
	return strings.Join(helpText(km, 100, true, false), "\n")
}
