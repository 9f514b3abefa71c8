package cli_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBoundaryHelper is not a test: run as `cli.test -test.run=^TestBoundaryHelper$
// SOCKET OUT MODE` (a process that may have escaped its pane, with no
// environment at all) it is a raw protocol client, and writes what the
// daemon answered to OUT: "ok" or the error code.
//
//	attach   the person's attach (a human nonce)
//	shell    respond from a shell outside every pane (respond_from_shell)
//	link     link-peer: become another machine's link
func TestBoundaryHelper(t *testing.T) {
	t.Parallel()
	args := flag.Args()
	if len(args) != 3 {
		t.Skip("a helper process, not a test")
	}
	sock, out, mode := args[0], args[1], args[2]
	if mode == "flood" {
		flood(sock, out)
		return
	}
	answer := rawCall(sock, mode)
	os.WriteFile(out+".tmp", []byte(answer), 0o600)
	os.Rename(out+".tmp", out)
}

// linuxOnly skips a test of the boundary that needs Linux's child
// subreaper (elsewhere it is weaker, as the README says).
func linuxOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the child subreaper is Linux's")
	}
}

// rawCall makes the call of a helper mode on a connection of its own.
func rawCall(sock, mode string) string {
	c, err := net.Dial("unix", sock)
	if err != nil {
		return "dial: " + err.Error()
	}
	defer c.Close()
	req := map[string]any{"id": 1}
	switch mode {
	case "attach":
		req["verb"], req["params"] = "attach", map[string]any{"client": "escape"}
	case "shell":
		req["verb"], req["params"] = "respond", map[string]any{"session": "work", "window": "0", "action": "deny"}
	case "link":
		req["verb"], req["params"] = "link-peer", map[string]any{"peer": "far", "pinned": true}
	}
	b, _ := json.Marshal(req)
	c.SetDeadline(time.Now().Add(30 * time.Second))
	c.Write(append(b, '\n'))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		return "read: " + err.Error()
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &resp) != nil {
		return "bad answer: " + string(line)
	}
	if resp.Error != nil {
		return resp.Error.Code
	}
	if mode == "attach" && resp.Result["human_nonce"] == nil {
		return "attached without a nonce"
	}
	return "ok"
}

// Every way out of a pane a hostile program could take is still inside:
// setsid with the pane's variables unset, setsid with no environment at
// all, a double fork, a terminal of its own (script), the herdr variables
// stripped as well, and a process that outlives its pane. None gets the
// person's nonce, answers as a shell outside every pane, or becomes a
// link; the person's own processes still do all of it.
func TestEscapesFromAPaneAreNeverThePerson(t *testing.T) {
	t.Parallel()
	linuxOnly(t)
	e := shellRespondEnv(t) // respond_from_shell = true: a shell outside every pane may answer
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(e.dir, "out")
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	e.ok("new-window", "-s", "work", "pane", "--no-focus")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "pane", "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")
	sock := e.socket()
	helper := func(name, mode string) string {
		return "'" + exe + "' -test.run='^TestBoundaryHelper$' '" + sock + "' '" + filepath.Join(out, name) + "' " + mode
	}
	strip := "env -u TUIOS_PANE_ID -u TUIOS_WINDOW_ID -u TUIOS_ENV -u TUIOS_PANE_TOKEN -u TUIOS_SOCKET -u TUIOS_SESSION"
	stripHerdr := strip + " -u HERDR_ENV -u HERDR_PANE_ID -u HERDR_SOCKET_PATH -u HERDR_TAB_ID -u HERDR_WORKSPACE_ID -u HERDR_BIN_PATH"
	escapes := []struct{ name, line, want string }{
		{"setsid-unset", "setsid -f " + strip + " " + helper("setsid-unset", "attach"), "not_human"},
		{"setsid-env-i", "setsid -f env -i " + helper("setsid-env-i", "attach"), "not_human"},
		{"double-fork", "( env -i " + helper("double-fork", "attach") + " & )", "not_human"},
		{"script", `setsid -f script -qfec "env -i ` + strings.ReplaceAll(helper("script", "attach"), "'", `\"`) + `" /dev/null </dev/null >/dev/null 2>&1`, "not_human"},
		{"herdr-stripped", "setsid -f " + stripHerdr + " " + helper("herdr-stripped", "attach"), "not_human"},
		{"shell", "setsid -f env -i " + helper("shell", "shell"), "not_human"},
		{"link", "setsid -f env -i " + helper("link", "link"), "forbidden"},
	}
	// The pane has the herdr variables to strip (herdr_protocol "always").
	if rc, env := e.inPane("pane", "env | grep -c '^HERDR_PANE_ID='"); rc != 0 || strings.TrimSpace(env) != "1" {
		t.Fatalf("the pane has no HERDR_PANE_ID to strip: %d %q", rc, env)
	}
	for _, x := range escapes {
		if rc, msg := e.inPane("pane", x.line); rc != 0 {
			t.Fatalf("%s: the pane could not run it: %d %s", x.name, rc, msg)
		}
	}
	// One more outlives its pane: it waits, in a session of its own, for
	// the pane to close, and only then calls (it gives up after a minute,
	// so a failed test leaves nothing running).
	gate, ready := filepath.Join(e.dir, "gate"), filepath.Join(out, "ready")
	e.ok("new-window", "-s", "work", "brief", "--no-focus", "--", "sh", "-c",
		"setsid -f sh -c 'echo up > "+ready+"; n=0; while [ ! -e "+gate+" ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done; exec env -i "+strings.ReplaceAll(helper("outlived", "attach"), "'", `'\''`)+"'; sleep 600")
	waitFile(t, ready) // in its own session by now
	e.ok("close-window", "-s", "work", "-w", "brief")
	os.WriteFile(gate, nil, 0o600)
	escapes = append(escapes, struct{ name, line, want string }{"outlived", "", "not_human"})

	for _, x := range escapes {
		got := waitFile(t, filepath.Join(out, x.name))
		if got != x.want {
			t.Errorf("%s: the daemon answered %q, want %q", x.name, got, x.want)
		}
	}

	// The person: this test process runs outside every pane. Its attach
	// gets a nonce, its shell may answer, and it may be a link.
	for mode, want := range map[string]string{"attach": "ok", "shell": "prompt_changed", "link": "ok"} {
		if got := rawCall(sock, mode); got != want {
			t.Errorf("the person's %s: %q, want %q", mode, got, want)
		}
	}
	// The person's shell through the CLI: respond gets past the person
	// check (the pane has no prompt to answer).
	e.fails("prompt_changed", "respond", "-s", "work", "-w", "pane", "deny")
}

