package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// Held approvals (docs/inbox.md, Held approvals): a hook's
// request-approval blocks on its connection until the person answers with
// reply-approval or the hold ends without an answer. The payloads are the
// ones Claude Code 2.1.197's hook sends (recorded, see
// detect/hook/held_test.go); the daemon's clock is fake where time
// matters.

// holdRig is a daemon with approvals enabled for Claude Code, one cat pane
// on needs_input (the hook's report), and a person holding an attach nonce.
type holdRig struct {
	t      *testing.T
	srv    *Server
	sock   string
	clk    *fakeclock.Clock
	r      *rpc   // the person's connection (holds the nonce)
	nonce  string // the person's human nonce
	window string
}

func newHoldRig(t *testing.T, cfg string) *holdRig {
	t.Helper()
	if cfg == "" {
		cfg = "[agents.approvals]\nenabled = [\"claude\"]\n"
	}
	f, err := config.Parse([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	srv, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk; o.Config = f })
	g := &holdRig{t: t, srv: srv, sock: sock, clk: clk, r: personRPC(t, sock)}
	g.window = catPane(t, g.r, "api")
	g.nonce = g.r.nonce
	return g
}

// block reports what Claude Code's PermissionRequest hook reports first.
func (g *holdRig) block(summary string) {
	g.t.Helper()
	report(g.t, g.r, g.window, "needs_input", "approval", summary)
}

// pending is a request-approval in flight on its own connection.
type pending struct {
	c    *rpc
	done chan map[string]any
}

// request sends request-approval and does not wait for its answer.
func (g *holdRig) request(params map[string]any) *pending {
	g.t.Helper()
	p := map[string]any{"window": g.window, "harness": "claude-code", "options": []string{"once", "deny"}, "deny_message": true}
	for k, v := range params {
		p[k] = v
	}
	c := dialRPC(g.t, g.sock)
	b, _ := json.Marshal(map[string]any{"id": 7, "verb": "request-approval", "params": p})
	if _, err := c.c.Write(append(b, '\n')); err != nil {
		g.t.Fatal(err)
	}
	pd := &pending{c: c, done: make(chan map[string]any, 1)}
	go func() {
		c.c.SetReadDeadline(time.Now().Add(guard))
		line, err := proto.ReadLine(c.r, proto.MaxLine)
		var resp struct {
			Result map[string]any `json:"result"`
			Error  *proto.Error   `json:"error"`
		}
		if err == nil {
			json.Unmarshal(line, &resp)
		}
		if resp.Error != nil {
			resp.Result = map[string]any{"error": resp.Error.Code}
		}
		pd.done <- resp.Result
	}()
	return pd
}

// result waits for the hook's answer.
func (p *pending) result(t *testing.T) map[string]any {
	t.Helper()
	select {
	case r := <-p.done:
		if r == nil {
			t.Fatal("request-approval: no answer")
		}
		return r
	case <-time.After(guard):
		t.Fatal("request-approval never answered")
	}
	return nil
}

