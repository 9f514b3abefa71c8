package daemon

import (
	"encoding/json"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// TestAskHelper is not a test: run inside a pane (TUIOS_ASK_HELPER set) it
// is a program in that pane calling ask-human or answer-ask, and prints
// what the daemon answered.
func TestAskHelper(t *testing.T) {
	t.Parallel()
	mode := os.Getenv("TUIOS_ASK_HELPER")
	if mode == "" {
		t.Skip("a helper process, not a test")
	}
	r := dialRPC(t, os.Getenv("TUIOS_ASK_SOCK"))
	var perr *proto.Error
	switch mode {
	case "ask-other":
		_, perr = r.call("ask-human", map[string]any{"window": "worker", "question": "Ship it?", "options": []string{"yes", "no"}, "wait": false})
	case "answer":
		_, perr = r.call("answer-ask", map[string]any{"request_id": os.Getenv("TUIOS_ASK_ID"), "answer": "yes", "human_nonce": os.Getenv("TUIOS_NONCE")})
	}
	if perr == nil {
		os.Stdout.WriteString("helper_result=ok\n")
	} else {
		os.Stdout.WriteString("helper_result=" + perr.Code + "\n")
	}
}

// askWorld is a daemon with session api: panes lead and worker, and an
// attached connection holding a human nonce.
type askWorld struct {
	t      *testing.T
	sock   string
	srv    *Server
	person *rpc // attached: holds the nonce
	nonce  string
	c      *rpc // a script outside every pane
	lead   string
}

func newAskWorld(t *testing.T) *askWorld {
	srv, sock := server(t)
	w := &askWorld{t: t, sock: sock, srv: srv, person: dialRPC(t, sock), c: dialRPC(t, sock)}
	w.c.must("new-session", map[string]any{"name": "api", "window_name": "lead", "argv": []string{"/bin/cat"}})
	w.c.must("new-window", map[string]any{"session": "api", "name": "worker", "no_focus": true, "argv": []string{"/bin/cat"}})
	w.lead = str(w.c.must("get-window", map[string]any{"session": "api", "window": "lead"})["window_id"])
	w.nonce = str(w.person.must("attach", map[string]any{"client": "test"})["human_nonce"])
	return w
}

// askItem is an ask item as list-attention shows it.
type askItem struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	Window    string   `json:"window"`
	Summary   string   `json:"summary"`
	Options   []string `json:"options"`
	RequestID string   `json:"request_id"`
}

// item waits for the ask item of request id rid to be open.
func (w *askWorld) item(rid string) askItem {
	w.t.Helper()
	var found askItem
	eventually(w.t, "the ask item "+rid+" opens", func() bool {
		var l struct {
			Items []askItem `json:"items"`
		}
		remarshalT(w.t, w.c.must("list-attention", map[string]any{"kinds": []string{"ask"}}), &l)
		for _, it := range l.Items {
			if it.RequestID == rid {
				found = it
				return true
			}
		}
		return false
	})
	return found
}

// gone reports whether no ask item has request id rid.
func (w *askWorld) gone(rid string) bool {
	_, ok := w.srv.att.Find(inbox.AskKey(rid))
	return !ok
}

type askCall struct {
	res map[string]any
	err *proto.Error
}

// askAsync asks on a connection of its own; the answer arrives on the
// channel.
func (w *askWorld) askAsync(params map[string]any) (<-chan askCall, *rpc) {
	r := dialRPC(w.t, w.sock)
	ch := make(chan askCall, 1)
	go func() {
		res, err := r.call("ask-human", params)
		ch <- askCall{res, err}
	}()
	return ch, r
}

func (w *askWorld) answer(rid, answer string, extra map[string]any) (map[string]any, *proto.Error) {
	p := map[string]any{"request_id": rid, "answer": answer, "human_nonce": w.nonce}
	for k, v := range extra {
		p[k] = v
	}
	return w.person.call("answer-ask", p)
}

