package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The key table: every key the client acts on, in one list. The keymap
// the handlers look keys up in, the help screen (prefix ?), the dock's
// hint after the prefix, the palette's entries and `tuios attach --help`
// are all made from it, so what they say is what the keys do. A row the
// config file may rebind is named there by its action: [keybindings]
// for the window mode (after the prefix), [keybindings.MODE] for the
// others (inbox, inbox_peek, mail, copy, review, rail).

// Key modes: which keys mean what depends on what is open.
const (
	ModeWindow = "window"     // the key after the prefix
	ModeCopy   = "copy"       // copy mode over a pane's history (prefix [)
	ModeInbox  = "inbox"      // the Inbox (prefix i)
	ModePeek   = "inbox_peek" // a prompt opened from the Inbox (space)
	ModeMail   = "mail"       // the mailbox (m in the Inbox) and a thread of mail
	ModeReview = "review"     // the review overlay (prefix v)
	ModeRail   = "rail"       // the rail's cursor (prefix s)
	// ModeSettings is the settings page (prefix ,: settings*.go), and
	// ModeSettingsForm a form on it (Add a host, a value to type).
	ModeSettings     = "settings"
	ModeSettingsForm = "settings_form"
)

// keyModes are the modes in the order the help screen lists them, with
// their headings.
var keyModes = []struct{ mode, title string }{
	{ModeWindow, "Window mode: after the prefix"},
	{ModeCopy, "Copy mode: prefix [ over the focused pane's history"},
	{ModeInbox, "Inbox: prefix i"},
	{ModePeek, "Inbox, a prompt opened with space"},
	{ModeMail, "Mail: the mailbox (m in the Inbox) and a thread"},
	{ModeReview, "Review: prefix v"},
	{ModeSettings, "Settings page: prefix , (tabs: Agents, Alerts, Hosts)"},
	{ModeSettingsForm, "Settings, a form: Add a host, or a value to type"},
	{ModeRail, "Rail: prefix s puts a cursor in the rail"},
}

// binding is one row of the key table.
type binding struct {
	mode string
	// action is the row's name in Options.Bindings and the config file:
	// "detach" (window mode), "inbox.dismiss", "copy.page-up".
	action string
	// keys are the default keys; the first is the one hints name.
	keys []string
	// does is what the key does, one short line.
	does string
	// palette is its entry in the command palette ("" when it has
	// none); a row with several fixed keys and a %s in its palette
	// name has one entry per key (Workspace: 1 … 9).
	palette string
	// hint is its word in the dock's hint after the prefix ("" keeps
	// it out); the hint lists them in the table's order.
	hint string
	// fixed rows are not rebound: their keys carry a meaning of their
	// own (digits, the Inbox's answers on the row under the cursor).
	fixed bool
	// agent rows are about agents (the Inbox, its mail, the Agents
	// tab, the rail's agent rows): the hint, the help and the palette
	// leave them out until the daemon has seen an agent, and the
	// palette finds them by "agent". Their keys work all along.
	agent bool
}

// pkDigit is a prompt's digits (inbox_prompt.go): each chooses its option.
const pkDigit = "inbox_peek.fixed.digit"

// mlSpace is space in the mail views: it reads a thread of the mailbox
// and leaves a thread, as it always has.
const mlSpace = "mail.fixed.space"

// Actions of the window mode that are not rebindable by name.
const (
	ActWorkspace  = "workspace"   // 1-9
	ActTypePrefix = "type-prefix" // the prefix twice
	ActClosePopup = "close-popup" // esc
)

// Window actions this table adds to those of options.go.
const (
	ActSplitRight = "split-right" // % as in tmux: a window beside the focused one
	ActSplitDown  = "split-down"  // " as in tmux: a window under the focused one
	ActPaste      = "paste"       // ] as in tmux: the client's paste buffer into the pane
	ActHelp       = "help"        // ? as in tmux: every key
	ActToggleRail = "toggle-rail" // show or hide the rail
)

