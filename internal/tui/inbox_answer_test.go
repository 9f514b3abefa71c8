package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// openWith opens the Inbox and loads items into it.
func openWith(t *testing.T, m *Model, items ...map[string]any) {
	t.Helper()
	m.Update(key("ctrl+b"))
	m.Update(key("i"))
	m.Update(reply("inbox:list", map[string]any{"items": items}))
}

func screenText(m *Model) string { return strings.Join(plain(m), "\n") }

// footer is the Inbox's key line (the row above the dock).
func footer(m *Model) string {
	row := plain(m)[18]
	return strings.TrimSpace(row[strings.Index(row, "│")+len("│"):])
}

func countCalls(fc *fakeCalls, verb string) int {
	n := 0
	for _, c := range fc.calls {
		if c.verb == verb {
			n++
		}
	}
	return n
}

func askItem(id, window, name string) map[string]any {
	return map[string]any{"id": id, "kind": "ask", "session": "work", "window": window, "name": name,
		"summary": "Ship it?", "options": []string{"yes", "no"}, "request_id": "ask-" + id, "seq": 1}
}

func TestAskAnswerAfterDwell(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, askItem("a1", "w1", "lead"), askItem("a2", "w1", "other"))
	s := screenText(m)
	for _, want := range []string{"Questions (2)", "lead asks: Ship it?", "1. yes", "2. no"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	if f := footer(m); !strings.HasPrefix(f, "1-2 answer") || strings.Contains(f, "z snooze") {
		t.Errorf("footer %q", f)
	}
	// Before the dwell a digit sends nothing and arms a timer.
	clk.t = clk.t.Add(300 * time.Millisecond)
	if _, cmd := m.Update(key("1")); cmd == nil || countCalls(fc, "answer-ask") != 0 {
		t.Fatal("a digit answered before 0.4 s")
	}
	// A cursor move restarts the dwell on the new row.
	clk.t = clk.t.Add(200 * time.Millisecond)
	m.Update(key("j"))
	clk.t = clk.t.Add(300 * time.Millisecond)
	m.Update(key("2"))
	if countCalls(fc, "answer-ask") != 0 {
		t.Fatal("the dwell did not restart on a cursor move")
	}
	clk.t = clk.t.Add(100 * time.Millisecond)
	m.Update(key("9")) // no ninth option: nothing
	m.Update(key("2"))
	c := fc.last(t, "answer-ask")
	if c.params["request_id"] != "ask-a2" || c.params["answer"] != "no" || c.params["question"] != "Ship it?" || c.params["human_nonce"] != "N1" {
		t.Errorf("answer-ask %v", c.params)
	}
	if countCalls(fc, "answer-ask") != 1 {
		t.Errorf("%d answer-ask calls", countCalls(fc, "answer-ask"))
	}
	m.Update(reply("inbox:ask", map[string]any{"applied": true, "answer": "no"}))
	if d := plain(m)[19]; !strings.Contains(d, `Answered "no" to other: Ship it?`) {
		t.Errorf("dock %q", d)
	}
	m.Update(reply("inbox:ask", map[string]any{"applied": false, "reason": "changed"}))
	if d := plain(m)[19]; !strings.Contains(d, "the question changed") {
		t.Errorf("dock %q", d)
	}
}

// A changed row (its seq moves) restarts the dwell too.
func TestAskChangedRowResetsDwell(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, askItem("a1", "w1", "lead"))
	clk.t = clk.t.Add(350 * time.Millisecond)
	it := askItem("a1", "w1", "lead")
	it["seq"] = 2
	m.Update(reply("inbox:list", map[string]any{"items": []map[string]any{it}}))
	clk.t = clk.t.Add(100 * time.Millisecond)
	m.Update(key("1"))
	if countCalls(fc, "answer-ask") != 0 {
		t.Fatal("answered a row that changed 0.1 s ago")
	}
	clk.t = clk.t.Add(300 * time.Millisecond)
	m.Update(key("1"))
	fc.last(t, "answer-ask")
}

func heldItem(extra map[string]any) map[string]any {
	it := map[string]any{"id": "h", "kind": "approval", "session": "work", "window": "w2", "name": "claude",
		"summary": "approve Bash: go test ./...", "options": []string{"once", "always", "deny"}, "held_id": "req1", "seq": 1,
		"always_scope": []string{"Bash(go test:*) in .claude/settings.local.json"}}
	for k, v := range extra {
		it[k] = v
	}
	return it
}

