package cli_test

import (
	"testing"
)

// send-agent-message and read-agent-messages name the message's id and
// inbox label both ways (message_id and id, to_name and to_label), so a
// script reads one spelling from either; the old names stay.
func TestMailJSONNamesMatchAcrossVerbs(t *testing.T) {
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
