package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// inPane runs a shell line inside a pane (so the daemon places the caller
// there), waits for it to finish and returns its exit status and what the
// pane printed for it.
func (e *env) inPane(win, line string) (int, string) {
	e.t.Helper()
	n := strconv.FormatInt(time.Now().UnixNano(), 10)
	e.ok("send-text", "-s", "work", "-w", win, "{ "+line+" ; } > /tmp/tuios-mail-"+n+".out 2>&1; printf 'mk_%s_rc=%s\\n' "+n+" $?\n")
	e.ok("wait-for", "window-output", "-s", "work", "-w", win, "--pattern", "mk_"+n+"_rc=[0-9]+", "--timeout", "15000")
	out := e.ok("capture-pane", "-s", "work", "-w", win, "--scrollback")
	m := regexp.MustCompile("mk_" + n + "_rc=([0-9]+)").FindStringSubmatch(out)
	rc, _ := strconv.Atoi(m[1])
	b, _ := os.ReadFile("/tmp/tuios-mail-" + n + ".out")
	os.Remove("/tmp/tuios-mail-" + n + ".out")
	return rc, string(b)
}

type msgJSON struct {
	ID             uint64 `json:"id"`
	Kind           string `json:"kind"`
	From           string `json:"from"`
	FromLabel      string `json:"from_label"`
	To             string `json:"to"`
	Text           string `json:"text"`
	Subject        string `json:"subject"`
	ThreadID       uint64 `json:"thread_id"`
	ReplyTo        uint64 `json:"reply_to"`
	ReadAt         int64  `json:"read_at"`
	WasUnread      bool   `json:"was_unread"`
	Undeliverable  bool   `json:"undeliverable"`
	ClaimedHuman   bool   `json:"claimed_human"`
	SettledBy      string `json:"settled_by"`
	ReplyToMissing bool   `json:"reply_to_missing"`
}

type readJSON struct {
	Inbox      string    `json:"inbox"`
	Thread     uint64    `json:"thread"`
	Untrusted  bool      `json:"untrusted"`
	Messages   []msgJSON `json:"messages"`
	Unread     int       `json:"unread"`
	PeekForced bool      `json:"peek_forced"`
}

func (e *env) windowID(name string) string {
	e.t.Helper()
	var w struct {
		ID string `json:"window_id"`
	}
	e.json(&w, "get-window", "-s", "work", "-w", name)
	if w.ID == "" {
		var raw map[string]any
		e.json(&raw, "get-window", "-s", "work", "-w", name)
		w.ID, _ = raw["id"].(string)
	}
	return w.ID
}

func mailSetup(t *testing.T) (*env, string, string) {
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "lead", "--no-focus")
	e.ok("new-window", "-s", "work", "worker", "--no-focus")
	for _, w := range []string{"lead", "worker"} {
		e.ok("wait-for", "window-output", "-s", "work", "-w", w, "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")
	}
	return e, e.windowID("lead"), e.windowID("worker")
}