func TestHeldApprovalKeys(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, heldItem(nil))
	s := screenText(m)
	for _, want := range []string{"claude waits for: approve Bash: go test ./...", "2 always allows from now on:", "Bash(go test:*) in .claude/settings.local.json"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	if f := footer(m); !strings.HasPrefix(f, "1 allow once  2 always  3 deny  n deny with reason  enter hand back") || strings.Contains(f, "peek") || strings.Contains(f, "snooze") {
		t.Errorf("footer %q", f)
	}
	// Space does not peek a held approval.
	m.Update(key("space"))
	if countCalls(fc, "peek-prompt") != 0 {
		t.Error("space peeked a held approval")
	}
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Fatal("1 acted before the dwell")
	}
	clk.t = clk.t.Add(digitDwell)
	for _, k := range []struct{ key, decision string }{{"1", "once"}, {"2", "always"}, {"3", "deny"}} {
		m.Update(key(k.key))
		c := fc.last(t, "reply-approval")
		if c.params["decision"] != k.decision || c.params["request_id"] != "req1" || c.params["summary"] != "approve Bash: go test ./..." ||
			c.params["human_nonce"] != "N1" || c.params["message"] != nil || c.params["risk_ack"] != nil {
			t.Errorf("%s: %v", k.key, c.params)
		}
	}
	m.Update(reply("inbox:reply", map[string]any{"decision": "deny", "applied": true}))
	if d := plain(m)[19]; !strings.Contains(d, "Denied claude: approve Bash: go test ./...") {
		t.Errorf("dock %q", d)
	}

	// n: a typed reason; empty sends the default one.
	m.Update(key("n"))
	if d := plain(m)[19]; !strings.HasPrefix(d, "Deny, because: ") {
		t.Fatalf("dock %q", d)
	}
	for _, r := range "too broad" {
		m.Update(key(string(r)))
	}
	m.Update(tea.PasteMsg{Content: "\x1b[31m!\n"})
	m.Update(key("enter"))
	if c := fc.last(t, "reply-approval"); c.params["decision"] != "deny" || c.params["message"] != "too broad!" {
		t.Errorf("deny with reason %v", c.params)
	}
	m.Update(key("n"))
	m.Update(key("enter"))
	if c := fc.last(t, "reply-approval"); c.params["message"] != "The user denied this from the tuios Inbox." {
		t.Errorf("empty reason %v", c.params)
	}
	n := countCalls(fc, "reply-approval")
	m.Update(key("n"))
	m.Update(key("x"))
	m.Update(key("esc"))
	if countCalls(fc, "reply-approval") != n || m.inbox == nil || m.inbox.input != nil {
		t.Error("esc did not cancel the reason")
	}
	// A reason is one line of at most 500 bytes.
	m.Update(key("n"))
	m.Update(tea.PasteMsg{Content: strings.Repeat("é", 400)})
	if got := len(string(m.inbox.input.text)); got != 500 {
		t.Errorf("reason of %d bytes", got)
	}
	m.Update(key("esc"))

	// enter hands the prompt back, then goes to the pane.
	m.Update(key("enter"))
	if c := fc.last(t, "reply-approval"); c.params["decision"] != "ask" {
		t.Errorf("enter %v", c.params)
	}
	if m.inbox != nil || fc.last(t, "focus-window").params["window"] != "w2" {
		t.Error("enter did not go to the pane")
	}
}

func TestHeldApprovalWithoutAlways(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, heldItem(map[string]any{"options": []string{"once", "deny"}, "always_scope": nil}))
	clk.t = clk.t.Add(time.Second)
	m.Update(key("2"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Error("2 acted where always is not offered")
	}
	if f := footer(m); strings.Contains(f, "2 always") || !strings.HasPrefix(f, "1 allow once  3 deny") {
		t.Errorf("footer %q", f)
	}
}

