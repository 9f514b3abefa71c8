package cli_test

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// selectEnv is a session "work" with four shell panes: pa and pb report
// codex, pc claude-code, and plain is no agent at all.
func selectEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, w := range []string{"pa", "pb", "pc", "plain"} {
		e.ok("new-window", "-s", "work", w, "--no-focus")
	}
	for _, w := range []string{"pa", "pb", "pc", "plain"} {
		e.ok("wait-for", "window-output", "-s", "work", "-w", w, "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")
	}
	e.ok("set-agent-state", "idle", "-s", "work", "-w", "pa", "--harness", "codex")
	e.ok("set-agent-state", "idle", "-s", "work", "-w", "pb", "--harness", "codex")
	e.ok("set-agent-state", "idle", "-s", "work", "-w", "pc", "--harness", "claude-code")
	return e
}

// inboxTexts is what each pane's inbox holds, read without marking it.
func (e *env) inboxTexts(win string) []string {
	e.t.Helper()
	var rd readJSON
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", win, "--peek")
	var out []string
	for _, m := range rd.Messages {
		out = append(out, m.Text)
	}
	return out
}

type selectList struct {
	Agents []struct {
		WindowID string `json:"window_id"`
		Name     string `json:"name"`
	} `json:"agents"`
	Select  string `json:"select"`
	Confirm string `json:"confirm"`
}

func (l selectList) names() string {
	var n []string
	for _, a := range l.Agents {
		n = append(n, a.Name)
	}
	return strings.Join(n, ",")
}

