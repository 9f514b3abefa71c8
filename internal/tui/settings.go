package tui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The settings page (prefix ,; "Settings: open" in the palette): tabs
// over the whole area, one concern each.
//
//   - Agents (agents_tab.go, prefix A): the report of tuios doctor agents
//     and the integrations' Install, Update and Uninstall. Only for a
//     session on this machine with agent features on.
//   - Alerts (settings_alerts.go): [notifications.agent], each key set
//     through the daemon's set-config verb as tuios set-config sets it,
//     and what [notify] sends to a phone, read only.
//   - Hosts (settings_hosts.go): the links tuios hosts lists, and Add a
//     host, which writes [hosts.NAME] as tuios hosts add does and applies
//     it at once: the daemon applies only for a caller outside every pane.
//
// tab and shift+tab (or right and left) switch tabs; esc closes the page
// (from an Agents row's actions, it goes back first). Its keys are the
// key table's settings and settings_form modes (bindings.go). The page
// opens on the tab it showed last in this run of the client, the first
// time on Alerts (the seed's "the Alerts tab of the settings page (, in
// window mode)").

// The page's tabs, in the order the bar shows them.
const (
	tabAgents = "Agents"
	tabAlerts = "Alerts"
	tabHosts  = "Hosts"
)

// settingsPage is the open page.
type settingsPage struct {
	tab    string
	alerts alertsTab
	hosts  hostsTab
	// form is a form open over the tab (Add a host, a value to type);
	// it takes the keys until it is saved or left.
	form *settingsForm
}

// settingsTabs are the tabs the page has for this session: the Agents
// tab only where the integrations are this machine's to change.
func (m *Model) settingsTabs() []string {
	if m.localAgents() {
		return []string{tabAgents, tabAlerts, tabHosts}
	}
	return []string{tabAlerts, tabHosts}
}

// openSettings opens the page (or moves it) on a tab: "" is the tab it
// showed last, else Alerts.
func (m *Model) openSettings(tab string) {
	ui := &m.agentsUI
	if tab == "" {
		tab = ui.pageTab
	}
	if !slices.Contains(m.settingsTabs(), tab) {
		tab = tabAlerts
	}
	m.prefix, m.oldestArmed, m.oldestAt, m.railOn = false, false, 0, false
	if ui.page == nil {
		ui.page = &settingsPage{}
	}
	m.showSettingsTab(tab)
}

// showSettingsTab switches the open page to a tab and reads what it
// shows afresh.
func (m *Model) showSettingsTab(tab string) {
	ui := &m.agentsUI
	p := ui.page
	p.tab, ui.pageTab, p.form = tab, tab, nil
	ui.tab = nil
	switch tab {
	case tabAgents:
		ui.tab = &agentsTab{}
		m.readAgentsTab()
	case tabAlerts:
		m.readAlerts() // settings_alerts.go
	case tabHosts:
		m.readHosts() // settings_hosts.go
	}
}

// closeSettings closes the page; its tab is remembered for prefix ,.
func (m *Model) closeSettings() {
	m.agentsUI.page, m.agentsUI.tab = nil, nil
}

// settingsKey is a key while the page is open (not the prefix: palette.go
// takes that first).
func (m *Model) settingsKey(k tea.Key, name string) {
	p := m.agentsUI.page
	if p.form != nil {
		m.formKey(k, name) // settings_form.go
		return
	}
	act := m.keys.in(ModeSettings, name)
	if t := m.agentsUI.tab; p.tab == tabAgents && t != nil {
		// The Agents tab keeps its own keys (agents_tab.go); the page's
		// reach it under the names it reads.
		word := map[string]string{"settings.up": "up", "settings.down": "down", "settings.top": "g",
			"settings.bottom": "G", "settings.do": "enter", "settings.close": "esc"}[act]
		if t.actions != nil || (word != "" && act != "settings.close") {
			if word != "" {
				m.agentsTabKey(word)
			}
			return
		}
	}
	tabs := m.settingsTabs()
	i := max(slices.Index(tabs, p.tab), 0)
	switch act {
	case "settings.next-tab":
		m.showSettingsTab(tabs[(i+1)%len(tabs)])
	case "settings.prev-tab":
		m.showSettingsTab(tabs[(i+len(tabs)-1)%len(tabs)])
	case "settings.close":
		m.closeSettings()
	case "settings.reload":
		m.showSettingsTab(p.tab)
	case "settings.add-host":
		if p.tab == tabHosts {
			m.openHostForm()
		}
	case "settings.up", "settings.down", "settings.top", "settings.bottom", "settings.do":
		switch p.tab {
		case tabAlerts:
			m.alertsKey(act)
		case tabHosts:
			m.hostsKey(act)
		}
	}
}

