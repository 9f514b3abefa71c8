package cli_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// askRun is a tuios call left running in the background.
type askRun struct {
	cmd      *exec.Cmd
	out, err strings.Builder
	done     chan result
}

// start runs tuios without waiting for it.
func (e *env) start(args ...string) *askRun {
	e.t.Helper()
	r := &askRun{cmd: exec.Command(e.bin, args...), done: make(chan result, 1)}
	r.cmd.Env = e.vars
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.err
	if err := r.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() {
		err := r.cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		r.done <- result{r.out.String(), r.err.String(), code}
	}()
	e.t.Cleanup(func() { r.cmd.Process.Kill() })
	return r
}

// wait returns the call's result, failing if it does not end in time.
func (r *askRun) wait(t *testing.T) result {
	t.Helper()
	select {
	case res := <-r.done:
		return res
	case <-time.After(20 * time.Second):
		t.Fatal("tuios ask-human did not end")
	}
	return result{}
}

// askItemID polls the Inbox until the ask with request id rid is open
// and returns its item id.
func askItemID(t *testing.T, e *env, rid string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var l struct {
			Items []struct {
				ID        string `json:"id"`
				RequestID string `json:"request_id"`
			} `json:"items"`
		}
		e.json(&l, "list-attention", "--kind", "ask")
		for _, it := range l.Items {
			if it.RequestID == rid {
				return it.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ask item %s: %+v", rid, l)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// person is a protocol connection that attached, so it holds the human
// nonce an attached client answers with.
type person struct {
	t     *testing.T
	send  func(line string) map[string]any
	nonce string
}

func attachPerson(t *testing.T, e *env) *person {
	c, r := dial(t, e)
	p := &person{t: t, send: func(line string) map[string]any { return roundTrip(t, c, r, line) }}
	res := p.send(`{"verb":"attach","params":{"client":"test"}}`)
	p.nonce, _ = res["result"].(map[string]any)["human_nonce"].(string)
	if p.nonce == "" {
		t.Fatalf("attach: %v", res)
	}
	return p
}

func (p *person) answer(rid, answer string) map[string]any {
	p.t.Helper()
	b, _ := json.Marshal(map[string]any{"verb": "answer-ask", "params": map[string]any{"request_id": rid, "answer": answer, "human_nonce": p.nonce}})
	res := p.send(string(b))
	if res["error"] != nil {
		p.t.Fatalf("answer-ask: %v", res)
	}
	return res["result"].(map[string]any)
}

// Exit 0: the person answers while the CLI waits; it prints the answer
// alone.
func TestAskHumanCLIAnswered(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "lead", "--no-focus", "--", "/bin/cat")
	p := attachPerson(t, e)
	run := e.start("ask-human", "Ship it?", "-o", "yes", "-o", "no", "-s", "work", "-w", "lead", "--request-id", "cli1")
	askItemID(t, e, "cli1")
	if res := p.answer("cli1", "yes"); res["applied"] != true {
		t.Fatalf("answer-ask: %v", res)
	}
	if got := run.wait(t); got.code != 0 || got.out != "yes\n" {
		t.Fatalf("ask-human answered: %+v", got)
	}
	// --json carries the whole result.
	var res struct {
		Status        string `json:"status"`
		Answer        string `json:"answer"`
		AnswerIndex   int    `json:"answer_index"`
		VerifiedHuman bool   `json:"verified_human"`
	}
	e.json(&res, "ask-human", "--request-id", "cli1", "-s", "work")
	if res.Status != "answered" || res.Answer != "yes" || res.AnswerIndex != 1 || !res.VerifiedHuman {
		t.Fatalf("coming back with --json: %+v", res)
	}
	// The CLI's answer-ask has no nonce: not_human, exit 1.
	if r := e.run("answer-ask", "cli1", "no"); r.code != 1 || !strings.Contains(r.err, "not_human") {
		t.Fatalf("answer-ask from a shell: %+v", r)
	}
}

// Exit 2: no answer in time, or --no-wait; the request id comes back; a
// later answer is mailed to the asking pane and --request-id finds it.
func TestAskHumanCLIPendingAndRequestID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "lead", "--no-focus", "--", "/bin/cat")
	p := attachPerson(t, e)
	r := e.run("ask-human", "Ship it?", "-o", "yes", "-o", "no", "-s", "work", "-w", "lead", "--timeout", "300")
	rid := strings.TrimSpace(r.out)
	if r.code != 2 || !strings.HasPrefix(rid, "ask-") || !strings.Contains(r.err, "pending") || !strings.Contains(r.err, "--request-id "+rid) {
		t.Fatalf("ask-human with a short timeout: %+v", r)
	}
	askItemID(t, e, rid) // it stays
	if r := e.run("ask-human", "--request-id", rid, "-s", "work", "--no-wait"); r.code != 2 || strings.TrimSpace(r.out) != rid {
		t.Fatalf("coming back with --no-wait: %+v", r)
	}
	if r := e.run("ask-human", "Rotate the key?", "-o", "yes", "-o", "no", "-s", "work", "--no-wait"); r.code != 2 || !strings.Contains(r.err, "come back") {
		t.Fatalf("a question from no pane with --no-wait: %+v", r)
	}
	p.answer(rid, "no")
	if r := e.run("ask-human", "--request-id", rid, "-s", "work"); r.code != 0 || r.out != "no\n" {
		t.Fatalf("coming back after the answer: %+v", r)
	}
	var mail struct {
		Messages []struct {
			From          string `json:"from"`
			Subject       string `json:"subject"`
			Text          string `json:"text"`
			VerifiedHuman bool   `json:"verified_human"`
		} `json:"messages"`
	}
	e.json(&mail, "read-agent-messages", "-s", "work", "-w", "lead", "--peek")
	if len(mail.Messages) != 1 || mail.Messages[0].From != "human" || mail.Messages[0].Subject != "Answer: Ship it?" ||
		mail.Messages[0].Text != "no" || !mail.Messages[0].VerifiedHuman {
		t.Fatalf("the late answer's mail: %+v", mail)
	}
	if r := e.run("ask-human", "--request-id", "never-asked", "-s", "work"); r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("an unknown request id: %+v", r)
	}
	if r := e.run("ask-human", "Ship it?", "-s", "work"); r.code != 1 || !strings.Contains(r.err, "-o") {
		t.Fatalf("no answers: %+v", r)
	}
}

