package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// keyName is a key as bindings name it: the text it types ("d", "G",
// ",") or its keystroke ("ctrl+b", "up", "enter", "space").
func keyName(k tea.Key) string {
	if k.Text != "" && k.Text != " " && !k.Mod.Contains(tea.ModCtrl) && !k.Mod.Contains(tea.ModAlt) {
		return k.Text
	}
	return k.Keystroke()
}

func (m *Model) onKey(k tea.Key) tea.Cmd {
	if m.clock.Now().Before(m.dropUntil) {
		return nil // the Inbox just opened on a question: not an answer yet
	}
	name := keyName(k)
	if m.oldestArmed {
		m.oldestArmed = false
		if m.keys.action[name] == ActOldest {
			return m.prefixAction(name)
		}
	}
	switch {
	case m.prefix:
		m.prefix = false
		return m.prefixAction(name)
	case m.confirmClose != "":
		if name == "y" || name == "Y" {
			m.call("close-window", proto.WindowParams{Session: m.session, Window: m.confirmClose}, "")
		}
		m.confirmClose = ""
		return nil
	case m.rename != nil:
		m.renameKey(k, name)
		return nil
	case name == m.keys.prefix:
		m.prefix = true
		return nil
	case m.railOn:
		m.railKey(name) // rail_cursor.go
		return nil
	case m.inbox != nil:
		return m.inboxKey(k, name)
	case m.scroll != nil:
		return m.scrollKey(k, name)
	}
	m.oldestAt = 0
	m.typeFocused(func(modes proto.AttachModes) string { return encodeKey(k, modes) })
	m.draw.patchable = true // patch.go: typing changes nothing drawn; its echo does
	return nil
}

// typeFocused types into the focused pane what encode makes of the
// person's input in the modes that pane asked for.
func (m *Model) typeFocused(encode func(proto.AttachModes) string) {
	w, ok := m.focused()
	if !ok {
		return
	}
	var modes proto.AttachModes
	if p := m.panes[w.ID]; p != nil {
		modes = p.modes
	}
	m.sendText(w.ID, encode(modes))
}

// prefixAction runs what the key after the prefix is bound to.
func (m *Model) prefixAction(name string) tea.Cmd {
	act := m.keys.action[name]
	if act != ActOldest {
		m.oldestAt = 0
	}
	if name == m.keys.prefix {
		act = ActTypePrefix
	}
	return m.runAction(act, name)
}

// runAction runs a window-mode action (bindings.go), from its key or
// from the palette; key is the key that ran it (the digit of a
// workspace).
func (m *Model) runAction(act, key string) tea.Cmd {
	w, haveFocus := m.focused()
	switch act {
	case ActTypePrefix:
		// The prefix twice types it once.
		k := parseKeyName(m.keys.prefix)
		m.typeFocused(func(modes proto.AttachModes) string { return encodeKey(k, modes) })
	case ActClosePopup:
		m.closePopup() // popup.go: esc in window mode closes a popup
	case ActWorkspace:
		if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= 9 {
			m.call("select-workspace", proto.SelectWorkspaceParams{Session: m.session, Workspace: n}, "")
		}
	case ActDetach:
		return m.detach()
	case ActNewWindow:
		m.call("new-window", proto.NewWindowParams{Session: m.session}, "")
	case ActSplitRight, ActSplitDown:
		m.split(act) // hint.go
	case ActNext:
		m.call("run-command", proto.RunCommandParams{Session: m.session, Command: "FocusNext"}, "")
	case ActPrev:
		m.call("run-command", proto.RunCommandParams{Session: m.session, Command: "FocusPrev"}, "")
	case ActLeft, ActRight, ActUp, ActDown:
		if n, ok := m.neighbour(act); ok {
			m.focusWindow(n.ID)
		}
	case ActZoom:
		m.call("run-command", proto.RunCommandParams{Session: m.session, Command: "ToggleZoom"}, "")
	case ActClose:
		if haveFocus {
			m.confirmClose = w.ID
		}
	case ActRename:
		if haveFocus {
			m.rename = &lineInput{label: "rename window: ", window: w.ID, text: []rune(clean(w.Name))}
		}
	case ActScrollback:
		if haveFocus {
			m.openScrollback(w.ID)
		}
	case ActPaste:
		m.pasteBuffer() // paste.go
	case ActHelp:
		m.openHelp() // help.go
	case ActToggleRail:
		m.toggleRail() // hint.go
	case ActInbox:
		m.openInbox()
	case ActRail:
		m.openRail() // rail_cursor.go
	case ActOldest:
		m.call("list-attention", proto.ListAttentionParams{Kinds: needsYouKinds()}, "oldest")
	// The ones below have handlers of their own for their keys (they
	// reset state of their own first); here they run from the palette.
	case ActPalette:
		m.openPalette()
	case ActAgents:
		m.openAgentsTab()
	case ActSettings:
		m.openSettings("") // settings.go
	case ActSettingsAlerts:
		m.openSettings(tabAlerts)
	case ActAddHost:
		m.openSettings(tabHosts)
		m.openHostForm()
	case ActMail:
		m.openMail()
	case ActNewest:
		m.askNewest()
	case ActReview:
		m.openReviewFocused()
	}
	return nil
}

