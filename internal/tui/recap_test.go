package tui

import (
	"strings"
	"testing"
	"time"
)

// focusOn is a layout like newTest's with another window focused.
func focusOn(m *Model, id string) {
	l := m.layout
	l.Focused = id
	m.Update(l)
}

func recapCalls(fc *fakeCalls) []call {
	var out []call
	for _, c := range fc.calls {
		if c.verb == "agent-activity" {
			out = append(out, c)
		}
	}
	return out
}

// The dock's recap is asked for only on coming back after away, since
// the time the pane was left, and only in mode toast; its reply with a
// finished turn goes on the dock, one with none says nothing.
func TestAwayRecapAskedOnComingBack(t *testing.T) {
	for _, c := range []struct {
		mode string
		away time.Duration
		gone time.Duration
		want bool
	}{
		{"", 0, 10 * time.Minute, true},
		{"", 0, 9 * time.Minute, false},
		{RecapToast, time.Minute, 2 * time.Minute, true},
		{RecapInbox, time.Minute, 2 * time.Minute, false},
		{RecapOff, time.Minute, 2 * time.Minute, false},
	} {
		m, fc, clk := newTest(t, Options{RecapMode: c.mode, RecapAway: c.away})
		left := clk.t.UnixNano()
		focusOn(m, "w2") // leaves w1
		clk.t = clk.t.Add(c.gone)
		focusOn(m, "w1")
		got := recapCalls(fc)
		if !c.want {
			if len(got) != 0 {
				t.Errorf("%+v: asked %+v", c, got)
			}
			continue
		}
		if len(got) != 1 || got[0].params["window"] != "w1" || got[0].params["since"] != left {
			t.Fatalf("%+v: asked %+v", c, got)
		}
		m.Update(replyMsg{tag: got[0].tag, verb: "agent-activity", raw: []byte(`{"recap":{"turns":0,"line":"claude while you were away (10m): 0 turns"}}`)})
		if m.dock != "" {
			t.Errorf("no turn finished, yet the dock says %q", m.dock)
		}
		m.Update(replyMsg{tag: got[0].tag, verb: "agent-activity", raw: []byte(`{"recap":{"turns":2,"line":"claude while you were away (10m): 2 turns, 1 file, 0 commands, at prompt\u001b[31m"}}`)})
		if want := "claude while you were away (10m): 2 turns, 1 file, 0 commands, at prompt"; !strings.Contains(m.dock, want) || strings.Contains(m.dock, "\x1b") {
			t.Errorf("dock %q, want %q cleaned", m.dock, want)
		}
	}
}
