package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// Alerts for linked hosts' items (the daemon mirrors each linked host's
// Inbox): the layout's header per host counts what waits there, so a count
// that grows on a host whose link is up is something new for the person,
// and rings like an agent here would. A stale host never rings: its items
// are old news kept while the link is down, and their coming back fresh
// when the link returns is not new either. The outbox ("2 queued") rings
// never: it needs nothing of the person.

// hostAlerts compares the layout's hosts with the last ones. The first
// layout only sets the baseline.
func (m *Model) hostAlerts(l proto.AttachLayout) tea.Cmd {
	now := make(map[string]int, len(l.Hosts))
	var text string
	grew := 0
	for _, h := range l.Hosts {
		if h.Stale {
			continue // counted again from what it says once fresh
		}
		now[h.Host] = h.Items
		before, known := m.hostItems[h.Host]
		if m.hostItems == nil || !known || h.Items <= before {
			continue
		}
		grew++
		text = fmt.Sprintf("%s: %d waiting", clean(h.Host), h.Items)
		if h.Mail > 0 && h.Items == h.Mail {
			text = fmt.Sprintf("%s: %d mail", clean(h.Host), h.Mail)
		}
	}
	m.hostItems = now
	if grew == 0 || m.opt.AgentsOff || l.AgentsOff {
		return nil
	}
	if grew > 1 {
		text = fmt.Sprintf("%d linked hosts have something new for you", grew)
	}
	if !m.opt.DockOff {
		m.dock = text
	}
	return m.ring(text)
}