// settingsLines draw the page over the area: the tab bar, the tab, and
// the line of keys at the bottom.
func (m *Model) settingsLines(cols, rows int) []string {
	p := m.agentsUI.page
	if rows < 3 {
		return nil // no room: the area stays blank under the page
	}
	var body []string
	var keys string
	switch {
	case p.tab == tabAgents && m.agentsUI.tab != nil:
		// The tab draws its own title and key line; the bar and the
		// page's key line take their places, so a click still finds its
		// row one line under the top.
		lines := m.agentsTabLines(cols, rows)
		if len(lines) > 2 {
			body = lines[1 : len(lines)-1]
		}
		if m.agentsUI.tab.actions != nil {
			keys = m.keyWords("settings.do", "do it", "settings.up", "settings.down", "move", "settings.close", "back")
		} else {
			keys = m.keyWords("settings.do", "actions", "settings.up", "settings.down", "move", "settings.next-tab", "next tab", "settings.close", "close")
		}
	case p.tab == tabAlerts:
		body, _ = m.alertsLines(cols, rows-2)
		keys = m.keyWords("settings.do", "change", "settings.up", "settings.down", "move", "settings.next-tab", "next tab", "settings.close", "close")
	case p.tab == tabHosts:
		body, _ = m.hostsLines(cols, rows-2)
		keys = m.keyWords("settings.add-host", "add a host", "settings.reload", "read again", "settings.next-tab", "next tab", "settings.close", "close")
	}
	if p.form != nil {
		body = m.formLines(cols, rows-2) // settings_form.go: over the tab
		keys = m.keyWords("settings_form.save", p.form.saveWord, "settings_form.next", "next field", "settings_form.cancel", "cancel")
	}
	out := []string{m.settingsBar(cols)}
	for _, l := range body {
		if len(out) == rows-1 {
			break
		}
		out = append(out, l)
	}
	out = padRows(out, cols, rows-1)
	return append(out, fitPlain(" "+keys, cols, m.opt.ASCIIOnly))
}

// settingsBar is the page's first line: where the person is, then the
// tabs, the shown one in brackets (the cue without colour) and bold.
func (m *Model) settingsBar(cols int) string {
	bar, _ := m.settingsBarTabs()
	return fit(bar, cols)
}

// settingsBarTabs is the bar and where each tab's name is on it: the
// columns from spans[i][0] up to spans[i][1] are tab i's.
func (m *Model) settingsBarTabs() (bar string, spans [][2]int) {
	p := m.agentsUI.page
	sep := " › "
	if m.opt.ASCIIOnly {
		sep = " > "
	}
	var b strings.Builder
	head := " Settings" + sep + p.tab + "    "
	b.WriteString(sgrReverse + head)
	x := len([]rune(head))
	for _, t := range m.settingsTabs() {
		if t == p.tab {
			b.WriteString(sgrBold + "[" + t + "]" + "\x1b[22m ")
		} else {
			b.WriteString(" " + t + "  ")
		}
		spans = append(spans, [2]int{x, x + len(t) + 2})
		x += len(t) + 3
	}
	b.WriteString("  " + m.keyWords("settings.next-tab", "", "settings.prev-tab", "switch"))
	return b.String(), spans
}

// settingsClick is a click at (x, y) of the area while the page is open:
// on a tab's name it shows that tab; on a row it selects it and acts as
// enter does (the Agents tab: agents_tab.go).
func (m *Model) settingsClick(x, y int) {
	p := m.agentsUI.page
	if p == nil || p.form != nil {
		return
	}
	if y == 0 {
		_, spans := m.settingsBarTabs()
		for i, s := range spans {
			if x >= s[0] && x < s[1] {
				m.showSettingsTab(m.settingsTabs()[i])
			}
		}
		return
	}
	_, cols, rows, _ := m.geometry()
	var rowOf []int
	switch p.tab {
	case tabAgents:
		m.agentsTabClick(y)
		return
	case tabAlerts:
		_, rowOf = m.alertsLines(cols, rows-2)
	case tabHosts:
		_, rowOf = m.hostsLines(cols, rows-2)
	}
	if y-1 >= len(rowOf) || rowOf[y-1] < 0 {
		return
	}
	if p.tab == tabAlerts {
		p.alerts.at = rowOf[y-1]
		m.alertsKey("settings.do")
	} else {
		p.hosts.at = rowOf[y-1]
		m.hostsKey("settings.do")
	}
}

// keyWords makes a key line from the key table as bound now: pairs of
// an action and its word; an action followed by another action shares
// the next word ("k/j move"). An action with no key is left out.
func (m *Model) keyWords(pairs ...string) string {
	var parts, keys []string
	for _, s := range pairs {
		if strings.Contains(s, ".") {
			if k := m.keys.first(s); k != "" {
				keys = append(keys, k)
			}
			continue
		}
		if s != "" && len(keys) > 0 {
			parts = append(parts, strings.Join(keys, "/")+" "+s)
		}
		if s != "" {
			keys = nil
		}
	}
	return strings.Join(parts, " · ")
}

// settingsReply takes the answers to the page's calls (tags settings:…).
// The answers after Add a host act whether or not the page is still open.
func (m *Model) settingsReply(r replyMsg) {
	tag := strings.TrimPrefix(r.tag, "settings:")
	switch {
	case tag == "alerts":
		m.alertsReply(r) // settings_alerts.go
	case tag == "set":
		m.setReply(r)
	case tag == "hosts":
		m.hostsReply(r) // settings_hosts.go
	case strings.HasPrefix(tag, "pending:"):
		m.pendingReply(strings.TrimPrefix(tag, "pending:"), r)
	case strings.HasPrefix(tag, "apply:"):
		m.applyReply(strings.TrimPrefix(tag, "apply:"), r)
	}
}

// settingsPaste takes a paste while a form is open: into its field, one
// line of it. Nothing pasted on the page reaches the pane under it.
func (m *Model) settingsPaste(text string) {
	if p := m.agentsUI.page; p != nil && p.form != nil {
		m.formType(text)
	}
}