func TestRiskyHeldSecondPress(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	risky := heldItem(map[string]any{"summary": "approve Bash: rm -rf build/",
		"risk": []map[string]string{{"rule": "recursive delete", "why": "removes a tree", "text": "rm -rf build/"}}})
	openWith(t, m, risky, askItem("a1", "w1", "lead"))
	if !strings.Contains(screenText(m), "risky: recursive delete: removes a tree (rm -rf build/)") {
		t.Errorf("no rule in the detail:\n%s", screenText(m))
	}
	clk.t = clk.t.Add(time.Second)
	_, cmd := m.Update(key("1"))
	until := clk.t.Add(riskWindow).Format("15:04:05")
	if cmd == nil || countCalls(fc, "reply-approval") != 0 {
		t.Fatal("a risky first press sent something")
	}
	if d := plain(m)[19]; !strings.Contains(d, "Press 1 again by "+until+" to allow rm -rf build/") {
		t.Errorf("dock %q", d)
	}
	clk.t = clk.t.Add(2 * time.Second)
	m.Update(key("1"))
	c := fc.last(t, "reply-approval")
	if ack, _ := c.params["risk_ack"].([]string); c.params["decision"] != "once" || len(ack) != 1 || ack[0] != "recursive delete" {
		t.Errorf("second press %v", c.params)
	}

	// A cursor move between the presses resets: the next 1 is a first
	// press again.
	m.Update(key("1"))
	m.Update(key("j"))
	m.Update(key("k"))
	clk.t = clk.t.Add(time.Second)
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 1 {
		t.Error("a press before a cursor move counted")
	}
	if !strings.Contains(plain(m)[19], "Press 1 again") {
		t.Errorf("dock %q", plain(m)[19])
	}
	// Another key between them resets too.
	m.Update(key("J"))
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 1 {
		t.Error("a press before another key counted")
	}
	// Past 3 s the first press is forgotten, and its line leaves the dock.
	clk.t = clk.t.Add(riskWindow + time.Millisecond)
	m.Update(timerMsg{})
	if strings.Contains(plain(m)[19], "Press 1 again") {
		t.Errorf("stale dock %q", plain(m)[19])
	}
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 1 {
		t.Error("a press older than 3 s counted")
	}
	// Deny takes one press.
	m.Update(key("3"))
	if c := fc.last(t, "reply-approval"); c.params["decision"] != "deny" {
		t.Errorf("deny %v", c.params)
	}
}

func planItem(lines int) map[string]any {
	return map[string]any{"id": "p", "kind": "plan", "session": "work", "window": "w2", "name": "claude",
		"summary": "plan: Refactor the retry loop", "options": []string{"once", "always", "deny"}, "held_id": "plan1",
		"plan_lines": lines, "plan_sha": "abc", "seq": 1}
}

func planText_(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "step %d\n", i)
	}
	return b.String()
}

func TestPlanLastLineRule(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, planItem(40))
	if c := fc.last(t, "get-approval"); c.params["request_id"] != "plan1" {
		t.Fatalf("get-approval %v", c.params)
	}
	m.Update(reply("inbox:plan", map[string]any{"request_id": "plan1", "plan": planText_(40), "plan_sha": "abc"}))
	s := screenText(m)
	if !strings.Contains(s, "Refactor the retry loop (40 lines)") || !strings.Contains(s, "step 1") || strings.Contains(s, "step 40") {
		t.Fatalf("plan view:\n%s", s)
	}
	// P7: the last line was never on screen, so 1 does nothing.
	clk.t = clk.t.Add(5 * time.Second)
	m.Update(key("1"))
	m.Update(key("2"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Fatal("a plan was approved unread")
	}
	if f := footer(m); strings.HasPrefix(f, "1 approve") || !strings.HasPrefix(f, "3 keep planning") {
		t.Errorf("footer before reading %q", f)
	}
	// Scrolling to the end shows the last line; 1 works 0.4 s later.
	for range 60 {
		m.Update(key("J"))
	}
	if !strings.Contains(screenText(m), "step 40") {
		t.Fatalf("J did not reach the end:\n%s", screenText(m))
	}
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Fatal("1 acted right as the last line showed")
	}
	clk.t = clk.t.Add(digitDwell)
	if f := footer(m); !strings.HasPrefix(f, "1 approve  2 approve + accept edits  3 keep planning") {
		t.Errorf("footer after reading %q", f)
	}
	m.Update(key("1"))
	c := fc.last(t, "reply-approval")
	if c.params["decision"] != "once" || c.params["plan_sha"] != "abc" || c.params["request_id"] != "plan1" || c.params["summary"] != "plan: Refactor the retry loop" {
		t.Errorf("approve %v", c.params)
	}
	// Scrolling back up keeps it read.
	for range 60 {
		m.Update(key("K"))
	}
	m.Update(key("2"))
	if c := fc.last(t, "reply-approval"); c.params["decision"] != "always" {
		t.Errorf("2 after scrolling back %v", c.params)
	}
	// n keeps planning with a reason.
	m.Update(key("n"))
	if d := plain(m)[19]; !strings.HasPrefix(d, "Keep planning, because: ") {
		t.Errorf("dock %q", d)
	}
}

func TestPlanShortShownAtOnce(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	openWith(t, m, planItem(3))
	m.Update(reply("inbox:plan", map[string]any{"request_id": "plan1", "plan": planText_(3), "plan_sha": "abc"}))
	clk.t = clk.t.Add(300 * time.Millisecond)
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Fatal("approved 0.3 s after the plan showed")
	}
	clk.t = clk.t.Add(100 * time.Millisecond)
	m.Update(key("1"))
	if c := fc.last(t, "reply-approval"); c.params["plan_sha"] != "abc" {
		t.Errorf("approve %v", c.params)
	}
}

