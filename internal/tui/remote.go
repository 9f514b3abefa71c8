package tui

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// linkState is what the model knows of the host under the attach: which
// host ("" is this machine) and whether its link is being redialled.
type linkState struct {
	host  string
	down  bool
	local []localSession // this machine's sessions, for the rail (remote_local.go)
}

// sessionLabel names the session in the dock: HOST:SESSION on a host, so
// the person always sees which machine their keys go to.
func (m *Model) sessionLabel() string {
	if m.link.host != "" {
		return m.link.host + ":" + clean(m.session)
	}
	return clean(m.session)
}

// Host is the host the attached session is on; "" is this machine.
func (m *Model) Host() string { return m.link.host }

// endOutcome is the one-liner for an AttachEnd, naming the host.
func (m *Model) endOutcome(e proto.AttachEnd) *Outcome {
	if m.link.host != "" && e.Reason == "server-stopped" {
		return &Outcome{Message: fmt.Sprintf("[the tuios daemon on host %s stopped]", m.link.host)}
	}
	return endOutcome(e, m.sessionLabel())
}

// onLink follows the link under an attach to a host. While it is down
// the last screen stays, keys are not sent, and the dock says so.
func (m *Model) onLink(l linkMsg) tea.Cmd {
	switch l.kind {
	case linkDown:
		m.link.down = true
		m.say("host %s: link down, reconnecting… (%s keeps running there; keys are not sent)", l.host, l.session)
	case linkRetry:
		m.link.down = true
		m.say("host %s: link down, reconnecting (try %d; giving up in %s)", l.host, l.attempt, l.left.Round(time.Second))
	case linkBack:
		was := m.link.down
		m.link = linkState{host: l.host, local: m.link.local}
		if l.host == "" {
			m.link.local = nil
		}
		if was {
			m.say("host %s: link back", l.host)
		}
		// The terminal may have changed size while the link was down.
		m.sentCols, m.sentRows = 0, 0
		m.sendResize()
	case linkHome:
		m.link = linkState{}
		m.sentCols, m.sentRows = 0, 0
		m.sendResize()
		var lost *LinkLostError
		if errors.As(l.err, &lost) && !lost.Gone {
			m.say("host %s: link not back within %s; back on session %s here (%s keeps running there)", l.host, shortDuration(lost.After), l.session, lost.Session)
		} else {
			m.say("%s; back on session %s here", l.err.Error(), l.session)
		}
	case linkLost:
		err := l.err
		if err == nil {
			err = errors.New("the link to host " + l.host + " was lost")
		}
		m.outcome = &Outcome{Code: 1, Message: "tuios: " + err.Error(), Err: err}
		return tea.Quit
	}
	return nil
}

// goToHost is enter on another host's Inbox item: the client attaches
// that host's session and focuses the item's pane, when it can switch
// hosts (the real connections can; a test's Caller may not).
func (m *Model) goToHost(it item) bool {
	sw, ok := m.calls.(hostSwitcher)
	if !ok {
		return false
	}
	m.dropPending()
	m.inbox = nil
	cols, rows := m.AreaSize()
	m.beginSwitch()
	sw.SwitchHost(it.Host, it.Session, it.Window, cols, rows)
	return true
}

// hostSwitcher re-attaches to a session on another host (conns does).
type hostSwitcher interface {
	SwitchHost(host, session, window string, cols, rows int)
}