// still reports whether the hook is still waiting.
func (p *pending) still() bool {
	select {
	case r := <-p.done:
		p.done <- r
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

// held waits until the pane's item is held and returns it.
func (g *holdRig) held() map[string]any {
	g.t.Helper()
	var it map[string]any
	eventually(g.t, "a held item", func() bool {
		it = g.item()
		return it != nil && it["held_id"] != nil
	})
	return it
}

// item is the pane's blocking item (nil when there is none).
func (g *holdRig) item() map[string]any {
	res := g.r.must("list-attention", map[string]any{})
	items, _ := res["items"].([]any)
	for _, x := range items {
		it := x.(map[string]any)
		if it["window"] == g.window {
			return it
		}
	}
	return nil
}

func (g *holdRig) reply(params map[string]any) (map[string]any, *proto.Error) {
	g.t.Helper()
	p := map[string]any{"human_nonce": g.nonce}
	for k, v := range params {
		p[k] = v
	}
	return g.r.call("reply-approval", p)
}

// timers counts the holds' armed timers.
func (g *holdRig) timers() int { return g.srv.holds.Timers() }

func (g *holdRig) state() string {
	return str(g.r.must("get-agent-state", map[string]any{"window": g.window})["state"])
}

// The person allows once: the hook gets the decision, the item closes
// answered, the pane is working at once; a second reply gets the standing
// decision.
func TestHeldApprovalAllowOnce(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	hk := g.request(map[string]any{"summary": "approve Bash: make test", "tool": "Bash", "target": "make test"})
	it := g.held()
	rid := str(it["held_id"])
	if it["kind"] != "approval" || it["summary"] != "approve Bash: make test" || it["expires"] != float64(g.clk.Now().Add(120*time.Second).UnixNano()) {
		t.Fatalf("held item: %v", it)
	}
	if !hk.still() {
		t.Fatal("the hook did not block")
	}
	got := g.r.must("get-approval", map[string]any{"request_id": rid})
	if got["type"] != "approval" || got["tool"] != "Bash" || got["target"] != "make test" || got["untrusted"] != true || got["held"] != true {
		t.Fatalf("get-approval: %v", got)
	}
	res, perr := g.reply(map[string]any{"request_id": rid, "decision": "once", "summary": "approve Bash: make test"})
	if perr != nil || res["applied"] != true || res["decision"] != "once" || res["reason"] != "answered" || res["window"] != g.window {
		t.Fatalf("reply: %v %v", res, perr)
	}
	r := hk.result(t)
	if r["type"] != "approval_result" || r["decision"] != "once" || r["reason"] != "answered" || r["answered_by"] != "human" || r["request_id"] != rid {
		t.Fatalf("hook: %v", r)
	}
	if st := g.state(); st != "working" {
		t.Fatalf("the pane reads %s after the answer", st)
	}
	if it := g.item(); it != nil {
		t.Fatalf("the item stayed: %v", it)
	}
	res, perr = g.reply(map[string]any{"request_id": rid, "decision": "deny"})
	if perr != nil || res["applied"] != false || res["decision"] != "once" {
		t.Fatalf("second reply: %v %v", res, perr)
	}
	if n := g.timers(); n != 0 {
		t.Fatalf("%d hold timers left after the hold ended", n)
	}
}

// A deny carries the reason the model reads; empty is the Inbox's words.
func TestHeldApprovalDeny(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	hk := g.request(map[string]any{"summary": "approve Bash: make test"})
	g.held()
	// A reason is one line of up to 500 bytes: longer than a held line
	// may be, and spaces as typed.
	long := "use go test  " + strings.Repeat("and keep the cache warm ", 18)
	if _, perr := g.reply(map[string]any{"window": g.window, "decision": "deny", "message": long + "\nrm -rf /"}); perr == nil || perr.Code != proto.CodeInvalidParams {
		t.Fatalf("a reason of two lines: %v", perr)
	}
	if _, perr := g.reply(map[string]any{"window": g.window, "decision": "deny", "message": long}); perr != nil {
		t.Fatal(perr)
	}
	if r := hk.result(t); r["decision"] != "deny" || r["message"] != long {
		t.Fatalf("hook: %v", r)
	}
	g.r.must("set-agent-state", map[string]any{"window": g.window, "state": "working"})
	g.block("approve Bash: make")
	hk = g.request(map[string]any{"summary": "approve Bash: make"})
	g.held()
	g.reply(map[string]any{"window": g.window, "decision": "deny"})
	if r := hk.result(t); r["decision"] != "deny" || r["message"] != defaultDenyMessage {
		t.Fatalf("hook: %v", r)
	}
}

// Nobody answers: the hold ends timeout after hold_seconds; an unheld
// approval item remains. One timer per hold.
func TestHeldApprovalTimeout(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	hk := g.request(map[string]any{"summary": "approve Bash: make test"})
	g.held()
	if n := g.timers(); n != 1 {
		t.Fatalf("%d timers for one hold", n)
	}
	g.clk.Advance(119 * time.Second)
	if !hk.still() {
		t.Fatal("ended before hold_seconds")
	}
	g.clk.Advance(time.Second)
	if r := hk.result(t); r["decision"] != "" || r["reason"] != "timeout" {
		t.Fatalf("hook: %v", r)
	}
	eventually(t, "an unheld approval item", func() bool {
		it := g.item()
		return it != nil && it["kind"] == "approval" && it["held_id"] == nil
	})
}

// hold_seconds is clamped to 10..300: the hook's own limit (305 s, under
// the harness's 310 s) must outlast the longest hold.
func TestHeldApprovalHoldSecondsClamp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		set  int
		want time.Duration
	}{{5, 10 * time.Second}, {900, 300 * time.Second}} {
		g := newHoldRig(t, "[agents.approvals]\nenabled = [\"claude-code\"]\nhold_seconds = "+str(c.set)+"\n")
		g.block("approve Bash: ls")
		hk := g.request(map[string]any{"summary": "approve Bash: ls"})
		if it := g.held(); it["expires"] != float64(g.clk.Now().Add(c.want).UnixNano()) {
			t.Fatalf("hold_seconds %d: expires %v", c.set, it["expires"])
		}
		g.clk.Advance(c.want)
		if r := hk.result(t); r["reason"] != "timeout" {
			t.Fatalf("hold_seconds %d: %v", c.set, r)
		}
	}
}

