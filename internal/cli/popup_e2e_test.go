package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

// tuios popup from the command line: refused with no client (needs_client)
// and with no command, its --help, then with the real client attached in
// tmux: the sizes it reports, the command's own flags kept as its own,
// and closing it like any pane.
func TestPopupCLI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work", "-n", "main")
	if msg := e.refused("popup", "-s", "work", "--", "true"); !strings.Contains(msg, "needs_client") || !strings.Contains(msg, "tuios attach -t work") {
		t.Fatalf("popup detached: %q", msg)
	}
	if msg := e.refused("popup", "-s", "work"); !strings.Contains(msg, "name the command") {
		t.Fatalf("popup with no command: %q", msg)
	}
	help := e.ok("popup", "--help")
	for _, want := range []string{"--width", "--height", "80%", "60%", "needs_client", "tuios popup -s work -- fzf", "esc in window mode"} {
		if !strings.Contains(help, want) {
			t.Fatalf("popup --help lacks %q:\n%s", want, help)
		}
	}
	if msg := e.refused("popup", "-s", "work", "-w", "60", "--", "true"); !strings.Contains(msg, "-w") {
		t.Fatalf("-w is not popup's: %q", msg)
	}

	e.attachInTmux(t, "work", 120, 40) // an area of 96x39 beside the rail

	var res map[string]any
	e.json(&res, "popup", "-s", "work", "--json", "--", "cat")
	if res["type"] != "popup_opened" || res["width"] != 77.0 || res["height"] != 23.0 || res["x"] != 9.0 || res["y"] != 8.0 {
		t.Fatalf("a default popup in 96x39 is 80%% by 60%%, centred: %v", res)
	}
	id, _ := res["window_id"].(string)
	if out := e.ok("run-command", "-s", "work", "CloseWindow"); !strings.Contains(out, "CloseWindow") {
		t.Fatalf("run-command CloseWindow: %q", out)
	}
	if msg := e.refused("get-window", "-s", "work", "-w", id); !strings.Contains(msg, "window_not_found") {
		t.Fatalf("the closed popup is still there: %q", msg)
	}

	// The command's own flags stay its own; the line printed starts with
	// the window id.
	out := e.ok("popup", "-s", "work", "--width", "60", "--height", "20", "sh", "-c", "echo -n flags-$((1+1)); exec cat")
	m := regexp.MustCompile(`^([0-9a-f-]{36})  popup 60x20 at 18,9\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("popup printed %q", out)
	}
	e.ok("wait-for", "window-output", "-s", "work", "-w", m[1], "--pattern", "flags-2", "--timeout", "10000")
	if msg := e.refused("set-window", "-s", "work", "-w", m[1], "--minimize"); !strings.Contains(msg, "cannot be minimized") {
		t.Fatalf("minimizing a popup: %q", msg)
	}
	e.ok("close-window", "-s", "work", "-w", m[1])
	if msg := e.refused("popup", "-s", "work", "--width", "101%", "--", "cat"); !strings.Contains(msg, "--width") {
		t.Fatalf("--width 101%%: %q", msg)
	}
}
