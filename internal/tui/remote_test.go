package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

func dock(m *Model) string {
	rows := plain(m)
	return rows[len(rows)-1]
}

// A session on a host is named HOST:SESSION in the dock and in the
// one-liners printed after it ends.
func TestHostSessionIsNamedWithItsHost(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Host: "far"})
	if d := dock(m); !strings.HasPrefix(d, "[far:work] 1*") {
		t.Fatalf("dock: %q", d)
	}
	if o := m.endOutcome(proto.AttachEnd{Reason: "detached"}); o.Message != "[detached (from session far:work)]" {
		t.Errorf("detached: %q", o.Message)
	}
	if o := m.endOutcome(proto.AttachEnd{Reason: "server-stopped"}); o.Message != "[the tuios daemon on host far stopped]" {
		t.Errorf("server stopped: %q", o.Message)
	}
	here, _, _ := newTest(t, Options{Host: "local"})
	if d := dock(here); !strings.HasPrefix(d, "[work] 1*") {
		t.Errorf("local is this machine: %q", d)
	}
}

// While the link is down the screen stays and the dock says reconnecting;
// back, the client re-sends its size; lost, the attach ends saying the
// session keeps running there.
func TestLinkDownKeepsTheScreenThenBackOrLost(t *testing.T) {
	t.Parallel()
	m, fc, _ := newTest(t, Options{Host: "far"})
	before := plain(m)
	m.Update(linkMsg{kind: linkDown, host: "far", session: "work", err: errors.New("EOF")})
	d := dock(m)
	if !strings.Contains(d, "host far: link down, reconnecting") {
		t.Fatalf("dock while down: %q", d)
	}
	after := plain(m)
	for i := 0; i < len(before)-1; i++ {
		if before[i] != after[i] {
			t.Fatalf("row %d changed while the link was down:\n%q\n%q", i, before[i], after[i])
		}
	}
	m.Update(linkMsg{kind: linkRetry, host: "far", session: "work", attempt: 2, left: 170 * time.Second})
	if d := dock(m); !strings.Contains(d, "reconnecting (try 2; giving up in 2m50s)") {
		t.Errorf("dock on retry: %q", d)
	}
	n := len(fc.calls)
	m.Update(attachedMsg{session: "work"})
	m.Update(linkMsg{kind: linkBack, host: "far", session: "work"})
	if d := dock(m); !strings.Contains(d, "host far: link back") || !strings.HasPrefix(d, "[far:work]") {
		t.Errorf("dock when back: %q", d)
	}
	if len(fc.calls) == n || fc.last(t, "resize").params["session"] != "work" {
		t.Errorf("no resize after the link came back: %+v", fc.calls[n:])
	}

	lost := &LinkLostError{Host: "far", Session: "work", After: 3 * time.Minute}
	_, cmd := m.Update(linkMsg{kind: linkLost, host: "far", session: "work", err: lost})
	o := m.Outcome()
	if cmd == nil || o == nil || o.Code != 1 || !errors.Is(o.Err, lost) {
		t.Fatalf("outcome: %+v", o)
	}
	if want := "the link to host far dropped and did not come back within 3m; session work keeps running there"; lost.Error() != want {
		t.Errorf("message: %q", lost.Error())
	}
}

// Coming back home after the bound: the dock names this machine's
// session again and says why.
func TestLinkHomeSaysWhy(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Host: "far"})
	m.Update(linkMsg{kind: linkDown, host: "far", session: "work"})
	m.Update(attachedMsg{session: "home"})
	m.Update(linkMsg{kind: linkHome, host: "far", session: "home", err: &LinkLostError{Host: "far", Session: "work", After: 1500 * time.Millisecond}})
	d := dock(m)
	if !strings.HasPrefix(d, "[home]") || !strings.Contains(d, "host far: link not back within 1.5s; back on session home here (work keeps running there)") {
		t.Fatalf("dock: %q", d)
	}
	if m.Host() != "" || m.Outcome() != nil {
		t.Errorf("host %q outcome %+v", m.Host(), m.Outcome())
	}
}

type switchCalls struct {
	fakeCalls
	host, session, window string
}

func (s *switchCalls) SwitchHost(host, session, window string, cols, rows int) {
	s.host, s.session, s.window = host, session, window
}

// Enter on another host's Inbox item attaches its session here; a stale
// one (its link is down) only says how to reach it.
func TestEnterOnHostItemAttachesThere(t *testing.T) {
	t.Parallel()
	m := NewModel(Options{}, nil, 104, 20)
	sc := &switchCalls{}
	m.calls = sc
	if !m.goToHost(item{Host: "far", Session: "api", Window: "w3"}) {
		t.Fatal("goToHost refused with a switcher")
	}
	if sc.host != "far" || sc.session != "api" || sc.window != "w3" {
		t.Errorf("switched to %+v", sc)
	}
	m.calls = &fakeCalls{}
	if m.goToHost(item{Host: "far", Session: "api"}) {
		t.Error("goToHost with a Caller that cannot switch hosts")
	}
}

// On a host the rail lists this machine's sessions under local, and a
// click on one attaches it here again; on this machine there is no such
// heading.
func TestRailListsLocalSessionsWhileOnAHost(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{Host: "far"})
	sc := &switchCalls{}
	m.calls = sc
	m.Update(localSessionsMsg{sessions: []localSession{{Name: "home", Windows: 2}}})
	rows := plain(m)
	// Rows: heading, api, work, then local's heading and its session.
	if !strings.HasPrefix(rows[3], " local") || !strings.HasPrefix(rows[4], "   home 2") {
		t.Fatalf("rail:\n%s", strings.Join(rows[:6], "\n"))
	}
	m.railClick(4)
	if sc.host != "" || sc.session != "home" {
		t.Errorf("click on local home switched to %+v", sc)
	}
	here, _, _ := newTest(t, Options{})
	here.Update(localSessionsMsg{sessions: []localSession{{Name: "home", Windows: 2}}})
	if rows := plain(here); strings.HasPrefix(rows[3], " local") {
		t.Errorf("a local heading on this machine:\n%s", strings.Join(rows[:6], "\n"))
	}
}
