package tui

import (
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// followConfig reads the alerts (and [ui] rail) from the config file again when the
// layout says set-config wrote it, so `tuios set-config
// notifications.agent.sound true` acts without a new attach. The first
// layout is what the client read at attach; a session on another machine
// is that machine's file, not this one's. A file that no longer parses
// leaves the alerts as they were and says so on the dock.
func (m *Model) followConfig(l proto.AttachLayout) {
	if m.configKnown && l.ConfigSeq == m.configSeq {
		return
	}
	first := !m.configKnown
	m.configSeq, m.configKnown = l.ConfigSeq, true
	if first || m.link.host != "" || m.opt.ConfigPath == "" {
		return
	}
	f, err := config.Load(m.opt.ConfigPath)
	if err != nil {
		m.dock = "config.toml changed but does not read: " + clean(err.Error())
		return
	}
	m.opt.configureAlerts(f)
	m.followRail(f) // hint.go: set-config ui.rail
}
