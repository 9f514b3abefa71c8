package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
)

// A pane program that prints every line it reads as got:LINE, with the
// terminal's echo off, so the screen shows exactly what was submitted.
const echoLines = `stty -echo; echo ready; while IFS= read -r l; do printf 'got:%s\n' "$l"; done`

type queueRig struct {
	t   *testing.T
	srv *Server
	clk *fakeclock.Clock
	r   *rpc
	w   string // the worker pane's id
}

// newQueueRig starts a daemon on a fake clock with one pane, worker,
// running echoLines, reported as a claude-code agent in state.
func newQueueRig(t *testing.T, state string) *queueRig {
	t.Helper()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	srv, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk; o.Logf = t.Logf })
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "q"})
	w := str(r.must("new-window", map[string]any{"session": "q", "name": "worker", "argv": []string{"sh", "-c", echoLines}})["window_id"])
	rig := &queueRig{t: t, srv: srv, clk: clk, r: r, w: w}
	rig.ready()
	rig.state(state)
	return rig
}

// ready waits for the pane's program to turn its echo off.
func (g *queueRig) ready() {
	g.t.Helper()
	g.r.must("wait-for", map[string]any{"window": g.w, "condition": "window-output", "pattern": "ready", "timeout": 10000})
}

// state reports the worker's state as its hooks would.
func (g *queueRig) state(st string) {
	g.t.Helper()
	g.r.must("set-agent-state", map[string]any{"session": "q", "window": g.w, "state": st, "harness": "claude-code"})
	// The queue hears it through the arbiter's stream: wait until the
	// pane's state reads back, then until the queue's follower caught up
	// (a no-op list call orders nothing, so poll what the follower sets).
	eventually(g.t, "state "+st, func() bool {
		return str(g.r.must("get-agent-state", map[string]any{"window": g.w})["state"]) == st
	})
}

func (g *queueRig) queue(text string, extra map[string]any) map[string]any {
	g.t.Helper()
	p := map[string]any{"session": "q", "window": "worker", "text": text}
	for k, v := range extra {
		p[k] = v
	}
	return g.r.must("queue-prompt", p)
}

// got lists the lines the pane received.
func (g *queueRig) got() []string {
	g.t.Helper()
	var out []string
	for _, l := range strings.Split(str(g.r.must("capture-pane", map[string]any{"window": g.w})["content"]), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "got:") {
			out = append(out, strings.TrimPrefix(l, "got:"))
		}
	}
	return out
}

