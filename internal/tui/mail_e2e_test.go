package tui_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The person has an address (seed 002): a pane mails human and waits on
// its thread; the attached client shows the count on the rail's agents
// header and who wrote in the dock; prefix M opens the Inbox on Mail,
// enter reads the thread (its text fenced, escapes written out, never
// run) and marks it read, r and enter reply; the pane's wait returns on
// the reply, which is from human and verified.
func TestAttachMailReadAndReply(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "build", "--no-focus")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `1:build`)

	sent := filepath.Join(w.dir, "sent")
	waited := filepath.Join(w.dir, "waited")
	// The body carries a colour escape: the overlay must write it out.
	script := `out=$(` + w.bin + ` send-agent-message -w human --from "$TUIOS_PANE_ID" --subject 'live q' "$(printf 'pick A or B\033[31mRED')" --json); ` +
		`id=$(printf '%s' "$out" | tr -d ' \n' | sed -n 's/.*"message_id":\([0-9]*\).*/\1/p'); echo "$id" >` + sent + `; ` +
		w.bin + ` wait-for agent-message -w "$TUIOS_PANE_ID" --thread "$id" --timeout 60000 --json >` + waited + `; echo "rc=$?" >>` + waited + "\n"
	w.ok("send-text", "-s", "s", "-w", "build", script)

	w.waitFor("c", `Agents · 1 mail`)
	// The sender is named with its short id: a window named like
	// another (two shells titled root@vm: ~) is told apart.
	w.waitFor("c", `mail from build \([0-9a-f]{8}\): live q`)
	id := strings.TrimSpace(readFile(t, sent))
	if _, err := strconv.Atoi(id); err != nil {
		t.Fatalf("the pane's send printed no message id: %q", id)
	}
	if n := humanUnread(t, w); n != 1 {
		t.Fatalf("human_unread = %d before reading, want 1", n)
	}

	w.keys("c", "C-b", "M")
	w.waitFor("c", `Mail \(1\)`)
	s := w.waitFor("c", `only Mail`)
	if !regexp.MustCompile(`build \([0-9a-f]{8}\)  live q`).MatchString(s) {
		t.Fatalf("the Mail row does not say who wrote and what about:\n%s", s)
	}
	w.waitFor("c", `enter read  r reply`)
	w.keys("c", "Enter")
	w.waitFor("c", `Mail from build \([0-9a-f]{8}\): live q`)
	s = w.waitFor("c", `begin untrusted content from build \([0-9a-f]{8}\)`)
	if !strings.Contains(s, `pick A or B\x1b[31mRED`) {
		t.Fatalf("the escape was not written out as text:\n%s", s)
	}
	// Reading marked it read: the count drops and the rail says no mail.
	w.waitGone("c", `Agents · 1 mail`)
	if n := humanUnread(t, w); n != 0 {
		t.Fatalf("human_unread = %d after reading, want 0", n)
	}

	w.keys("c", "r")
	w.waitFor("c", `Reply to build \([0-9a-f]{8}\):`)
	w.keys("c", "-l", "A please")
	w.waitFor("c", `Reply to build \([0-9a-f]{8}\): A please`)
	w.keys("c", "Enter")
	w.waitFor("c", `Replied to build \(message #\d+\)`)
	w.waitFor("c", `you → build`) // the thread is read again, the reply in it
	// The person's own words are theirs: not fenced as untrusted.
	s = w.waitFor("c", `│ A please`)
	if strings.Contains(s, "untrusted content from you") || strings.Count(s, "begin untrusted content") != 1 {
		t.Fatalf("the person's reply is fenced as untrusted:\n%s", s)
	}

	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(readFile(t, waited), "rc=") {
		if time.Now().After(deadline) {
			t.Fatalf("the pane's wait did not return; the screen:\n%s", w.screen("c"))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := readFile(t, waited); !strings.Contains(got, "rc=0") || !strings.Contains(got, `"from":"human"`) && !strings.Contains(got, `"from": "human"`) {
		t.Fatalf("the wait returned %q, want the reply from human and exit 0", got)
	}

	var res struct {
		Messages []struct {
			From          string `json:"from"`
			Text          string `json:"text"`
			ReplyTo       uint64 `json:"reply_to"`
			VerifiedHuman bool   `json:"verified_human"`
			ClaimedHuman  bool   `json:"claimed_human"`
		} `json:"messages"`
	}
	out := w.ok("read-agent-messages", "-s", "s", "-w", "build", "--thread", id, "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("read-agent-messages --json: %v\n%s", err, out)
	}
	found := false
	for _, m := range res.Messages {
		if m.Text == "A please" {
			found = true
			if m.From != "human" || !m.VerifiedHuman || m.ClaimedHuman || strconv.FormatUint(m.ReplyTo, 10) != id {
				t.Errorf("the reply is %+v, want from human, verified, replying to #%s", m, id)
			}
		}
	}
	if !found {
		t.Fatalf("no reply in the build pane's inbox:\n%s", out)
	}

	// The Mail row closed once read; m lists the whole mailbox, read
	// threads too, and enter reads one again.
	w.keys("c", "Escape")
	w.waitFor("c", `Nothing under Mail`)
	w.keys("c", "m")
	w.waitFor("c", `Mailbox \(1 thread\)`)
	w.waitFor("c", `s/build \([0-9a-f]{8}\)  live q  \(read\)`)
	w.keys("c", "Enter")
	w.waitFor("c", `you → build`)

	// A nonce that is not the attached client's is refused, not sent as
	// a claim.
	c, err := net.Dial("unix", filepath.Join(w.dir, "run", "tuios", "tuios.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, `{"id":1,"verb":"send-agent-message","params":{"session":"s","to":"build","text":"forged","human_nonce":"bogus"}}`+"\n")
	line, _ := bufio.NewReader(c).ReadString('\n')
	if !strings.Contains(line, `"not_human"`) {
		t.Fatalf("a forged nonce: %s", line)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}

// humanUnread is list-agents' count of messages waiting for the person.
func humanUnread(t *testing.T, w *world) int {
	t.Helper()
	var res struct {
		HumanUnread int `json:"human_unread"`
	}
	out := w.ok("list-agents", "-s", "s", "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("list-agents --json: %v\n%s", err, out)
	}
	return res.HumanUnread
}

// Prefix O goes to the newest finished turn the person has not seen,
// switching session and workspace; O again, without the prefix, goes to
// the next older one; when none is left the dock says so.
func TestAttachNewestFinishedTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.ok("new-window", "-s", "s", "pw", "--no-focus", "--workspace", "2", "--", "sleep", "600")
	w.ok("set-agent-state", "-s", "s", "-w", "pw", "done", "-m", "pw done", "--harness", "codex")
	w.ok("new", "--detach", "t")
	w.standIn("t", "pt", "done", "-m", "pt done", "--harness", "codex")
	for _, name := range []string{"pw", "pt"} {
		w.itemOf(name, func(it attention) bool { return it.Kind == "finished" })
	}
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\* 2`)

	w.keys("c", "C-b", "O")
	w.waitFor("c", `\[t\]`)
	w.waitFor("c", `pt finished: pt done`)
	w.waitFocused("t", "pt")

	w.keys("c", "O")
	w.waitFor("c", `\[s\] 1 2\*`)
	w.waitFor("c", `pw finished: pw done`)
	w.waitFocused("s", "pw")

	w.keys("c", "O")
	w.waitFor("c", `no older finished turn you have not seen`)
}
