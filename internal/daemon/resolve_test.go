package daemon

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// Over the protocol, with real shells: an index past the end, the display
// name, a title two windows share, and a name another window holds.
func TestWindowAddressOverTheProtocol(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	first := str(r.must("new-session", map[string]any{"name": "work"})["window_id"])
	build := str(r.must("new-window", map[string]any{"session": "work", "name": "build", "no_focus": true})["window_id"])

	got := func(addr string) (string, *proto.Error) {
		res, err := r.call("get-window", map[string]any{"session": "work", "window": addr})
		return str(res["window_id"]), err
	}
	if id, err := got("1"); err != nil || id != build {
		t.Fatalf("index 1: %s %v", id, err)
	}
	if _, err := got("7"); err == nil || err.Code != proto.CodeWindowNotFound || !strings.Contains(err.Message, "(its indexes are 0 to 1)") {
		t.Fatalf("index 7: %+v", err)
	}
	// The first window has no name given: it is named after what runs in
	// it (the test shell, /bin/sh), automatic_name says so, and the name
	// addresses it. The named one is not automatic.
	row := r.must("get-window", map[string]any{"session": "work", "window": first})
	if str(row["name"]) != "sh" || str(row["display_name"]) != "sh" || row["automatic_name"] != true {
		t.Fatalf("an unnamed shell window: name %q display_name %q automatic %v", row["name"], row["display_name"], row["automatic_name"])
	}
	if id, err := got("sh"); err != nil || id != first {
		t.Fatalf("the automatic name sh: %s %v", id, err)
	}
	if row := r.must("get-window", map[string]any{"session": "work", "window": build}); str(row["name"]) != "build" || row["automatic_name"] != false {
		t.Fatalf("a named window: %v", row)
	}

	// A name another window holds is refused, at creation and on rename.
	if _, err := r.call("new-window", map[string]any{"session": "work", "name": "build"}); err == nil || err.Code != proto.CodeInvalidParams || !strings.Contains(err.Message, "taken by window "+build[:8]) {
		t.Fatalf("new-window with a taken name: %+v", err)
	}
	if _, err := r.call("set-window", map[string]any{"session": "work", "window": first, "name": "build"}); err == nil || !strings.Contains(err.Message, "taken") {
		t.Fatalf("set-window --name taken: %+v", err)
	}
	if res := r.must("list-windows", map[string]any{"session": "work"}); len(res["windows"].([]any)) != 2 {
		t.Fatalf("a refused new-window opened a window: %v", res["windows"])
	}

	// Two unnamed windows that set the same title: the title is ambiguous.
	other := str(r.must("new-window", map[string]any{"session": "work", "no_focus": true})["window_id"])
	for _, id := range []string{first, other} {
		r.must("send-text", map[string]any{"session": "work", "window": id, "text": "printf '\\033]2;twin\\007'\n"})
	}
	eventually(t, "both windows titled twin", func() bool {
		a, _ := r.call("get-window", map[string]any{"window": first})
		b, _ := r.call("get-window", map[string]any{"window": other})
		return str(a["title"]) == "twin" && str(b["title"]) == "twin"
	})
	_, err := got("twin")
	if err == nil || err.Code != proto.CodeAmbiguousWindow || err.Hint == nil || len(err.Hint.Available) != 2 {
		t.Fatalf("ambiguous title: %+v", err)
	}
}