func (g *queueRig) waitGot(n int) []string {
	g.t.Helper()
	var lines []string
	deadline := time.Now().Add(5 * time.Second)
	for lines = g.got(); len(lines) < n; lines = g.got() {
		if time.Now().After(deadline) {
			g.t.Fatalf("the pane received %d lines, not %d:\n%q", len(lines), n, str(g.r.must("capture-pane", map[string]any{"window": g.w})["content"]))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return lines
}

// entries is list-queued for the worker.
func (g *queueRig) entries() []queuedRow {
	g.t.Helper()
	var res struct {
		Entries []queuedRow `json:"entries"`
	}
	remarshalT(g.t, g.r.must("list-queued", map[string]any{"session": "q", "window": "worker"}), &res)
	return res.Entries
}

func (g *queueRig) waitState(id, state string) {
	g.t.Helper()
	eventually(g.t, id+" "+state, func() bool {
		for _, e := range g.entries() {
			if e.ID == id {
				return e.State == state
			}
		}
		return state == ""
	})
}

// typed waits until the entry was typed and its prompt gate armed from
// the Enter (the fake clock stands still meanwhile).
func (g *queueRig) typed(id string) {
	g.t.Helper()
	g.waitState(id, "delivering")
	g.waitArmed(g.clk.Now().Add(queueGate))
}

// waitArmed waits until the worker's one timer is due at at.
func (g *queueRig) waitArmed(at time.Time) {
	g.t.Helper()
	eventually(g.t, "the queue's timer armed for "+at.String(), func() bool {
		due, ok := g.srv.queue.armedFor(g.w)
		return ok && due.Equal(at)
	})
}

// Q1: queued while working, typed and submitted once the pane has been at
// rest for 1 s (fake clock), and gone from the list once it was taken.
func TestQueueTypesAfterOneSecondOfRest(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	res := g.queue("add tests", nil)
	if res["type"] != "prompt_queued" || res["id"] != "q1" || res["position"] != float64(1) || res["queued"] != float64(1) || res["delivering"] != false {
		t.Fatalf("queue-prompt: %v", res)
	}
	if e := g.entries(); len(e) != 1 || e[0].By != "shell" || e[0].State != "waiting" || e[0].Preview != "add tests" || e[0].Name != "worker" {
		t.Fatalf("list-queued: %+v", e)
	}
	if _, armed := g.srv.queue.armedFor(g.w); armed {
		t.Fatal("a timer is armed while the pane works")
	}
	if n := g.r.must("get-agent-state", map[string]any{"window": g.w})["queued"]; n != float64(1) {
		t.Fatalf("get-agent-state queued %v", n)
	}
	rest := g.clk.Now()
	g.state("idle")
	g.waitArmed(rest.Add(queueRest))
	g.clk.Advance(queueRest - time.Millisecond)
	if got := g.got(); len(got) != 0 || g.entries()[0].State != "waiting" {
		t.Fatalf("typed before 1 s of rest: %v", got)
	}
	start := time.Now()
	g.clk.Advance(time.Millisecond)
	if got := g.waitGot(1); got[0] != "add tests" {
		t.Fatalf("the pane got %q", got)
	}
	t.Logf("typed and submitted %v (wall) after the 1 s of rest ended", time.Since(start).Round(time.Millisecond))
	g.waitState("q1", "delivering")
	g.waitArmed(g.clk.Now().Add(queueGate)) // the prompt gate, from the Enter
	g.state("working")
	eventually(t, "the list empties", func() bool { return len(g.entries()) == 0 })
	eventually(t, "no timer is left", func() bool { _, armed := g.srv.queue.armedFor(g.w); return !armed })
}

// Q2: two entries, one rest: only the first is typed; the second waits for
// a rest reached after the first's Enter.
func TestQueueOneMessagePerRest(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.queue("first", nil)
	if res := g.queue("second", nil); res["position"] != float64(2) || res["id"] != "q2" {
		t.Fatalf("second: %v", res)
	}
	g.state("idle")
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.waitGot(1)
	g.typed("q1")
	// The agent finished a turn without showing working (completion_seq
	// rises): taken, yet the rest it is in began before the Enter.
	g.state("done")
	g.clk.Advance(3 * time.Second)
	if got := g.got(); len(got) != 1 || got[0] != "first" {
		t.Fatalf("after one rest the pane got %q", got)
	}
	g.waitState("q1", "")
	if e := g.entries(); len(e) != 1 || e[0].ID != "q2" || e[0].State != "waiting" {
		t.Fatalf("the second did not wait: %+v", e)
	}
	g.state("working")
	g.state("idle")
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	if got := g.waitGot(2); got[1] != "second" {
		t.Fatalf("the pane got %q", got)
	}
}

// Q3: the ninth entry on a pane (default max 8) is queue_full.
func TestQueueFull(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	for i := range 8 {
		g.queue("m"+string(rune('1'+i)), nil)
	}
	_, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": "ninth"})
	if err == nil || err.Code != "queue_full" || err.Hint == nil || err.Hint.Command == "" {
		t.Fatalf("ninth: %+v", err)
	}
	if n := len(g.entries()); n != 8 {
		t.Fatalf("%d entries", n)
	}
	big := strings.Repeat("x", maxQueuedText+1)
	g.r.must("cancel-queued", map[string]any{"id": "q1"})
	if _, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": big}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("17 KiB: %+v", err)
	}
}

// Q4: typed but not taken within 5 s: stalled, never retyped, an Inbox
// question; those behind wait until it is cancelled (its question closes)
// and the pane comes to rest after it was typed.
func TestQueueStallsAndBlocks(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "idle")
	g.queue("are you there", nil)
	g.queue("behind", nil)
	g.waitArmed(g.clk.Now().Add(queueRest)) // at rest since the report, not since the queueing
	g.clk.Advance(queueRest)
	g.waitGot(1)
	g.typed("q1")
	g.clk.Advance(queueGate)
	g.waitState("q1", "stalled")
	want := inbox.NoticeStalled("worker")
	l := waitList(t, g.r, nil, "the stall's question", func(l attList) bool { return l.Total == 1 })
	if it := l.Items[0]; it.Kind != "question" || it.Summary != want || it.Window != g.w {
		t.Fatalf("item: %+v", it)
	}
	g.clk.Advance(time.Minute)
	if got := g.got(); len(got) != 1 {
		t.Fatalf("retyped or went on past a stalled entry: %q", got)
	}
	if _, armed := g.srv.queue.armedFor(g.w); armed {
		t.Fatal("a timer is armed behind a stalled entry")
	}
	res := g.r.must("cancel-queued", map[string]any{"id": "q1"})
	if c, _ := res["cancelled"].([]any); len(c) != 1 || c[0] != "q1" || res["queued"] != float64(1) {
		t.Fatalf("cancel: %v", res)
	}
	waitList(t, g.r, nil, "the question closes", func(l attList) bool { return l.Total == 0 })
	g.clk.Advance(time.Minute)
	if got := g.got(); len(got) != 1 {
		t.Fatalf("the next went without a new rest: %q", got)
	}
	g.state("working")
	g.state("idle")
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	if got := g.waitGot(2); got[1] != "behind" {
		t.Fatalf("got %q", got)
	}
}

