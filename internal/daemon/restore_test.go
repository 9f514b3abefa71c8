package daemon

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/config"
)

// daemonAt starts a daemon on sock keeping its files under state, as a
// person's daemon does on each start; the caller stops it.
func daemonAt(t *testing.T, sock, state string, cfg *config.File) *Server {
	t.Helper()
	home := filepath.Dir(state)
	srv, err := New(Options{Socket: sock, Shell: "/bin/sh", StateDir: state, Config: cfg,
		Env:     []string{"PATH=/usr/bin:/bin", "HOME=" + home, "PS1=$ ", "ENV="},
		Tracker: detect.TrackerOptions{StallAfter: -1, Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	go srv.Serve(context.Background())
	t.Cleanup(func() { srv.Close() })
	return srv
}

// shellSays types a command into a shell pane and waits for its answer.
func shellSays(t *testing.T, r *rpc, window, cmd, want string) {
	t.Helper()
	r.must("send-text", map[string]any{"window": window, "text": cmd + "\n"})
	if _, err := r.call("wait-for", map[string]any{"window": window, "condition": "window-output", "pattern": want, "timeout": 10000}); err != nil {
		t.Fatalf("%q never printed %q: %s\nscreen:\n%v", cmd, want, err.Message, r.must("capture-pane", map[string]any{"window": window})["content"])
	}
}

// A daemon that stops and starts again brings its sessions back: the same
// session and window ids and names, a new shell in the directory each was
// in, told TUIOS_RESTORED=1; the Inbox keeps finished and errored items of
// those panes (ids and seq go on) and drops the prompts that died.
func TestARestartRestoresSessionsAndKeepsTheirInboxItems(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	work := filepath.Join(dir, "project")
	os.MkdirAll(work, 0o700)
	srv := daemonAt(t, sock, state, &config.File{})
	r := dialRPC(t, sock)
	first := str(r.must("new-session", map[string]any{"name": "work"})["window_id"])
	second := str(r.must("new-window", map[string]any{"session": "work", "name": "api", "cwd": work})["window_id"])
	third := str(r.must("new-window", map[string]any{"session": "work", "name": "asks"})["window_id"])
	r.must("new-session", map[string]any{"name": "gone"})
	r.must("kill-session", map[string]any{"session": "gone"})
	shellSays(t, r, first, "cd "+work+" && echo moved-$((40+2))", "moved-42")
	report(t, r, first, "errored", "", "boom")
	report(t, r, second, "working", "", "")
	report(t, r, second, "done", "", "all green")
	report(t, r, third, "needs_input", "approval", "approve Bash: make")
	before := waitList(t, r, nil, "three items", func(l attList) bool { return l.Total == 3 })
	ids := map[string]string{}
	for _, it := range before.Items {
		ids[it.Kind] = it.ID
	}
	srv.Close()

	srv2 := daemonAt(t, sock, state, &config.File{})
	r2 := dialRPC(t, sock)
	var sessions struct {
		Sessions []struct {
			Name string `json:"name"`
		} `json:"sessions"`
	}
	remarshalT(t, r2.must("list-sessions", nil), &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].Name != "work" {
		t.Fatalf("restored sessions: %+v (a killed session must stay gone)", sessions)
	}
	var wins struct {
		Windows []struct {
			ID   string `json:"window_id"`
			Name string `json:"display_name"`
		} `json:"windows"`
	}
	remarshalT(t, r2.must("list-windows", map[string]any{"session": "work"}), &wins)
	if len(wins.Windows) != 3 || wins.Windows[0].ID != first || wins.Windows[1].ID != second || wins.Windows[1].Name != "api" || wins.Windows[2].ID != third {
		t.Fatalf("restored windows: %+v", wins)
	}
	shellSays(t, r2, first, "echo restored-$TUIOS_RESTORED", "restored-1")
	shellSays(t, r2, first, "test \"$(pwd)\" = "+work+" && echo same-$((1+1))-dir", "same-2-dir")
	shellSays(t, r2, second, "test \"$(pwd)\" = "+work+" && echo same-$((1+1))-dir", "same-2-dir")

	l := listAtt(t, r2, nil)
	var kinds []string
	for _, it := range l.Items {
		kinds = append(kinds, it.Kind)
		if ids[it.Kind] != it.ID {
			t.Errorf("%s came back as %s, was %s", it.Kind, it.ID, ids[it.Kind])
		}
	}
	if strings.Join(kinds, ",") != "errored,finished" || l.Seq < before.Seq || l.BootID == before.BootID {
		t.Fatalf("kept %v seq %d boot %s (was seq %d boot %s)", kinds, l.Seq, l.BootID, before.Seq, before.BootID)
	}
	// State does not survive: the restored panes hold no agent.
	if st := r2.must("get-agent-state", map[string]any{"window": first}); st["state"] != "none" {
		t.Fatalf("restored pane's state: %v", st)
	}

	// kill-session forgets a session; kill-server (a stop) keeps the rest.
	r2.must("new-session", map[string]any{"name": "scratch"})
	r2.must("kill-session", map[string]any{"session": "scratch"})
	r2.call("kill-server", nil)
	<-srv2.Stopped()
	daemonAt(t, sock, state, &config.File{})
	remarshalT(t, dialRPC(t, sock).must("list-sessions", nil), &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].Name != "work" {
		t.Fatalf("after kill-server and a start: %+v", sessions)
	}
}

// Another daemon on another socket never restores this one's sessions, and
// restore = false brings nothing back.
func TestRestoreIsPerSocketAndCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := filepath.Join(dir, "home", "state")
	sock := filepath.Join(dir, "s", "tuios.sock")
	srv := daemonAt(t, sock, state, &config.File{})
	dialRPC(t, sock).must("new-session", map[string]any{"name": "mine"})
	srv.Close()

	other := filepath.Join(dir, "o", "tuios.sock")
	o := daemonAt(t, other, state, &config.File{})
	if n := len(dialRPC(t, other).must("list-sessions", nil)["sessions"].([]any)); n != 0 {
		t.Fatalf("a daemon on another socket restored %d sessions", n)
	}
	o.Close()

	off, _ := config.Parse([]byte("[daemon]\nrestore = false\n"))
	daemonAt(t, sock, state, off)
	if n := len(dialRPC(t, sock).must("list-sessions", nil)["sessions"].([]any)); n != 0 {
		t.Fatalf("restore = false restored %d sessions", n)
	}
}

// A sessions file that is not ours, not private or not JSON is set aside,
// never overwritten, and the daemon starts with no sessions.
func TestACorruptSessionsFileIsSetAside(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		data string
		mode os.FileMode
	}{
		"garbage":     {"{not json", 0o600},
		"world-read":  {`{"version":1,"sessions":[{"name":"x","windows":[{}]}]}`, 0o644},
		"new-version": {`{"version":99,"sessions":[]}`, 0o600},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "home", "state")
			sock := filepath.Join(dir, "s", "tuios.sock")
			srv := daemonAt(t, sock, state, &config.File{})
			path := srv.tab.Restorer().Path()
			srv.Close()
			os.MkdirAll(filepath.Dir(path), 0o700)
			os.Remove(path)
			if err := os.WriteFile(path, []byte(c.data), c.mode); err != nil {
				t.Fatal(err)
			}
			daemonAt(t, sock, state, &config.File{})
			if n := len(dialRPC(t, sock).must("list-sessions", nil)["sessions"].([]any)); n != 0 {
				t.Fatalf("started with %d sessions", n)
			}
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("set aside: %v", aside)
			}
			if b, _ := os.ReadFile(aside[0]); string(b) != c.data {
				t.Fatalf("the refused file changed: %q", b)
			}
		})
	}
}

