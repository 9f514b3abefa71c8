package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// attItem is an Inbox item as the wire carries it.
type attItem struct {
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Session      string `json:"session"`
	Window       string `json:"window"`
	Summary      string `json:"summary"`
	Since        int64  `json:"since"`
	Seq          uint64 `json:"seq"`
	Closed       string `json:"closed"`
	SnoozedUntil int64  `json:"snoozed_until"`
}

type attList struct {
	Items  []attItem      `json:"items"`
	Counts map[string]int `json:"counts"`
	Total  int            `json:"total"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
}

func listAtt(t testing.TB, r *rpc, params map[string]any) attList {
	t.Helper()
	var l attList
	remarshalT(t, r.must("list-attention", params), &l)
	return l
}

func remarshalT(t testing.TB, from, to any) {
	t.Helper()
	b, _ := json.Marshal(from)
	if err := json.Unmarshal(b, to); err != nil {
		t.Fatal(err)
	}
}

// attEvent is one attention event of the subscribe stream.
type attEvent struct {
	Type   string  `json:"type"`
	Op     string  `json:"op"`
	Item   attItem `json:"item"`
	BootID string  `json:"boot_id"`
}

// nextAttention reads the stream until an attention event comes.
func (r *rpc) nextAttention() attEvent {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(guard))
	defer r.c.SetReadDeadline(time.Time{})
	for {
		line, err := proto.ReadLine(r.r, proto.MaxLine)
		if err != nil {
			r.t.Fatalf("no attention event: %v", err)
		}
		var ev attEvent
		json.Unmarshal(line, &ev)
		if ev.Type == "attention" {
			return ev
		}
	}
}

// catPane makes a session with one pane running cat and returns its id.
func catPane(t testing.TB, r *rpc, session string) string {
	t.Helper()
	res := r.must("new-session", map[string]any{"name": session, "argv": []string{"/bin/cat"}})
	return str(res["window_id"])
}

func report(t testing.TB, r *rpc, window, state, kind, msg string) {
	t.Helper()
	p := map[string]any{"window": window, "state": state, "message": msg}
	if kind != "" {
		p["kind"] = kind
	}
	r.must("set-agent-state", p)
}

// waitList polls list-attention until cond holds (a failure guard, not a
// timing assertion: the Inbox is fed from the arbiter's stream).
func waitList(t *testing.T, r *rpc, params map[string]any, what string, cond func(attList) bool) attList {
	t.Helper()
	var l attList
	eventually(t, what, func() bool { l = listAtt(t, r, params); return cond(l) })
	return l
}

func TestAttentionApprovalOpensAndClosesWithTheEventStream(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	sub := dialRPC(t, sock)
	subRes := sub.must("subscribe", map[string]any{"types": []string{"attention"}})
	if subRes["boot_id"] == "" {
		t.Fatalf("subscribed without a boot id: %v", subRes)
	}
	report(t, r, w, "needs_input", "approval", "approve Bash: make")
	ev := sub.nextAttention()
	if ev.Op != "open" || ev.Item.Kind != "approval" || ev.Item.Window != w || ev.Item.Session != "api" || ev.Item.Summary != "approve Bash: make" || ev.BootID == "" {
		t.Fatalf("open event: %+v", ev)
	}
	l := listAtt(t, r, nil)
	if l.Total != 1 || l.Items[0].ID != ev.Item.ID || l.Counts["approval"] != 1 || len(l.Counts) != len(inbox.Kinds()) || l.BootID != ev.BootID || l.Seq != ev.Item.Seq {
		t.Fatalf("list: %+v", l)
	}
	report(t, r, w, "working", "", "")
	ev = sub.nextAttention()
	if ev.Op != "close" || ev.Item.Closed != "resolved" || ev.Item.ID != l.Items[0].ID {
		t.Fatalf("close event: %+v", ev)
	}
	if l := listAtt(t, r, nil); l.Total != 0 || len(l.Items) != 0 {
		t.Fatalf("after the answer: %+v", l)
	}
	// The pane closing closes its items.
	report(t, r, w, "errored", "", "boom")
	waitList(t, r, nil, "errored item", func(l attList) bool { return l.Counts["errored"] == 1 })
	r.must("close-window", map[string]any{"window": w})
	ev = sub.nextAttention()
	for ev.Op != "close" {
		ev = sub.nextAttention()
	}
	if ev.Item.Kind != "errored" || ev.Item.Closed != "window_closed" {
		t.Fatalf("pane closed: %+v", ev)
	}
}

func TestAttentionDismissAndUndo(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := personRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "errored", "", "tests failed")
	l := waitList(t, r, nil, "errored item", func(l attList) bool { return l.Total == 1 })
	id, since := l.Items[0].ID, l.Items[0].Since
	res := r.must("dismiss-attention", map[string]any{"id": id})
	if res["type"] != "attention_dismissed" || res["id"] != id || res["kind"] != "errored" || res["dismissed"] != true {
		t.Fatalf("dismiss: %v", res)
	}
	if l := listAtt(t, r, nil); l.Total != 0 {
		t.Fatalf("dismissed item still listed: %+v", l)
	}
	_, perr := r.call("dismiss-attention", map[string]any{"id": id})
	if perr == nil || perr.Code != "invalid_params" || perr.Hint == nil || !strings.Contains(perr.Hint.Detail, "why: unknown_id") && !strings.Contains(perr.Hint.Detail, "why: dismissed") {
		t.Fatalf("second dismiss: %+v %+v", perr, perr.Hint)
	}
	res = r.must("mark-attention", map[string]any{"action": "undo"})
	if res["id"] != id {
		t.Fatalf("undo: %v", res)
	}
	if l := listAtt(t, r, nil); l.Total != 1 || l.Items[0].ID != id || l.Items[0].Since != since {
		t.Fatalf("undone: %+v", l)
	}
	_, perr = r.call("mark-attention", map[string]any{"action": "undo"})
	if perr == nil || perr.Code != "invalid_params" || !strings.Contains(perr.Hint.Detail, "why: nothing_to_undo") {
		t.Fatalf("undo with nothing to undo: %+v", perr)
	}
	_, perr = r.call("mark-attention", map[string]any{"action": "wake", "id": id})
	if perr == nil || !strings.Contains(perr.Hint.Detail, "why: not_snoozed") {
		t.Fatalf("wake of an open item: %+v", perr)
	}
	// By pane and kind.
	res = r.must("mark-attention", map[string]any{"action": "snooze", "session": "api", "window": w, "kind": "errored", "until_change": true})
	if res["id"] != id || res["snoozed_until"] != float64(-1) {
		t.Fatalf("snooze by pane: %v", res)
	}
	if _, perr = r.call("mark-attention", map[string]any{"action": "snooze", "id": id, "for_ms": 1000, "until_change": true}); perr == nil || perr.Code != "invalid_params" {
		t.Fatalf("two snooze specs: %+v", perr)
	}
}

func TestAttentionSnoozeWakesOnTheDaemonsClock(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	srv, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk })
	r := personRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "errored", "", "boom")
	l := waitList(t, r, nil, "errored item", func(l attList) bool { return l.Total == 1 })
	it := l.Items[0]
	if _, armed := srv.att.Armed(); armed {
		t.Fatal("a timer is armed with nothing asleep")
	}
	res := r.must("mark-attention", map[string]any{"action": "snooze", "id": it.ID, "for_ms": 900000})
	want := clk.Now().Add(15 * time.Minute)
	if res["snoozed_until"] != float64(want.UnixNano()) {
		t.Fatalf("snoozed_until %v, want %d", res["snoozed_until"], want.UnixNano())
	}
	if l := listAtt(t, r, nil); l.Total != 0 || l.Counts["errored"] != 0 {
		t.Fatalf("a snoozed item is listed: %+v", l)
	}
	if l := listAtt(t, r, map[string]any{"include_snoozed": true}); len(l.Items) != 1 || l.Items[0].SnoozedUntil != want.UnixNano() || l.Total != 0 {
		t.Fatalf("--snoozed: %+v", l)
	}
	if at, armed := srv.att.Armed(); !armed || !at.Equal(want) {
		t.Fatalf("one timer for the snooze: %v %v", at, armed)
	}
	clk.Advance(15*time.Minute - time.Second)
	if l := listAtt(t, r, nil); l.Total != 0 {
		t.Fatalf("woke early: %+v", l)
	}
	clk.Advance(time.Second)
	l = waitList(t, r, nil, "the snooze ends", func(l attList) bool { return l.Total == 1 })
	if l.Items[0].ID != it.ID || l.Items[0].Since != it.Since {
		t.Fatalf("woke as another item: %+v vs %+v", l.Items[0], it)
	}
	eventually(t, "the timer disarmed", func() bool { _, armed := srv.att.Armed(); return !armed })
}

func TestAttentionSubscribeAfterSeqReplaysWhatWasMissed(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a, b := catPane(t, r, "one"), catPane(t, r, "two")
	report(t, r, a, "errored", "", "first")
	l := waitList(t, r, nil, "first item", func(l attList) bool { return l.Total == 1 })
	// Missed while not subscribed: an open on b and a close on a.
	report(t, r, b, "needs_input", "question", "which retry policy?")
	report(t, r, a, "working", "", "")
	waitList(t, r, nil, "the missed changes", func(l attList) bool { return l.Total == 1 && l.Items[0].Window == b })
	sub := dialRPC(t, sock)
	res := sub.must("subscribe", map[string]any{"types": []string{"attention"}, "after_seq": l.Seq, "boot_id": l.BootID})
	if res["resync"] != false || res["replayed"] != float64(2) {
		t.Fatalf("subscribe after_seq: %v", res)
	}
	e1, e2 := sub.nextAttention(), sub.nextAttention()
	if e1.Op != "open" || e1.Item.Window != b || e2.Op != "close" || e2.Item.Window != a || e1.Item.Seq <= l.Seq || e2.Item.Seq <= e1.Item.Seq {
		t.Fatalf("replayed: %+v %+v", e1, e2)
	}
	// Then the live stream, with nothing twice.
	report(t, r, b, "working", "", "")
	if e3 := sub.nextAttention(); e3.Op != "close" || e3.Item.Window != b || e3.Item.Seq != e2.Item.Seq+1 {
		t.Fatalf("live after replay: %+v", e3)
	}
	// Another boot id: list again.
	other := dialRPC(t, sock)
	if res := other.must("subscribe", map[string]any{"types": []string{"attention"}, "after_seq": 1, "boot_id": "not-this-one"}); res["resync"] != true {
		t.Fatalf("another boot: %v", res)
	}
}

func TestAttentionSelectorsRefuseAnUnknownKey(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	catPane(t, r, "api-fan-1")
	for _, c := range []struct {
		verb   string
		params map[string]any
	}{
		{"list-attention", map[string]any{"select": "colour:red"}},
		{"list-agents", map[string]any{"select": "colour:red"}},
		{"wait-for", map[string]any{"condition": "agent-state", "until": "idle", "select": "colour:red", "timeout": 1}},
	} {
		_, perr := r.call(c.verb, c.params)
		if perr == nil || perr.Code != "invalid_params" || perr.Hint == nil || perr.Hint.Param != "select" ||
			!strings.Contains(perr.Hint.Detail, `"colour:red"`) || strings.Join(perr.Hint.Accepted, ",") != strings.Join(inbox.SelectorKeys(), ",") {
			t.Fatalf("%s: %+v %+v", c.verb, perr, perr.Hint)
		}
	}
}

func TestAttentionSelectorsFilter(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a, b := catPane(t, r, "api-fan-1"), catPane(t, r, "docs")
	report(t, r, a, "needs_input", "approval", "approve Bash: make")
	report(t, r, b, "errored", "", "boom")
	waitList(t, r, nil, "two items", func(l attList) bool { return l.Total == 2 })
	l := listAtt(t, r, map[string]any{"select": "session:api-fan-* needs:you"})
	if l.Total != 1 || l.Items[0].Window != a {
		t.Fatalf("select: %+v", l)
	}
	if l := listAtt(t, r, map[string]any{"kinds": []string{"errored"}}); l.Total != 1 || l.Items[0].Window != b {
		t.Fatalf("kinds: %+v", l)
	}
	_, perr := r.call("list-attention", map[string]any{"kinds": []string{"bogus"}})
	if perr == nil || perr.Code != "invalid_params" || perr.Hint.Param != "kinds" {
		t.Fatalf("bad kind: %+v", perr)
	}
	var agents struct {
		Agents []struct {
			WindowID string `json:"window_id"`
		} `json:"agents"`
	}
	remarshalT(t, r.must("list-agents", map[string]any{"select": "state:errored"}), &agents)
	if len(agents.Agents) != 1 || agents.Agents[0].WindowID != b {
		t.Fatalf("list-agents --select (every session): %+v", agents)
	}
	res := r.must("wait-for", map[string]any{"condition": "agent-state", "until": "needs_input", "select": "session:api-*", "timeout": 10000})
	if res["window"] != a {
		t.Fatalf("wait-for --select: %v", res)
	}
}

func TestAttentionCorruptFileIsSetAside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "attention", "items.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"version":1,"items":[{"kind":"approval"`), 0o600)
	var mu sync.Mutex
	var logs []string
	_, sock := serverWith(t, func(o *Options) {
		o.StateDir = dir
		o.Logf = func(f string, a ...any) { mu.Lock(); logs = append(logs, fmt.Sprintf(f, a...)); mu.Unlock() }
	})
	if l := listAtt(t, dialRPC(t, sock), nil); l.Total != 0 {
		t.Fatalf("started with items: %+v", l)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the corrupt file is still in place: %v", err)
	}
	aside, _ := filepath.Glob(path + ".corrupt-*")
	mu.Lock()
	joined := strings.Join(logs, "\n")
	mu.Unlock()
	if len(aside) != 1 || !strings.Contains(joined, "refused "+path) || !strings.Contains(joined, aside[0]) {
		t.Fatalf("set aside %v; log:\n%s", aside, joined)
	}
	// A file others may read is refused the same way.
	os.WriteFile(path, []byte(`{}`), 0o644)
	os.Chmod(path, 0o644)
	_, sock = serverWith(t, func(o *Options) { o.StateDir = dir })
	listAtt(t, dialRPC(t, sock), nil)
	if aside, _ := filepath.Glob(path + ".corrupt-*"); len(aside) < 1 {
		t.Fatal("a group-readable file was loaded")
	}
}