// d.md 16: list-agents --select prints a token for exactly the panes it
// listed; send-agent-message --select sends to each of them with --yes or
// that token, refuses a stale token, and without either (and no terminal)
// sends nothing.
func TestSelectSendNeedsAYesAndHonoursTheToken(t *testing.T) {
	t.Parallel()
	e := selectEnv(t)

	var l selectList
	e.json(&l, "list-agents", "--select", "harness:codex")
	if l.names() != "pa,pb" || len(l.Confirm) != 10 {
		t.Fatalf("list-agents --select harness:codex: %+v", l)
	}
	if out := e.ok("list-agents", "--select", "harness:codex"); !strings.Contains(out, "Confirm token for these 2 pane(s): "+l.Confirm) {
		t.Fatalf("the text form lacks the token %s:\n%s", l.Confirm, out)
	}
	var again selectList
	e.json(&again, "list-agents", "--select", "harness:codex")
	if again.Confirm != l.Confirm {
		t.Fatalf("the same set got a new token: %s then %s", l.Confirm, again.Confirm)
	}
	var byName selectList
	e.json(&byName, "list-agents", "--select", "name:pa,pb")
	if byName.names() != "pa,pb" || byName.Confirm == l.Confirm {
		t.Fatalf("another selector, same panes, must not share the token: %+v vs %s", byName, l.Confirm)
	}

	// No terminal, no flag: listed, refused, nothing sent.
	r := e.run("send-agent-message", "--select", "harness:codex", "--from", "lead", "not yet")
	if r.code != 1 || !strings.Contains(r.err, "confirm_needed") || !strings.Contains(r.err, "--confirm "+l.Confirm) ||
		!strings.Contains(r.out, "pa ") || !strings.Contains(r.out, "pb ") || strings.Contains(r.out, "plain") {
		t.Fatalf("no yes: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	for _, w := range []string{"pa", "pb", "pc"} {
		if got := e.inboxTexts(w); len(got) != 0 {
			t.Fatalf("refused send still reached %s: %q", w, got)
		}
	}
	// ask-agent too: nothing typed into the pane.
	r = e.run("ask-agent", "--select", "harness:codex", "echo should-not-run-$((2*21))")
	if r.code != 1 || !strings.Contains(r.err, "confirm_needed") {
		t.Fatalf("ask-agent with no yes: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	if cap := e.ok("capture-pane", "-s", "work", "-w", "pa"); strings.Contains(cap, "should-not-run") {
		t.Fatalf("refused ask typed into a:\n%s", cap)
	}

	// The right token sends to each pane once, and to no other.
	var sent struct {
		Type    string `json:"type"`
		Confirm string `json:"confirm"`
		Total   int    `json:"total"`
		Failed  int    `json:"failed"`
		Results []struct {
			WindowID  string `json:"window_id"`
			Name      string `json:"name"`
			MessageID uint64 `json:"message_id"`
		} `json:"results"`
	}
	e.json(&sent, "send-agent-message", "--select", "harness:codex", "--confirm", strings.ToUpper(l.Confirm), "--from", "lead", "rebased, please retest")
	if sent.Type != "agent_messages_sent" || sent.Total != 2 || sent.Failed != 0 || sent.Results[0].MessageID == 0 || sent.Results[1].MessageID == 0 {
		t.Fatalf("--confirm send: %+v", sent)
	}
	for w, want := range map[string]int{"pa": 1, "pb": 1, "pc": 0, "plain": 0} {
		if got := e.inboxTexts(w); len(got) != want || want == 1 && got[0] != "rebased, please retest" {
			t.Fatalf("%s holds %q, want %d message(s)", w, got, want)
		}
	}

	// A new codex pane changes the set: the old token is stale.
	e.ok("new-window", "-s", "work", "pd", "--no-focus")
	e.ok("set-agent-state", "idle", "-s", "work", "-w", "pd", "--harness", "codex")
	r = e.run("send-agent-message", "--select", "harness:codex", "--confirm", l.Confirm, "stale")
	if r.code != 1 || !strings.Contains(r.err, "confirm_stale") || !strings.Contains(r.out, "pd ") {
		t.Fatalf("stale token: exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
	}
	for _, w := range []string{"pa", "pb", "pd"} {
		for _, txt := range e.inboxTexts(w) {
			if txt == "stale" {
				t.Fatalf("a stale token still sent to %s", w)
			}
		}
	}
	// So is a token for the same panes under another selector.
	if r := e.run("send-agent-message", "--select", "harness:codex", "--confirm", byName.Confirm, "wrong"); r.code != 1 || !strings.Contains(r.err, "confirm_stale") {
		t.Fatalf("another selector's token: exit %d\n%s", r.code, r.err)
	}

	// --yes by name, in its text form.
	out := e.ok("send-agent-message", "--select", "name:pc", "--yes", "--subject", "hi", "one for c")
	if !strings.Contains(out, "Sent #") || !strings.Contains(out, "to pc (") {
		t.Fatalf("--yes text form:\n%s", out)
	}
	if got := e.inboxTexts("pc"); len(got) != 1 || got[0] != "one for c" {
		t.Fatalf("c holds %q", got)
	}

	// Usage: no match, -w with --select, both --yes and --confirm.
	if r := e.run("send-agent-message", "--select", "name:nosuch", "--yes", "x"); r.code != 1 || !strings.Contains(r.err, "not_found") {
		t.Fatalf("no match: exit %d\n%s", r.code, r.err)
	}
	if r := e.run("send-agent-message", "--select", "name:pc", "-w", "pc", "--yes", "x"); r.code != 1 || !strings.Contains(r.err, "--select and -w") {
		t.Fatalf("-w with --select: exit %d\n%s", r.code, r.err)
	}
	if r := e.run("send-agent-message", "--select", "name:pc", "--yes", "--confirm", l.Confirm, "x"); r.code != 1 || !strings.Contains(r.err, "not both") {
		t.Fatalf("--yes and --confirm: exit %d\n%s", r.code, r.err)
	}
	if r := e.run("send-agent-message", "-s", "work", "-w", "pc", "--yes", "x"); r.code != 1 || !strings.Contains(r.err, "go with --select") {
		t.Fatalf("--yes without --select: exit %d\n%s", r.code, r.err)
	}
	if r := e.run("ask-agent", "-s", "work", "-w", "pc", "--confirm", l.Confirm, "x"); r.code != 1 || !strings.Contains(r.err, "go with --select") {
		t.Fatalf("--confirm without --select: exit %d\n%s", r.code, r.err)
	}
	if r := e.run("send-agent-message", "--select", "colour:red", "--yes", "x"); r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("bad selector: exit %d\n%s", r.code, r.err)
	}
	// Text from standard input leaves no terminal to ask on.
	if r := e.runIn("piped text", "send-agent-message", "--select", "name:pc", "-"); r.code != 1 || !strings.Contains(r.err, "confirm_needed") {
		t.Fatalf("stdin text, no yes: exit %d\n%s", r.code, r.err)
	}
	if got := e.inboxTexts("pc"); len(got) != 1 {
		t.Fatalf("c got more: %q", got)
	}
}

// With a terminal on stdin the command asks, and only y sends.
func TestSelectSendAsksOnATerminal(t *testing.T) {
	t.Parallel()
	e := selectEnv(t)
	answer := func(reply string) (string, int) {
		t.Helper()
		cmd := exec.Command(e.bin, "send-agent-message", "--select", "harness:codex", "asked at a terminal: "+reply)
		cmd.Env = e.vars
		f, err := pty.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var mu sync.Mutex
		var buf bytes.Buffer
		done := make(chan struct{})
		go func() {
			b := make([]byte, 4096)
			for {
				n, err := f.Read(b)
				mu.Lock()
				buf.Write(b[:n])
				mu.Unlock()
				if err != nil {
					close(done)
					return
				}
			}
		}()
		deadline := time.Now().Add(15 * time.Second)
		for {
			mu.Lock()
			asked := strings.Contains(buf.String(), "Send to these 2 pane(s)? [y/N]")
			mu.Unlock()
			if asked {
				break
			}
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("no question on the terminal:\n%s", buf.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		io.WriteString(f, reply+"\r")
		err = cmd.Wait()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		mu.Lock()
		defer mu.Unlock()
		return buf.String(), code
	}
	if out, code := answer("n"); code != 1 || !strings.Contains(out, "nothing was sent") {
		t.Fatalf("n: exit %d\n%s", code, out)
	}
	if got := e.inboxTexts("pa"); len(got) != 0 {
		t.Fatalf("n still sent: %q", got)
	}
	if out, code := answer("y"); code != 0 || strings.Count(out, "Sent #") != 2 {
		t.Fatalf("y: exit %d\n%s", code, out)
	}
	for _, w := range []string{"pa", "pb"} {
		if got := e.inboxTexts(w); len(got) != 1 || got[0] != "asked at a terminal: y" {
			t.Fatalf("%s holds %q", w, got)
		}
	}
	if got := e.inboxTexts("pc"); len(got) != 0 {
		t.Fatalf("c was not selected but holds %q", got)
	}
}

// ask-agent --select types the question into each matched pane and prints
// every reply fenced under its own pane.
func TestSelectAskCollectsEachReply(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	for _, w := range []string{"q1", "q2", "other"} {
		e.ok("new-window", "-s", "work", w, "--no-focus")
	}
	for _, w := range []string{"q1", "q2", "other"} {
		e.ok("wait-for", "window-output", "-s", "work", "-w", w, "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")
		e.ok("set-agent-state", "idle", "-s", "work", "-w", w)
	}
	var l selectList
	e.json(&l, "list-agents", "--select", "name:q*")
	if l.names() != "q1,q2" && l.names() != "q2,q1" {
		t.Fatalf("list-agents --select name:q*: %+v", l)
	}
	var res struct {
		Type    string `json:"type"`
		Failed  int    `json:"failed"`
		Results []struct {
			Name  string `json:"name"`
			Reply string `json:"reply"`
		} `json:"results"`
	}
	e.json(&res, "ask-agent", "--select", "name:q*", "--confirm", l.Confirm, "--settle", "500", "echo answer-$((6*7))")
	if res.Type != "agent_replies" || res.Failed != 0 || len(res.Results) != 2 {
		t.Fatalf("ask-agent --select: %+v", res)
	}
	for _, r := range res.Results {
		if !strings.Contains(r.Reply, "answer-42") {
			t.Fatalf("%s replied %q", r.Name, r.Reply)
		}
	}
	if cap := e.ok("capture-pane", "-s", "work", "-w", "other"); strings.Contains(cap, "answer-") {
		t.Fatalf("the unselected pane was asked too:\n%s", cap)
	}
	out := e.ok("ask-agent", "--select", "name:q*", "--yes", "--settle", "300", "echo again-$((1+1))")
	for _, w := range []string{"q1", "q2"} {
		if !strings.Contains(out, "--- begin untrusted content from "+w) {
			t.Fatalf("no fenced reply from %s:\n%s", w, out)
		}
	}
	if strings.Count(out, "│ again-2") != 2 {
		t.Fatalf("want both replies fenced:\n%s", out)
	}
}
