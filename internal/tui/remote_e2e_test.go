package tui_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/testsshd"
)

// linked is two real daemons (near, where the client runs in tmux, and
// far) with near linked to far as host "far" through a real sshd on
// loopback, and a far session "api".
type linked struct {
	near, far *world
	sshd      *testsshd.Server
}

func newLinked(t *testing.T) *linked {
	t.Helper()
	sshd := testsshd.Start(t, testsshd.Options{})
	l := &linked{near: newWorld(t), far: newWorld(t), sshd: sshd}
	l.far.ok("new", "--detach", "api")
	l.far.waitSaved("api")
	sshd.ClientHome(filepath.Join(l.near.dir, "home"))
	// XDG_RUNTIME_DIR (not TUIOS_SOCKET) picks the far socket: a
	// TUIOS_SOCKET is how a daemon spots a caller inside its own panes.
	farCmd := "env XDG_RUNTIME_DIR=" + filepath.Join(l.far.dir, "run") + " " + l.far.bin
	l.near.ok("hosts", "add", "far", sshd.Addr(), "--ssh-option", "-p "+strconv.Itoa(sshd.Port), "--command", farCmd, "--connect-timeout", "10")
	l.near.ok("ls") // starts the near daemon, which dials its hosts
	l.near.waitHostUp("far")
	return l
}

