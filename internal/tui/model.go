package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// Caller sends the client's calls on its call connection, in order and
// without blocking the UI. When tag is not empty, the answer comes back
// to the model as a replyMsg with that tag; an error always does.
//
// Switch re-attaches the stream to another session; an attachedMsg and
// the new session's layout follow.
type Caller interface {
	Call(verb string, params any, tag string)
	Switch(session string, cols, rows int)
}

// replyMsg is the daemon's answer to a tagged call.
type replyMsg struct {
	tag  string
	verb string
	raw  json.RawMessage
	err  error
}

// attachedMsg says the stream is attached (again): its nonce is the one
// the person's acts carry.
type attachedMsg struct {
	nonce   string
	session string
}

// streamGoneMsg says the stream ended without an AttachEnd.
type streamGoneMsg struct{ err error }

// timerMsg wakes the model when a timed rule (the digit guard, a risky
// double press) may have changed what it shows.
type timerMsg struct{}

// railWidth is the rail's width, its separator included.
const railWidth = 24

// minRailCols is the narrowest terminal that still shows the rail.
const minRailCols = 60

// pane is what the client keeps of one visible pane (its rows as cells:
// pane_rows.go).
type pane struct {
	cols   int
	rows   [][]cell
	cursor proto.AttachCursor
	modes  proto.AttachModes
	title  string
}

// Outcome is how an attach ended.
type Outcome struct {
	// Code is the exit status: 0 detached or session closed, 1 daemon gone.
	Code int
	// Message is the line printed after the terminal is restored.
	Message string
	// Err is set when the daemon went away.
	Err error
}

// ErrDaemonGone is the outcome when the stream ends without an AttachEnd.
var ErrDaemonGone = errors.New("the daemon went away")

// Model is the attach client's bubbletea model.
type Model struct {
	opt Options
	// configSeq is the layout's config_seq last seen; configKnown says
	// one was seen (the first is what the client read at attach).
	configSeq   uint64
	configKnown bool
	keys        keymap
	clock       Clock
	// The ask-human presentation (ask_present.go): the question each pane
	// on screen asks that was shown or passed by, the pane last typed into
	// and when, and until when keys are dropped.
	asking    map[string]string
	typedWin  string
	typedAt   time.Time
	dropUntil time.Time
	dwellFor  time.Time // the dwell whose end a timer is armed for
	calls     Caller

	nonce   string
	session string
	link    linkState // the host the session is on, and its link (remote.go)

	width, height int
	sentCols      int
	sentRows      int

	layout     proto.AttachLayout
	haveLayout bool
	// early holds what the person typed before the first layout came:
	// with no window known yet there is nowhere to type it, and a key
	// pressed the moment the client starts must not be lost. Played in
	// order once the layout is here; at most maxEarly.
	early []tea.Msg
	// switching: a switch of session or host was asked for (beginSwitch)
	// or a new stream attached (attachedMsg), and the layout in hand is
	// the old stream's: input waits in early until the new stream's first
	// layout, as it does before the very first, so keys typed the moment
	// after are typed into the new focused pane, never into the pane left
	// nor at the old one's id in the new session.
	switching bool
	panes     map[string]*pane
	lastState map[string]string // window id -> state, for alerts
	seenFirst bool
	alertRun  alertRun // pending alerts and the last cue (alert_rules.go)

	dock string

	prefix      bool
	oldestAt    int  // prefix o pressed again goes to the next
	oldestArmed bool // the key after prefix o: o again needs no prefix
	railOn      bool // the rail has the keyboard focus (rail_cursor.go)
	railAt      int  // the cursor's place among railStops
	hostTicking bool // a minute's tick is armed for a stale host's "seen … ago" (inbox_hosts.go)

	hostItems map[string]int // a fresh host's items at the last layout; nil before the first (inbox_host_alerts.go)

	railKeys railAgentState // the keys on a rail agent row: reply line, dropped message (rail_agent.go)

	recap recapState // the window shown and when each was left, for the away recap (recap.go)

	mail   mailState // the person's unread mail, for the rail and the dock (mail_notify.go)
	newest newestRun // prefix O and O again (mail_newest.go)

	confirmClose string // window id waiting for y/n
	rename       *lineInput
	scroll       *scrollback
	inbox        *inbox
	review       *reviewView // the review overlay, over everything (review.go)
	agentsUI     agentsUI    // the integration notice, the palette, the Agents tab (notice.go)
	draw         drawState   // the frame and the chrome's cells (view.go)
	keyUI        keysState   // the help, the paste buffer, a mouse selection, the rail hidden (paste.go)

	outcome *Outcome
}

// lineInput is a one-line prompt in the dock.
type lineInput struct {
	label  string
	window string
	text   []rune
}

