package tui

import (
	"slices"
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
	// agent entries are found by "agent" as well as by their name
	// (the Inbox's, the mail's: "type agent" lists them all).
	agent bool
}

// paletteEntries are the actions the palette offers now: every action
// of the key table that has a palette name (bindings.go), with the key
// bound to it now, in the table's order (a workspace row gives one entry
// per digit); then, for a local session with agents on, an install or
// update for each harness that needs one. The agents' entries wait until
// the daemon has seen an agent.
func (m *Model) paletteEntries() []paletteEntry {
	var out []paletteEntry
	for _, b := range m.keys.rows {
		if b.mode != ModeWindow || b.palette == "" {
			continue
		}
		if strings.Contains(b.palette, "%s") {
			for _, k := range b.keys {
				act, key := b.action, k
				out = append(out, paletteEntry{name: strings.ReplaceAll(b.palette, "%s", k), key: k,
					run: func(m *Model) tea.Cmd { return m.runAction(act, key) }})
			}
			continue
		}
		if b.action == ActAgents && !m.localAgents() || b.agent && !m.agentsShown() {
			continue
		}
		act, key := b.action, ""
		if len(b.keys) > 0 {
			key = b.keys[0]
		}
		out = append(out, paletteEntry{name: b.palette, key: key, agent: b.agent, run: func(m *Model) tea.Cmd { return m.runAction(act, key) }})
	}
	// The agents' views first, then the window's, the session's and the
	// help (the order the palette has always had).
	slices.SortStableFunc(out, func(a, b paletteEntry) int { return paletteRank(a.name) - paletteRank(b.name) })
	if !m.localAgents() || !m.agentsShown() {
		return out
	}
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
		out = append(out, paletteEntry{name: "Agents: " + strings.ToLower(do) + " " + h.Name + " integration", agent: true,
			run: func(m *Model) tea.Cmd { m.runIntegration(h, do); return nil }})
	}
	return out
}

// paletteGroups are the palette's headings in the order it lists them.
var paletteGroups = []string{"Mail", "Inbox", "Review", "Window", "Workspace", "Sessions", "Session", "Settings", "Help", "Agents"}

func paletteRank(name string) int {
	group, _, _ := strings.Cut(name, ":")
	if i := slices.Index(paletteGroups, group); i >= 0 {
		return i
	}
	return len(paletteGroups)
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
		name := e.name
		if e.agent {
			name += " agent"
		}
		if paletteMatch(name, string(p.text)) {
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

// agentsUIArea draws the settings page over the whole area and the
// palette over its top rows.
func (m *Model) agentsUIArea(area []string, cols, rows int) []string {
	ui := &m.agentsUI
	if ui.page != nil {
		area = padRows(m.settingsLines(cols, rows), cols, rows) // settings.go
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

// agentsUIKey takes prefix :, prefix , and prefix A, every key while the
// palette or the settings page is open, and esc on a notice (notice.go).
// ok is false for any other key, which goes on as usual.
func (m *Model) agentsUIKey(k tea.Key) (tea.Cmd, bool) {
	if m.clock.Now().Before(m.dropUntil) {
		return nil, false
	}
	name := keyName(k)
	ui := &m.agentsUI
	switch {
	case ui.palette != nil:
		return m.paletteKey(k, name), true
	case ui.page != nil:
		if m.prefix {
			m.prefix = false
			switch m.keys.action[name] {
			case ActDetach:
				return m.detach(), true
			case ActPalette:
				m.openPalette()
			case ActAgents:
				m.openAgentsTab()
			}
			return nil, true
		}
		if name == m.keys.prefix {
			m.prefix = true
			return nil, true
		}
		m.settingsKey(k, name) // settings.go
		return nil, true
	case m.prefix && m.review == nil:
		act := m.keys.action[name]
		if act != ActPalette && act != ActAgents && act != ActSettings {
			return nil, false
		}
		m.prefix, m.oldestArmed, m.oldestAt, m.railOn = false, false, 0, false
		switch act {
		case ActPalette:
			m.openPalette()
		case ActSettings:
			m.openSettings("")
		default:
			m.openAgentsTab()
		}
		return nil, true
	}
	return nil, m.noticeEsc(name)
}

// agentsUIPaste takes a paste while the palette or the settings page is
// open: into the palette's filter or the page's form (one line of it),
// never the pane under it.
func (m *Model) agentsUIPaste(text string) bool {
	ui := &m.agentsUI
	switch {
	case ui.palette != nil:
		ui.palette.text = append(ui.palette.text, []rune(clean(text))...)
		ui.palette.at = 0
	case ui.page != nil:
		m.settingsPaste(text) // settings.go
	}
	return ui.palette != nil || ui.page != nil
}