func shipIt(extra map[string]any) map[string]any {
	p := map[string]any{"session": "api", "question": "Ship it?", "options": []string{"yes", "no"}}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

// H1: the person answers from an attached client: the asker gets the
// answer, verified.
func TestAskHumanAnsweredByThePerson(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	ch, _ := w.askAsync(shipIt(map[string]any{"window": "lead", "request_id": "h1"}))
	it := w.item("h1")
	if it.Kind != "ask" || it.Summary != "Ship it?" || strings.Join(it.Options, ",") != "yes,no" || it.Window != w.lead {
		t.Fatalf("the ask item: %+v", it)
	}
	res, err := w.answer("h1", "yes", map[string]any{"question": "Ship it?"})
	if err != nil || res["type"] != "ask_answered" || res["applied"] != true || res["answer"] != "yes" {
		t.Fatalf("answer-ask: %v %v", res, err)
	}
	got := <-ch
	if got.err != nil {
		t.Fatalf("ask-human: %v", got.err)
	}
	r := got.res
	if r["type"] != "human_answer" || r["status"] != "answered" || r["answer"] != "yes" || r["answer_index"] != 1.0 ||
		r["verified_human"] != true || r["answered_by"] != "human" || r["request_id"] != "h1" || r["window"] != w.lead {
		t.Fatalf("human_answer: %v", r)
	}
	if !w.gone("h1") {
		t.Fatal("the answered item is still open")
	}
	// Answered while the asker waited: no mail.
	msgs := w.c.must("read-agent-messages", map[string]any{"session": "api", "to": "lead", "peek": true})["messages"].([]any)
	if len(msgs) != 0 {
		t.Fatalf("an answer taken by the asker was mailed too: %v", msgs)
	}
	// Coming back for it gives the final status.
	again := w.c.must("ask-human", map[string]any{"request_id": "h1"})
	if again["status"] != "answered" || again["answer"] != "yes" {
		t.Fatalf("coming back: %v", again)
	}
}

// H2: nobody answers in time: pending, the item stays, and a later answer
// reaches the asking pane as verified mail from human; so does one given
// after the asker hung up.
func TestAskHumanPendingThenAnswerIsMailed(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	res := w.c.must("ask-human", shipIt(map[string]any{"window": "lead", "request_id": "h2", "timeout": 200}))
	if res["status"] != "pending" || res["answer"] != "" || res["request_id"] != "h2" {
		t.Fatalf("after the timeout: %v", res)
	}
	w.item("h2") // the question stays
	if res := w.c.must("ask-human", map[string]any{"request_id": "h2", "wait": false}); res["status"] != "pending" {
		t.Fatalf("coming back without waiting: %v", res)
	}
	// An agent waits for its mail the way the skill says.
	waited := make(chan askCall, 1)
	wr := dialRPC(t, w.sock)
	go func() {
		res, err := wr.call("wait-for", map[string]any{"session": "api", "window": "lead", "condition": "agent-message", "timeout": 10000})
		waited <- askCall{res, err}
	}()
	if _, err := w.answer("h2", "yes", nil); err != nil {
		t.Fatalf("answer-ask: %v", err)
	}
	got := <-waited
	if got.err != nil || got.res["from"] != "human" || got.res["subject"] != "Answer: Ship it?" {
		t.Fatalf("wait-for agent-message: %v %v", got.res, got.err)
	}
	checkMail := func(n int, text string) {
		t.Helper()
		msgs := w.c.must("read-agent-messages", map[string]any{"session": "api", "to": "lead", "peek": true})["messages"].([]any)
		if len(msgs) != n {
			t.Fatalf("%d messages, want %d: %v", len(msgs), n, msgs)
		}
		m := msgs[n-1].(map[string]any)
		if m["from"] != "human" || m["verified_human"] != true || m["claimed_human"] == true || m["subject"] != "Answer: Ship it?" || m["text"] != text || m["to"] != w.lead {
			t.Fatalf("the late answer: %v", m)
		}
	}
	checkMail(1, "yes")
	if res := w.c.must("ask-human", map[string]any{"request_id": "h2"}); res["status"] != "answered" || res["answer"] != "yes" {
		t.Fatalf("coming back after the answer: %v", res)
	}

	// The asker hangs up mid-wait: the question stays, the answer is mailed.
	r := dialRPC(t, w.sock)
	line, _ := json.Marshal(map[string]any{"verb": "ask-human", "params": shipIt(map[string]any{"window": "lead", "request_id": "h2b"})})
	r.c.Write(append(line, '\n'))
	w.item("h2b")
	// A client process's close ends the socket at once. In this process
	// a pane being forked (any test's) can hold a copy of the descriptor
	// until it execs, so a close alone may reach the daemon late, and the
	// answer then goes to a call that looks alive; shutting both halves
	// down ends the socket whoever else holds it.
	uc := r.c.(*net.UnixConn)
	uc.CloseRead()
	uc.CloseWrite()
	r.c.Close()
	if _, err := w.answer("h2b", "no", nil); err != nil {
		t.Fatalf("answer-ask after a hang-up: %v", err)
	}
	eventually(t, "the answer mailed after a hang-up", func() bool {
		msgs := w.c.must("read-agent-messages", map[string]any{"session": "api", "to": "lead", "peek": true})["messages"].([]any)
		return len(msgs) == 2
	})
	checkMail(2, "no")

	// A question from no pane has no inbox: nothing is mailed anywhere.
	if res := w.c.must("ask-human", shipIt(map[string]any{"request_id": "h2c", "wait": false})); res["window"] != "" {
		t.Fatalf("a question from no pane: %v", res)
	}
	w.answer("h2c", "yes", nil)
	if res := w.c.must("ask-human", map[string]any{"request_id": "h2c"}); res["status"] != "answered" {
		t.Fatalf("no-pane question answered: %v", res)
	}
	if total := w.c.must("read-agent-messages", map[string]any{"session": "api"})["total"]; total != 2.0 {
		t.Fatalf("mail total %v after a no-pane answer", total)
	}
}

// H3: a question or answers the Inbox could not show as written are
// refused, and nothing opens.
func TestAskHumanRefusesWhatCannotBeShown(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	nine := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	for name, p := range map[string]map[string]any{
		"161-byte question": {"question": strings.Repeat("q", 161), "options": []string{"yes"}},
		"10 options":        {"question": "Pick?", "options": append(nine, "10")},
		"61-byte option":    {"question": "Pick?", "options": []string{strings.Repeat("o", 61)}},
		"two equal options": {"question": "Pick?", "options": []string{"yes", "yes"}},
		"a tab":             {"question": "Ship\tit?", "options": []string{"yes"}},
		"no options":        {"question": "Ship it?"},
		"no question":       {"options": []string{"yes"}},
		"a bad request id":  {"question": "Ship it?", "options": []string{"yes"}, "request_id": "a b"},
		"an unknown id":     {"request_id": "never-asked"},
		"over an hour":      {"question": "Ship it?", "options": []string{"yes"}, "timeout": 3600001},
	} {
		p["session"], p["wait"] = "api", false
		if _, err := w.c.call("ask-human", p); err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// At the limits: accepted.
	ok := shipIt(map[string]any{"question": strings.Repeat("q", 160), "options": append([]string{strings.Repeat("o", 60)}, nine[1:]...), "wait": false})
	if res := w.c.must("ask-human", ok); res["status"] != "pending" {
		t.Fatalf("at the limits: %v", res)
	}
	if n := len(listAtt(t, w.c, map[string]any{"kinds": []string{"ask"}}).Items); n != 1 {
		t.Fatalf("%d ask items, want only the valid one", n)
	}
}

// H4 and H9: a pane asks only as itself, and never answers, even with a
// copied nonce.
func TestAskHumanFromInsideAPane(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	w.c.must("ask-human", shipIt(map[string]any{"window": "worker", "request_id": "h9", "wait": false}))
	exe, _ := os.Executable()
	run := func(name, mode string) string {
		t.Helper()
		w.c.must("new-window", map[string]any{"session": "api", "name": name, "no_focus": true,
			"argv": []string{"sh", "-c", `TUIOS_ASK_HELPER="$3" TUIOS_ASK_SOCK="$1" TUIOS_ASK_ID=h9 TUIOS_NONCE="$4" "$2" -test.run='^TestAskHelper$'; sleep 60`,
				"sh", w.sock, exe, mode, w.nonce}})
		w.c.must("wait-for", map[string]any{"session": "api", "window": name, "condition": "window-output", "pattern": "helper_result=", "timeout": 15000})
		return str(w.c.must("capture-pane", map[string]any{"session": "api", "window": name})["content"])
	}
	if out := run("asker", "ask-other"); !strings.Contains(out, "helper_result="+proto.CodeForbidden) {
		t.Fatalf("a pane asking as another (H4):\n%s", out)
	}
	if n := len(listAtt(t, w.c, map[string]any{"kinds": []string{"ask"}}).Items); n != 1 {
		t.Fatalf("%d ask items after a refused ask", n)
	}
	if out := run("answerer", "answer"); !strings.Contains(out, "helper_result="+codeNotHuman) {
		t.Fatalf("answer-ask from inside a pane with a copied nonce (H9):\n%s", out)
	}
	if w.gone("h9") {
		t.Fatal("a refused answer closed the question")
	}
	// Outside every pane without the nonce: not_human too.
	if _, err := w.c.call("answer-ask", map[string]any{"request_id": "h9", "answer": "yes"}); err == nil || err.Code != codeNotHuman {
		t.Fatalf("answer-ask with no nonce: %v", err)
	}
}

// H5: a pane has one open question: asking again supersedes the first.
func TestAskHumanSupersedes(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	ch, _ := w.askAsync(shipIt(map[string]any{"window": "lead", "request_id": "first"}))
	w.item("first")
	res := w.c.must("ask-human", map[string]any{"session": "api", "window": "lead", "question": "Ship it now?", "options": []string{"yes", "no"}, "request_id": "second", "wait": false})
	if res["status"] != "pending" {
		t.Fatalf("the second question: %v", res)
	}
	got := <-ch
	if got.err != nil || got.res["status"] != "superseded" || got.res["answer"] != "" {
		t.Fatalf("the first caller: %v %v", got.res, got.err)
	}
	if it := w.item("second"); it.Summary != "Ship it now?" || !w.gone("first") {
		t.Fatalf("after superseding: %+v", it)
	}
	if ans, _ := w.answer("first", "yes", nil); ans["applied"] != false || ans["reason"] != "superseded" {
		t.Fatalf("answering a superseded question: %v", ans)
	}
}

// H6: an ask cannot be snoozed; dismissing it tells the asker, and it
// cannot be restored or undone.
func TestAskHumanDismissed(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	person := personRPC(t, w.sock)
	ch, _ := w.askAsync(shipIt(map[string]any{"window": "lead", "request_id": "h6"}))
	it := w.item("h6")
	if _, err := person.call("mark-attention", map[string]any{"action": "snooze", "id": it.ID, "for_ms": 60000}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("snoozing an ask: %v", err)
	}
	person.must("dismiss-attention", map[string]any{"id": it.ID})
	got := <-ch
	if got.err != nil || got.res["status"] != "dismissed" {
		t.Fatalf("the asker after a dismiss: %v %v", got.res, got.err)
	}
	for _, p := range []map[string]any{{"action": "undo"}, {"action": "restore", "id": it.ID}} {
		if _, err := person.call("mark-attention", p); err == nil || err.Code != proto.CodeInvalidParams {
			t.Fatalf("mark-attention %v after dismissing an ask: %v", p, err)
		}
	}
	if !w.gone("h6") {
		t.Fatal("the dismissed ask came back")
	}
	if res := w.c.must("ask-human", map[string]any{"request_id": "h6"}); res["status"] != "dismissed" {
		t.Fatalf("coming back after a dismiss: %v", res)
	}
}

// H7: at most 16 open questions from no pane per session.
func TestAskHumanCapsQuestionsFromNoPane(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	for i := range 16 {
		w.c.must("ask-human", shipIt(map[string]any{"question": "Ship " + str(i) + "?", "wait": false}))
	}
	if _, err := w.c.call("ask-human", shipIt(map[string]any{"question": "Ship 16?", "wait": false})); err == nil || err.Code != proto.CodeRateLimited {
		t.Fatalf("a 17th question from no pane: %v", err)
	}
	// A pane's question is not counted against scripts.
	w.c.must("ask-human", shipIt(map[string]any{"window": "lead", "wait": false}))
}

// H8: the answer must be an option; a changed question applies nothing;
// the first answer wins.
func TestAnswerAskRules(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	w.c.must("ask-human", shipIt(map[string]any{"window": "lead", "request_id": "h8", "wait": false}))
	if _, err := w.answer("h8", "maybe", nil); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("an answer not among the options: %v", err)
	}
	res, err := w.answer("h8", "yes", map[string]any{"question": "Ship it today?"})
	if err != nil || res["applied"] != false || res["reason"] != "changed" || w.gone("h8") {
		t.Fatalf("a different question: %v %v", res, err)
	}
	if res, err := w.answer("h8", "no", map[string]any{"question": "Ship it?"}); err != nil || res["applied"] != true || res["answer"] != "no" {
		t.Fatalf("the first answer: %v %v", res, err)
	}
	res, err = w.answer("h8", "yes", nil)
	if err != nil || res["applied"] != false || res["answer"] != "no" || res["reason"] != "answered" {
		t.Fatalf("a second answer: %v %v", res, err)
	}
	if _, err := w.answer("nope", "yes", nil); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("an unknown request id: %v", err)
	}
}