// keyTable is every binding, mode by mode. The window mode's rows are in
// the order of their use: the hint and the help list them so.
func keyTable() []binding {
	w := func(act string, key, does, palette, hint string) binding {
		return binding{mode: ModeWindow, action: act, keys: []string{key}, does: does, palette: palette, hint: hint}
	}
	wa := func(act string, key, does, palette, hint string) binding {
		b := w(act, key, does, palette, hint)
		b.agent = true
		return b
	}
	in := func(act string, keys []string, does string) binding {
		return binding{mode: ModeInbox, action: act, keys: keys, does: does, agent: true}
	}
	inFixed := func(keys []string, does string) binding {
		return binding{mode: ModeInbox, action: "inbox.fixed." + keys[0], keys: keys, does: does, fixed: true, agent: true}
	}
	pk := func(act string, keys []string, does string) binding {
		return binding{mode: ModePeek, action: act, keys: keys, does: does, agent: true}
	}
	ml := func(act string, keys []string, does string) binding {
		return binding{mode: ModeMail, action: act, keys: keys, does: does, agent: true}
	}
	cp := func(act string, keys []string, does string) binding {
		return binding{mode: ModeCopy, action: "copy." + act, keys: keys, does: does}
	}
	rv := func(act string, keys []string, does string) binding {
		return binding{mode: ModeReview, action: "review." + act, keys: keys, does: does}
	}
	rl := func(act string, keys []string, does string) binding {
		return binding{mode: ModeRail, action: "rail." + act, keys: keys, does: does}
	}
	st := func(act string, keys []string, does string) binding {
		return binding{mode: ModeSettings, action: "settings." + act, keys: keys, does: does}
	}
	sf := func(act string, keys []string, does string) binding {
		return binding{mode: ModeSettingsForm, action: "settings_form." + act, keys: keys, does: does}
	}
	rlFixed := func(key, does string) binding {
		return binding{mode: ModeRail, action: "rail.fixed." + key, keys: []string{key}, does: does, fixed: true, agent: true}
	}
	digits := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	return []binding{
		w(ActNewWindow, "c", "open a window", "Window: new", "new"),
		w(ActSplitRight, "%", "split: a window beside the focused one", "Window: split side by side", "split"),
		w(ActSplitDown, `"`, "split: a window under the focused one", "Window: split stacked", "split"),
		w(ActNext, "n", "focus the next window", "Window: next", "next"),
		w(ActPrev, "p", "focus the previous window", "Window: previous", ""),
		w(ActLeft, "left", "focus the window on the left", "Window: focus left", ""),
		w(ActRight, "right", "focus the window on the right", "Window: focus right", ""),
		w(ActUp, "up", "focus the window above", "Window: focus up", ""),
		w(ActDown, "down", "focus the window below", "Window: focus down", ""),
		{mode: ModeWindow, action: ActWorkspace, keys: digits, does: "go to workspace 1 to 9", palette: "Workspace: %s", fixed: true},
		w(ActZoom, "z", "zoom the focused window (again to unzoom)", "Window: zoom", "zoom"),
		w(ActClose, "x", "close the focused window (asks y/n)", "Window: close", "close"),
		w(ActRename, "r", "rename the focused window", "Window: rename", ""),
		w(ActScrollback, "[", "copy mode: scroll back, select and copy", "Window: copy mode (scrollback)", "copy"),
		w(ActPaste, "]", "paste what you copied last into the window", "Window: paste", "paste"),
		wa(ActInbox, "i", "the Inbox: everything waiting for you", "Inbox: open", "inbox"),
		wa(ActOldest, "o", "the oldest item that needs you (o again: the next)", "Inbox: oldest needing you", ""),
		wa(ActNewest, "O", "the newest finished turn not seen (O again: older)", "Mail: newest finished turn", ""),
		wa(ActMail, "M", "the Inbox on its mail", "Mail: open inbox", ""),
		w(ActReview, "v", "review the focused pane's changes", "Review: focused pane", ""),
		w(ActPalette, ":", "the command palette: every action by name", "", "palette"),
		w(ActDetach, "d", "detach (the windows keep running)", "Session: detach", "detach"),
		w(ActToggleRail, "b", "show or hide the rail", "Sessions: show or hide the rail", "rail"),
		w(ActRail, "s", "put a cursor in the rail", "Sessions: rail cursor", ""),
		w(ActSettings, ",", "the settings page: its Agents, Alerts and Hosts tabs", "Settings: open", ""),
		{mode: ModeWindow, action: ActSettingsAlerts, does: "the settings page on its Alerts tab", palette: "Settings: alerts"},
		{mode: ModeWindow, action: ActAddHost, does: "the settings page's Hosts tab, adding a host", palette: "Settings: add a host"},
		wa(ActAgents, "A", "the settings page's Agents tab", "Agents: settings", ""),
		w(ActHelp, "?", "this list of keys", "Help: every key", "help"),
		{mode: ModeWindow, action: ActClosePopup, keys: []string{"esc"}, does: "close the focused popup", fixed: true},
		{mode: ModeWindow, action: ActTypePrefix, does: "type the prefix key into the window", fixed: true},

		cp("up", []string{"k", "up"}, "cursor up a line"),
		cp("down", []string{"j", "down"}, "cursor down a line"),
		cp("left", []string{"h", "left"}, "cursor left"),
		cp("right", []string{"l", "right"}, "cursor right"),
		cp("word-next", []string{"w"}, "the next word"),
		cp("word-prev", []string{"b"}, "the previous word"),
		cp("line-start", []string{"0"}, "the start of the line"),
		cp("line-end", []string{"$"}, "the end of the line"),
		cp("page-up", []string{"pgup", "ctrl+b"}, "a page up"),
		cp("page-down", []string{"pgdown", "ctrl+f"}, "a page down"),
		cp("half-up", []string{"ctrl+u"}, "half a page up"),
		cp("half-down", []string{"ctrl+d"}, "half a page down"),
		cp("top", []string{"g", "home"}, "the oldest line"),
		cp("bottom", []string{"G", "end"}, "the newest line"),
		cp("select", []string{"v", "space"}, "start a selection (again: drop it)"),
		cp("select-line", []string{"V"}, "select whole lines"),
		cp("copy", []string{"y", "enter"}, "copy the selection (clipboard and prefix ]) and leave"),
		cp("search", []string{"/", "?"}, "search up"),
		cp("next", []string{"n"}, "the next match up"),
		cp("prev", []string{"N"}, "the next match down"),
		cp("exit", []string{"q", "esc"}, "leave (esc drops a selection first)"),

		in(InDown, []string{"j"}, "down"),
		in(InUp, []string{"k"}, "up"),
		in(InTop, []string{"g"}, "the first row"),
		in(InBottom, []string{"G"}, "the last row"),
		in(InGo, []string{"enter"}, "go to the row's pane"),
		in(InPeek, []string{"space"}, "peek at the prompt and answer it"),
		in(InDismiss, []string{"d"}, "dismiss"),
		in(InSnooze, []string{"z"}, "snooze (1 15m, 2 1h, 3 until 9:00, 4 until it changes)"),
		in(InUndo, []string{"u"}, "undo the last dismiss or snooze"),
		in(InClose, []string{"q"}, "close the Inbox"),
		in(InSnoozed, []string{"S"}, "list the snoozed items too"),
		in(InKind, []string{"f"}, "one heading at a time"),
		in(InSelect, []string{"/"}, "narrow the list with a selector"),
		in(InReview, []string{"v"}, "review the row's pane"),
		in(InReason, []string{"n"}, "deny a held approval (keep planning) with a reason"),
		in(InReply, []string{"r"}, "reply to a finished agent (queued) or to mail"),
		in(InRelease, []string{"p"}, "pass held link mail on"),
		in(InResume, []string{"y"}, "resume the conversation of a Resume row"),
		in(InMailbox, []string{"m"}, "the whole mailbox"),
		in(InDetailDown, []string{"J", "ctrl+d"}, "scroll the detail under the list down"),
		in(InDetailUp, []string{"K", "ctrl+u"}, "scroll the detail under the list up"),
		in(InPageDown, []string{"pgdown"}, "ten rows down"),
		in(InPageUp, []string{"pgup"}, "ten rows up"),
		inFixed([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "answer (held: 1 allow once, 2 always, 3 deny; a question: its answer)"),

		{mode: ModePeek, action: pkDigit, keys: digits, does: "choose that option", fixed: true, agent: true},
		pk(PkApprove, []string{"a"}, "approve"),
		pk(PkAlways, []string{"A"}, "approve and do not ask again, when the menu offers it"),
		pk(PkDeny, []string{"d"}, "deny"),
		pk(PkType, []string{"tab"}, "type an answer"),
		pk(PkReread, []string{"r"}, "read the prompt again"),
		pk(PkGo, []string{"enter"}, "go to the pane instead"),
		pk(PkBack, []string{"esc", "q", "space"}, "back to the list"),

		ml(MlDown, []string{"j", "down", "J", "ctrl+d"}, "down (a thread: scroll)"),
		ml(MlUp, []string{"k", "up", "K", "ctrl+u"}, "up (a thread: scroll)"),
		ml(MlTop, []string{"g"}, "the top"),
		ml(MlBottom, []string{"G"}, "the bottom"),
		ml(MlPageDown, []string{"pgdown"}, "ten rows down"),
		ml(MlPageUp, []string{"pgup"}, "ten rows up"),
		ml(MlOpen, []string{"enter"}, "read the thread (in a thread: go to the sender's pane)"),
		ml(MlReply, []string{"r"}, "reply as you"),
		ml(MlBack, []string{"esc", "q", "m"}, "back"),
		{mode: ModeMail, action: mlSpace, keys: []string{"space"}, does: "read the thread (in a thread: back)", fixed: true, agent: true},

		rv("close", []string{"esc", "q"}, "close the review"),
		rv("switch", []string{"enter", "tab", "shift+tab"}, "between the files and the diff"),
		rv("down", []string{"j", "down", "ctrl+n"}, "down"),
		rv("up", []string{"k", "up", "ctrl+p"}, "up"),
		rv("page-down", []string{"pgdown", "ctrl+d", "space"}, "a page down"),
		rv("page-up", []string{"pgup", "ctrl+u"}, "a page up"),
		rv("top", []string{"g", "home"}, "the top"),
		rv("bottom", []string{"G", "end"}, "the bottom"),
		rv("files", []string{"h", "left"}, "the file list"),
		rv("diff", []string{"l", "right"}, "the diff"),
		rv("side", []string{"s"}, "the two sides next to each other"),
		rv("note", []string{"c"}, "a note on the line"),
		rv("note-hunk", []string{"C"}, "a note on the hunk"),
		rv("send", []string{"S"}, "send the notes to the agent"),
		rv("fan", []string{"w"}, "compare the attempts of a fan"),

		rl("up", []string{"up", "k"}, "up"),
		rl("down", []string{"down", "j"}, "down"),
		rl("go", []string{"enter"}, "what a click on the row does; on an agent row, go to its pane"),
		rl("close", []string{"esc", "q"}, "leave the rail"),
		rlFixed("u", "an agent row: mark its finished turn unread"),
		rlFixed("z", "an agent row: the Inbox on it, to snooze"),
		rlFixed("r", "an agent row: a reply line (queued until it rests)"),
		rlFixed("x", "an agent row: drop its newest queued message"),
		rlFixed("v", "an agent row: review its changes"),

		st("next-tab", []string{"tab", "right"}, "the next tab"),
		st("prev-tab", []string{"shift+tab", "left"}, "the previous tab"),
		st("down", []string{"down", "j"}, "down"),
		st("up", []string{"up", "k"}, "up"),
		st("top", []string{"g", "home"}, "the first row"),
		st("bottom", []string{"G", "end"}, "the last row"),
		st("do", []string{"enter", "space"}, "act on the row: Agents its actions, Alerts a change, Hosts + adds"),
		st("add-host", []string{"a"}, "Hosts: add a host (it applies at once)"),
		st("reload", []string{"r"}, "read the tab again"),
		st("close", []string{"esc", "q"}, "back from a row's actions, else close the page"),

		sf("next", []string{"tab", "down"}, "the next field"),
		sf("prev", []string{"shift+tab", "up"}, "the previous field"),
		sf("save", []string{"enter"}, "save: add the host, or set the value"),
		sf("cancel", []string{"esc"}, "leave the form; nothing is written"),
		{mode: ModeSettingsForm, action: "settings_form.fixed.backspace", keys: []string{"backspace"}, does: "delete the last character", fixed: true},
		{mode: ModeSettingsForm, action: "settings_form.fixed.clear", keys: []string{"ctrl+u"}, does: "clear the field", fixed: true},
	}
}

// DefaultBindings are the keys each rebindable action has unless
// rebound: the first of its keys, "" for an action with none (the
// palette runs it, and the config file may give it one). An action of
// several default keys (copy.up: k and up) keeps them all unless rebound.
func DefaultBindings() map[string]string {
	out := map[string]string{}
	for _, b := range keyTable() {
		if !b.fixed {
			out[b.action] = ""
			if len(b.keys) > 0 {
				out[b.action] = b.keys[0]
			}
		}
	}
	return out
}

// keymap answers which action a key is bound to, in each mode, and
// which keys an action has.
type keymap struct {
	prefix string
	action map[string]string // key -> action, window mode
	inbox  map[string]string // key -> action, Inbox
	modes  map[string]map[string]string
	dflt   map[string]map[string]string // mode -> default key -> action
	keys   map[string][]string          // action -> its keys now, in order
	rows   []binding                    // the table with the keys bound now
}

// newKeymap binds the table with the overrides (action -> key, as
// Options.Bindings): a rebound action has the one key given, and takes
// it from whatever had it in its mode by default, as a tmux bind-key
// does. Overrides for unknown or fixed actions are ignored here;
// Configure refuses them with the file's name.
func newKeymap(prefix string, overrides map[string]string) keymap {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	km := keymap{prefix: prefix, modes: map[string]map[string]string{}, dflt: map[string]map[string]string{}, keys: map[string][]string{}}
	rows := keyTable()
	for _, b := range rows {
		if km.dflt[b.mode] == nil {
			km.dflt[b.mode] = map[string]string{}
		}
		for _, k := range b.keys {
			km.dflt[b.mode][k] = b.action
		}
	}
	// Keys given by the overrides, per mode, so a default that wants
	// the same key gives it up.
	taken := map[string]map[string]bool{}
	for i := range rows {
		b := &rows[i]
		if key, ok := overrides[b.action]; ok && key != "" && !b.fixed {
			b.keys = []string{key}
			if taken[b.mode] == nil {
				taken[b.mode] = map[string]bool{}
			}
			taken[b.mode][key] = true
		}
	}
	for i := range rows {
		b := &rows[i]
		if key, ok := overrides[b.action]; !ok || key == "" || b.fixed {
			b.keys = slices.DeleteFunc(slices.Clone(b.keys), func(k string) bool { return taken[b.mode][k] })
		}
		if b.action == ActTypePrefix {
			b.keys = []string{prefix}
		} else if b.mode != ModeWindow {
			// The prefix is read before any mode's keys (as in tmux):
			// copy mode's ctrl+b is the prefix while the prefix is ctrl+b.
			b.keys = slices.DeleteFunc(b.keys, func(k string) bool { return k == prefix })
		}
		m := km.modes[b.mode]
		if m == nil {
			m = map[string]string{}
			km.modes[b.mode] = m
		}
		for _, k := range b.keys {
			if _, dup := m[k]; !dup { // two overrides on one key: the first row wins (Configure refuses it)
				m[k] = b.action
			}
		}
		km.keys[b.action] = b.keys
	}
	km.rows = rows
	km.action, km.inbox = km.modes[ModeWindow], km.modes[ModeInbox]
	return km
}

// in is the action a key runs in a mode, "" for none.
func (k keymap) in(mode, key string) string { return k.modes[mode][key] }

// first is the key an action is named by in hints, "" when it has none.
func (k keymap) first(action string) string {
	if ks := k.keys[action]; len(ks) > 0 {
		return ks[0]
	}
	return ""
}

// keysText is how the help names a row's keys: "1-9" for a run of
// digits, else the keys one after another, "—" for none.
func keysText(keys []string) string {
	if len(keys) == 0 {
		return "—"
	}
	if len(keys) > 2 {
		run := true
		for i, k := range keys {
			if len(k) != 1 || k[0] < '0' || k[0] > '9' || i > 0 && k[0] != keys[i-1][0]+1 {
				run = false
			}
		}
		if run {
			return keys[0] + "-" + keys[len(keys)-1]
		}
	}
	return strings.Join(keys, " ")
}

// checkBindings reads overrides as Configure gets them: each action must
// be one the table has and may rebind, each key a key the client can
// read, no two actions of one mode may be given one key, and none the
// prefix. The error names the table and the action
// as the file does.
func checkBindings(prefix string, overrides map[string]string) error {
	rows := map[string]binding{}
	for _, b := range keyTable() {
		rows[b.action] = b
	}
	if prefix != "" && !validKeyName(prefix) {
		return fmt.Errorf("[keybindings] prefix: %s", badKey(prefix))
	}
	if prefix == "" {
		prefix = DefaultPrefix
	}
	used := map[string]string{} // mode + key -> action
	actions := make([]string, 0, len(overrides))
	for a := range overrides {
		actions = append(actions, a)
	}
	slices.Sort(actions)
	for _, a := range actions {
		key := overrides[a]
		table, name := fileName(a)
		b, ok := rows[a]
		switch {
		case !ok || b.fixed:
			return fmt.Errorf("[%s] has no action %q", table, name)
		case !validKeyName(key):
			return fmt.Errorf("[%s] %s: %s", table, name, badKey(key))
		case key == prefix:
			return fmt.Errorf("[%s] %s: %q is the prefix key, read before any other key", table, name, key)
		}
		if other, dup := used[b.mode+" "+key]; dup {
			_, on := fileName(other)
			return fmt.Errorf("[%s] %s and %s are both bound to %q", table, on, name, key)
		}
		used[b.mode+" "+key] = a
	}
	return nil
}

// fileName is where an action is written in the config file: its table
// and its name there ("inbox.dismiss" is dismiss in [keybindings.inbox]).
func fileName(action string) (table, name string) {
	for _, m := range keyModes {
		if rest, ok := strings.CutPrefix(action, m.mode+"."); ok && m.mode != ModeWindow {
			return "keybindings." + m.mode, rest
		}
	}
	return "keybindings", action
}

func badKey(key string) string {
	return strconv.Quote(key) + " is not a key: a character, or a key name (enter, esc, tab, space, backspace, up, down, left, right, home, end, pgup, pgdown, delete, insert, f1-f12), either after ctrl+, alt+ or shift+"
}

// namedKeys are the keys bindings name by a word, as bubbletea does.
var namedKeys = map[string]bool{
	"enter": true, "esc": true, "tab": true, "space": true, "backspace": true,
	"up": true, "down": true, "left": true, "right": true, "home": true, "end": true,
	"pgup": true, "pgdown": true, "delete": true, "insert": true,
	"f1": true, "f2": true, "f3": true, "f4": true, "f5": true, "f6": true,
	"f7": true, "f8": true, "f9": true, "f10": true, "f11": true, "f12": true,
}

// validKeyName reports whether a binding's key is one keyName can give:
// one character, a named key, or either after modifiers.
func validKeyName(s string) bool {
	if utf8.RuneCountInString(s) == 1 && s != " " {
		r, _ := utf8.DecodeRuneInString(s)
		return r != utf8.RuneError && r >= ' ' && r != 0x7f
	}
	for {
		cut := false
		for _, p := range []string{"ctrl+", "alt+", "shift+"} {
			if rest, ok := strings.CutPrefix(s, p); ok && rest != "" {
				s, cut = rest, true
			}
		}
		if !cut {
			break
		}
	}
	if namedKeys[s] {
		return true
	}
	r, n := utf8.DecodeRuneInString(s)
	return n == len(s) && r != utf8.RuneError && r > ' ' && r != 0x7f
}