// waitFile waits for a helper's answer file.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer in %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A pane reports agent state only for itself (the grants topic of the
// skill says so): set-agent-state -w OTHER from a pane is forbidden and
// leaves the other pane as it was; its own pane, and the person's shell
// for any pane, are taken.
func TestSetAgentStateForAnotherPaneFromAPaneIsForbidden(t *testing.T) {
	t.Parallel()
	e, lead, worker := mailSetup(t)
	rc, out := e.inPane("lead", "tuios set-agent-state -w "+worker+" working --message 'not yours'")
	if rc == 0 || !strings.Contains(out, "forbidden") || !strings.Contains(out, "only about that pane") {
		t.Fatalf("for another pane: rc %d %q", rc, out)
	}
	var st struct {
		State   string `json:"state"`
		Message string `json:"message"`
	}
	e.json(&st, "get-agent-state", "-s", "work", "-w", worker)
	if st.Message == "not yours" {
		t.Fatalf("the other pane took it: %+v", st)
	}
	if rc, out := e.inPane("lead", "tuios set-agent-state working --message mine && tuios set-agent-state -w "+lead+" working --message mine"); rc != 0 {
		t.Fatalf("its own pane: rc %d %q", rc, out)
	}
	e.ok("set-agent-state", "-s", "work", "-w", worker, "working", "--message", "from the person")
	e.json(&st, "get-agent-state", "-s", "work", "-w", worker)
	if st.State != "working" || st.Message != "from the person" {
		t.Fatalf("the person's report: %+v", st)
	}
}

// A process that left its pane's session outlives the daemon; when it
// (or anyone) restarts the daemon, the next daemon on the socket still
// keeps it, and what it starts, inside: the first wrote it down as it
// stopped.
func TestAnEscapeeThatOutlivesTheDaemonIsStillInside(t *testing.T) {
	t.Parallel()
	linuxOnly(t)
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	exe, _ := os.Executable()
	out := filepath.Join(e.dir, "out")
	os.MkdirAll(out, 0o700)
	gate, ready := filepath.Join(e.dir, "gate"), filepath.Join(out, "ready")
	helper := "'" + exe + "' -test.run='^TestBoundaryHelper$' '" + e.socket() + "' '" + filepath.Join(out, "after") + "' attach"
	// Its child calls, not the escapee itself: the list covers what the
	// escapees start.
	script := filepath.Join(e.dir, "escapee.sh")
	os.WriteFile(script, []byte("echo up > "+ready+"\nn=0\nwhile [ ! -e "+gate+" ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done\nenv -i "+helper+"\nsleep 1\n"), 0o600)
	e.ok("send-text", "-s", "work", "-w", "0", "setsid -f sh "+script+"\n")
	waitFile(t, ready)
	e.ok("kill-server")
	e.ok("ls") // a new daemon
	os.WriteFile(gate, nil, 0o600)
	if got := waitFile(t, filepath.Join(out, "after")); got != "not_human" {
		t.Fatalf("the escapee's child after a restart: %q", got)
	}
	if got := rawCall(e.socket(), "attach"); got != "ok" {
		t.Fatalf("the person after a restart: %q", got)
	}
}
