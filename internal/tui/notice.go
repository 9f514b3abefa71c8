package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/proto"
)

// The integration notice: when a pane runs a harness whose integration
// is out of date, or not installed where it could be (the harness has
// run on this machine), the dock shows one notice for that harness, once
// per harness each time the client starts.
//
// The client reads the integration's state itself, through
// internal/integration, instead of asking the daemon: the notice is only
// for panes of this machine (a pane on another host uses that host's
// integration), and a local client runs on the daemon's machine under
// the same user, so it reads the same files tuios integration status
// reads, with no verb and no new layout field. The layout's agent rows
// say which harness each pane runs; each harness is read once per run.
//
// A click on the notice's right end dismisses it for good: the harness's
// state and tuios's integration version are written to
// $XDG_STATE_HOME/tuios/notices.json, and the notice stays away until one
// of them changes. Esc or a click on the text clears it for this run of
// the client only.

// agentsUI is what the notice, the command palette (palette.go) and the
// Agents tab (agents_tab.go) keep in the model.
type agentsUI struct {
	env     *integration.Env // nil is this process's home and environment; tests set a scratch one
	checked map[string]bool  // harnesses read this run of the client
	queue   []notice         // notices to show; the first is on the dock
	palette *palette
	tab     *agentsTab    // the settings page's Agents tab, while it shows
	page    *settingsPage // the settings page (settings.go)
	pageTab string        // the tab the page showed last
}

// notice is one harness's notice.
type notice struct {
	harness string
	key     string // the state and the version: a dismissal for good lasts while it holds
	text    string
}

// noticesFile is where dismissals for good are kept, under the state dir.
const noticesFile = "notices.json"

// intEnv is where the harnesses' files are.
func (m *Model) intEnv() integration.Env {
	if m.agentsUI.env != nil {
		return *m.agentsUI.env
	}
	return integration.OSEnv()
}

// localAgents says whether the agent features that read and change this
// machine's integrations apply: agents on, and the session on this
// machine.
func (m *Model) localAgents() bool {
	return !m.opt.AgentsOff && !m.layout.AgentsOff && m.link.host == ""
}

// noticeLayout reads, once per run, the integration of each harness a
// pane of this machine runs, and queues a notice for one that needs it.
func (m *Model) noticeLayout(l proto.AttachLayout) {
	if m.opt.AgentsOff || l.AgentsOff || m.link.host != "" {
		return
	}
	ui := &m.agentsUI
	look := func(id string) {
		if id == "" || ui.checked[id] {
			return
		}
		if ui.checked == nil {
			ui.checked = map[string]bool{}
		}
		ui.checked[id] = true
		if n, ok := noticeFor(id, m.intEnv()); ok && !dismissedForGood(m.intEnv(), n) {
			ui.queue = append(ui.queue, n)
		}
	}
	for _, a := range l.Agents {
		look(a.Harness)
	}
	for _, w := range l.Windows {
		look(w.Harness)
	}
}

// noticeFor is the notice a harness's integration calls for, if any.
func noticeFor(id string, env integration.Env) (notice, bool) {
	h, ok := integration.Lookup(id)
	if !ok {
		return notice{}, false
	}
	st := integration.StatusOf(h, env)
	n := notice{harness: h.ID, key: st.State + "|" + strconv.Itoa(st.Current)}
	switch {
	case st.State == integration.StateOutOfDate:
		n.text = h.Name + " integration is out of date. Open Settings, Agents to update it."
	case st.State == integration.StateNotInstalled && st.ConfigDir:
		n.text = h.Name + " integration is not installed. Open Settings, Agents to install it."
	default:
		return notice{}, false
	}
	return n, true
}

// noticeText is the notice on the dock, "" when none. Mail news for the
// person stands in front of it until that mail is read or the dock says
// something else: a setup hint must not hide who just wrote.
func (m *Model) noticeText() string {
	if len(m.agentsUI.queue) == 0 || !m.localAgents() {
		return ""
	}
	if m.mail.unread > 0 && m.dock != "" && m.dock == m.mail.said {
		return ""
	}
	return m.agentsUI.queue[0].text
}

