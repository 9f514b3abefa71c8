package tui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// configFile is the world's config.toml, as tuios set-config and tuios
// hosts add write it.
func configFile(w *world) string {
	return filepath.Join(w.dir, "home", ".config", "tuios", "config.toml")
}

// screenColours is the tmux pane with its SGR sequences (capture-pane -e).
func (w *world) screenColours(target string) string {
	out, _ := w.tmuxRun("capture-pane", "-p", "-e", "-t", target)
	return out
}

// hostStatus is a host's status as tuios hosts --json gives it, "" when
// it is not listed.
func hostStatus(t *testing.T, w *world, name string) string {
	t.Helper()
	var res struct {
		Hosts []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
		} `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(w.ok("hosts", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hosts {
		if h.Name == name {
			return h.Status
		}
	}
	return ""
}

// The seed's settings page: prefix , opens it on the Alerts tab; tab,
// shift+tab, right and left switch tabs; enter on sound turns it on as
// tuios set-config does (tuios get-config says so); the Hosts tab's Add a
// host refuses a bad name, a bad address and a name already there with
// the reason, writing nothing, and a good host is in tuios hosts at once,
// dialled, not pending; esc closes the page; prefix r renames a window.
func TestAttachSettingsPage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)

	w.keys("c", "C-b", ",")
	w.waitFor("c", `Settings . Alerts\s+Agents\s+\[Alerts\]\s+Hosts`)
	w.waitFor("c", `sound\s+false\s+play a sound`)
	w.waitFor("c", `Push notifications \[notify\], read only`)
	w.keys("c", "Tab")
	w.waitFor("c", `Settings . Hosts`)
	w.waitFor("c", `\+ Add a host`)
	w.keys("c", "Tab") // round to the first tab
	w.waitFor("c", `Settings . Agents`)
	w.waitFor("c", `HARNESS\s+ON PATH\s+STATE`)
	w.keys("c", "Left")
	w.waitFor("c", `Settings . Hosts`)
	w.keys("c", "BTab")
	w.waitFor("c", `Settings . Alerts`)
	w.keys("c", "Right", "Left")
	w.waitFor("c", `Settings . Alerts`)

	// Alerts: the fourth key is sound; enter flips it.
	if got := w.ok("get-config", "notifications.agent.sound"); got != "false\n" {
		t.Fatalf("get-config before: %q", got)
	}
	w.keys("c", "Down", "Down", "Down")
	w.waitSelectedRow("c", `sound\s+false`)
	w.keys("c", "Enter")
	w.waitFor("c", `sound\s+true \*\s+play a sound`)
	w.waitFor("c", `notifications\.agent\.sound = true \(was false\)`)
	if got := w.ok("get-config", "notifications.agent.sound"); got != "true\n" {
		t.Errorf("get-config after enter on sound: %q", got)
	}
	w.keys("c", "Down", "Enter") // sound_mode: audio to bell
	w.waitFor("c", `sound_mode\s+bell \*`)
	if got := w.ok("get-config", "notifications.agent.sound_mode"); got != "bell\n" {
		t.Errorf("get-config sound_mode: %q", got)
	}
	w.keys("c", "Down", "Enter") // sound_cooldown_seconds: a line to type
	w.waitFor("c", `Set notifications\.agent\.sound_cooldown_seconds`)
	w.keys("c", "C-u")
	w.keys("c", "-l", "soon")
	w.keys("c", "Enter")
	w.waitFor("c", `✗ set-config: .*"soon" is not a number`)
	if got := w.ok("get-config", "notifications.agent.sound_cooldown_seconds"); got != "3\n" {
		t.Errorf("a refused value was written: %q", got)
	}
	w.keys("c", "Escape")
	w.waitGone("c", `Set notifications`)
	w.waitFor("c", `sound_cooldown_seconds\s+3\s`)

	// Hosts: bad input is refused, says why, and writes nothing.
	w.keys("c", "Tab")
	w.waitFor("c", `Settings . Hosts`)
	w.waitFor("c", `no hosts yet`)
	before, err := os.ReadFile(configFile(w))
	if err != nil {
		t.Fatal(err)
	}
	w.keys("c", "a")
	w.waitFor("c", `Add a host: `)
	w.keys("c", "-l", "build box")
	w.keys("c", "Tab")
	w.keys("c", "-l", "me@127.0.0.1:1")
	w.keys("c", "Enter")
	w.waitFor("c", `✗ host build box: "build box" is not a host name`)
	w.keys("c", "C-u") // the cursor went back to the name
	w.keys("c", "-l", "build")
	w.keys("c", "Tab", "C-u")
	w.keys("c", "-l", "--", "-oProxyCommand=sh")
	w.keys("c", "Enter")
	w.waitFor("c", `✗ .*starts with '-'`)
	if after, _ := os.ReadFile(configFile(w)); string(after) != string(before) {
		t.Fatalf("a refused host changed the file:\n%s", after)
	}
	if s := hostStatus(t, w, "build"); s != "" {
		t.Fatalf("a refused host is listed: %s", s)
	}

	// A good one is in tuios hosts at once: applied, not waiting.
	w.keys("c", "C-u")
	w.keys("c", "-l", "me@127.0.0.1:1")
	w.keys("c", "Enter")
	w.waitFor("c", `host build added and applied: dialling build`)
	w.waitFor("c", `build\s+me@127\.0\.0\.1:1\s+(connecting|unreachable|reconnecting)`)
	if s := hostStatus(t, w, "build"); s == "" || s == "pending" || s == "unknown" {
		t.Errorf("tuios hosts: build is %q, not applied", s)
	}
	if out := w.ok("pane-grants"); strings.Contains(out, "build") {
		t.Errorf("pane-grants says the host waits:\n%s", out)
	}

	// The same name again is refused, and the file keeps the first.
	written, _ := os.ReadFile(configFile(w))
	w.keys("c", "a")
	w.waitFor("c", `Add a host: `)
	w.keys("c", "-l", "build")
	w.keys("c", "Tab")
	w.keys("c", "-l", "other@127.0.0.1:2")
	w.keys("c", "Enter")
	w.waitFor("c", `✗ a host named build is there already`)
	w.keys("c", "Escape")
	w.waitGone("c", `Add a host: `)
	if again, _ := os.ReadFile(configFile(w)); string(again) != string(written) {
		t.Errorf("a refused name changed the file:\n%s", again)
	}

	w.keys("c", "Escape")
	w.waitGone("c", `Settings . `)
	w.keys("c", "C-b", "r")
	w.waitFor("c", `rename window: `)
	w.keys("c", "Escape")
	w.waitGone("c", `rename window: `)
	w.detach("c")
}

// waitSelectedRow waits until the line matching re is drawn as the
// selection: reverse video, the cue that needs no colour.
func (w *world) waitSelectedRow(target, re string) {
	w.t.Helper()
	rx := regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m(?:\x1b\[[0-9;]*m)*\s*` + re)
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := w.screenColours(target)
		if rx.MatchString(s) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the row %q is not drawn selected; the screen:\n%q", re, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
