package tui

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tuios/tuios/internal/config"
)

// Options configure Run and NewModel.
type Options struct {
	// Socket is the daemon's socket; empty is the default path.
	Socket string
	// Session to attach; empty attaches to the most recently active one,
	// or makes one when there is none.
	Session string
	// Host is the linked host the session is on; empty (or "local") is
	// this machine. The client then reaches it through this machine's
	// daemon and its link (remote_conn.go).
	Host string
	// ReconnectFor bounds how long a dropped link is redialled before
	// the client gives up on the host; zero is DefaultReconnectFor.
	ReconnectFor time.Duration
	// ASCIIOnly draws the ASCII column of the state table instead of
	// the glyphs, and ASCII rules.
	ASCIIOnly bool
	// Prefix is the prefix key's name ("ctrl+b" when empty).
	Prefix string
	// Bindings rebind actions to keys: a prefix action ("detach",
	// "new-window", …, see DefaultBindings), or an action of another
	// mode under its name ("inbox.dismiss", "copy.page-up",
	// "review.send", "rail.go"). A key name is what bubbletea calls it:
	// "d", "ctrl+d", "up", "space". A rebound action has that one key,
	// taken from whatever had it by default (bindings.go).
	Bindings map[string]string
	// Bell rings the outer terminal's bell, and Notify sends it an OSC 9
	// notification, when a pane out of sight needs the person (and on a
	// pane's own bell). The zero Options rings nothing: Configure sets
	// them from [notifications.agent] sound and notify.
	Bell, Notify bool
	// DockOff keeps those alerts out of the dock line.
	DockOff bool
	// AlertFocused alerts about the focused pane too; by default the pane
	// in front of the person raises nothing.
	AlertFocused bool
	// Alert is the rest of [notifications.agent]: states, settle time,
	// quiet hours, command and sound mode (alert_rules.go).
	Alert AlertRules
	// RecapMode and RecapAway are [agents.recap] mode (toast, inbox or
	// off; empty is toast) and away (zero is DefaultRecapAway): where the
	// away recap shows and how long away counts (recap.go).
	RecapMode string
	RecapAway time.Duration
	// ConfigPath is the config file Configure read ("" when none): the
	// client reads its alerts there again when set-config changes it.
	ConfigPath string
	// AgentsOff hides every agent UI and alert, whatever the daemon says.
	AgentsOff bool
	// RailRight puts the rail on the right of the screen.
	RailRight bool
	// RailOff starts with the rail hidden ([ui] rail = "off"); the
	// toggle-rail key (prefix b) shows it again.
	RailOff bool
	// Stdin and Stdout are the outer terminal; nil is os.Stdin/os.Stdout.
	Stdin  io.Reader
	Stdout io.Writer
	// Stderr gets nothing while attached; nil is os.Stderr.
	Stderr io.Writer
	// Clock is the time source; nil is the wall clock.
	Clock Clock

	// railSetting is [ui] rail as Configure read it, so a reload
	// changes the rail only when the file's setting changed.
	railSetting string

	// keepAway is set by Run: the away recap's times are kept in the
	// client's state dir, so a detach counts (recap.go). A Model made
	// by a test keeps them in memory.
	keepAway bool

	// noAutostart is set once attached: a later dial (a switch, a
	// redial after a link drop) must not start a daemon that was
	// stopped on purpose.
	noAutostart bool
}

// configureAlerts takes [notifications.agent]: at attach, and again when
// set-config changed the file (config_reload.go).
func (o *Options) configureAlerts(f *config.File) {
	if a := f.Alerts(); a.Enabled {
		o.Bell, o.Notify, o.DockOff, o.AlertFocused = a.Sound, a.Notify, !a.Dock, !a.SuppressFocused
		o.Alert = alertRulesOf(a)
	} else {
		o.Bell, o.Notify, o.DockOff = false, false, true
	}
}

// Configure sets what the config file decides: the prefix and the
// bindings the options leave unset ([keybindings] for the window mode,
// [keybindings.MODE] for the inbox, copy, review, rail and settings modes), the
// alerts from [notifications.agent], agents off from [agents] enabled,
// and the rail and ASCII drawing from [ui] when the options do not
// already ask for them (a flag wins). A binding the client cannot take
// (an action it does not have, a fixed key, a key it cannot read, two
// actions on one key) is an error naming the file, so a typo is not
// silently ignored.
func (o *Options) Configure(f *config.File) error {
	if o.Bindings == nil {
		o.Bindings = map[string]string{}
	}
	fromFile := map[string]string{}
	prefix := o.Prefix
	tables := []string{"", ModeInbox, ModePeek, ModeMail, ModeCopy, ModeReview, ModeRail, ModeSettings, ModeSettingsForm}
	for _, mode := range tables {
		for action, key := range f.Bindings(mode) {
			if mode == "" && action == "prefix" {
				if prefix == "" {
					prefix = key
				}
				continue
			}
			if mode != "" {
				action = mode + "." + action
			}
			fromFile[action] = key
		}
	}
	for _, mode := range f.BindingTables() {
		if !slices.Contains(tables, mode) {
			return &config.Error{Path: f.Path, Err: fmt.Errorf("[keybindings.%s]: no such key table (inbox, inbox_peek, mail, copy, review, rail, settings, settings_form)", mode)}
		}
	}
	merged := map[string]string{}
	for a, k := range fromFile {
		merged[a] = k
	}
	for a, k := range o.Bindings {
		merged[a] = k
	}
	if err := checkBindings(prefix, merged); err != nil {
		return &config.Error{Path: f.Path, Err: err}
	}
	o.Prefix = prefix
	for a, k := range fromFile {
		if _, mine := o.Bindings[a]; !mine {
			o.Bindings[a] = k
		}
	}
	if f.Path != "" {
		o.ConfigPath = f.Path
	}
	o.configureAlerts(f)
	o.configureRecap(f) // recap.go
	o.AgentsOff = o.AgentsOff || !f.AgentsEnabled()
	o.RailRight = o.RailRight || f.RailRight()
	o.RailOff = o.RailOff || !f.RailShown()
	o.railSetting = f.UI.Rail
	o.ASCIIOnly = o.ASCIIOnly || f.UI.ASCIIOnly
	return nil
}