// On a terminal too short to show the plan in a few rows, its last line
// never counts as shown: the plan is answered in the pane.
func TestPlanTooShortScreen(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: 104, Height: 7})
	openWith(t, m, planItem(3))
	m.Update(reply("inbox:plan", map[string]any{"request_id": "plan1", "plan": planText_(3), "plan_sha": "abc"}))
	for range 10 {
		m.Update(key("J"))
	}
	clk.t = clk.t.Add(time.Second)
	m.Update(key("1"))
	if countCalls(fc, "reply-approval") != 0 {
		t.Error("a plan squeezed into a tiny screen was approved")
	}
}

func TestReplyKey(t *testing.T) {
	t.Parallel()
	m, fc, clk := newTest(t, Options{})
	since := clk.t.Add(-4 * time.Minute).UnixNano()
	// w2 (claude) is on needs_input in the layout; w9 (codex) works; w1
	// has an open question.
	openWith(t, m,
		askItem("a1", "w1", "shell"),
		map[string]any{"id": "f1", "kind": "finished", "session": "work", "window": "w2", "name": "claude", "since": since, "seq": 2},
		map[string]any{"id": "f2", "kind": "finished", "session": "api", "window": "w9", "name": "codex", "since": since, "seq": 3},
		map[string]any{"id": "f3", "kind": "errored", "session": "work", "window": "w1", "name": "shell", "since": since, "seq": 4},
	)
	// Rows go ask, errored, finished: f3, f1, f2 after the ask.
	m.Update(key("j")) // f3: its pane has an open ask
	if f := footer(m); !strings.HasPrefix(f, "r reply") {
		t.Errorf("footer %q", f)
	}
	m.Update(key("r"))
	if d := plain(m)[19]; !strings.Contains(d, "shell is waiting on a prompt. Answer it first (space to peek).") || m.inbox.input != nil {
		t.Errorf("open ask: dock %q", d)
	}
	m.Update(key("j")) // f1
	m.Update(key("r"))
	if d := plain(m)[19]; !strings.Contains(d, "claude is waiting on a prompt. Answer it first (space to peek).") || m.inbox.input != nil {
		t.Errorf("Q8: dock %q, input %v", d, m.inbox.input)
	}
	m.Update(key("j")) // f2
	m.Update(key("r"))
	if d := plain(m)[19]; !strings.HasPrefix(d, "Reply to codex (done 4m): ") {
		t.Fatalf("dock %q", d)
	}
	if f := footer(m); !strings.HasPrefix(f, "enter send when ready  esc cancel") {
		t.Errorf("footer %q", f)
	}
	// Keys go to the line, not to the Inbox.
	for _, r := range "and add tests" {
		m.Update(key(string(r)))
	}
	if c := m.cursor(); c == nil || c.Y != 19 || c.X != len("Reply to codex (done 4m): and add tests") {
		t.Errorf("cursor %+v", c)
	}
	m.Update(key("enter"))
	c := fc.last(t, "queue-prompt")
	if c.params["session"] != "api" || c.params["window"] != "w9" || c.params["text"] != "and add tests" || c.params["human_nonce"] != "N1" {
		t.Errorf("queue-prompt %v", c.params)
	}
	m.Update(reply("inbox:queue", map[string]any{"id": "q1", "position": 1}))
	if d := plain(m)[19]; !strings.Contains(d, "Queued for codex") {
		t.Errorf("dock %q", d)
	}
	// esc cancels.
	m.Update(key("r"))
	m.Update(key("x"))
	m.Update(key("esc"))
	if countCalls(fc, "queue-prompt") != 1 || m.inbox.input != nil {
		t.Error("esc did not cancel the reply")
	}
	// r does nothing on other rows.
	m.Update(key("g"))
	m.Update(key("r"))
	if m.inbox.input != nil {
		t.Error("r opened a reply on an ask")
	}
}

func TestFooterOtherRows(t *testing.T) {
	t.Parallel()
	m, _, _ := newTest(t, Options{})
	openWith(t, m,
		map[string]any{"id": "q", "kind": "question", "session": "work", "window": "w2", "name": "claude", "seq": 1},
		map[string]any{"id": "o", "kind": "outbox", "session": "work", "name": "build", "seq": 2})
	if f := footer(m); !strings.HasPrefix(f, "space peek  enter go") {
		t.Errorf("question footer %q", f)
	}
	m.Update(key("j"))
	if f := footer(m); f != "d dismiss  f kind  / select  S snoozed  q close" {
		t.Errorf("outbox footer %q", f)
	}
}