// focusWindow focuses a window of this session, optimistically: the next
// layout confirms it.
func (m *Model) focusWindow(id string) {
	m.layout.Focused = id
	m.call("focus-window", proto.FocusWindowParams{Session: m.session, Window: id}, "")
}

// neighbour is the tile next to the focused one in a direction: of the
// tiles wholly on that side, the nearest, then the one most in line.
func (m *Model) neighbour(dir string) (proto.AttachWindow, bool) {
	f, ok := m.focused()
	if !ok {
		return f, false
	}
	best, bestGap, bestOff, found := proto.AttachWindow{}, 0, 0, false
	fcx, fcy := 2*f.X+f.Width, 2*f.Y+f.Height
	for _, w := range m.layout.Windows {
		if w.ID == f.ID || w.Minimized || w.Popup || w.Width <= 0 || w.Height <= 0 {
			continue
		}
		var gap, off int
		switch dir {
		case ActLeft:
			gap, off = f.X-(w.X+w.Width), abs(2*w.Y+w.Height-fcy)
		case ActRight:
			gap, off = w.X-(f.X+f.Width), abs(2*w.Y+w.Height-fcy)
		case ActUp:
			gap, off = f.Y-(w.Y+w.Height), abs(2*w.X+w.Width-fcx)
		case ActDown:
			gap, off = w.Y-(f.Y+f.Height), abs(2*w.X+w.Width-fcx)
		}
		if gap < 0 {
			continue
		}
		if !found || gap < bestGap || (gap == bestGap && off < bestOff) {
			best, bestGap, bestOff, found = w, gap, off, true
		}
	}
	return best, found
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// parseKeyName is the key a binding's name stands for (for the prefix
// typed twice): ctrl+LETTER or a single character.
func parseKeyName(name string) tea.Key {
	if len(name) > 5 && name[:5] == "ctrl+" {
		r := []rune(name[5:])
		if len(r) == 1 {
			return tea.Key{Code: r[0], Mod: tea.ModCtrl}
		}
	}
	if len(name) > 4 && name[:4] == "alt+" {
		r := []rune(name[4:])
		if len(r) == 1 {
			return tea.Key{Code: r[0], Text: string(r), Mod: tea.ModAlt}
		}
	}
	r := []rune(name)
	if len(r) == 1 {
		return tea.Key{Code: r[0], Text: name}
	}
	return tea.Key{}
}

func (m *Model) renameKey(k tea.Key, name string) {
	r := m.rename
	switch name {
	case "enter":
		name := string(r.text) // "" clears the name: sent, not left out
		m.call("set-window", proto.SetWindowParams{Session: m.session, Window: r.window, Name: &name}, "")
		m.rename = nil
	case "esc", "ctrl+c":
		m.rename = nil
	case "backspace", "ctrl+h":
		if len(r.text) > 0 {
			r.text = r.text[:len(r.text)-1]
		}
	case "ctrl+u":
		r.text = r.text[:0]
	default:
		if k.Text != "" && !k.Mod.Contains(tea.ModCtrl) {
			r.text = append(r.text, []rune(clean(k.Text))...)
		}
	}
}

type mouseKind int

const (
	mouseClick mouseKind = iota
	mouseRelease
	mouseWheel
	mouseMotion
)

// onMouse routes a mouse event: a click on another tile focuses it, a
// click on the rail switches session, and events over the focused pane go
// to its program when it asked for the mouse.
func (m *Model) onMouse(ms tea.Mouse, kind mouseKind) tea.Cmd {
	areaX, cols, rows, rail := m.geometry()
	if m.inbox != nil {
		if kind == mouseWheel {
			if ms.Button == tea.MouseWheelUp {
				m.inboxMove(-1)
			} else if ms.Button == tea.MouseWheelDown {
				m.inboxMove(1)
			}
		}
		return nil
	}
	if cmd, ok := m.copyMouseAt(ms, kind); ok { // scrollback.go: a drag selects in copy mode
		return cmd
	}
	if cmd, ok := m.mouseSelect(ms, kind); ok { // selection.go: a drag selects a pane's text
		return cmd
	}
	if m.scroll != nil && kind == mouseWheel {
		switch ms.Button {
		case tea.MouseWheelUp:
			m.scroll.move(-3)
		case tea.MouseWheelDown:
			m.scroll.move(3)
		}
		return nil
	}
	ax, ay := ms.X-areaX, ms.Y
	if ax < 0 || ax >= cols || ay >= rows {
		if rail && kind == mouseClick && ay < rows {
			m.railClick(ay)
		}
		return nil
	}
	var hit proto.AttachWindow
	found := false
	for _, w := range m.layout.Windows {
		if !w.Minimized && ax >= w.X && ax < w.X+w.Width && ay >= w.Y && ay < w.Y+w.Height {
			hit, found = w, true
		}
	}
	if !found {
		return nil
	}
	if hit.ID != m.layout.Focused {
		if kind == mouseClick {
			m.focusWindow(hit.ID)
		}
		return nil
	}
	p := m.panes[hit.ID]
	dx, dy := paneOffset(hit) // popup.go: a popup's pane is inside its frame
	ev := mouseEvent{x: ax - hit.X - dx, y: ay - hit.Y - dy, button: ms.Button, mod: ms.Mod,
		release: kind == mouseRelease, motion: kind == mouseMotion}
	if pc, pr := paneArea(hit); ev.y < 0 || ev.x < 0 || ev.x >= pc || ev.y >= pr {
		return nil // the title bar, or a popup's frame
	}
	if p == nil || p.modes.Mouse == "" {
		if kind == mouseWheel && ms.Button == tea.MouseWheelUp && (p == nil || !p.modes.AltScreen) {
			m.openScrollback(hit.ID)
		}
		return nil
	}
	if wantsMouse(p.modes, ev) {
		m.sendText(hit.ID, encodeMouse(ev, p.modes))
	}
	return nil
}

// railClick switches to the session on a rail row.
func (m *Model) railClick(y int) {
	i := y - 1                  // row 0 is the heading
	rows := m.sessionRailRows() // rail_fan.go: a fan's sessions under its name
	// remote_local.go: a row under local, while on a host.
	if i >= len(rows) && m.localRailClick(i-len(rows)) {
		return
	}
	// rail_hosts.go: a session or + under a linked host.
	if j := i - len(rows) - len(m.localRailLines(railWidth-1)); j >= 0 && m.hostRailClick(j) {
		return
	}
	if i < 0 || i >= len(rows) || rows[i].session < 0 {
		return
	}
	if s := m.layout.Sessions[rows[i].session]; s.Name != m.session {
		m.switchSession(s.Name)
	}
}

// switchSession re-attaches to another session.
func (m *Model) switchSession(name string) {
	if m.calls != nil {
		cols, rows := m.AreaSize()
		m.beginSwitch()
		m.calls.Switch(name, cols, rows)
	}
}
