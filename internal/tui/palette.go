package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/integration"
)

// The command palette (prefix :, the action "palette"): a filter line
// over the client's named actions. Typing narrows the list (every word
// typed must be in the name, in any case), up and down move, enter runs
// the action and esc closes the palette. The palette takes every key
// while it is open, so nothing typed into it reaches a pane.

// palette is the open palette.
type palette struct {
	text    []rune
	at      int            // the selected row among the matches
	entries []paletteEntry // every action, read when the palette opened
}

// paletteEntry is one named action.
type paletteEntry struct {
	name string
	key  string // the binding that runs it too, "" when none
	run  func(m *Model) tea.Cmd
}

// paletteEntries are the actions the palette offers now: the window,
// Inbox, mail and review actions, and, for a local session with agents
// on, the Agents tab and an install or update for each harness that
// needs one.
func (m *Model) paletteEntries() []paletteEntry {
	bound := func(name, act string) paletteEntry {
		key := m.keyFor(act)
		return paletteEntry{name: name, key: key, run: func(m *Model) tea.Cmd {
			if key == "" {
				return nil
			}
			return m.prefixAction(key)
		}}
	}
	direct := func(name, act string, run func(m *Model)) paletteEntry {
		return paletteEntry{name: name, key: m.keyFor(act), run: func(m *Model) tea.Cmd { run(m); return nil }}
	}
	out := []paletteEntry{
		direct("Mail: open inbox", ActMail, (*Model).openMail),
		direct("Mail: newest finished turn", ActNewest, (*Model).askNewest),
		direct("Inbox: open", ActInbox, (*Model).openInbox),
		bound("Inbox: oldest needing you", ActOldest),
		direct("Review: focused pane", ActReview, (*Model).openReviewFocused),
		bound("Window: new", ActNewWindow),
		bound("Window: next", ActNext),
		bound("Window: previous", ActPrev),
		bound("Window: focus left", ActLeft),
		bound("Window: focus right", ActRight),
		bound("Window: focus up", ActUp),
		bound("Window: focus down", ActDown),
		bound("Window: zoom", ActZoom),
		bound("Window: rename", ActRename),
		bound("Window: close", ActClose),
		bound("Window: scrollback", ActScrollback),
		bound("Sessions: rail", ActRail),
		bound("Session: detach", ActDetach),
	}
	if !m.localAgents() {
		return out
	}
	out = append(out, direct("Agents: settings", ActAgents, (*Model).openAgentsTab))
	env := m.intEnv()
	for _, h := range integration.Harnesses() {
		st := integration.StatusOf(h, env)
		var do string
		switch {
		case st.State == integration.StateOutOfDate:
			do = actUpdate
		case st.State == integration.StateNotInstalled && st.ConfigDir:
			do = actInstall
		default:
			continue
		}
		out = append(out, paletteEntry{name: "Agents: " + strings.ToLower(do) + " " + h.Name + " integration",
			run: func(m *Model) tea.Cmd { m.runIntegration(h, do); return nil }})
	}
	return out
}

// keyFor is the key bound to a prefix action, "" when none.
func (m *Model) keyFor(act string) string {
	for key, a := range m.keys.action {
		if a == act {
			return key
		}
	}
	return ""
}

// paletteMatch says whether an action's name matches what was typed:
// every word of it, in any case, somewhere in the name.
func paletteMatch(name, filter string) bool {
	name = strings.ToLower(name)
	for _, w := range strings.Fields(strings.ToLower(filter)) {
		if !strings.Contains(name, w) {
			return false
		}
	}
	return true
}

// matches are the entries the filter lets through, in their order.
func (p *palette) matches() []paletteEntry {
	var out []paletteEntry
	for _, e := range p.entries {
		if paletteMatch(e.name, string(p.text)) {
			out = append(out, e)
		}
	}
	return out
}

// openPalette is prefix :.
func (m *Model) openPalette() {
	m.agentsUI.palette = &palette{entries: m.paletteEntries()}
}