// Exit 1: the question ended without an answer, and the CLI says why.
func TestAskHumanCLIDismissed(t *testing.T) {
	t.Parallel()
	e := shellRespondEnv(t) // the shell acts as the person
	e.ok("new-window", "-s", "work", "lead", "--no-focus", "--", "/bin/cat")
	run := e.start("ask-human", "Ship it?", "-o", "yes", "-o", "no", "-s", "work", "-w", "lead", "--request-id", "cli3")
	id := askItemID(t, e, "cli3")
	if r := e.run("mark-attention", "snooze", id, "--for", "15m"); r.code != 1 {
		t.Fatalf("snoozing an ask: %+v", r)
	}
	e.ok("dismiss-attention", id)
	got := run.wait(t)
	if got.code != 1 || got.out != "" || !strings.Contains(got.err, "dismissed") {
		t.Fatalf("ask-human after a dismiss: %+v", got)
	}
}

// Inside a pane: the question is the pane's own, naming another pane is
// forbidden, and the exit code reaches the pane's shell.
func TestAskHumanCLIFromInsideAPane(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "worker", "--no-focus", "--", "/bin/cat")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", `(?m)^\$`, "--timeout", "10000")
	cmd, marker := fresh(t)
	e.ok("send-text", "-s", "work", "-w", "0", "tuios ask-human 'Ship it?' -o yes -o no -w worker; echo forbidden=$?; tuios ask-human 'Ship it?' -o yes -o no --timeout 200; echo pending=$?; "+cmd+"\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "0", "--pattern", marker, "--timeout", "15000")
	out := e.ok("capture-pane", "-s", "work", "-w", "0")
	for _, want := range []string{"forbidden: a pane asks as itself", "forbidden=1", "pending=2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the pane lacks %q:\n%s", want, out)
		}
	}
	var w struct {
		WindowID string `json:"window_id"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", "0")
	var l struct {
		Items []struct {
			Window string `json:"window"`
		} `json:"items"`
	}
	e.json(&l, "list-attention", "--kind", "ask")
	if len(l.Items) != 1 || l.Items[0].Window != w.WindowID {
		t.Fatalf("the pane's question: %+v (pane %s)", l, w.WindowID)
	}
}
