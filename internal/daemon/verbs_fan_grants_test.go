package daemon

import (
	"strings"
	"testing"
)

// A fan's panes and its launcher under strict grants: a pane with the fan
// grant fans, and then reaches the sessions it started (reading, and with
// fan writing); a pane of the same session without fan reads them but
// types into none; a pane of another session reaches none; an attempt's
// pane reaches the other attempts of its fan; only the person or an admin
// pane keeps.
func TestFanGroupReachUnderGrants(t *testing.T) {
	t.Parallel()
	w := newFanWorld(t, func(o *Options) { o.Config = strictFile("read") })
	person := w.r
	for _, ss := range []string{"lead", "other"} {
		person.must("new-session", map[string]any{"name": ss, "argv": []string{"/bin/sh", "-c", quietSleeper}})
	}
	lead := relayPane(t, person, w.sock, "lead", "lead", "read,write,fan")
	reader := relayPane(t, person, w.sock, "lead", "reader", "read,write")
	stranger := relayPane(t, person, w.sock, "other", "stranger", "read,write,fan")
	agent := standIn(t, "my-agent", lineAgent)

	// Without the fan grant: refused, nothing made.
	if _, err := reader.rpc().call("fan", map[string]any{"count": 2, "prompt": "x", "agent": agent, "repo": w.repo}); err == nil || err.Code != "forbidden" ||
		!strings.Contains(err.Message, "fan grant") {
		t.Fatalf("fan without the fan grant: %v", err)
	}
	// With it: the attempts hold the lead's own grants.
	res := lead.rpc().must("fan", map[string]any{"count": 2, "prompt": "hello there", "agent": agent, "repo": w.repo, "name": "g", "wait": true})
	for _, a := range attempts(res) {
		if a["prompt_status"] != "sent" {
			t.Fatalf("attempt: %v", a)
		}
	}
	win := str(attempts(res)[0]["window_id"])
	if wins := person.must("list-windows", map[string]any{"session": "api-fan-g"})["windows"].([]any); str(wins[0].(map[string]any)["grants"]) != "[read write fan]" {
		t.Fatalf("the attempt's pane holds %v", wins[0].(map[string]any)["grants"])
	}

	// The lead reads and types into the sessions its fan started.
	lr := lead.rpc()
	lr.must("list-windows", map[string]any{"session": "api-fan-g"})
	lr.must("compare-fan", map[string]any{"session": "api-fan-g-2", "no_changes": true})
	lr.must("send-text", map[string]any{"session": "api-fan-g", "window": win, "text": "more"})
	// A pane of its session without fan reads them, types into none.
	rr := reader.rpc()
	rr.must("list-windows", map[string]any{"session": "api-fan-g"})
	if _, err := rr.call("send-text", map[string]any{"session": "api-fan-g", "window": win, "text": "x"}); err == nil || err.Code != "forbidden" ||
		!strings.Contains(err.Message, "fan group") || !strings.Contains(err.Message, "fan grant") {
		t.Fatalf("typing into the fan without fan: %v", err)
	}
	// Another session's pane reaches none of it.
	sr := stranger.rpc()
	if _, err := sr.call("list-windows", map[string]any{"session": "api-fan-g"}); err == nil || err.Code != "forbidden" {
		t.Fatalf("a stranger read the fan: %v", err)
	}
	if _, err := sr.call("compare-fan", map[string]any{"session": "api-fan-g"}); err == nil || err.Code != "forbidden" {
		t.Fatalf("a stranger compared the fan: %v", err)
	}
	if ls := sr.must("list-worktrees", map[string]any{"no_changes": true})["worktrees"].([]any); len(ls) != 0 {
		t.Fatalf("a stranger lists the fan's worktrees: %v", ls)
	}
	// An attempt's pane reaches the other attempts of its fan.
	inFan := relayPane(t, person, w.sock, "api-fan-g", "peer", "read")
	inFan.rpc().must("list-windows", map[string]any{"session": "api-fan-g-2"})
	if _, err := inFan.rpc().call("list-windows", map[string]any{"session": "lead"}); err == nil || err.Code != "forbidden" {
		t.Fatalf("an attempt reached the session that launched it: %v", err)
	}
	// Keeping is the person's or an admin pane's.
	if _, err := lr.call("keep-fan", map[string]any{"session": "api-fan-g", "force": true}); err == nil || err.Code != "forbidden" || !strings.Contains(err.Message, "admin") {
		t.Fatalf("keep from a pane without admin: %v", err)
	}
	if _, err := lr.call("remove-worktree", map[string]any{"session": "api-fan-g", "force": true}); err == nil || err.Code != "forbidden" {
		t.Fatalf("worktree rm from a pane without admin: %v", err)
	}
	person.must("keep-fan", map[string]any{"session": "api-fan-g", "force": true})
}

// A restart keeps the worktrees' records and each session's fan group:
// the sessions come back with their ids, and an attempt's pane still
// reaches the other attempts.
func TestFanGroupComesBackAfterARestart(t *testing.T) {
	t.Parallel()
	var opt Options
	w := newFanWorld(t, func(o *Options) { o.Config = strictFile("read"); opt = *o })
	w.r.must("fan", map[string]any{"count": 2, "prompt": "true", "agent": "sh", "repo": w.repo, "name": "back", "wait": true})
	w.srv.Close()

	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(t.Context())
	t.Cleanup(func() { srv.Close() })
	r := dialRPC(t, w.sock)
	rows := r.must("list-worktrees", map[string]any{"no_changes": true})["worktrees"].([]any)
	if len(rows) != 2 {
		t.Fatalf("after the restart: %v", rows)
	}
	for _, x := range rows {
		m := x.(map[string]any)
		if m["session_open"] != true || m["group"] != "fan/back" || m["gone"] != false {
			t.Fatalf("row: %v", m)
		}
	}
	peer := relayPane(t, r, w.sock, "api-fan-back", "peer", "read")
	peer.rpc().must("list-windows", map[string]any{"session": "api-fan-back-2"})
	r.must("compare-fan", map[string]any{"group": "back", "no_changes": true})
}