// NewModel builds the model for a terminal of width×height, sending its
// calls through calls.
func NewModel(opt Options, calls Caller, width, height int) *Model {
	clock := opt.Clock
	if clock == nil {
		clock = wallClock{}
	}
	return &Model{
		opt: opt, keys: newKeymap(opt.Prefix, opt.Bindings), clock: clock, calls: calls,
		session: opt.Session, width: width, height: height, link: linkState{host: remoteHost(opt.Host)},
		panes: map[string]*pane{}, lastState: map[string]string{}, keyUI: keysState{railHidden: opt.RailOff},
	}
}

// Outcome is how the attach ended, nil while it runs.
func (m *Model) Outcome() *Outcome { return m.outcome }

// Init starts nothing: the stream drives the model.
func (m *Model) Init() tea.Cmd { return nil }

// geometry is where the area (the windows' tiles) sits on the outer
// terminal and how big it is.
func (m *Model) geometry() (areaX, cols, rows int, rail bool) {
	rail = m.width >= minRailCols && !m.keyUI.railHidden // hint.go: prefix b hides it
	cols = m.width
	if rail {
		cols -= railWidth
		if !m.opt.RailRight {
			areaX = railWidth
		}
	}
	return areaX, max(cols, 1), max(m.height-1, 1), rail
}

// AreaSize is the area the daemon tiles into for the current terminal.
func (m *Model) AreaSize() (cols, rows int) {
	_, c, r, _ := m.geometry()
	return c, r
}

// agentsShown reports whether agent UI is drawn.
func (m *Model) agentsShown() bool {
	return !m.opt.AgentsOff && !m.layout.AgentsOff && m.layout.AgentsSeen
}

// call sends verb with params, a params type of internal/proto (nil for
// none).
func (m *Model) call(verb string, params any, tag string) {
	if m.calls != nil {
		m.calls.Call(verb, params, tag)
	}
}

// Update handles one message. The frame drawn after it is what the
// person sees next, so a held plan whose last line it shows counts as
// read from now (notePlanShown).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.draw.patchable = false
	sel := m.keyUI.sel
	_, cmd := m.update(msg)
	if !m.draw.patchable || m.keyUI.sel != sel {
		m.draw.valid = false // patch.go: the next frame is a full compose
	}
	m.recapInbox() // recap.go: a finished row's recap, once the person was away
	if shown := m.notePlanShown(); shown != nil {
		cmd = tea.Batch(cmd, shown)
	}
	if t := m.dwellTimer(); t != nil {
		cmd = tea.Batch(cmd, t)
	}
	return m, cmd
}

