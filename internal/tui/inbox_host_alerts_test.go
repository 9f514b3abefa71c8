package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// rings reports whether cmd writes a bell to the outer terminal.
func rings(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if rings(c) {
				return true
			}
		}
	case tea.RawMsg:
		s, _ := msg.Msg.(string)
		return strings.Contains(s, "\a")
	}
	return false
}

// A fresh host's new item rings and names the host in the dock; a stale
// host never rings, nor does its coming back fresh, nor mail queued for
// it (the outbox).
func TestHostItemsAlert(t *testing.T) {
	t.Parallel()
	m, _, clk := newTest(t, Options{Bell: true})
	seen := clk.t.Add(-time.Minute).UnixMilli()
	// hostAlerts alone: the layout's other commands (a stale host's
	// minute tick) are not run here.
	step := func(hosts ...proto.AttachHost) tea.Cmd { return m.hostAlerts(proto.AttachLayout{Hosts: hosts}) }
	if rings(step(proto.AttachHost{Host: "build", Items: 1})) {
		t.Fatal("the first layout rang")
	}
	if rings(step(proto.AttachHost{Host: "build", Items: 1, Queued: 3})) {
		t.Error("queued mail rang")
	}
	if !rings(step(proto.AttachHost{Host: "build", Items: 2})) || !strings.Contains(m.dock, "build: 2 waiting") {
		t.Errorf("a new item on build: dock %q", m.dock)
	}
	m.dock = ""
	if rings(step(proto.AttachHost{Host: "build", Stale: true, SeenAt: seen})) || m.dock != "" {
		t.Errorf("the link going down rang: %q", m.dock)
	}
	if rings(step(proto.AttachHost{Host: "build", Items: 3})) || m.dock != "" {
		t.Errorf("the link coming back rang: %q", m.dock)
	}
	if !rings(step(proto.AttachHost{Host: "build", Items: 4, Mail: 4}, proto.AttachHost{Host: "ci"})) || m.dock != "build: 4 mail" {
		t.Errorf("new mail on build: dock %q", m.dock)
	}
	if !rings(step(proto.AttachHost{Host: "build", Items: 5}, proto.AttachHost{Host: "ci", Items: 1})) || m.dock != "2 linked hosts have something new for you" {
		t.Errorf("two hosts: dock %q", m.dock)
	}
	m.opt.AgentsOff = true
	if rings(step(proto.AttachHost{Host: "build", Items: 6})) {
		t.Error("rang with agents off")
	}

	// The layout feeds it: a grown count on a fresh host changes the dock.
	m.opt.AgentsOff = false
	l := m.layout
	l.Hosts = []proto.AttachHost{{Host: "build", Items: 7}}
	m.Update(l)
	if m.dock != "build: 7 waiting" {
		t.Errorf("through the layout: dock %q", m.dock)
	}
}