// The person focuses the pane: the hold ends viewed; a pane already in
// front when the prompt arrives is not held at all.
func TestHeldApprovalViewed(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	hk := g.request(map[string]any{"summary": "approve Bash: make test"})
	g.held()
	attachStreamT(t, g.sock, map[string]any{"session": "api", "cols": 80, "rows": 24})
	if r := hk.result(t); r["decision"] != "" || r["reason"] != "viewed" {
		t.Fatalf("hook: %v", r)
	}
	hk = g.request(map[string]any{"summary": "approve Bash: make test"})
	if r := hk.result(t); r["reason"] != "viewed" || r["held_ms"] != 0.0 {
		t.Fatalf("in front: %v", r)
	}
}

// A line the Inbox cannot show whole is never held: nobody may allow a
// call they could not read.
func TestHeldApprovalNotShown(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	eventually(t, "the approval item", func() bool { return g.item() != nil })
	for _, s := range []string{
		"approve Bash: make  test",
		"approve Bash: " + strings.Repeat("x", 150),
		"approve Bash: make\u200btest",
		"approve Bash: make\u202etest",
		"approve Bash: make\ttest",
		"approve Bash: make\ntest",
		"approve Bash: curl -H 'Authorization: Bearer abcdef0123456789'",
		"approve Bash: make test ",
	} {
		r := g.request(map[string]any{"summary": s}).result(t)
		if r["reason"] != "not_shown" || r["decision"] != "" {
			t.Fatalf("%q: %v", s, r)
		}
	}
	if it := g.item(); it == nil || it["held_id"] != nil {
		t.Fatalf("item after refusals: %v", it)
	}
}

// A plan allowed from another text answers changed with the hold's
// plan_sha, and the hold goes on.
func TestHeldPlanNeedsItsSHA(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("plan: Refactor the retry loop")
	plan := "# Refactor the retry loop\n\n1. read it\n2. fix it\n"
	sum := sha256.Sum256([]byte(plan))
	h := hex.EncodeToString(sum[:])
	hk := g.request(map[string]any{"kind": "plan", "summary": "Refactor the retry loop (4 lines)", "plan": plan})
	it := g.held()
	if it["kind"] != "plan" || it["plan_sha"] != h || it["plan_lines"] != 4.0 {
		t.Fatalf("plan item: %v", it)
	}
	res, perr := g.reply(map[string]any{"window": g.window, "decision": "once", "plan_sha": strings.Repeat("0", 64)})
	if perr != nil || res["applied"] != false || res["reason"] != "changed" || res["plan_sha"] != h {
		t.Fatalf("wrong sha: %v %v", res, perr)
	}
	if !hk.still() {
		t.Fatal("the hold ended on a changed reply")
	}
	if res, perr = g.reply(map[string]any{"window": g.window, "decision": "once", "plan_sha": h}); perr != nil || res["applied"] != true {
		t.Fatalf("right sha: %v %v", res, perr)
	}
	if r := hk.result(t); r["decision"] != "once" {
		t.Fatalf("hook: %v", r)
	}
}

// A reply made from a line the hold no longer shows changes nothing.
func TestHeldApprovalChangedLine(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: make test")
	first := g.request(map[string]any{"summary": "approve Bash: make test"})
	g.held()
	g.block("approve Bash: make lint")
	second := g.request(map[string]any{"summary": "approve Bash: make lint"})
	if r := first.result(t); r["reason"] != "superseded" || r["decision"] != "" {
		t.Fatalf("older hook: %v", r)
	}
	eventually(t, "the newer hold", func() bool { return g.item()["summary"] == "approve Bash: make lint" })
	res, perr := g.reply(map[string]any{"window": g.window, "decision": "once", "summary": "approve Bash: make test"})
	if perr != nil || res["applied"] != false || res["reason"] != "changed" {
		t.Fatalf("old line: %v %v", res, perr)
	}
	if !second.still() {
		t.Fatal("the hold ended on a changed reply")
	}
	g.reply(map[string]any{"window": g.window, "decision": "ask"})
	if r := second.result(t); r["reason"] != "handed_back" || r["decision"] != "" {
		t.Fatalf("ask: %v", r)
	}
	if it := g.item(); it == nil || it["held_id"] != nil || it["kind"] != "approval" {
		t.Fatalf("after ask the item stays, unheld: %v", it)
	}
}

// An allow of a risky held request must name the risk rules it matched
// (risk_ack), so no client allows one without having shown why it is
// risky; a deny never needs to.
func TestHeldApprovalRisk(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: rm -rf build")
	hk := g.request(map[string]any{"summary": "approve Bash: rm -rf build", "tool": "Bash", "target": "rm -rf build"})
	it := g.held()
	if risk, _ := it["risk"].([]any); len(risk) != 1 {
		t.Fatalf("risk: %v", it["risk"])
	}
	_, perr := g.reply(map[string]any{"window": g.window, "decision": "once"})
	if perr == nil || perr.Code != codeRiskUnacknowledged || perr.Hint == nil || len(perr.Hint.Accepted) != 1 || perr.Hint.Accepted[0] != "recursive delete" {
		t.Fatalf("no risk_ack: %+v", perr)
	}
	if !hk.still() {
		t.Fatal("a refused allow ended the hold")
	}
	if res, perr := g.reply(map[string]any{"window": g.window, "decision": "once", "risk_ack": []string{"recursive delete"}}); perr != nil || res["applied"] != true {
		t.Fatalf("with risk_ack: %v %v", res, perr)
	}
	if r := hk.result(t); r["decision"] != "once" {
		t.Fatalf("hook: %v", r)
	}
}

