package cli_test

import (
	"strings"
	"testing"
)

// send-agent-message and read-agent-messages name the message's id and
// inbox label both ways (message_id and id, to_name and to_label), so a
// script reads one spelling from either; the old names stay.
func TestMailJSONNamesMatchAcrossVerbs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "worker", "--no-focus")
	var sent map[string]any
	e.json(&sent, "send-agent-message", "-s", "work", "-w", "worker", "--subject", "s", "hello")
	var read struct {
		Messages []map[string]any `json:"messages"`
	}
	e.json(&read, "read-agent-messages", "-s", "work", "-w", "worker")
	if len(read.Messages) != 1 {
		t.Fatalf("read: %+v", read)
	}
	got := read.Messages[0]
	for _, m := range []map[string]any{sent, got} {
		if m["id"] == nil || m["id"] != m["message_id"] || m["to_label"] != m["to_name"] || m["to_label"] != "worker" {
			t.Fatalf("id/message_id, to_label/to_name differ: %v", m)
		}
	}
	if sent["id"] != got["id"] || sent["to_name"] != got["to_name"] {
		t.Fatalf("sent %v, read %v", sent, got)
	}
}

// Two shell windows whose programs titled them alike ("root@vm: ~", what
// a shell's prompt sets) mail the person: every place that names a
// sender tells them apart, by name and short id (the Inbox rows, the
// text of list-attention, read-agent-messages), and none names one by
// its title.
func TestMailSendersAreToldApart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "--no-focus")
	var ids []string
	for _, idx := range []string{"0", "1"} {
		id := e.windowID(idx)
		ids = append(ids, id)
		// At the shell's prompt first: a line typed before it is echoed
		// by the terminal, and its output then follows the prompt.
		e.ok("wait-for", "window-output", "-s", "work", "-w", id, "--pattern", `(?m)^\$`, "--timeout", "10000")
		e.ok("send-text", "-s", "work", "-w", id, `printf '\033]2;root@vm: ~\007'; echo titled`+"\n")
		e.ok("wait-for", "window-output", "-s", "work", "-w", id, "--pattern", `^titled$`, "--timeout", "5000")
		if rc, out := e.inPane(id, e.bin+" send-agent-message -w human --subject 'from "+idx+"' 'done'"); rc != 0 {
			t.Fatalf("send from %s: %d %s", idx, rc, out)
		}
	}
	for _, id := range ids {
		if w := e.getWindow(id); w.Title != "root@vm: ~" {
			t.Fatalf("window %s is titled %q", id[:8], w.Title)
		}
	}
	want := []string{"sh (" + ids[0][:8] + ")", "sh (" + ids[1][:8] + ")"}

	var att struct {
		Items []struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"items"`
	}
	e.json(&att, "list-attention", "-s", "work")
	var names []string
	for _, it := range att.Items {
		if it.Kind == "mail" {
			names = append(names, it.Name)
		}
	}
	if len(names) != 2 || !(names[0] == want[0] && names[1] == want[1] || names[0] == want[1] && names[1] == want[0]) {
		t.Fatalf("Inbox mail rows name %q, want %q", names, want)
	}
	for _, out := range []string{e.ok("list-attention", "-s", "work"), e.ok("read-agent-messages", "-s", "work", "-w", "human", "--peek")} {
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%q missing from:\n%s", w, out)
			}
		}
		if strings.Contains(out, "from root@vm") {
			t.Errorf("a sender named by its title:\n%s", out)
		}
	}
}
