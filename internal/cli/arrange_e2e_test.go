package cli_test

import (
	"strings"
	"testing"
)

// refused runs a verb that must fail and returns its stderr.
func (e *env) refused(args ...string) string {
	e.t.Helper()
	r := e.run(args...)
	if r.code == 0 {
		e.t.Fatalf("tuios %s succeeded:\n%s", strings.Join(args, " "), r.out)
	}
	return r.err
}

func TestArrangeVerbsPrintWhatChanged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work", "-n", "runner")
	e.ok("new-window", "-s", "work", "ex", "--workspace", "2")

	if out := e.ok("focus-window", "-s", "work", "runner"); out != "focused runner (workspace 2 → 1)\n" {
		t.Fatalf("focus-window: %q", out)
	}
	if out := e.ok("focus-window", "-s", "work", "runner"); !strings.Contains(out, "runner is already focused") {
		t.Fatalf("focus-window again: %q", out)
	}
	if out := e.ok("move-window", "-s", "work", "-w", "runner", "3"); out != "moved runner to workspace 3 (from 1)\n" {
		t.Fatalf("move-window: %q", out)
	}
	out := e.ok("move-window", "-s", "work", "2", "-w", "runner", "--follow")
	if out != "moved runner to workspace 2 (from 3); showing workspace 1 → 2, runner focused\n" {
		t.Fatalf("move-window --follow: %q", out)
	}
	var info struct {
		Current int    `json:"current_workspace"`
		Tiling  string `json:"tiling"`
	}
	e.json(&info, "session-info", "-s", "work")
	if info.Current != 2 {
		t.Fatalf("--follow shows workspace 2: %+v", info)
	}
	if out := e.ok("select-workspace", "-s", "work", "1"); out != "workspace 2 → 1\n" {
		t.Fatalf("select-workspace: %q", out)
	}
	var sel map[string]any
	e.json(&sel, "select-workspace", "-s", "work", "2")
	if sel["previous_workspace"] != 1.0 || sel["workspace"] != 2.0 {
		t.Fatalf("select-workspace --json: %v", sel)
	}

	if out := e.ok("set-window", "-s", "work", "-w", "runner", "--minimize"); out != "minimized runner\n" {
		t.Fatalf("set-window --minimize: %q", out)
	}
	if out := e.ok("set-window", "-s", "work", "-w", "runner", "--restore", "--name", "api tests"); out != "renamed \"runner\" to \"api tests\"; restored api tests\n" {
		t.Fatalf("set-window --restore --name: %q", out)
	}
	if msg := e.refused("set-window", "-s", "work", "-w", "ex", "--minimize", "--restore"); !strings.Contains(msg, "--minimize and --restore cannot be combined") {
		t.Fatalf("--minimize with --restore: %q", msg)
	}
	if msg := e.refused("set-window", "-s", "work", "-w", "ex"); !strings.Contains(msg, "--name, --minimize or --restore") {
		t.Fatalf("nothing to set: %q", msg)
	}
	var w map[string]any
	e.json(&w, "get-window", "-s", "work", "-w", "ex")
	if w["minimized"] != false {
		t.Fatalf("a refused set-window changed the window: %v", w)
	}

	var moved map[string]any
	e.json(&moved, "move-window", "-s", "work", "-w", "ex", "4")
	if moved["previous_workspace"] != 2.0 || moved["workspace"] != 4.0 || moved["changed"] != true {
		t.Fatalf("move-window --json: %v", moved)
	}
	if out := e.ok("close-window", "-s", "work", "-w", "ex"); out != "closed ex\n" {
		t.Fatalf("close-window: %q", out)
	}
	if msg := e.refused("close-window", "-s", "work", "a", "b"); !strings.Contains(msg, `unexpected argument "b"`) {
		t.Fatalf("a second window is not silently ignored: %q", msg)
	}
	if msg := e.refused("focus-window", "-s", "work", "-w", "api tests", "other"); !strings.Contains(msg, `unexpected argument "other"`) {
		t.Fatalf("a window by -w and by position: %q", msg)
	}
}