func TestAttentionMailToThePerson(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	res := r.must("send-agent-message", map[string]any{"session": "api", "to": "human", "from": w, "subject": "which retry policy?", "text": "exponential or fixed?"})
	_ = res
	l := waitList(t, r, nil, "mail item", func(l attList) bool { return l.Counts["mail"] == 1 })
	if l.Items[0].Kind != "mail" || l.Items[0].Summary != "which retry policy?" {
		t.Fatalf("mail item: %+v", l.Items[0])
	}
	r.must("read-agent-messages", map[string]any{"session": "api", "to": "human"})
	waitList(t, r, nil, "mail read", func(l attList) bool { return l.Total == 0 })
}

// BenchmarkListAttention1000 is list-attention --json over the socket with
// 1,000 open items.
func BenchmarkListAttention1000(b *testing.B) {
	srv, sock := server(b)
	for i := 0; i < 1000; i++ {
		p := inbox.Pane{ID: fmt.Sprintf("pane-%04d", i), Session: "bench", Name: fmt.Sprintf("agent-%d", i)}
		_ = srv.att.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
			return q.Update(p, agentstate.Snapshot{Pane: p.ID, State: agentstate.NeedsInput, Kind: agentstate.KindApproval,
				Message: "approve Bash: go test ./...", Harness: "claude-code", Claimed: true}), nil
		})
	}
	r := dialRPC(b, sock)
	if l := listAtt(b, r, nil); l.Total != 1000 {
		b.Fatalf("total %d", l.Total)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.must("list-attention", nil)
	}
}