// waitSaved waits until the daemon's restore file names session, so a
// killed daemon brings it back when started again.
func (w *world) waitSaved(session string) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		found := false
		filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) == "sessions" && strings.HasSuffix(p, ".json") {
				if b, _ := os.ReadFile(p); strings.Contains(string(b), `"`+session+`"`) {
					found = true
				}
			}
			return nil
		})
		if found {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the daemon never saved session %s for restore", session)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitHostUp polls tuios hosts --json until host's link is up.
func (w *world) waitHostUp(host string) {
	w.t.Helper()
	deadline := time.Now().Add(45 * time.Second) // a first ssh handshake under -race on a busy machine
	for {
		out, _ := w.tuios("hosts", "--json")
		var res struct {
			Hosts []struct{ Name, Status string } `json:"hosts"`
		}
		json.Unmarshal([]byte(out), &res)
		for _, h := range res.Hosts {
			if h.Name == host && h.Status == "up" {
				return
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("host %s never came up: %s", host, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The client attaches a far session through the near daemon's link: it
// is drawn here (the dock names far:api), typing reaches the far pane,
// a killed far daemon leaves the screen with "reconnecting" in the dock,
// and once that daemon is back the client is attached again and typing
// works; prefix d detaches naming the host.
func TestAttachHostSessionThroughLinkAndReconnect(t *testing.T) {
	t.Parallel()
	l := newLinked(t)
	near, far := l.near, l.far
	near.start("c", near.bin+" attach --host far api")
	near.waitFor("c", `\[far:api\] 1\*`)
	near.waitFor("c", `(?m)│ 0:\S`)
	near.keys("c", "echo $((6*7))x", "Enter")
	near.waitFor("c", `(?m)│42x\s*$`)
	if out := far.ok("capture-pane", "-s", "api"); !regexp.MustCompile(`(?m)^42x\s*$`).MatchString(out) {
		t.Fatalf("the far pane does not show what was typed here:\n%s", out)
	}
	if out := near.ok("ls"); strings.Contains(out, "api") {
		t.Fatalf("the far session shows among this machine's:\n%s", out)
	}

	far.killDaemon()
	s := near.waitFor("c", `host far: link down, reconnecting`)
	if !strings.Contains(s, "42x") {
		t.Fatalf("the last screen was not kept while reconnecting:\n%s", s)
	}
	far.ok("ls") // starts the far daemon again; it restores api
	near.waitFor("c", `host far: link back`)
	near.keys("c", "echo back$((1+1))", "Enter")
	near.waitFor("c", `(?m)│back2\s*$`)

	near.keys("c", "C-b", "d")
	s = near.waitFor("c", `exit=\d+\n.*echo`)
	if !strings.Contains(s, "[detached (from session far:api)]") || !strings.Contains(s, "exit=0") {
		t.Fatalf("after detach:\n%s", s)
	}
	if out := far.ok("ls"); !strings.Contains(out, "api") {
		t.Fatalf("the far session is gone after detach: %s", out)
	}

	// This machine's daemon killed under an attach to a host: the client
	// says the daemon went away and does not start another one.
	near.start("c2", near.bin+" attach -t far:api")
	near.waitFor("c2", `(?m)│back2\s*$`)
	near.killDaemon()
	s = near.waitFor("c2", `exit=\d+\n.*echo`)
	if !strings.Contains(s, "tuios: the daemon went away") || !strings.Contains(s, "exit=1") {
		t.Fatalf("after this machine's daemon was killed:\n%s", s)
	}
	if near.daemonRunning() {
		t.Fatal("the client started this machine's daemon again")
	}
}

// daemonRunning says whether a daemon serves this world's socket.
func (w *world) daemonRunning() bool {
	sock := filepath.Join(w.dir, "run", "tuios", "tuios.sock")
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, _ := os.ReadFile(p)
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) >= 4 && args[0] == w.bin && args[1] == "daemon" && args[3] == sock {
			return true
		}
	}
	return false
}

// tuios new --host creates the session there and attaches it; when the
// link stays down past --reconnect-for, a client started on the host
// ends with a message that says the session keeps running there.
func TestAttachHostLinkLostEndsAfterTheBound(t *testing.T) {
	t.Parallel()
	l := newLinked(t)
	near, far := l.near, l.far
	near.start("c", near.bin+" new --host far made")
	near.waitFor("c", `\[far:made\] 1\*`)
	near.waitFor("c", `(?m)│ 0:\S`)
	if out := far.ok("ls"); !strings.Contains(out, "made") {
		t.Fatalf("new --host did not create the session there: %s", out)
	}
	near.keys("c", "C-b", "d")
	near.waitFor("c", `\[detached \(from session far:made\)\]`)

	near.start("c2", near.bin+" attach -t far:made --reconnect-for 1500ms")
	near.waitFor("c2", `\[far:made\] 1\*`)
	near.waitFor("c2", `(?m)│ 0:\S`)
	far.killDaemon()
	near.waitFor("c2", `host far: link down, reconnecting`)
	s := near.waitFor("c2", `exit=\d+\n.*echo`)
	for _, want := range []string{"the link to host far dropped and did not come back within 1.5s; session made keeps running there", "hint: tuios hosts says why", "exit=1"} {
		if !strings.Contains(s, want) {
			t.Fatalf("missing %q after the bound:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`(?m)^icanon echo`).MatchString(s) {
		t.Errorf("terminal left in raw mode:\n%s", s)
	}
}

// Enter on another host's Inbox item attaches that host's session here;
// when its link then stays down past --reconnect-for, the client comes
// back to the session it left on this machine and says so.
func TestAttachHostFromInboxComesBackHome(t *testing.T) {
	t.Parallel()
	l := newLinked(t)
	near, far := l.near, l.far
	near.ok("new", "--detach", "home")
	// errored, not needs_input: typing into a pane on a prompt over a link
	// needs the host's respond capability (seed 000, "Other machines").
	far.ok("set-agent-state", "errored", "-s", "api", "-w", "0", "-m", "approve the deploy?")
	near.start("c", near.bin+" attach -t home --reconnect-for 1500ms")
	near.waitFor("c", `\[home\] 1\*`)
	near.keys("c", "C-b", "i")
	near.waitFor("c", `far:api/.*approve the deploy`)
	near.keys("c", "Enter")
	near.waitFor("c", `\[far:api\] 1\*`)
	near.keys("c", "echo far$((2+3))", "Enter")
	near.waitFor("c", `(?m)│far5\s*$`)
	// On the host, the rail lists this machine's sessions under local;
	// a click on one comes back here, and enter on the Inbox item goes
	// to the host again.
	near.waitFor("c", `(?m)^ local .*\n +home 1 `)
	near.keys("c", "-l", "\x1b[<0;5;4M\x1b[<0;5;4m")
	near.waitFor("c", `\[home\] 1\*`)
	near.keys("c", "C-b", "i")
	near.waitFor("c", `far:api/.*approve the deploy`)
	near.keys("c", "Enter")
	near.waitFor("c", `\[far:api\] 1\*`)

	far.killDaemon()
	near.waitFor("c", `host far: link down, reconnecting`)
	s := near.waitFor("c", `\[home\] 1\*.*back on session home here`)
	if !strings.Contains(s, "host far: link not back within 1.5s; back on session home here (api keeps running there)") {
		t.Fatalf("the dock does not say why it came back:\n%s", s)
	}
	near.keys("c", "echo home$((3+4))", "Enter")
	near.waitFor("c", `(?m)│home7\s*$`)
	near.keys("c", "C-b", "d")
	near.waitFor("c", `\[detached \(from session home\)\]`)
}

// The machine itself going away (sshd and everything it runs killed,
// the link's TCP connection with it) reads the same: reconnecting, then
// back once sshd answers again and the near daemon's link is up.
func TestAttachHostSurvivesSSHDRestart(t *testing.T) {
	t.Parallel()
	l := newLinked(t)
	near := l.near
	near.start("c", near.bin+" attach --host far api")
	near.waitFor("c", `\[far:api\] 1\*`)
	near.waitFor("c", `(?m)│ 0:\S`)
	l.sshd.Stop()
	near.waitFor("c", `host far: link down, reconnecting`)
	l.sshd.Restart()
	// The near daemon redials on its own backoff (1 s, 2 s, 4 s...), and
	// an ssh handshake under -race is slow: a longer deadline here only.
	near.waitForWithin("c", `host far: link back`, 45*time.Second)
	near.keys("c", "echo ssh$((4+4))", "Enter")
	near.waitFor("c", `(?m)│ssh8\s*$`)
}

// waitForWithin is waitFor with its own deadline.
func (w *world) waitForWithin(target, re string, d time.Duration) string {
	w.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(d)
	for {
		s := w.screen(target)
		if rx.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("timed out waiting for %q; the screen:\n%s", re, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The rail lists a linked host's sessions and a + under the host: a
// click on the far session attaches it here, a click on local's row
// comes back, and a click on + creates a session on the host and
// attaches it.
func TestRailClickAttachesAndCreatesOnHost(t *testing.T) {
	t.Parallel()
	l := newLinked(t)
	near, far := l.near, l.far
	near.ok("new", "--detach", "home")
	near.start("c", near.bin+" attach -t home")
	near.waitFor("c", `\[home\] 1\*`)
	s := near.waitFor("c", `(?m)^ Hosts.*\n  far.*\n    api .*\n    \+ `)
	near.keys("c", "-l", railClickAt(t, s, "    api "))
	near.waitFor("c", `\[far:api\] 1\*`)
	near.waitFor("c", `(?m)│ 0:\S`)
	near.keys("c", "echo rail$((5+5))", "Enter")
	near.waitFor("c", `(?m)│rail10\s*$`)

	s = near.waitFor("c", `(?m)^ local .*\n +home 1 `)
	near.keys("c", "-l", railClickAt(t, s, "   home 1"))
	near.waitFor("c", `\[home\] 1\*`)
	s = near.waitFor("c", `(?m)^    \+ `)
	near.keys("c", "-l", railClickAt(t, s, "    + "))
	s = near.waitFor("c", `\[far:[^\]]+\] 1\*`)
	if strings.Contains(s, "[far:api]") {
		t.Fatalf("+ attached the existing session:\n%s", s)
	}
	var ls struct {
		Sessions []struct{ Name string } `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(far.ok("ls", "--json")), &ls); err != nil || len(ls.Sessions) != 2 {
		t.Fatalf("far sessions after +: %+v %v", ls, err)
	}

	// From the keyboard: back home by the local row, then prefix s puts
	// the cursor on home, j moves it to far's api, enter attaches it.
	s = near.waitFor("c", `(?m)^ local .*\n +home 1 `)
	near.keys("c", "-l", railClickAt(t, s, "   home 1"))
	near.waitFor("c", `\[home\] 1\*`)
	s = near.waitFor("c", `(?m)^  far.*\n    \S+ .*\n    \S+ .*\n    \+ `)
	// api is the k-th of far's two sessions (sorted by name), so k rows
	// down from home.
	k := strings.Count(s[strings.Index(s, "\n  far")+1:strings.Index(s, "\n    api ")+1], "\n")
	near.keys("c", "C-b", "s")
	near.waitFor("c", `rail: up/down move`)
	for ; k > 0; k-- {
		near.keys("c", "j")
	}
	near.keys("c", "Enter")
	near.waitFor("c", `\[far:api\] 1\*`)
	near.waitFor("c", `(?m)│rail10\s*$`)
}

// railClickAt is an SGR mouse press and release on the first screen row
// that starts with prefix (the rail is on the left).
func railClickAt(t *testing.T, screen, prefix string) string {
	t.Helper()
	for i, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, prefix) {
			y := strconv.Itoa(i + 1)
			return "\x1b[<0;5;" + y + "M\x1b[<0;5;" + y + "m"
		}
	}
	t.Fatalf("no rail row %q:\n%s", prefix, screen)
	return ""
}