func TestRunCommandCLI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "two")
	zoomed := func() bool {
		var info map[string]any
		e.json(&info, "session-info", "-s", "work")
		return info["zoomed"] == true
	}
	for _, bad := range [][]string{{"run-command", "-s", "work", ""}, {"run-command", "-s", "work"}} {
		r := e.run(bad...)
		if r.code == 0 || !strings.Contains(r.err, "name a command") || !strings.Contains(r.err, "run-command --list") || r.out != "" {
			t.Fatalf("%q must fail and say how to list: %+v", bad, r)
		}
	}
	if zoomed() {
		t.Fatal("a refused run-command zoomed")
	}
	if out := e.ok("run-command", "-s", "work", "toggle_zoom"); out != "ran ToggleZoom\n" || !zoomed() {
		t.Fatalf("toggle_zoom: %q, zoomed %v", out, zoomed())
	}
	var res map[string]any
	e.json(&res, "run-command", "-s", "work", "ToggleZoom")
	if res["type"] != "command_result" || res["command"] != "ToggleZoom" || zoomed() {
		t.Fatalf("ToggleZoom --json: %v", res)
	}
	if msg := e.refused("run-command", "-s", "work", "NoSuchCmd"); !strings.Contains(msg, "unknown command") {
		t.Fatalf("an unknown command: %q", msg)
	}
	out := e.ok("run-command", "--list")
	if !strings.Contains(out, "ToggleZoom") || !strings.Contains(out, "toggle_zoom") || !strings.Contains(out, "Either name") {
		t.Fatalf("--list shows both spellings: %s", out)
	}
}

// TestClientGeometryVerbsCLI runs the three verbs that need a client
// detached (needs_client) and then with the real client attached inside
// tmux.
func TestClientGeometryVerbsCLI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.ok("new", "--detach", "work", "-n", "left")
	e.ok("new-window", "-s", "work", "right")
	for _, args := range [][]string{
		{"focus-window", "-s", "work", "--direction", "left"},
		{"split-window", "-s", "work", "vertical", "-w", "left", "--name", "logs"},
		{"set-layout", "-s", "work", "--tiling", "true", "--equalize"},
	} {
		if msg := e.refused(args...); !strings.Contains(msg, "needs_client") {
			t.Fatalf("tuios %v detached: %q", args, msg)
		}
	}
	if msg := e.refused("set-layout", "-s", "work", "--tiling", "maybe"); !strings.Contains(msg, "--tiling takes true or false") {
		t.Fatalf("--tiling maybe: %q", msg)
	}

	e.attachInTmux(t, "work", 120, 40) // an area of 96x39 beside the rail

	if out := e.ok("focus-window", "-s", "work", "--direction", "left"); out != "focused left (workspace 1)\n" {
		t.Fatalf("--direction left: %q", out)
	}
	if out := e.ok("focus-window", "-s", "work", "--direction", "left"); !strings.Contains(out, "no window left of left; the focus stays") {
		t.Fatalf("--direction left at the edge: %q", out)
	}
	var sp map[string]any
	e.json(&sp, "split-window", "-s", "work", "vertical", "-w", "left", "--name", "logs", "--", "/bin/cat")
	id, _ := sp["window_id"].(string)
	if sp["index"] != 1.0 || sp["split_from"] == nil || id == "" {
		t.Fatalf("split-window: %v", sp)
	}
	var wins struct {
		Windows []struct {
			ID   string `json:"window_id"`
			Name string `json:"name"`
			X    int    `json:"x"`
			Y    int    `json:"y"`
		} `json:"windows"`
	}
	e.json(&wins, "list-windows", "-s", "work")
	if len(wins.Windows) != 3 || wins.Windows[1].ID != id || wins.Windows[1].Name != "logs" || wins.Windows[1].X == 0 || wins.Windows[1].Y != 0 {
		t.Fatalf("logs sits right after left, at the top of the stack: %+v", wins.Windows)
	}
	if out := e.ok("set-layout", "-s", "work", "--tiling", "false"); out != "session work: tiling tiled → floating\n" {
		t.Fatalf("set-layout --tiling false: %q", out)
	}
	if out := e.ok("session-info", "-s", "work"); !strings.Contains(out, "floating") {
		t.Fatalf("session-info's tiling row: %s", out)
	}
	if msg := e.refused("split-window", "-s", "work", "-w", "left"); !strings.Contains(msg, "tiling_off") || !strings.Contains(msg, "--tiling true") {
		t.Fatalf("split-window while floating: %q", msg)
	}
	if out := e.ok("set-layout", "-s", "work", "--tiling", "true", "--equalize"); !strings.Contains(out, "tiling floating → tiled; equalized") {
		t.Fatalf("set-layout --tiling true --equalize: %q", out)
	}
}
