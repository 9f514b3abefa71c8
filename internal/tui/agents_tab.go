package tui

import (
	"errors"
	"strings"

	"github.com/tuios/tuios/internal/integration"
)

// The Agents tab of the settings page (prefix A, the action "agents", or
// "Agents: settings" in the palette): the report of tuios doctor agents,
// one row per harness with whether it is on PATH and its integration's
// state, and the line under the row. Enter (or a click) on a row lists its actions
// (Install, Update, Uninstall, each naming the files it changes); enter on
// an action does it, with the same code as tuios integration install and
// uninstall (Uninstall also takes out the MCP server that integration
// install --mcp registered), and the result or the error shows in the dock. Esc goes
// back, and closes the tab from the list.
//
// The tab is there only for a session on this machine with agent
// features on: the integrations are this machine's files. The client
// cannot tell whether tuios ssh or tuios-web serves it, so that case is
// not told apart here.

// Actions of the Agents tab.
const (
	actInstall   = "Install"
	actUpdate    = "Update"
	actUninstall = "Uninstall"
)

// rowHeads marks the column heads in agentsTabList's rowOf.
const rowHeads = -2

// agentsTab is the open tab.
type agentsTab struct {
	rows    []integration.Status
	mcp     []string // per row, the file holding tuios's MCP server, "" for none
	double  []string // harnesses reporting twice (doctor agents)
	at      int      // the selected row
	actions []string // the selected row's actions, when they are shown
	act     int      // the selected action
}

// openAgentsTab is prefix A: the settings page on its Agents tab.
func (m *Model) openAgentsTab() {
	if !m.localAgents() {
		if m.link.host != "" {
			m.say("agents: the Agents tab is for sessions on this machine; on %s, run tuios integration status there", m.link.host)
		} else {
			m.say("agents: agent features are off")
		}
		return
	}
	m.openSettings(tabAgents) // settings.go: the page on this tab
}

// readAgentsTab (re)reads every harness's state.
func (m *Model) readAgentsTab() {
	t := m.agentsUI.tab
	env := m.intEnv()
	t.rows, t.mcp = t.rows[:0], t.mcp[:0]
	for _, h := range integration.Harnesses() {
		t.rows = append(t.rows, integration.StatusOf(h, env))
		mcp := ""
		if integration.MCPInstalled(h, env) {
			mcp = integration.MCPFile(h, env)
		}
		t.mcp = append(t.mcp, mcp)
	}
	t.double = integration.DoubleReporting(env)
	t.at = min(t.at, max(len(t.rows)-1, 0))
}

// rowActions are the actions a row's state allows; mcp says tuios's MCP
// server is registered, which Uninstall takes out.
func rowActions(st integration.Status, mcp bool) []string {
	switch st.State {
	case integration.StateNotInstalled:
		if mcp {
			return []string{actInstall, actUninstall}
		}
		return []string{actInstall}
	case integration.StateOutOfDate:
		return []string{actUpdate, actUninstall}
	case integration.StateInstalled:
		return []string{actUninstall}
	}
	if mcp {
		return []string{actUninstall}
	}
	return nil
}

// hooksThere says the row's hooks (and status line) are tuios's to remove.
func hooksThere(st integration.Status) bool {
	return st.State == integration.StateInstalled || st.State == integration.StateOutOfDate
}

// actionFiles are the files an action on row i changes.
func (t *agentsTab) actionFiles(act string, i int) []string {
	st, mcp := t.rows[i], t.mcp[i]
	if act != actUninstall || mcp == "" {
		return []string{st.File}
	}
	if !hooksThere(st) {
		return []string{mcp}
	}
	return []string{st.File, mcp}
}

// actionLine says what an action does (the file it changes is the line
// under it).
func actionLine(act string, st integration.Status) string {
	switch act {
	case actInstall:
		return "writes the hook entries"
	case actUpdate:
		return "replaces the older install, keeping the program its hooks run"
	}
	return "removes what tuios wrote; your own entries stay"
}

// agentsTabKey is a key in the tab.
func (m *Model) agentsTabKey(name string) {
	t := m.agentsUI.tab
	if t.actions != nil {
		switch name {
		case "esc", "q", "left", "h":
			t.actions = nil
		case "up", "k":
			t.act = max(t.act-1, 0)
		case "down", "j":
			t.act = min(t.act+1, len(t.actions)-1)
		case "enter":
			st, act := t.rows[t.at], t.actions[t.act]
			t.actions = nil
			if h, ok := integration.Lookup(st.Harness); ok {
				m.runIntegration(h, act)
			}
			if m.agentsUI.tab != nil {
				m.readAgentsTab()
			}
		}
		return
	}
	switch name {
	case "esc", "q":
		m.agentsUI.tab = nil
	case "up", "k":
		t.at = max(t.at-1, 0)
	case "down", "j":
		t.at = min(t.at+1, len(t.rows)-1)
	case "g", "home":
		t.at = 0
	case "G", "end":
		t.at = len(t.rows) - 1
	case "enter", "right", "l":
		if t.at < len(t.rows) {
			st := t.rows[t.at]
			if acts := rowActions(st, t.mcp[t.at] != ""); acts != nil {
				t.actions, t.act = acts, 0
			} else if st.Detail != "" {
				m.say("%s: %s", st.Name, st.Detail)
			}
		}
	}
}