// Q4, the other way out: the pane shows working, which drops the stalled
// entry and closes its question.
func TestQueueStalledDroppedWhenThePaneWorks(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "idle")
	g.queue("hello", nil)
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.typed("q1")
	g.clk.Advance(queueGate)
	g.waitState("q1", "stalled")
	waitList(t, g.r, nil, "the stall's question", func(l attList) bool { return l.Total == 1 })
	if _, err := g.r.call("cancel-queued", map[string]any{"id": "q9"}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("unknown id: %+v", err)
	}
	g.state("working")
	g.waitState("q1", "")
	waitList(t, g.r, nil, "the question closes", func(l attList) bool { return l.Total == 0 })
}

// Q5: a pane on needs_input is never typed into; the entry keeps waiting.
func TestQueueNeverTypesOverAPrompt(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.queue("yes", nil)
	g.state("needs_input")
	g.clk.Advance(time.Minute)
	if got := g.got(); len(got) != 0 {
		t.Fatalf("typed over a prompt: %q", got)
	}
	if e := g.entries(); len(e) != 1 || e[0].State != "waiting" {
		t.Fatalf("%+v", e)
	}
	if _, armed := g.srv.queue.armedFor(g.w); armed {
		t.Fatal("a timer is armed while the pane waits on a prompt")
	}
	g.state("idle")
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.waitGot(1)
}

// Q6: entries die with the agent leaving (state none), the pane closing
// and the session ending; they are never saved, so a restart has none.
func TestQueueDroppedWithThePane(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	g.queue("one", nil)
	g.queue("two", nil)
	g.r.must("set-agent-state", map[string]any{"window": g.w, "state": "none"})
	eventually(t, "the agent left: entries dropped", func() bool { return g.srv.queue.Count(g.w) == 0 })
	if _, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": "x"}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("a pane with no agent: %+v", err)
	}
	g.state("working")
	g.queue("three", nil)
	g.r.must("close-window", map[string]any{"window": g.w})
	eventually(t, "the pane closed: entries dropped", func() bool { return g.srv.queue.Count(g.w) == 0 && g.srv.queue.Panes() == 0 })

	w2 := str(g.r.must("new-window", map[string]any{"session": "q", "name": "worker", "argv": []string{"sh", "-c", echoLines}})["window_id"])
	g.w = w2
	g.ready()
	g.state("working")
	g.queue("four", nil)
	g.r.must("kill-session", map[string]any{"session": "q"})
	eventually(t, "the session ended: entries dropped", func() bool { return g.srv.queue.Count(w2) == 0 })
}

