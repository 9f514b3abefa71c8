package tui_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAttachedIdleWakesNothing holds the performance contract's last
// rule: attached, with every pane idle, neither the client nor the daemon
// runs. It counts wakeups, not time: every time a thread of the process
// is put back on a CPU the kernel adds one to its context switch
// counters, so a 60 Hz frame ticker shows as over a hundred in 2 s and an
// idle process as none. The bound leaves room for the odd runtime
// housekeeping (a forced GC, a scavenger pass), never for a ticker.
//
// The daemon's one periodic job is its agent detection (a look at each
// pane's foreground every 2 s, a few wakeups each): it is turned off
// here, so that anything else that ticks shows.
func TestAttachedIdleWakesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	if err := os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[daemon]\nagent_detect_seconds = -1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	w.waitFor("c", `(?m)│\$`)
	client := w.clientPID("c")
	daemon := w.daemonPID()

	// Settled once the first frames, the shell's prompt and the daemon's
	// trailing screen look are over: both sat a quiet spell out.
	c0, d0 := settled(t, client, daemon)
	// Then the count: a ticker, even a slow one, wakes within 2 s.
	time.Sleep(2 * time.Second)
	c1, d1 := wakeups(t, client), wakeups(t, daemon)

	const most = 5
	t.Logf("in 2 s idle: client %d wakeups, %d CPU ticks; daemon %d wakeups, %d CPU ticks",
		c1.switches-c0.switches, c1.cpu-c0.cpu, d1.switches-d0.switches, d1.cpu-d0.cpu)
	if n := c1.switches - c0.switches; n >= most {
		t.Errorf("the idle client woke %d times in 2 s (at most %d)", n, most-1)
	}
	if n := d1.switches - d0.switches; n >= most {
		t.Errorf("the idle daemon woke %d times in 2 s (at most %d)", n, most-1)
	}

	// And it still draws: the counters above did not freeze a dead client.
	w.keys("c", "echo idle$((1+1))", "Enter")
	w.waitFor("c", `(?m)│idle2\s*$`)
}

// settled waits until neither process woke for a quiet spell (bounded:
// one that never settles is counted anyway, and fails the count), and
// returns their counters then.
func settled(t *testing.T, pids ...int) (usage, usage) {
	t.Helper()
	const quiet = time.Second // longer than the one-shot looks and saves after a change
	read := func() []usage {
		var us []usage
		for _, pid := range pids {
			us = append(us, wakeups(t, pid))
		}
		return us
	}
	last := read()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		time.Sleep(quiet)
		now := read()
		same := true
		for i := range now {
			same = same && now[i].switches == last[i].switches
		}
		last = now
		if same {
			break
		}
	}
	return last[0], last[1]
}

// usage is a process's context switches, all threads summed, and its CPU
// time in clock ticks.
type usage struct{ switches, cpu int }

// wakeups reads pid's counters from /proc: the switches of every thread
// (task), and utime+stime of the process.
func wakeups(t *testing.T, pid int) usage {
	t.Helper()
	var u usage
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no threads for pid %d: %v", pid, err)
	}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that just ended
		}
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				u.switches += n
			}
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command name, which is in parentheses and may
	// hold spaces: utime and stime are fields 14 and 15 of the line.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	u.cpu = utime + stime
	return u
}

// clientPID is the pid of the tuios client running in a tmux pane: the
// child of the pane's shell.
func (w *world) clientPID(target string) int {
	w.t.Helper()
	out, err := w.tmuxRun("display-message", "-p", "-t", target, "#{pane_pid}")
	if err != nil {
		w.t.Fatalf("pane pid: %v %s", err, out)
	}
	shell, _ := strconv.Atoi(strings.TrimSpace(out))
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < 0 || s[open+1:end] != "tuios" {
			continue
		}
		f := strings.Fields(s[end+2:])
		if ppid, _ := strconv.Atoi(f[1]); ppid == shell {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	w.t.Fatalf("no tuios client under the pane's shell %d", shell)
	return 0
}

// daemonPID is the pid of this world's daemon: the process serving this
// world's socket.
func (w *world) daemonPID() int {
	w.t.Helper()
	if pid := w.findDaemonPID(); pid != 0 {
		return pid
	}
	w.t.Fatalf("no daemon serves %s", w.socketPath())
	return 0
}

// socketPath is the world's daemon socket.
func (w *world) socketPath() string { return filepath.Join(w.dir, "run", "tuios", "tuios.sock") }

// findDaemonPID is the pid of the daemon serving the world's socket, 0
// when none runs.
func (w *world) findDaemonPID() int {
	sock := w.socketPath()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
		if len(args) >= 4 && args[0] == w.bin && args[1] == "daemon" && args[3] == sock {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	return 0
}

// TestAttachResize: the client follows its terminal's size (SIGWINCH)
// and tells the daemon, which resizes the pane.
func TestAttachResize(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `(?m)│\$`)
	w.keys("c", "stty size", "Enter")
	w.waitFor("c", `(?m)│28 96\s*$`)
	if out, err := w.tmuxRun("resize-window", "-t", "c", "-x", "100", "-y", "25"); err != nil {
		t.Fatalf("resize-window: %v %s", err, out)
	}
	w.waitFor("c", `(?m)^\[s\] 1\*`)
	w.keys("c", "clear; stty size", "Enter")
	s := w.waitFor("c", `(?m)│23 76\s*$`)
	if lines := strings.Split(strings.TrimRight(s, "\n"), "\n"); len(lines) != 25 || !strings.HasPrefix(lines[24], "[s] 1*") {
		t.Errorf("after the resize, the dock is not the last of 25 rows:\n%s", s)
	}
}

// TestAttachSIGTERM: a client told to stop detaches and gives the
// terminal back, as on prefix d.
func TestAttachSIGTERM(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)
	if p, err := os.FindProcess(w.clientPID("c")); err == nil {
		p.Signal(syscall.SIGTERM)
	}
	s := w.waitFor("c", `exit=\d+\n.*echo`)
	if !strings.Contains(s, "[detached (from session s)]") || !strings.Contains(s, "exit=0") {
		t.Errorf("after SIGTERM:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^icanon echo`).MatchString(s) {
		t.Errorf("terminal left in raw mode:\n%s", s)
	}
}