// runIntegration installs, updates or uninstalls a harness's integration
// as tuios integration install and uninstall do; the dock says what it
// did or why it could not.
func (m *Model) runIntegration(h integration.Harness, act string) {
	env := m.intEnv()
	var res integration.Result
	var err error
	if act == actUninstall {
		res, err = uninstallAll(h, env)
	} else {
		// An empty Program keeps the program an existing install runs.
		res, err = integration.Install(h, integration.Options{Env: env, Default: integration.DefaultProgram()})
	}
	if err != nil {
		// The hint is what to do next: run the harness once first, or
		// try again after the harness saved the file during the edit.
		msg := err.Error()
		var ie *integration.Error
		if errors.As(err, &ie) && ie.Hint() != "" {
			msg += "; " + ie.Hint()
		}
		m.say("%s: %s", h.Name, clean(msg))
		return
	}
	m.dropNotice(h.ID)
	files := strings.Join(res.Files, ", ")
	switch {
	case !res.Changed && act == actUninstall:
		m.say("%s: nothing of tuios's to remove (%s)", h.Name, files)
	case !res.Changed:
		m.say("%s: already installed and current (%s)", h.Name, files)
	case act == actUninstall:
		m.say("%s: removed what tuios wrote in %s", h.Name, files)
	case act == actUpdate:
		m.say("%s: integration updated in %s", h.Name, files)
	default:
		m.say("%s: integration installed in %s", h.Name, files)
	}
	if res.Note != "" && act != actUninstall {
		m.dock += "; " + res.Note
	}
}

// uninstallAll removes what tuios wrote for h, each part only if it is
// there: the hooks and the status line (tuios integration uninstall), and
// the MCP server (tuios integration uninstall --mcp).
func uninstallAll(h integration.Harness, env integration.Env) (integration.Result, error) {
	mcp := integration.MCPInstalled(h, env)
	var res integration.Result
	if hooksThere(integration.StatusOf(h, env)) || !mcp {
		r, err := integration.Uninstall(h, env)
		if err != nil {
			return r, err
		}
		res = r
	}
	if mcp {
		r, err := integration.UninstallMCP(h, env)
		res.Files = append(res.Files, r.Files...)
		res.Changed = res.Changed || r.Changed
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// agentsTabLines draw the tab over the area.
func (m *Model) agentsTabLines(cols, rows int) []string {
	t := m.agentsUI.tab
	a := m.opt.ASCIIOnly
	if rows < 3 {
		return nil // no room: the area stays blank under the tab
	}
	line := func(s string) string { return fitPlain(s, cols, a) }
	out := []string{sgrReverse + line(" Settings › Agents   the report of tuios doctor agents") + sgrReset}
	if a {
		out[0] = sgrReverse + line(" Settings > Agents   the report of tuios doctor agents") + sgrReset
	}
	if t.actions != nil && t.at < len(t.rows) {
		st := t.rows[t.at]
		out = append(out, line(""), sgrBold+line(" "+st.Name+": "+st.State)+sgrReset, line(""))
		for i, act := range t.actions {
			l := line("   " + padRight(act, 10) + " " + actionLine(act, st))
			if i == t.act {
				l = sgrSelect + l + sgrReset
			}
			// Each file on a line of its own, so a long path is not cut.
			out = append(out, l)
			for _, f := range t.actionFiles(act, t.at) {
				out = append(out, line("   "+padRight("", 10)+" changes "+f))
			}
		}
		out = padRows(out, cols, rows-1)
		return append(out, line(" enter do it · up/down move · esc back"))
	}
	lines, rowOf := m.agentsTabList(rows)
	for i, l := range lines {
		switch {
		case rowOf[i] == t.at:
			out = append(out, sgrReverse+line(l)+sgrReset)
		case rowOf[i] == rowHeads:
			out = append(out, sgrBold+line(l)+sgrReset)
		default:
			out = append(out, line(l))
		}
	}
	if len(out) > rows-1 {
		out = out[:max(rows-1, 0)]
	}
	out = padRows(out, cols, rows-1)
	return append(out, line(" enter actions · up/down move · esc close"))
}

func padRight(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// agentsTabList is the list under the tab's title, as much as fits in
// rows with the selected row in view: the column heads, one line per
// harness and the line under it, and the double reporting doctor agents
// finds. rowOf[i] is the harness row list line i belongs to, -1 for none
// (a line under a row, a note) and rowHeads for the column heads: a
// click finds its row there.
func (m *Model) agentsTabList(rows int) (lines []string, rowOf []int) {
	t := m.agentsUI.tab
	w := 0
	for _, st := range t.rows {
		w = max(w, len(st.Name))
	}
	lines = []string{" " + padRight("HARNESS", w) + "  ON PATH  STATE"}
	rowOf = []int{rowHeads}
	sel := 0
	for i, st := range t.rows {
		if i == t.at {
			sel = len(lines)
		}
		lines = append(lines, " "+padRight(st.Name, w)+"  "+padRight(yesNo(st.OnPath != ""), 7)+"  "+st.State)
		rowOf = append(rowOf, i)
		if st.Detail != "" {
			lines = append(lines, " "+strings.Repeat(" ", w)+"  "+clean(st.Detail))
			rowOf = append(rowOf, -1)
		}
	}
	for _, d := range t.double {
		lines = append(lines, " "+clean(d))
		rowOf = append(rowOf, -1)
	}
	room := rows - 2 // the title and the key line
	if sel >= room && room > 0 {
		first := sel - room + 1
		lines, rowOf = lines[first:], rowOf[first:]
	}
	return lines, rowOf
}

// agentsTabClick is a click in the area at row y while the tab is open:
// on a harness row it selects it and lists its actions, as enter does.
func (m *Model) agentsTabClick(y int) {
	t := m.agentsUI.tab
	if t == nil || t.actions != nil || y < 1 {
		return
	}
	_, _, rows, _ := m.geometry()
	_, rowOf := m.agentsTabList(rows)
	if y-1 < len(rowOf) && rowOf[y-1] >= 0 {
		t.at = rowOf[y-1]
		m.agentsTabKey("enter")
	}
}