func TestMailTwoPanesExchangeAThread(t *testing.T) {
	t.Parallel()
	e, lead, worker := mailSetup(t)
	if lead == "" || worker == "" || lead == worker {
		t.Fatalf("window ids %q %q", lead, worker)
	}
	// lead writes from inside its pane: it is the sender whatever --from says.
	rc, out := e.inPane("lead", "tuios send-agent-message -w worker --from orchestrator --subject 'retest please' 'build done' --json")
	if rc != 0 {
		t.Fatalf("send from lead: %d %s", rc, out)
	}
	var sent struct {
		Type     string `json:"type"`
		ID       uint64 `json:"message_id"`
		Kind     string `json:"kind"`
		From     string `json:"from"`
		To       string `json:"to"`
		ThreadID uint64 `json:"thread_id"`
		ReplyTo  uint64 `json:"reply_to"`
	}
	if err := json.Unmarshal([]byte(out), &sent); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if sent.Type != "agent_message_sent" || sent.Kind != "message" || sent.From != lead || sent.To != worker || sent.ThreadID != sent.ID || sent.ReplyTo != 0 {
		t.Fatalf("sent: %+v", sent)
	}
	// The MAIL column counts it; a wait that starts after the message still
	// returns at once, naming it but not its body.
	var agents struct {
		Agents []struct {
			WindowID string `json:"window_id"`
			Unread   int    `json:"unread"`
		} `json:"agents"`
	}
	e.json(&agents, "list-agents", "-s", "work", "--all")
	for _, a := range agents.Agents {
		if a.WindowID == worker && a.Unread != 1 {
			t.Fatalf("MAIL column: %+v", agents)
		}
	}
	// A wait that starts after the message matches the mail already there
	// (a miss would end in the timeout error).
	var wr map[string]any
	e.json(&wr, "wait-for", "agent-message", "-s", "work", "-w", "worker", "--timeout", "5000")
	if wr["message_id"].(float64) != float64(sent.ID) || wr["subject"] != "retest please" || wr["text"] != nil {
		t.Fatalf("wait after the message: %v", wr)
	}
	// worker reads its own inbox inside its pane: fenced, marked read.
	rc, out = e.inPane("worker", "tuios read-agent-messages -w worker --unread")
	if rc != 0 || !strings.Contains(out, "from orchestrator ("+lead[:8]+")") || !strings.Contains(out, "│ build done") ||
		!strings.Contains(out, "--- begin untrusted content from orchestrator") || !strings.Contains(out, "1 message(s), 1 unread.") {
		t.Fatalf("worker's read: %s", out)
	}
	var rd readJSON
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "worker", "--unread")
	if len(rd.Messages) != 0 {
		t.Fatalf("read twice: %+v", rd)
	}
	e.json(&rd, "read-agent-messages", "-s", "work")
	if len(rd.Messages) != 1 || rd.Messages[0].ReadAt == 0 || !rd.Untrusted {
		t.Fatalf("a whole-session read still lists it: %+v", rd)
	}
	// A pane cannot message itself or write as the person.
	if rc, out := e.inPane("lead", "tuios send-agent-message -w lead 'me'"); rc != 1 || !strings.Contains(out, "cannot message itself") {
		t.Fatalf("self-send: %d %s", rc, out)
	}
	if rc, out := e.inPane("lead", "tuios send-agent-message -w worker --from human 'trust me'"); rc != 1 || !strings.Contains(out, "cannot write as human") {
		t.Fatalf("pane as human: %d %s", rc, out)
	}
	// lead waits for an answer in its thread; worker replies; a reply to
	// the reply stays in the first thread.
	done := make(chan result, 1)
	go func() {
		done <- e.run("wait-for", "agent-message", "-s", "work", "-w", "lead", "--thread", strconv.FormatUint(sent.ID, 10), "--timeout", "20000", "--json")
	}()
	time.Sleep(300 * time.Millisecond)
	e.ok("send-agent-message", "-s", "work", "-w", "lead", "an unrelated message")
	rc, out = e.inPane("worker", "tuios send-agent-message -w lead --reply-to "+strconv.FormatUint(sent.ID, 10)+" 'retested, still green' --json")
	if rc != 0 {
		t.Fatalf("reply: %s", out)
	}
	var reply struct {
		ID       uint64 `json:"message_id"`
		ThreadID uint64 `json:"thread_id"`
	}
	json.Unmarshal([]byte(out), &reply)
	r := <-done
	var woke map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.out), &woke) != nil || woke["message_id"].(float64) != float64(reply.ID) {
		t.Fatalf("thread wait: %+v", r)
	}
	rc, out = e.inPane("lead", "tuios send-agent-message -w worker --reply-to "+strconv.FormatUint(reply.ID, 10)+" 'thanks'")
	if rc != 0 {
		t.Fatal(out)
	}
	e.json(&rd, "read-agent-messages", "-s", "work", "--thread", strconv.FormatUint(reply.ID, 10))
	if rd.Thread != sent.ID || len(rd.Messages) != 3 || rd.Messages[0].ID != sent.ID || rd.Messages[2].Text != "thanks" || rd.Messages[2].ThreadID != sent.ID {
		t.Fatalf("thread read: %+v", rd)
	}
	// An id never issued is refused and stores nothing.
	if r := e.run("send-agent-message", "-s", "work", "-w", "worker", "--reply-to", "999", "typo", "--json"); r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("never issued: %+v", r)
	}
	// A wait with nothing coming times out, exit 1.
	if r := e.run("wait-for", "agent-message", "-s", "work", "-w", "lead", "--thread", "999", "--timeout", "300"); r.code != 1 || !strings.Contains(r.err, "timed out") {
		t.Fatalf("timeout: %+v", r)
	}
	// The inbox dies with its window and is never re-homed.
	e.ok("close-window", "-s", "work", "-w", "worker")
	e.ok("new-window", "-s", "work", "worker", "--no-focus")
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "worker")
	if len(rd.Messages) != 0 {
		t.Fatalf("re-homed: %+v", rd)
	}
	e.json(&rd, "read-agent-messages", "-s", "work")
	for _, m := range rd.Messages {
		if m.To == worker && !m.Undeliverable {
			t.Fatalf("mail to a closed window: %+v", m)
		}
	}
}

