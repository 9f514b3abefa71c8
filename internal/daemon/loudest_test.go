package daemon

import (
	"testing"
)

// A session's row (list-sessions, and the rail's session and workspace
// rows) carries the loudest state among its panes in the rail's own
// order: errored before waiting for input, a finished turn not yet seen
// before idle, whichever window comes first.
func TestASessionRowCarriesItsLoudestPaneInTheRailsOrder(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	ids := []string{str(r.must("new-session", map[string]any{"name": "s"})["window_id"])}
	for range 2 {
		ids = append(ids, str(r.must("new-window", map[string]any{"session": "s", "no_focus": true})["window_id"]))
	}
	set := func(i int, state string) {
		t.Helper()
		if res := r.must("set-agent-state", map[string]any{"window": ids[i], "state": state}); res["applied"] != true {
			t.Fatalf("set-agent-state %s: %v", state, res)
		}
	}
	loudest := func() string {
		t.Helper()
		rows, _ := r.must("list-sessions", map[string]any{})["sessions"].([]any)
		if len(rows) != 1 {
			t.Fatalf("sessions: %v", rows)
		}
		return str(rows[0].(map[string]any)["loudest_state"])
	}
	rail := func() (session, workspace string) {
		t.Helper()
		st, _ := attachStreamT(t, sock, map[string]any{"session": "s", "cols": 80, "rows": 24})
		defer st.c.Close()
		lay := layoutOf(t, st.until("a layout", func(l line) bool { return l.typ == "layout" }))
		return lay.Sessions[0].State, lay.Workspaces[0].State
	}

	set(0, "needs_input")
	set(1, "errored")
	set(2, "idle")
	if got := loudest(); got != "errored" {
		t.Fatalf("needs_input, errored, idle: loudest %q, want errored", got)
	}
	if s, w := rail(); s != "errored" || w != "errored" {
		t.Fatalf("needs_input, errored, idle: the rail's session row %q, workspace %q, want errored", s, w)
	}

	set(0, "idle")
	set(1, "none")
	set(2, "working")
	set(2, "done") // an explicit done is a finished turn, not yet seen
	if got := loudest(); got != "done" {
		t.Fatalf("idle, none, unseen done: loudest %q, want done", got)
	}
	if s, w := rail(); s != "done" || w != "done" {
		t.Fatalf("idle, none, unseen done: the rail's session row %q, workspace %q, want done", s, w)
	}
}
