package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// railCalls records what a click in the rail asked of the connections.
type railCalls struct {
	switchCalls
	created string
}

func (r *railCalls) NewOnHost(host string, cols, rows int) { r.created = host }

// hostsLayout gives the test model a linked host with two sessions (one
// with a terminal escape in its name: another machine's text) and a
// stale host.
func hostsLayout(m *Model) {
	l := m.layout
	l.Hosts = []proto.AttachHost{
		{Host: "far", Sessions: []string{"api", "ev\x1b[31mil"}},
		{Host: "gpu", Stale: true, Sessions: []string{"train"}},
	}
	m.Update(l)
}

// Under a linked host the rail lists its sessions and +; a stale host
// lists none (nothing there can be reached), and far names are cleaned.
func TestRailListsHostSessionsAndPlus(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	hostsLayout(m)
	rows := plain(m)
	// heading, api, work, blank, Hosts, far, its two sessions, +, gpu.
	want := []string{" Hosts", "  far", "    api", "    evil", "    +", "  gpu"}
	for i, w := range want {
		if got := rows[4+i]; !strings.HasPrefix(got, w) {
			t.Fatalf("rail row %d = %q, want %q:\n%s", 4+i, got, w, strings.Join(rows[:12], "\n"))
		}
	}
	if strings.Contains(strings.Join(rows, "\n"), "train") {
		t.Errorf("a stale host's sessions are listed:\n%s", strings.Join(rows[:12], "\n"))
	}
	if strings.Contains(m.Render(), "\x1b[31mil") {
		t.Error("a far session name's escape reached the screen")
	}
}

// A click on a host's session attaches it here; a click on + creates a
// session there; a click on the host's header or a stale host does
// nothing.
func TestRailClickAttachesOrCreatesOnHost(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	rc := &railCalls{}
	m.calls = rc
	hostsLayout(m)
	click := func(y int) { m.Update(tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft}) }

	click(5) // far's header
	click(9) // gpu, stale
	if rc.host != "" || rc.session != "" || rc.created != "" {
		t.Fatalf("a header click did something: %+v", rc)
	}
	click(6)
	if rc.host != "far" || rc.session != "api" || rc.window != "" {
		t.Errorf("click on far's api switched to %+v", rc.switchCalls)
	}
	if d := dock(m); !strings.Contains(d, "host far: attaching api") {
		t.Errorf("dock: %q", d)
	}
	click(8)
	if rc.created != "far" {
		t.Errorf("click on + created on %q", rc.created)
	}
	if d := dock(m); !strings.Contains(d, "host far: creating a session") {
		t.Errorf("dock: %q", d)
	}
	click(1) // this machine's sessions are still what they were
	if rc.session != "api" {
		t.Errorf("click on api here: %+v", rc.switchCalls)
	}
}

// On a host, the rail's host rows (that host's links) take no clicks and
// list no sessions; this machine's sessions are under local instead.
func TestRailHostSessionsOnlyFromThisMachine(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Host: "far"})
	rc := &railCalls{}
	m.calls = rc
	hostsLayout(m)
	rows := plain(m)
	if strings.Contains(strings.Join(rows, "\n"), "    +") {
		t.Errorf("+ rows on a host:\n%s", strings.Join(rows[:12], "\n"))
	}
	for y := 3; y < 10; y++ {
		m.Update(tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft})
	}
	if rc.host != "" || rc.session != "" || rc.created != "" {
		t.Errorf("a click did something on a host: %+v", rc)
	}
}

// Prefix s gives the rail the keys: the cursor starts on the current
// session, j/down moves it over the rows a click acts on (skipping the
// headers), the row is drawn reversed, and enter does what a click does;
// esc leaves without doing anything, and keys are not typed meanwhile.
func TestRailCursorEnterAttachesOnHost(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{})
	rc := &railCalls{}
	m.calls = rc
	hostsLayout(m)
	m.Update(key("ctrl+b"))
	m.Update(key("s"))
	if !m.railOn || m.railAt != 1 {
		t.Fatalf("rail focus %v at %d", m.railOn, m.railAt)
	}
	m.Update(key("x")) // not typed into the pane
	if len(fc.calls) != 0 || len(rc.calls) != 0 {
		t.Fatalf("a key reached the daemon while the rail had the keys: %+v %+v", fc.calls, rc.calls)
	}
	m.Update(key("j"))    // far's api
	m.Update(key("down")) // far's ev il
	m.Update(key("k"))    // back on api
	if !hasAttrs(m, 6, "    api", vt.AttrReverse) {
		t.Fatalf("the cursor's row is not reversed:\n%q", m.Render())
	}
	m.Update(key("enter"))
	if m.railOn || rc.host != "far" || rc.session != "api" {
		t.Fatalf("enter on far's api: focus %v, switched to %+v", m.railOn, rc.switchCalls)
	}
	answered(m, "api")
	// To + (gpu has none; the agent rows come after it).
	m.Update(key("ctrl+b"))
	m.Update(key("s"))
	for i := 0; i < 3; i++ {
		m.Update(key("j"))
	}
	m.Update(key("enter"))
	if rc.created != "far" {
		t.Errorf("enter on + created on %q", rc.created)
	}
	m.Update(key("ctrl+b"))
	m.Update(key("s"))
	m.Update(key("esc"))
	if m.railOn {
		t.Error("esc left the rail focused")
	}
}