// dwellTimer wakes the model when the Inbox's 0.4 s dwell ends, once per
// dwell, so "reading…" turns into the answer keys without a key press.
func (m *Model) dwellTimer() tea.Cmd {
	if m.inbox == nil {
		return nil
	}
	ok, left := m.ready()
	if ok || m.dwellFor.Equal(m.inbox.stable) {
		return nil
	}
	m.dwellFor = m.inbox.stable
	return after(left)
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ms, ok := msg.(tea.MouseMsg); ok && m.review != nil {
		m.reviewMouse(ms) // review.go: the panes under the review get no clicks
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.sendResize()
		return m, nil
	case attachedMsg:
		m.nonce = msg.nonce
		if m.mail.from == 0 {
			m.mail.from = time.Now().UnixNano() // the daemon's clock: mail news compares it with an item's since
		}
		m.switching = m.haveLayout // a new stream: its own layout comes next
		if msg.session != "" {
			m.session = msg.session
		}
		m.sentCols, m.sentRows = m.AreaSize()
		return m, nil
	case proto.AttachLayout:
		return m, m.onLayout(msg)
	case proto.AttachScreen:
		m.onScreen(msg)
		return m, nil
	case proto.AttachBell:
		return m, m.onBell(msg)
	case proto.AttachKeys:
		return m, m.onChord(msg) // leader_keys.go
	case proto.AttachEnd:
		m.outcome = m.endOutcome(msg) // remote.go: names the host
		return m, tea.Quit
	case linkMsg:
		return m, m.onLink(msg)
	case localSessionsMsg:
		m.link.local = msg.sessions // remote_local.go
		return m, nil
	case streamGoneMsg:
		m.outcome = &Outcome{Code: 1, Message: "tuios: " + ErrDaemonGone.Error(), Err: ErrDaemonGone}
		return m, tea.Quit
	case replyMsg:
		return m, m.onReply(msg)
	case timerMsg:
		return m, m.inboxTimer()
	case askDueMsg:
		return m, m.presentAsk(m.layout) // ask_present.go: the person stopped typing
	case mailPollMsg:
		return m, m.onMailPoll(msg) // mail_notify.go
	case alertDueMsg:
		return m, m.alertDue() // alert_rules.go
	case peekTickMsg:
		return m, m.onPeekTick(msg) // inbox_prompt.go
	case compareTickMsg:
		return m, m.onCompareTick(msg) // review_compare.go
	case hostTickMsg:
		return m, m.hostTick(true)
	case tea.InterruptMsg:
		return m, m.detach()
	case tea.KeyPressMsg:
		if !m.haveLayout || m.switching {
			m.holdEarly(msg)
			return m, nil
		}
		if cmd, ok := m.helpKey(tea.Key(msg)); ok { // help.go: every key while the help is open
			return m, cmd
		}
		if cmd, ok := m.agentsUIKey(tea.Key(msg)); ok { // palette.go: prefix : and A, keys while open, esc on a notice
			return m, cmd
		}
		if cmd, ok := m.reviewKey(tea.Key(msg)); ok { // review.go: prefix v, and every key while it is open
			return m, cmd
		}
		if cmd, ok := m.mailKey(tea.Key(msg)); ok { // mail_newest.go: prefix M, prefix O
			return m, cmd
		}
		if cmd, ok := m.railReplyKey(tea.Key(msg)); ok { // rail_agent.go: r's reply line
			return m, cmd
		}
		return m, m.onKey(tea.Key(msg))
	case tea.PasteMsg:
		if !m.haveLayout || m.switching {
			m.holdEarly(msg)
			return m, nil
		}
		return m, m.onPaste(msg.Content)
	case tea.MouseClickMsg:
		if m.noticeMouse(tea.Mouse(msg), mouseClick) { // notice.go: a click on the notice
			return m, nil
		}
		return m, m.onMouse(tea.Mouse(msg), mouseClick)
	case tea.MouseReleaseMsg:
		return m, m.onMouse(tea.Mouse(msg), mouseRelease)
	case tea.MouseWheelMsg:
		return m, m.onMouse(tea.Mouse(msg), mouseWheel)
	case tea.MouseMotionMsg:
		return m, m.onMouse(tea.Mouse(msg), mouseMotion)
	}
	return m, nil
}

// endOutcome is what an AttachEnd prints: a tmux-like one-liner.
func endOutcome(e proto.AttachEnd, session string) *Outcome {
	switch e.Reason {
	case "detached", "":
		return &Outcome{Message: fmt.Sprintf("[detached (from session %s)]", clean(session))}
	case "server-stopped":
		return &Outcome{Message: "[the tuios daemon stopped]"}
	case "session-closed", "session_closed":
		return &Outcome{Message: fmt.Sprintf("[exited (session %s closed)]", clean(session))}
	}
	return &Outcome{Message: fmt.Sprintf("[detached (from session %s): %s]", clean(session), clean(e.Reason))}
}

// detach ends the attach; the panes keep running in the daemon.
func (m *Model) detach() tea.Cmd {
	m.outcome = &Outcome{Message: fmt.Sprintf("[detached (from session %s)]", m.sessionLabel())}
	return tea.Quit
}

// sendResize tells the daemon the area's new size when it changed.
func (m *Model) sendResize() {
	cols, rows := m.AreaSize()
	if cols == m.sentCols && rows == m.sentRows {
		return
	}
	m.sentCols, m.sentRows = cols, rows
	if m.nonce == "" && m.calls == nil {
		return
	}
	m.call("resize", proto.ResizeParams{Session: m.session, Cols: cols, Rows: rows}, "")
}

func (m *Model) onLayout(l proto.AttachLayout) tea.Cmd {
	if l.Session != "" {
		m.session = l.Session
	}
	first := !m.haveLayout || m.switching
	m.layout, m.haveLayout, m.switching = l, true, false
	// Forget panes that left the screen: their rows come back whole when
	// they return.
	visible := map[string]bool{}
	for _, w := range l.Windows {
		visible[w.ID] = true
	}
	for id := range m.panes {
		if !visible[id] {
			delete(m.panes, id)
		}
	}
	if m.confirmClose != "" && !visible[m.confirmClose] {
		m.confirmClose = ""
	}
	m.followConfig(l) // config_reload.go: set-config changed the alerts
	cmd := tea.Batch(m.alerts(l), m.hostAlerts(l), m.hostTick(false))
	if m.inbox != nil {
		m.refreshInbox()
	}
	cmd = tea.Batch(cmd, m.pollMail()) // mail_notify.go: mail to the person may have come or been read
	cmd = tea.Batch(cmd, m.presentAsk(l))
	m.noticeLayout(l) // notice.go: a harness whose integration needs an update
	m.recapLayout(l)  // recap.go: back to a pane after being away
	if first {
		cmd = tea.Batch(cmd, m.playEarly())
	}
	return cmd
}

