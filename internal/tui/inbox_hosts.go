package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Rows of linked hosts (docs/inbox.md, The Inbox): the daemon mirrors each
// linked host's Inbox into this one, as items with a host and an id
// "HOST:ID". They are drawn with the host's name; while the host's link is
// down they are stale: muted, "seen 3m ago", skipped by prefix o. This
// client can dismiss or snooze them (here only), but not answer them: their
// prompt is on the other machine, reached with tuios respond -w
// HOST:SESSION:WINDOW.

// sgrMuted draws a stale row.
const sgrMuted = "\x1b[2m"

// hostWho is a row's "session/name" (the session alone for an item of
// no pane, such as an ask-human question from a shell), with the host in
// front for a mirrored item.
func hostWho(it item) string {
	who := clean(it.Session)
	if n := clean(it.Name); n != "" && who != "" {
		who += "/" + n
	} else if n != "" { // an item of no session: a config change
		who = n
	}
	if it.Host != "" {
		who = clean(it.Host) + ":" + who
	}
	return who
}

// seenAgo says when a stale host was last heard: "seen 3m ago", or
// "never seen" for a host that never answered.
func seenAgo(now time.Time, seenNS int64) string {
	if seenNS <= 0 {
		return "never seen"
	}
	return "seen " + age(now, seenNS) + " ago"
}

// hostSummary puts a stale row's "seen … ago" before its summary.
func hostSummary(it item, summary string, now time.Time) string {
	if !it.Stale {
		return summary
	}
	return "(" + seenAgo(now, it.SeenAt) + ") " + summary
}

// hostTarget is the HOST:SESSION:WINDOW a mirrored item's pane is
// reached by.
func hostTarget(it item) string {
	return clean(it.Host) + ":" + clean(it.Session) + ":" + clean(it.Window)
}

// hostItemKey refuses the keys that would answer a mirrored item or go to
// its pane: this Inbox cannot. It reports whether it took the key.
func (m *Model) hostItemKey(it item, name string) bool {
	act := m.keys.inbox[name]
	digit := len(name) == 1 && name[0] >= '1' && name[0] <= '9'
	if !digit && act != InGo && act != InPeek && act != InReason && act != InReply {
		return false
	}
	if act == InGo && !it.Stale && it.Session != "" && m.goToHost(it) { // remote.go: attach it here
		return true
	}
	note := fmt.Sprintf("%s's item: answer it there: tuios respond -w %s", clean(it.Host), hostTarget(it))
	if act == InGo {
		note = fmt.Sprintf("%s's pane: tuios attach --host %s %s", clean(it.Host), clean(it.Host), clean(it.Session))
	}
	if it.Stale {
		note = fmt.Sprintf("%s is not linked now (%s); ", clean(it.Host), seenAgo(m.clock.Now(), it.SeenAt)) + note
	}
	m.inbox.note = note
	return true
}

// oldestHosts drops what prefix o skips: the stale rows of a host whose
// link is down.
func oldestHosts(items []item) []item {
	out := items[:0:0]
	for _, it := range items {
		if !it.Stale {
			out = append(out, it)
		}
	}
	return out
}

// hostRailRows are the rail's rows for the linked hosts: a header per
// host with what waits there, or, while its link is down, when it was
// last seen (✕, x in ASCII, where that does not fit); under it its
// sessions and + (rail_hosts.go).
func (m *Model) hostRailRows(inner int) []hostRailRow {
	if len(m.layout.Hosts) == 0 {
		return nil
	}
	a := m.opt.ASCIIOnly
	now := m.clock.Now()
	lines := []hostRailRow{{}, {text: sgrBold + fitPlain(" Hosts", inner, a) + sgrReset}}
	for _, h := range m.layout.Hosts {
		name := clean(h.Host)
		var badge string
		switch {
		case h.Stale:
			badge = seenAgo(now, h.SeenAt*int64(time.Millisecond))
			if len(name)+len(badge)+3 > inner {
				badge = "✕"
				if a {
					badge = "x"
				}
			}
		case h.Mail > 0 && h.Items == h.Mail:
			badge = fmt.Sprintf("%d mail", h.Mail)
		case h.Items > 0:
			badge = fmt.Sprintf("%d waiting", h.Items)
		}
		badge, below := withQueued(badge, h.Queued, len(name)+4, inner) // inbox_mail.go: the outbox
		row := fitPlain(trimRow(name, badge), inner, a)
		if h.Stale {
			row = sgrMuted + row + sgrReset
		}
		lines = append(lines, hostRailRow{text: row})
		if below != "" {
			lines = append(lines, hostRailRow{text: fitPlain("    "+below, inner, a)})
		}
		lines = append(lines, m.hostSessionRows(h.Host, h.Stale, h.Sessions, inner)...)
	}
	return lines
}

// hostTickMsg redraws the rail so a stale host's "seen … ago" stays true.
type hostTickMsg struct{}

// hostTickEvery is the rail's backstop while a host is stale.
const hostTickEvery = time.Minute

// hostTick arms one tick a minute while any linked host is stale, none
// otherwise: an idle client with every link up costs nothing.
func (m *Model) hostTick(fired bool) tea.Cmd {
	if fired {
		m.hostTicking = false
	}
	stale := false
	for _, h := range m.layout.Hosts {
		stale = stale || h.Stale
	}
	if m.hostTicking || !stale {
		return nil
	}
	m.hostTicking = true
	return tea.Tick(hostTickEvery, func(time.Time) tea.Msg { return hostTickMsg{} })
}
