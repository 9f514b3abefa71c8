package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// Hints: what the client says about its own keys where the person looks.
// After the prefix the dock lists the next keys with their names, as
// zellij's status bar does, as many as the width holds (? help always
// last); copy mode's dock names its keys; an empty workspace says how to
// open a window. All of them read the keys bound now (bindings.go).

// prefixDock is the dock after the prefix: lead (the session and its
// workspaces), then the window mode's hinted keys (the Inbox's once an
// agent has been seen).
func (m *Model) prefixDock(lead string) string {
	var items []string
	help, last := "", ""
	for _, b := range m.keys.rows {
		if b.mode != ModeWindow || b.hint == "" || len(b.keys) == 0 || b.agent && !m.agentsShown() {
			continue
		}
		if b.action == ActHelp {
			help = sgrBold + b.keys[0] + "\x1b[22m " + b.hint
			continue
		}
		key := sgrBold + b.keys[0] + "\x1b[22m"
		if b.hint == last && len(items) > 0 { // % and " are one split
			items[len(items)-1] = strings.Replace(items[len(items)-1], " "+b.hint, " "+key+" "+b.hint, 1)
			continue
		}
		items = append(items, key+" "+b.hint)
		last = b.hint
	}
	return sgrReverse + fitHint(lead+"  "+m.keys.prefix+":", items, help, m.width, m.opt.ASCIIOnly) + sgrReset
}

// fitHint is lead and as many items as width holds, in order, with last
// (when not "") kept at the end.
func fitHint(lead string, items []string, last string, width int, ascii bool) string {
	var b strings.Builder
	b.WriteString(lead)
	room := width - ansi.StringWidth(lead)
	if last != "" {
		room -= 2 + ansi.StringWidth(last)
	}
	for _, it := range items {
		n := 2 + ansi.StringWidth(it)
		if n > room {
			break
		}
		b.WriteString("  " + it)
		room -= n
	}
	if last != "" && room >= 0 {
		b.WriteString("  " + last)
	}
	return fitPlain(b.String(), width, ascii)
}

// copyDock is copy mode's dock line after lead: its main keys.
func (m *Model) copyDock(lead string) string {
	k := func(act string) string { return m.keys.first("copy." + act) }
	items := []string{
		"arrows/hjkl move",
		k("page-up") + "/" + k("page-down") + " page",
		k("select") + " select",
		k("select-line") + " lines",
		k("copy") + " copy",
		k("search") + " search",
		k("next") + "/" + k("prev") + " next",
	}
	if s := m.scroll; s != nil && s.anchor >= 0 {
		items = []string{k("copy") + " copy", "arrows/hjkl extend", "esc drop the selection"}
	}
	return sgrReverse + fitHint(lead+"  copy mode:", items, k("exit")+" leave", m.width, m.opt.ASCIIOnly) + sgrReset
}

// split is prefix % (side by side) and prefix " (stacked): split-window
// on the focused window, as tmux's keys; the new window takes half the
// tile.
func (m *Model) split(act string) {
	dir := "vertical" // a vertical divider: side by side
	if act == ActSplitDown {
		dir = "horizontal"
	}
	params := proto.SplitWindowParams{Session: m.session, Direction: dir}
	if w, ok := m.focused(); ok {
		params.Window = w.ID
	}
	m.call("split-window", params, "")
}

// toggleRail shows or hides the rail; the area changes size, so the
// daemon tiles it again.
func (m *Model) toggleRail() {
	if m.keyUI.railHidden && m.width < minRailCols {
		m.say("the rail needs a terminal %d columns wide", minRailCols)
		return
	}
	m.keyUI.railHidden = !m.keyUI.railHidden
	if m.keyUI.railHidden {
		m.railOn = false
		m.say("rail hidden: prefix %s shows it", m.keys.first(ActToggleRail))
	} else {
		m.dock = ""
	}
	m.sendResize()
}

// followRail takes [ui] rail again when set-config changed it: shown or
// hidden, and its side. A file whose rail is as it was read last leaves
// the rail as the person toggled it.
func (m *Model) followRail(f *config.File) {
	if f.UI.Rail == m.opt.railSetting {
		return
	}
	m.opt.railSetting = f.UI.Rail
	m.keyUI.railHidden, m.opt.RailRight = !f.RailShown(), f.RailRight()
	if m.keyUI.railHidden {
		m.railOn = false
	}
	m.sendResize()
}

// emptyLines says, in the middle of an empty area, how to open a window
// there, with the keys bound now.
func (m *Model) emptyLines(out []string, cols, rows int) {
	lines := []string{"attaching…"}
	if m.haveLayout {
		p := m.keys.prefix
		row := func(act, does string) string {
			k := m.keys.first(act)
			if k == "" {
				return ""
			}
			return p + " " + k + "  " + does
		}
		lines = []string{"No windows in this workspace.", ""}
		rows := []string{row(ActNewWindow, "open a window here")}
		var elsewhere []string
		for _, ws := range m.layout.Workspaces {
			switch {
			case ws.N == m.layout.Workspace && ws.Windows > 0:
				lines[0] = "Every window of this workspace is minimized."
				rows = append(rows, row(ActNext, "show the next one"))
			case ws.Windows > 0 && ws.N >= 1 && ws.N <= 9 && len(elsewhere) < 3:
				elsewhere = append(elsewhere, p+" "+strconv.Itoa(ws.N)+"  workspace "+strconv.Itoa(ws.N)+" ("+plural(ws.Windows, "window")+")")
			}
		}
		rows = append(rows, elsewhere...)
		rows = append(rows, row(ActPalette, "every action by name"), row(ActHelp, "every key"))
		for _, l := range rows {
			if l != "" {
				lines = append(lines, l)
			}
		}
		lines = append(lines, "", "or from a shell: tuios new-window -s "+clean(m.session))
	}
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	top := max((rows-len(lines))/2, 0)
	left := max((cols-w)/2, 0)
	for i, l := range lines {
		if top+i < len(out) {
			out[top+i] = fitPlain(strings.Repeat(" ", left)+l, cols, m.opt.ASCIIOnly)
		}
	}
}

// boundHints rewrites a footer's "KEY what" items written with the
// default keys of a mode to the keys bound now: a rebound action shows
// its new key, one left without a key is dropped.
func (m *Model) boundHints(mode string, items []string) []string {
	out := items[:0:0]
	for _, it := range items {
		k, what, ok := strings.Cut(it, " ")
		act := m.keys.dflt[mode][k]
		if !ok || act == "" || m.keys.in(mode, k) == act {
			out = append(out, it)
			continue
		}
		if now := m.keys.first(act); now != "" {
			out = append(out, now+" "+what)
		}
	}
	return out
}