// Who queued decides who may drop: the person any, a shell all but the
// person's; an entry being typed cannot be dropped; human has no keyboard.
func TestQueueOriginsAndDropRights(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	nonce := str(g.r.must("attach", map[string]any{"client": "test"})["human_nonce"])
	g.queue("from the person", map[string]any{"human_nonce": nonce})
	g.queue("from a script", map[string]any{"from": "ci"})
	e := g.entries()
	if len(e) != 2 || e[0].By != "human" || e[1].By != "shell" || e[1].From != "ci" {
		t.Fatalf("%+v", e)
	}
	if _, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": "x", "human_nonce": "nope"}); err == nil || err.Code != "not_human" {
		t.Fatalf("a dead nonce: %+v", err)
	}
	if _, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": "x", "from": "human"}); err == nil || err.Code != "not_human" {
		t.Fatalf("from human without a nonce: %+v", err)
	}
	if _, err := g.r.call("queue-prompt", map[string]any{"session": "q", "window": "human", "text": "x"}); err == nil || err.Code != "no_keyboard" {
		t.Fatalf("human: %+v", err)
	}
	if _, err := g.r.call("cancel-queued", map[string]any{"id": "q1"}); err == nil || err.Code != "forbidden" {
		t.Fatalf("a shell dropped the person's entry: %+v", err)
	}
	if _, err := g.r.call("cancel-queued", map[string]any{"id": "q1", "all": true, "window": "worker"}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("id with all: %+v", err)
	}
	res := g.r.must("cancel-queued", map[string]any{"session": "q", "window": "worker", "all": true})
	if c, _ := res["cancelled"].([]any); len(c) != 1 || c[0] != "q2" || res["queued"] != float64(1) {
		t.Fatalf("a shell's all: %v", res)
	}
	// Being typed: not droppable, even by the person.
	g.state("idle")
	g.waitArmed(g.clk.Now().Add(queueRest))
	g.clk.Advance(queueRest)
	g.typed("q1")
	if _, err := g.r.call("cancel-queued", map[string]any{"id": "q1", "human_nonce": nonce}); err == nil || err.Code != "forbidden" {
		t.Fatalf("dropped while typed: %+v", err)
	}
	g.clk.Advance(queueGate)
	g.waitState("q1", "stalled")
	g.r.must("cancel-queued", map[string]any{"id": "q1", "human_nonce": nonce})
	if n := len(g.entries()); n != 0 {
		t.Fatalf("%d left", n)
	}
}

// list-queued gives the person each message whole (so a dropped one can be
// queued again as it was); anyone else gets the preview only.
func TestListQueuedGivesThePersonTheWholeText(t *testing.T) {
	t.Parallel()
	g := newQueueRig(t, "working")
	long := strings.Repeat("a long line of the reply ", 10) + "\nand a second line"
	g.r.must("queue-prompt", map[string]any{"session": "q", "window": "worker", "text": long})
	rows := func(r *rpc, params map[string]any) []any {
		return r.must("list-queued", params)["entries"].([]any)
	}
	plain := rows(g.r, map[string]any{"session": "q", "window": "worker"})
	if len(plain) != 1 || plain[0].(map[string]any)["text"] != nil || plain[0].(map[string]any)["preview"] == long {
		t.Fatalf("a shell's listing: %v", plain)
	}
	person := personRPC(t, g.srv.opt.Socket)
	whole := rows(person, map[string]any{"session": "q", "window": "worker", "human_nonce": person.nonce})
	if len(whole) != 1 || whole[0].(map[string]any)["text"] != long {
		t.Fatalf("the person's listing: %v", whole)
	}
	if rows(person, map[string]any{"session": "q", "window": "worker", "human_nonce": "forged"})[0].(map[string]any)["text"] != nil {
		t.Fatalf("a forged nonce got the whole text")
	}
}
