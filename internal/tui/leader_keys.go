package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// Leader chords from send-keys.
//
// The client names its prefix when it attaches; the daemon then hands it
// a chord that send-keys was given for a pane of this session (the prefix
// and one key, proto.AttachKeys) instead of typing its bytes into the
// pane, because the bindings live here. The chord runs as if the person
// pressed it in that pane: the pane is focused first, then the key's
// action runs.
//
// A program is not the person, so a handed chord may only act and be
// done: switch workspace, focus the next, previous or a neighbouring
// pane, zoom, open or split a window, show or hide the rail, close a
// popup, detach, or type the prefix (prefix twice). The bindings that
// open something which then takes the person's next keys (the Inbox,
// the oldest item, the rail cursor, copy mode, rename, close's y/n, the
// help, the palette, the settings page) are not run from a program, nor is the paste (it would hand the
// person's copied text to whatever asked for it); the dock says so, and the verb
// for it is the way (tuios close-window, set-window --name…). Nor does a
// chord cut into something the person has open.

// chordActions are the bindings a handed chord may run.
var chordActions = map[string]bool{
	ActDetach: true, ActNewWindow: true, ActNext: true, ActPrev: true,
	ActLeft: true, ActRight: true, ActUp: true, ActDown: true, ActZoom: true,
	ActWorkspace: true, ActSplitRight: true, ActSplitDown: true, ActToggleRail: true,
	ActClosePopup: true, ActTypePrefix: true,
}

// chordKeys are send-keys's named keys (the daemon's keys.go names them
// the same, case-insensitively) as the client's keys.
var chordKeys = map[string]rune{
	"enter": tea.KeyEnter, "return": tea.KeyEnter, "cr": tea.KeyEnter,
	"escape": tea.KeyEscape, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	"backspace": tea.KeyBackspace, "bspace": tea.KeyBackspace, "bs": tea.KeyBackspace,
	"up": tea.KeyUp, "down": tea.KeyDown, "right": tea.KeyRight, "left": tea.KeyLeft,
	"home": tea.KeyHome, "end": tea.KeyEnd,
	"pageup": tea.KeyPgUp, "pgup": tea.KeyPgUp, "ppage": tea.KeyPgUp,
	"pagedown": tea.KeyPgDown, "pgdn": tea.KeyPgDown, "npage": tea.KeyPgDown,
	"delete": tea.KeyDelete, "del": tea.KeyDelete, "dc": tea.KeyDelete,
	"insert": tea.KeyInsert, "ic": tea.KeyInsert,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
}

// chordKey is the key a send-keys token stands for, spelled as send-keys
// spells it: a named key (Enter, Up, F5), a combination (ctrl+b, C-b, ^b,
// alt+x, M-x) or one character. ok is false for anything else (text).
func chordKey(tok string) (k tea.Key, ok bool) {
	lower := strings.ToLower(tok)
	if c, named := chordKeys[lower]; named {
		k = tea.Key{Code: c}
		if c == tea.KeySpace {
			k.Text = " "
		}
		return k, true
	}
	if lower == "btab" {
		return tea.Key{Code: tea.KeyTab, Mod: tea.ModShift}, true
	}
	for _, p := range []string{"ctrl+", "ctrl-", "c-", "^"} {
		if strings.HasPrefix(lower, p) && len(tok) > len(p) {
			rest := tok[len(p):]
			if c, named := chordKeys[strings.ToLower(rest)]; named {
				return tea.Key{Code: c, Mod: tea.ModCtrl}, true
			}
			if r, n := utf8.DecodeRuneInString(rest); n == len(rest) {
				return tea.Key{Code: unicode.ToLower(r), Mod: tea.ModCtrl}, true
			}
		}
	}
	for _, p := range []string{"alt+", "alt-", "m-", "meta+"} {
		if strings.HasPrefix(lower, p) && len(tok) > len(p) {
			k, ok := chordKey(tok[len(p):])
			k.Mod |= tea.ModAlt
			return k, ok
		}
	}
	if r, n := utf8.DecodeRuneInString(tok); n == len(tok) && r != utf8.RuneError {
		return tea.Key{Code: r, Text: tok}, true
	}
	return tea.Key{}, false
}

// onChord runs a leader chord the daemon handed over.
func (m *Model) onChord(c proto.AttachKeys) tea.Cmd {
	if len(c.Keys) != 2 {
		return nil
	}
	lead, ok1 := chordKey(c.Keys[0])
	key, ok2 := chordKey(c.Keys[1])
	if !ok1 || !ok2 || keyName(lead) != m.keys.prefix {
		return nil
	}
	name := keyName(key)
	said := clean(c.Keys[0] + " " + c.Keys[1])
	if m.prefix || m.inbox != nil || m.review != nil || m.scroll != nil || m.rename != nil || m.confirmClose != "" || m.railOn || m.keyUI.help != nil ||
		m.agentsUI.page != nil || m.agentsUI.palette != nil {
		m.say("a program sent %s while you had something open: not run", said)
		return nil
	}
	act := m.keys.action[name]
	switch {
	case chordActions[act]:
	case act == "":
		m.say("a program sent %s: no binding, not run", said)
		return nil
	case act == ActPaste:
		m.say("a program sent %s: only you paste what you copied, not run", said)
		return nil
	default:
		m.say("a program sent %s: %s takes your keys, so only you can open it", said, act)
		return nil
	}
	if c.Window != "" && c.Window != m.layout.Focused {
		m.focusWindow(c.Window)
	}
	return m.prefixAction(name)
}

// leader is the prefix key the client runs with, as it tells the daemon.
func (o Options) leader() string {
	if o.Prefix == "" {
		return DefaultPrefix
	}
	return o.Prefix
}