// Two answers at once: exactly one applies, the other gets the standing
// answer.
func TestAnswerAskRaceFirstWins(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	w.c.must("ask-human", shipIt(map[string]any{"window": "lead", "request_id": "race", "wait": false}))
	b := dialRPC(t, w.sock)
	nb := str(b.must("attach", nil)["human_nonce"])
	out := make(chan map[string]any, 2)
	for _, c := range []struct {
		r      *rpc
		n, ans string
	}{{w.person, w.nonce, "yes"}, {b, nb, "no"}} {
		go func() {
			res, err := c.r.call("answer-ask", map[string]any{"request_id": "race", "answer": c.ans, "human_nonce": c.n})
			if err != nil {
				res = map[string]any{"error": err.Code}
			}
			out <- res
		}()
	}
	x, y := <-out, <-out
	if x["applied"] == y["applied"] || x["answer"] != y["answer"] {
		t.Fatalf("two answers: %v and %v", x, y)
	}
}

// A pane's question closes with its pane; the session's with the session;
// and the Inbox file never keeps a question.
func TestAskHumanEndsWithItsPaneAndIsNotKept(t *testing.T) {
	t.Parallel()
	w := newAskWorld(t)
	ch, _ := w.askAsync(shipIt(map[string]any{"window": "worker", "request_id": "closing"}))
	w.item("closing")
	w.c.must("ask-human", shipIt(map[string]any{"request_id": "kept-not", "wait": false}))
	b, err := w.srv.att.Marshal()
	if err != nil || strings.Contains(string(b), "kept-not") {
		t.Fatalf("the Inbox file keeps a question: %v\n%s", err, b)
	}
	w.c.must("close-window", map[string]any{"session": "api", "window": "worker"})
	if got := <-ch; got.err != nil || got.res["status"] != "window_closed" {
		t.Fatalf("the asker after its pane closed: %v %v", got.res, got.err)
	}
	ch, _ = w.askAsync(map[string]any{"request_id": "kept-not"})
	w.c.must("kill-session", map[string]any{"session": "api"})
	if got := <-ch; got.err != nil || got.res["status"] != "session_closed" {
		t.Fatalf("the asker after its session closed: %v %v", got.res, got.err)
	}
}