func TestMailThePersonsAddress(t *testing.T) {
	t.Parallel()
	e, lead, _ := mailSetup(t)
	if rc, out := e.inPane("lead", "tuios send-agent-message -w human --subject 'which retry policy?' 'exponential or fixed?'"); rc != 0 {
		t.Fatal(out)
	}
	e.ok("send-agent-message", "-s", "work", "-w", "human", "--from", "ci", "second")
	var agents struct {
		HumanInbox  string `json:"human_inbox"`
		HumanUnread int    `json:"human_unread"`
	}
	e.json(&agents, "list-agents", "-s", "work")
	if agents.HumanInbox != "human" || agents.HumanUnread != 2 {
		t.Fatalf("human_unread: %+v", agents)
	}
	// A pane's read of human is a peek.
	rc, out := e.inPane("lead", "tuios read-agent-messages -w human --json")
	var rd readJSON
	if rc != 0 || json.Unmarshal([]byte(out), &rd) != nil || !rd.PeekForced || len(rd.Messages) != 2 || rd.Messages[0].From != lead {
		t.Fatalf("pane reads human: %d %s", rc, out)
	}
	e.json(&agents, "list-agents", "-s", "work")
	if agents.HumanUnread != 2 {
		t.Fatal("a pane's peek marked the person's mail")
	}
	// The person (a script here: no attach client in this build) replies
	// in lead's thread; the claim is marked unverified.
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "human")
	e.json(&agents, "list-agents", "-s", "work")
	if agents.HumanUnread != 0 || len(rd.Messages) != 2 || !rd.Messages[0].WasUnread {
		t.Fatalf("person's read: %+v %+v", agents, rd)
	}
	e.ok("send-agent-message", "-s", "work", "-w", "lead", "--from", "human", "--reply-to", strconv.FormatUint(rd.Messages[0].ID, 10), "fixed")
	var w map[string]any
	e.json(&w, "wait-for", "agent-message", "-s", "work", "-w", "lead", "--thread", strconv.FormatUint(rd.Messages[0].ID, 10), "--timeout", "5000")
	if w["from"] != "human" {
		t.Fatalf("reply from human: %v", w)
	}
	out = e.ok("read-agent-messages", "-s", "work", "-w", "lead", "--peek")
	if !strings.Contains(out, "from human UNVERIFIED") {
		t.Fatalf("claimed human: %s", out)
	}
	// Nobody can type into the person.
	if r := e.run("ask-agent", "-s", "work", "-w", "human", "status?", "--json"); r.code != 1 || !strings.Contains(r.err, "no_keyboard") {
		t.Fatalf("ask human: %+v", r)
	}
	// The stash goes when the daemon stops.
	src := filepath.Join(e.dir, "note.md")
	os.WriteFile(src, []byte("# notes\n"), 0o644)
	stored := strings.SplitN(e.ok("stash", "put", "-s", "work", src), "\n", 2)[0]
	if _, err := os.Stat(stored); err != nil {
		t.Fatal(err)
	}
	e.ok("kill-server")
	root := filepath.Join(e.dir, "run", "tuios", "stash")
	for i := 0; ; i++ {
		if _, err := os.Stat(root); os.IsNotExist(err) {
			break
		}
		if i == 100 {
			t.Fatal("the stash outlived the daemon")
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func TestStashPutByTwoPanesStoresOnce(t *testing.T) {
	t.Parallel()
	e, _, _ := mailSetup(t)
	src := filepath.Join(e.dir, "shot.png")
	os.WriteFile(src, []byte(strings.Repeat("png", 100000)), 0o644)
	_, a := e.inPane("lead", "tuios stash put "+src)
	_, b := e.inPane("worker", "tuios stash put "+src)
	pa, pb := strings.SplitN(a, "\n", 2)[0], strings.SplitN(b, "\n", 2)[0]
	want := filepath.Join(e.dir, "run", "tuios", "stash", "work") + "/"
	if pa != pb || !strings.HasPrefix(pa, want) || !strings.HasSuffix(pa, ".png") || !strings.Contains(b, "already stored") {
		t.Fatalf("two puts:\n%s\n%s", a, b)
	}
	fi, err := os.Stat(pa)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stored file: %v %v", fi, err)
	}
	var put map[string]any
	json.Unmarshal([]byte(e.ok("stash", "put", "-s", "work", src, "--json")), &put)
	if put["deduped"] != true || put["session_entries"].(float64) != 1 || put["type"] != "stash_entry" {
		t.Fatalf("put json: %v", put)
	}
	// A message naming the stashed path reads back stashed; the listing
	// marks the file as used.
	e.ok("send-agent-message", "-s", "work", "-w", "worker", "--attach", pa, "--attach", src, "see the shot")
	var rd struct {
		Messages []struct {
			Attachments []struct {
				Kind, MediaType string
				Stashed         bool `json:"stashed"`
				Missing         bool `json:"missing"`
			} `json:"attachments"`
		} `json:"messages"`
	}
	e.json(&rd, "read-agent-messages", "-s", "work")
	os.Remove(src)
	atts := rd.Messages[0].Attachments
	if len(atts) != 2 || !atts[0].Stashed || atts[1].Stashed || atts[0].Kind != "image" {
		t.Fatalf("attachments: %+v", atts)
	}
	if out := e.ok("read-agent-messages", "-s", "work"); !strings.Contains(out, "(MISSING)") || strings.Count(out, "MISSING") != 1 {
		t.Fatalf("the deleted original reads MISSING, the stashed copy does not:\n%s", out)
	}
	var list struct {
		Entries []struct {
			Path       string `json:"path"`
			Referenced bool   `json:"referenced"`
		} `json:"entries"`
	}
	json.Unmarshal([]byte(e.ok("stash", "list", "-s", "work", "--json")), &list)
	if len(list.Entries) != 1 || !list.Entries[0].Referenced {
		t.Fatalf("list: %+v", list)
	}
	if out := e.ok("stash", "list", "-s", "work"); !strings.Contains(out, "USED") || !strings.Contains(out, "yes") {
		t.Fatalf("list table:\n%s", out)
	}
	cp := filepath.Join(e.dir, "copy.png")
	e.ok("stash", "get", "-s", "work", filepath.Base(pa), cp)
	if b, _ := os.ReadFile(cp); len(b) != 300000 {
		t.Fatal("stash get copy")
	}
	// Bad puts change nothing.
	for _, p := range []string{"relative.png", filepath.Join(e.dir, "nope.png"), e.dir} {
		if r := e.run("stash", "put", "-s", "work", p); r.code != 1 {
			t.Fatalf("put %s: %+v", p, r)
		}
	}
	// The stash goes with the session.
	e.ok("kill-session", "-s", "work")
	if _, err := os.Stat(filepath.Dir(pa)); !os.IsNotExist(err) {
		t.Fatal("the stash outlived its session")
	}
}

func TestAskAgent(t *testing.T) {
	t.Parallel()
	e, _, _ := mailSetup(t)
	// A shell pane: no harness, so output is the sign it took the question
	// and quiet ends the reply.
	var reply struct {
		Type      string `json:"type"`
		SettledBy string `json:"settled_by"`
		Untrusted bool   `json:"untrusted"`
		Reply     string `json:"reply"`
		Name      string `json:"name"`
	}
	e.json(&reply, "ask-agent", "-s", "work", "-w", "worker", "--settle", "500", "echo asked-$((6*7))")
	if reply.Type != "agent_reply" || reply.SettledBy != "idle" || !reply.Untrusted || !strings.Contains(reply.Reply, "asked-42") || reply.Name != "worker" {
		t.Fatalf("reply: %+v", reply)
	}
	if out := e.ok("ask-agent", "-s", "work", "-w", "worker", "--settle", "300", "echo second-$((1+1))"); !strings.Contains(out, "│ second-2") ||
		!strings.Contains(out, "--- begin untrusted content from worker") || !strings.Contains(out, "settled by idle") {
		t.Fatalf("human form:\n%s", out)
	}
	var rd readJSON
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "worker", "--peek")
	if len(rd.Messages) != 2 || rd.Messages[0].Kind != "ask" || rd.Messages[0].Subject != "echo asked-$((6*7))" || rd.Messages[0].SettledBy != "idle" {
		t.Fatalf("ask records: %+v", rd)
	}
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", "worker", "--unread")
	if len(rd.Messages) != 0 {
		t.Fatal("an ask record is never unread")
	}

	// Mid-turn: not ready by the deadline, nothing typed.
	e.ok("new-window", "-s", "work", "busy", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "60", "-step", "250ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "busy", "--until", "working", "--timeout", "15000")
	if r := e.run("ask-agent", "-s", "work", "-w", "busy", "--ready-timeout", "800", "status?", "--json"); r.code != 1 || !strings.Contains(r.err, "not_ready") {
		t.Fatalf("mid-turn: %+v", r)
	}
	e.ok("close-window", "-s", "work", "-w", "busy")

	// The pretend agent on its permission prompt: refused, nothing typed.
	e.ok("new-window", "-s", "work", "blocked", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "2", "-step", "100ms", "-deaf")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "blocked", "--until", "needs_input", "--timeout", "20000")
	if r := e.run("ask-agent", "-s", "work", "-w", "blocked", "--force", "status?", "--json"); r.code != 1 || !strings.Contains(r.err, "agent_blocked") {
		t.Fatalf("blocked: %+v", r)
	}
	// Answered, it finishes its turn and waits at its idle prompt, where it
	// takes no input: the text is typed, nothing reacts, prompt_stalled,
	// and the ask is still recorded.
	e.ok("send-text", "-s", "work", "-w", "blocked", "1")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "blocked", "--until", "idle,done", "--timeout", "20000")
	r := e.run("ask-agent", "-s", "work", "-w", "blocked", "--stall-timeout", "1500", "how is it going?", "--json")
	if r.code != 1 || !strings.Contains(r.err, "prompt_stalled") {
		t.Fatalf("stalled: %+v", r)
	}
	agent := e.windowID("blocked")
	e.json(&rd, "read-agent-messages", "-s", "work", "-w", agent, "--peek")
	if len(rd.Messages) != 1 || rd.Messages[0].Kind != "ask" || rd.Messages[0].SettledBy != "stalled" {
		t.Fatalf("stalled ask record: %+v", rd)
	}
}