// noticeMark is the notice's right end: a click there dismisses it for good.
func (m *Model) noticeMark() string {
	if m.opt.ASCIIOnly {
		return " x "
	}
	return " ✕ "
}

// noticeDockLine is the dock with the notice after head (the session and
// its workspaces), and the mark at the right end.
func (m *Model) noticeDockLine(head, text string) string {
	mark := m.noticeMark()
	if m.width < 12 {
		return sgrReverse + fitPlain(head+"  "+text, m.width, m.opt.ASCIIOnly) + sgrReset
	}
	return sgrReverse + fitPlain(head+"  "+text, m.width-3, m.opt.ASCIIOnly) + mark + sgrReset
}

// dismissNotice takes the shown notice off the dock; forGood also keeps
// it away in later runs while its state and version hold.
func (m *Model) dismissNotice(forGood bool) {
	ui := &m.agentsUI
	if len(ui.queue) == 0 {
		return
	}
	n := ui.queue[0]
	ui.queue = ui.queue[1:]
	if forGood {
		if err := saveDismissal(m.intEnv(), n); err != nil {
			m.say("notice: %s", err.Error())
		}
	}
}

// dropNotice takes a harness's notice away once the Agents tab changed
// its integration: it is no longer news.
func (m *Model) dropNotice(harness string) {
	ui := &m.agentsUI
	out := ui.queue[:0]
	for _, n := range ui.queue {
		if n.harness != harness {
			out = append(out, n)
		}
	}
	ui.queue = out
}

// noticeMouse takes a click on the dock while a notice shows: on its
// right end for good, elsewhere for this run.
func (m *Model) noticeMouse(ms tea.Mouse, kind mouseKind) bool {
	if m.agentsUI.palette != nil || m.agentsUI.page != nil {
		if areaX, cols, _, _ := m.geometry(); m.agentsUI.palette == nil && kind == mouseClick && ms.X >= areaX && ms.X < areaX+cols {
			m.settingsClick(ms.X-areaX, ms.Y) // settings.go: a click on a tab or a row
		}
		return true // the panes under the palette and the page get no clicks
	}
	if kind != mouseClick || ms.Y != m.height-1 || m.noticeText() == "" || m.review != nil {
		return false
	}
	m.dismissNotice(m.width >= 12 && ms.X >= m.width-3)
	return true
}

// noticeEsc is esc with a notice on the dock and nothing else open: it
// clears the notice, and the pane does not get the esc.
func (m *Model) noticeEsc(name string) bool {
	if name != "esc" || m.prefix || m.noticeText() == "" || m.inbox != nil || m.scroll != nil ||
		m.rename != nil || m.confirmClose != "" || m.railOn || m.review != nil {
		return false
	}
	m.dismissNotice(false)
	return true
}

// clientStateDir is tuios's state directory for the client: $XDG_STATE_HOME/tuios,
// else ~/.local/state/tuios.
func clientStateDir(env integration.Env) string {
	if env.Getenv != nil {
		if d := env.Getenv("XDG_STATE_HOME"); d != "" {
			return filepath.Join(d, "tuios")
		}
	}
	return filepath.Join(env.Home, ".local", "state", "tuios")
}

// dismissals reads the notices dismissed for good: harness -> key.
func dismissals(env integration.Env) map[string]string {
	out := map[string]string{}
	b, err := os.ReadFile(filepath.Join(clientStateDir(env), noticesFile))
	if err == nil {
		json.Unmarshal(b, &out) // a file that does not read dismisses nothing
	}
	return out
}

func dismissedForGood(env integration.Env, n notice) bool {
	return dismissals(env)[n.harness] == n.key
}

// saveDismissal writes a dismissal for good, atomically.
func saveDismissal(env integration.Env, n notice) error {
	d := dismissals(env)
	d[n.harness] = n.key
	b, _ := json.MarshalIndent(d, "", "  ")
	return atomicfile.WriteFile(filepath.Join(clientStateDir(env), noticesFile), append(b, '\n'),
		atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
}