func TestAttentionFinishedDismissMarksSeenAndUnreadReopens(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := personRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "working", "", "")
	report(t, r, w, "done", "", "all green")
	l := waitList(t, r, nil, "finished item", func(l attList) bool { return l.Counts["finished"] == 1 })
	r.must("dismiss-attention", map[string]any{"id": l.Items[0].ID})
	eventually(t, "the turn marked seen", func() bool {
		return r.must("get-agent-state", map[string]any{"window": w})["finished_unread"] == false
	})
	res := r.must("mark-attention", map[string]any{"action": "unread", "session": "api", "window": w})
	var it attItem
	remarshalT(t, res, &it)
	l = listAtt(t, r, nil)
	if l.Total != 1 || l.Items[0].Kind != "finished" || l.Items[0].ID != it.ID {
		t.Fatalf("marked unread: %+v (answer %v)", l, res)
	}
	var raw map[string]any
	remarshalT(t, r.must("list-attention", nil), &raw)
	if m := raw["items"].([]any)[0].(map[string]any); m["marked_unread"] != true {
		t.Fatalf("no marked_unread: %v", m)
	}
}

// The queue file is written debounced on the daemon's clock.
func TestAttentionSaveIsDebounced(t *testing.T) {
	t.Parallel()
	clk := fakeclock.New(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	state := filepath.Join(t.TempDir(), "state")
	_, sock := serverWith(t, func(o *Options) { o.Tracker.Clock = clk; o.StateDir = state })
	r := dialRPC(t, sock)
	w := catPane(t, r, "api")
	report(t, r, w, "errored", "", "boom")
	waitList(t, r, nil, "errored item", func(l attList) bool { return l.Total == 1 })
	path := filepath.Join(state, "attention", "items.json")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("written before the debounce: %v", err)
	}
	clk.Advance(attentionSaveDelay)
	eventually(t, "the debounced save", func() bool {
		b, err := os.ReadFile(path)
		return err == nil && strings.Contains(string(b), `"errored"`)
	})
}