// Clock is where the client reads the time: the Inbox's digit guard and
// the risky double press are timed with it, so tests need no sleep.
type Clock interface {
	Now() time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// DefaultPrefix is the prefix key when none is configured.
const DefaultPrefix = "ctrl+b"

// Prefix actions, the keys of Options.Bindings.
const (
	ActDetach     = "detach"
	ActNewWindow  = "new-window"
	ActNext       = "next-window"
	ActPrev       = "prev-window"
	ActLeft       = "focus-left"
	ActRight      = "focus-right"
	ActUp         = "focus-up"
	ActDown       = "focus-down"
	ActZoom       = "zoom"
	ActClose      = "close-window"
	ActRename     = "rename-window"
	ActScrollback = "scrollback"
	ActInbox      = "inbox"
	ActOldest     = "oldest"
	ActRail       = "rail"   // the rail takes the keys (rail_cursor.go)
	ActMail       = "mail"   // the Inbox on its Mail heading (mail_thread.go)
	ActNewest     = "newest" // the newest finished turn not seen (mail_newest.go)
	ActReview     = "review" // the focused pane's review overlay (review.go)
)

// Prefix actions of the agents' settings (palette.go, agents_tab.go).
const (
	ActPalette = "palette" // the command palette
	ActAgents  = "agents"  // the settings page's Agents tab
)

// Prefix actions of the settings page (settings.go). The last two have
// no key unless the config file gives them one: the palette runs them.
const (
	ActSettings       = "settings"        // the settings page, on the tab shown last
	ActSettingsAlerts = "settings-alerts" // the page on its Alerts tab
	ActAddHost        = "add-host"        // the page's Hosts tab with Add a host open
)

// Inbox actions, under "inbox." in Options.Bindings.
const (
	InDown    = "inbox.down"
	InUp      = "inbox.up"
	InTop     = "inbox.top"
	InBottom  = "inbox.bottom"
	InGo      = "inbox.go"
	InPeek    = "inbox.peek"
	InDismiss = "inbox.dismiss"
	InSnooze  = "inbox.snooze"
	InUndo    = "inbox.undo"
	InClose   = "inbox.close"
	InSnoozed = "inbox.snoozed" // S: list the snoozed items too (inbox_snooze.go)
	InKind    = "inbox.kind"    // f: one kind at a time
	InSelect  = "inbox.select"  // /: narrow the list with a selector
	InReview  = "inbox.review"  // v: the review of the row's pane (review.go)

	InReason     = "inbox.reason"      // n: deny a held approval, or keep planning, with a reason
	InReply      = "inbox.reply"       // r: reply to a finished agent (queued) or to mail
	InRelease    = "inbox.release"     // p: pass held link mail on (inbox_mail.go)
	InResume     = "inbox.resume"      // y: resume the conversation of a Resume row
	InMailbox    = "inbox.mailbox"     // m: the whole mailbox (mail_box.go)
	InDetailDown = "inbox.detail-down" // J: scroll the detail under the list
	InDetailUp   = "inbox.detail-up"   // K
	InPageDown   = "inbox.page-down"   // pgdown: ten rows down
	InPageUp     = "inbox.page-up"     // pgup: ten rows up
)

// Actions of a prompt opened from the Inbox (inbox_prompt.go), under
// "inbox_peek." in Options.Bindings; its digits choose an option.
const (
	PkApprove = "inbox_peek.approve" // a
	PkAlways  = "inbox_peek.always"  // A: approve and do not ask again
	PkDeny    = "inbox_peek.deny"    // d
	PkType    = "inbox_peek.type"    // tab: type an answer
	PkReread  = "inbox_peek.reread"  // r: read the prompt again
	PkGo      = "inbox_peek.go"      // enter: go to the pane instead
	PkBack    = "inbox_peek.back"    // esc, q, space: back to the list
)

// Actions of the mailbox and of a thread of mail (mail_box.go,
// mail_thread.go), under "mail." in Options.Bindings.
const (
	MlDown     = "mail.down"
	MlUp       = "mail.up"
	MlTop      = "mail.top"
	MlBottom   = "mail.bottom"
	MlPageDown = "mail.page-down"
	MlPageUp   = "mail.page-up"
	MlOpen     = "mail.open"  // enter: read the thread; in a thread, go to the sender's pane
	MlReply    = "mail.reply" // r
	MlBack     = "mail.back"  // esc, q, m
)