// playEarly types what was held in early, in order, into the layout in
// hand.
func (m *Model) playEarly() tea.Cmd {
	early := m.early
	m.early = nil
	var cmd tea.Cmd
	for _, msg := range early {
		_, c := m.Update(msg)
		cmd = tea.Batch(cmd, c)
	}
	return cmd
}

// beginSwitch is asking for another session or host: from now on input
// waits for that stream's first layout (switching), so a key typed the
// moment after is typed there, not into the pane being left.
func (m *Model) beginSwitch() {
	m.switching = m.haveLayout
}

// maxEarly bounds the input held before the first layout.
const maxEarly = 256

// holdEarly keeps input that came before the first layout; past maxEarly
// it is dropped (a client that never gets a layout ends anyway).
func (m *Model) holdEarly(msg tea.Msg) {
	if len(m.early) < maxEarly {
		m.early = append(m.early, msg)
	}
}

func (m *Model) onScreen(s proto.AttachScreen) {
	m.draw.patchable = m.screenPatchable(s) // patch.go
	p := m.panes[s.Window]
	if p == nil {
		p = &pane{}
		m.panes[s.Window] = p
	}
	p.apply(s, &m.draw.cl) // pane_rows.go
}

// focused is the focused window's tile, if it is on screen.
func (m *Model) focused() (proto.AttachWindow, bool) {
	for _, w := range m.layout.Windows {
		if w.ID == m.layout.Focused && !w.Minimized {
			return w, true
		}
	}
	return proto.AttachWindow{}, false
}

func (m *Model) windowByID(id string) (proto.AttachWindow, bool) {
	for _, w := range m.layout.Windows {
		if w.ID == id {
			return w, true
		}
	}
	return proto.AttachWindow{}, false
}

// sendText types into a window of this session.
func (m *Model) sendText(window, text string) {
	if text == "" || window == "" {
		return
	}
	m.call("send-text", proto.SendTextParams{Session: m.session, Window: window, Text: text}, "")
	m.typedWin, m.typedAt = window, m.clock.Now()
}

func (m *Model) onPaste(text string) tea.Cmd {
	if m.review != nil {
		m.reviewPaste(text) // review.go: the note line, never the pane under it
		return nil
	}
	if m.agentsUIPaste(text) { // palette.go: the filter line, never the pane under it
		return nil
	}
	if m.keyUI.help != nil { // help.go: not the pane under it
		return nil
	}
	if m.railReplyPaste(text) { // rail_agent.go: r's reply line
		return nil
	}
	if m.inbox != nil && m.inbox.input != nil {
		m.inbox.input.add(text)
		if m.inbox.input.sel {
			m.selectorEdited() // inbox_snooze.go: the list narrows as typed
		}
		return nil
	}
	if m.inbox != nil || m.scroll != nil {
		return nil
	}
	if m.rename != nil {
		m.rename.text = append(m.rename.text, []rune(clean(text))...)
		return nil
	}
	m.typeFocused(func(modes proto.AttachModes) string { return encodePaste(text, modes) })
	return nil
}

func (m *Model) onReply(r replyMsg) tea.Cmd {
	switch {
	case len(r.tag) >= 6 && r.tag[:6] == "inbox:":
		return m.inboxReply(r)
	case len(r.tag) >= 7 && r.tag[:7] == "review:":
		return m.reviewReply(r) // review.go
	case len(r.tag) >= 5 && r.tag[:5] == "rail:":
		return m.railReply(r) // rail_agent.go
	case len(r.tag) >= 6 && r.tag[:6] == "recap:":
		m.recapReply(r) // recap.go
		return nil
	case len(r.tag) >= 9 && r.tag[:9] == "settings:":
		m.settingsReply(r) // settings.go
		return nil
	case r.tag == "scrollback":
		m.scrollReply(r)
		return nil
	case r.tag == "oldest":
		return m.oldestReply(r)
	case r.tag == "mail:poll":
		return m.mailPolled(r) // mail_notify.go
	case r.tag == "newest":
		m.newestReply(r) // mail_newest.go
		return nil
	}
	if r.err != nil {
		m.dock = r.verb + ": " + clean(r.err.Error())
		if m.switching && (r.verb == "attach" || r.verb == "new-session") {
			// The switch failed: the layout in hand stays, and what was
			// typed meanwhile goes where the person still is.
			m.switching = false
			return m.playEarly()
		}
	}
	return nil
}

// say puts one line in the dock.
func (m *Model) say(format string, args ...any) {
	m.dock = clean(fmt.Sprintf(format, args...))
}

// after wakes the model in d, for a rule timed by the clock.
func after(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return timerMsg{} })
}
