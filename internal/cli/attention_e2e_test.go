package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type cliAttList struct {
	Items []struct {
		ID      string `json:"id"`
		Kind    string `json:"kind"`
		Window  string `json:"window"`
		Summary string `json:"summary"`
		Since   int64  `json:"since"`
	} `json:"items"`
	Total  int            `json:"total"`
	Counts map[string]int `json:"counts"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
}

// The pretend agent reaches a permission prompt: an approval item opens
// in the Inbox, and closes when the prompt is answered.
func TestInboxFollowsThePretendAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	var created struct {
		WindowID string `json:"window_id"`
	}
	e.json(&created, "new-window", "-s", "work", "agent", "--no-focus", "--", e.bin, "pretend-agent", "-steps", "12", "-step", "250ms")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "needs_input", "--timeout", "20000")
	var l cliAttList
	deadline := time.Now().Add(15 * time.Second)
	for {
		e.json(&l, "list-attention")
		if l.Total == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if l.Total != 1 || l.Items[0].Kind != "approval" || l.Items[0].Window != created.WindowID || l.Counts["approval"] != 1 || l.BootID == "" {
		t.Fatalf("the prompt's item: %+v", l)
	}
	text := e.ok("list-attention")
	for _, want := range []string{"Approvals\n", "#" + l.Items[0].ID, "work/", "1 waiting. Open the Inbox with the prefix key then i"} {
		if !strings.Contains(text, want) {
			t.Fatalf("text form lacks %q:\n%s", want, text)
		}
	}
	if out := e.ok("list-attention", "--kind", "question"); !strings.Contains(out, "Nothing waiting") {
		t.Fatalf("--kind question:\n%s", out)
	}
	if out := e.ok("list-attention", "--select", "harness:claude needs:you"); !strings.Contains(out, "#"+l.Items[0].ID) {
		t.Fatalf("--select harness:claude:\n%s", out)
	}
	r := e.run("list-attention", "--select", "colour:red")
	if r.code != 1 || !strings.Contains(r.err, "invalid_params") || !strings.Contains(r.err, "harness, state, needs") {
		t.Fatalf("unknown selector key: %+v", r)
	}
	r = e.run("list-agents", "--select", "colour:red")
	if r.code != 1 || !strings.Contains(r.err, "invalid_params") {
		t.Fatalf("list-agents unknown selector key: %+v", r)
	}
	if out := e.ok("list-agents", "--select", "harness:claude state:needs_input"); !strings.Contains(out, "agent") {
		t.Fatalf("list-agents --select:\n%s", out)
	}
	// Answer the prompt: the item closes.
	e.ok("send-text", "-s", "work", "-w", "agent", "1")
	e.ok("wait-for", "agent-state", "-s", "work", "-w", "agent", "--until", "working,idle,done", "--timeout", "20000")
	deadline = time.Now().Add(15 * time.Second)
	for {
		e.json(&l, "list-attention", "--kind", "approval")
		if l.Total == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if l.Total != 0 {
		t.Fatalf("the answered prompt is still listed: %+v", l)
	}
}

// Only the person acts on the Inbox: from a shell outside every pane that
// takes respond_from_shell (the daemon's one switch for a shell to act as
// the person); without it, not_human; from inside a pane, never.
func TestInboxDismissUndoSnoozeAndNotHuman(t *testing.T) {
	t.Parallel()
	plain := newEnv(t)
	plain.ok("new", "--detach", "work")
	plain.ok("set-agent-state", "errored", "-s", "work", "-w", "0", "-m", "tests failed")
	var pl cliAttList
	for deadline := time.Now().Add(15 * time.Second); pl.Total == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		plain.json(&pl, "list-attention")
	}
	if pl.Total != 1 {
		t.Fatalf("errored item: %+v", pl)
	}
	if r := plain.run("dismiss-attention", pl.Items[0].ID); r.code == 0 || !strings.Contains(r.err, "not_human") || !strings.Contains(r.err, "respond_from_shell") {
		t.Fatalf("a shell without respond_from_shell dismissed: %+v", r)
	}

	e := shellRespondEnv(t)
	e.ok("set-agent-state", "errored", "-s", "work", "-w", "0", "-m", "tests failed")
	var l cliAttList
	deadline := time.Now().Add(15 * time.Second)
	for {
		e.json(&l, "list-attention")
		if l.Total == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if l.Total != 1 || l.Items[0].Kind != "errored" {
		t.Fatalf("errored item: %+v", l)
	}
	id := l.Items[0].ID
	if out := e.ok("dismiss-attention", id); !strings.Contains(out, "Dismissed #"+id) {
		t.Fatalf("dismiss: %q", out)
	}
	r := e.run("dismiss-attention", id)
	if r.code != 1 || !strings.Contains(r.err, "invalid_params") || !strings.Contains(r.err, "why: ") {
		t.Fatalf("second dismiss: %+v", r)
	}
	if out := e.ok("mark-attention", "undo"); !strings.Contains(out, "#"+id+" is back") {
		t.Fatalf("undo: %q", out)
	}
	if out := e.ok("mark-attention", "snooze", id, "--for", "15m"); !strings.Contains(out, "Snoozed #"+id+" until") {
		t.Fatalf("snooze: %q", out)
	}
	if out := e.ok("list-attention"); !strings.Contains(out, "Nothing waiting") {
		t.Fatalf("a snoozed item is listed:\n%s", out)
	}
	if out := e.ok("list-attention", "--snoozed"); !strings.Contains(out, "Snoozed\n") || !strings.Contains(out, "#"+id) {
		t.Fatalf("--snoozed:\n%s", out)
	}
	if out := e.ok("mark-attention", "wake", id); !strings.Contains(out, "Woke #"+id) {
		t.Fatalf("wake: %q", out)
	}
	if r := e.run("mark-attention", "snooze", id); r.code != 1 || !strings.Contains(r.err, "exactly one") {
		t.Fatalf("snooze without a time: %+v", r)
	}
	// A program inside a pane may not act on the Inbox.
	out := filepath.Join(e.dir, "inside.txt")
	e.ok("send-text", "-s", "work", "-w", "0", "tuios dismiss-attention "+id+" 2>"+out+"; tuios mark-attention undo 2>>"+out+"; echo done >>"+out+"\n")
	deadline = time.Now().Add(15 * time.Second)
	var got []byte
	for {
		got, _ = os.ReadFile(out)
		if strings.Contains(string(got), "done") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Count(string(got), "not_human") != 2 {
		t.Fatalf("from inside a pane:\n%s", got)
	}
	e.json(&l, "list-attention")
	if l.Total != 1 || l.Items[0].ID != id {
		t.Fatalf("a refused dismiss changed the Inbox: %+v", l)
	}
}

// The queue file is written on shutdown under the state dir, mode 0600.
func TestInboxFileIsWrittenOnShutdown(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("set-agent-state", "errored", "-s", "work", "-w", "0", "-m", "boom")
	var l cliAttList
	for deadline := time.Now().Add(15 * time.Second); l.Total == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		e.json(&l, "list-attention")
	}
	e.ok("kill-server")
	path := filepath.Join(e.dir, "home", ".local", "state", "tuios", "attention", "items.json")
	var fi os.FileInfo
	var err error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fi, err = os.Stat(path); err == nil {
			break
		}
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"errored"`) {
		t.Fatalf("queue file lacks the errored item:\n%s", b)
	}
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("queue file: %v %v", fi, err)
	}
}