// Who may answer, and what is held at all.
func TestHeldApprovalRefusals(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	// Not blocked: the hook did not report needs_input first.
	if r := g.request(map[string]any{"summary": "approve Bash: ls"}).result(t); r["reason"] != "not_blocked" {
		t.Fatalf("not blocked: %v", r)
	}
	// Not enabled for this harness.
	if r := g.request(map[string]any{"summary": "approve Bash: ls", "harness": "opencode"}).result(t); r["reason"] != "disabled" || r["decision"] != "" {
		t.Fatalf("disabled: %v", r)
	}
	g.block("approve Bash: ls")
	hk := g.request(map[string]any{"summary": "approve Bash: ls"})
	g.held()
	for name, p := range map[string]map[string]any{
		"no nonce":    {"window": g.window, "decision": "once", "human_nonce": ""},
		"wrong nonce": {"window": g.window, "decision": "once", "human_nonce": strings.Repeat("0", 48)},
	} {
		if _, perr := g.reply(p); perr == nil || perr.Code != codeRespondNotHuman {
			t.Fatalf("%s: %+v", name, perr)
		}
	}
	if _, perr := g.reply(map[string]any{"window": g.window, "decision": "always"}); perr == nil || perr.Code != proto.CodeInvalidParams {
		t.Fatalf("always not offered: %+v", perr)
	}
	if _, perr := g.reply(map[string]any{"request_id": "feedfacefeedface", "decision": "once"}); perr == nil || perr.Code != proto.CodeInvalidParams {
		t.Fatalf("unknown request: %+v", perr)
	}
	if !hk.still() {
		t.Fatal("a refused reply ended the hold")
	}
	// The hook hangs up: caller_gone, the item stays unheld.
	hk.c.c.Close()
	eventually(t, "the hold ends with its caller", func() bool {
		it := g.item()
		return it != nil && it["held_id"] == nil
	})
}

// The Inbox's own closes end the hold with their reason.
func TestHeldApprovalEndsWithTheItem(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: ls")
	hk := g.request(map[string]any{"summary": "approve Bash: ls"})
	it := g.held()
	g.r.must("dismiss-attention", map[string]any{"id": it["id"]})
	if r := hk.result(t); r["reason"] != "dismissed" || r["decision"] != "" {
		t.Fatalf("dismissed: %v", r)
	}
	g.r.must("set-agent-state", map[string]any{"window": g.window, "state": "working"})
	g.block("approve Bash: ls")
	hk = g.request(map[string]any{"summary": "approve Bash: ls"})
	g.held()
	g.r.must("set-agent-state", map[string]any{"window": g.window, "state": "working"})
	if r := hk.result(t); r["reason"] != "resolved" {
		t.Fatalf("resolved: %v", r)
	}
	g.block("approve Bash: ls")
	hk = g.request(map[string]any{"summary": "approve Bash: ls"})
	g.held()
	g.r.must("set-agent-state", map[string]any{"window": g.window, "state": "needs_input", "kind": "question", "message": "which one?"})
	if r := hk.result(t); r["reason"] != "resolved" {
		t.Fatalf("turned into a question: %v", r)
	}
	g.r.must("set-agent-state", map[string]any{"window": g.window, "state": "working"})
	g.block("approve Bash: ls")
	hk = g.request(map[string]any{"summary": "approve Bash: ls"})
	g.held()
	g.r.must("close-window", map[string]any{"window": g.window})
	if r := hk.result(t); r["reason"] != "window_closed" {
		t.Fatalf("window closed: %v", r)
	}
}

// A daemon that stops ends every hold: the harness asks in its pane.
func TestHeldApprovalShutdown(t *testing.T) {
	t.Parallel()
	g := newHoldRig(t, "")
	g.block("approve Bash: ls")
	hk := g.request(map[string]any{"summary": "approve Bash: ls"})
	g.held()
	go g.srv.Close()
	select {
	case r := <-hk.done:
		if r != nil && (r["decision"] != "" || r["reason"] != "shutdown") {
			t.Fatalf("shutdown: %v", r)
		}
	case <-time.After(guard):
		t.Fatal("the hook still waits after the daemon stopped")
	}
}