// paletteKey is a key while the palette is open.
func (m *Model) paletteKey(k tea.Key, name string) tea.Cmd {
	p := m.agentsUI.palette
	ms := p.matches()
	switch name {
	case "esc", "ctrl+c", "ctrl+g":
		m.agentsUI.palette = nil
	case "enter":
		m.agentsUI.palette = nil
		if p.at < len(ms) {
			return ms[p.at].run(m)
		}
	case "up", "ctrl+p":
		if p.at > 0 {
			p.at--
		}
	case "down", "ctrl+n", "tab":
		if p.at < len(ms)-1 {
			p.at++
		}
	case "backspace", "ctrl+h":
		if len(p.text) > 0 {
			p.text = p.text[:len(p.text)-1]
			p.at = 0
		}
	case "ctrl+u":
		p.text, p.at = nil, 0
	default:
		if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) && !k.Mod.Contains(tea.ModAlt) {
			p.text = append(p.text, []rune(k.Text)...)
			p.at = 0
		}
	}
	return nil
}

// paletteLines are the palette's rows, drawn over the top of the area.
func (m *Model) paletteLines(cols, rows int) []string {
	p := m.agentsUI.palette
	a := m.opt.ASCIIOnly
	ms := p.matches()
	out := []string{sgrReverse + fitPlain(" Command palette   enter runs · up/down move · esc closes", cols, a) + sgrReset,
		fitPlain(" > "+string(p.text)+"_", cols, a)}
	room := rows - len(out) - 1
	first := 0
	if p.at >= room && room > 0 {
		first = p.at - room + 1
	}
	for i := first; i < len(ms) && len(out) < rows-1; i++ {
		e := ms[i]
		line := "   " + e.name
		if e.key != "" {
			line += "  (" + m.keys.prefix + " " + e.key + ")"
		}
		if i == p.at {
			out = append(out, sgrReverse+fitPlain(line, cols, a)+sgrReset)
			continue
		}
		out = append(out, fitPlain(line, cols, a))
	}
	if len(ms) == 0 {
		out = append(out, fitPlain("   no action matches", cols, a))
	}
	rule := "─"
	if a {
		rule = "-"
	}
	return append(out, strings.Repeat(rule, max(cols, 0)))
}

// agentsUIArea draws the Agents tab over the whole area and the palette
// over its top rows.
func (m *Model) agentsUIArea(area []string, cols, rows int) []string {
	ui := &m.agentsUI
	if ui.tab != nil {
		area = padRows(m.agentsTabLines(cols, rows), cols, rows)
	}
	if ui.palette != nil {
		out := append([]string(nil), area...)
		for i, l := range m.paletteLines(cols, rows) {
			if i < len(out) {
				out[i] = l
			}
		}
		area = out
	}
	return area
}

// agentsUIKey takes prefix : and prefix A, every key while the palette
// or the Agents tab is open, and esc on a notice (notice.go). ok is false
// for any other key, which goes on as usual.
func (m *Model) agentsUIKey(k tea.Key) (tea.Cmd, bool) {
	if m.clock.Now().Before(m.dropUntil) {
		return nil, false
	}
	name := keyName(k)
	ui := &m.agentsUI
	switch {
	case ui.palette != nil:
		return m.paletteKey(k, name), true
	case ui.tab != nil:
		if m.prefix {
			m.prefix = false
			switch m.keys.action[name] {
			case ActDetach:
				return m.detach(), true
			case ActPalette:
				m.openPalette()
			}
			return nil, true
		}
		if name == m.keys.prefix {
			m.prefix = true
			return nil, true
		}
		m.agentsTabKey(name)
		return nil, true
	case m.prefix && m.review == nil:
		act := m.keys.action[name]
		if act != ActPalette && act != ActAgents {
			return nil, false
		}
		m.prefix, m.oldestArmed, m.oldestAt, m.railOn = false, false, 0, false
		if act == ActPalette {
			m.openPalette()
		} else {
			m.openAgentsTab()
		}
		return nil, true
	}
	return nil, m.noticeEsc(name)
}

// agentsUIPaste takes a paste while the palette or the Agents tab is
// open: into the palette's filter (one line of it), never the pane under it.
func (m *Model) agentsUIPaste(text string) bool {
	ui := &m.agentsUI
	if ui.palette != nil {
		ui.palette.text = append(ui.palette.text, []rune(clean(text))...)
		ui.palette.at = 0
	}
	return ui.palette != nil || ui.tab != nil
}