// The splits come back with the session: a daemon that restarts and is
// shown at the same size places every window where it was, on each
// workspace, and a window that did not come back gives its place up.
func TestARestartKeepsTheSplits(t *testing.T) {
	dir := t.TempDir()
	sock, state := filepath.Join(dir, "s", "tuios.sock"), filepath.Join(dir, "home", "state")
	srv := daemonAt(t, sock, state, &config.File{})
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "work"})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "work", "cols": 120, "rows": 40})
	go io.Copy(io.Discard, st.r)
	b := str(r.must("split-window", map[string]any{"session": "work", "window": a, "direction": "horizontal"})["window_id"])
	r.must("split-window", map[string]any{"session": "work", "window": b, "direction": "vertical", "percent": 30})
	r.must("split-window", map[string]any{"session": "work", "window": a, "direction": "left", "percent": 20})
	// A second workspace with a stacked pair of its own.
	d := str(r.must("new-window", map[string]any{"session": "work", "workspace": 2})["window_id"])
	r.must("split-window", map[string]any{"session": "work", "window": d, "direction": "horizontal", "percent": 25})
	r.must("select-workspace", map[string]any{"session": "work", "workspace": 1})
	places := func(r *rpc) map[string]string {
		out := map[string]string{}
		for _, w := range windowsOf(t, r, "work") {
			out[w.WindowID] = fmt.Sprintf("ws%d %d,%d %dx%d", w.Workspace, w.X, w.Y, w.Width, w.Height)
		}
		return out
	}
	// Each workspace is placed when shown: show 2, then 1 again.
	r.must("select-workspace", map[string]any{"session": "work", "workspace": 2})
	r.must("select-workspace", map[string]any{"session": "work", "workspace": 1})
	want := places(r)
	st.c.Close()
	srv.Close()

	daemonAt(t, sock, state, &config.File{})
	r2 := dialRPC(t, sock)
	st2, _ := attachStreamT(t, sock, map[string]any{"session": "work", "cols": 120, "rows": 40})
	go io.Copy(io.Discard, st2.r)
	defer st2.c.Close()
	r2.must("select-workspace", map[string]any{"session": "work", "workspace": 2})
	r2.must("select-workspace", map[string]any{"session": "work", "workspace": 1})
	if got := places(r2); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after a restart:\n%v\nwant\n%v", got, want)
	}
}
