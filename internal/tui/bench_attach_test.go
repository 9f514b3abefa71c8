package tui_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/tuios/tuios/internal/e2e"
	"github.com/tuios/tuios/vt"
)

// BenchmarkAttached measures the attach client beside tmux attached, as the
// performance contract asks (DESIGN.md, "Attached"): the benchmark itself is
// the outer terminal of both. Each client runs on a PTY of its own, 120x40;
// everything it writes is counted and fed to a vt.Screen, so "on the outer
// screen" means what that emulator shows. Both servers run /bin/sh with
// PS1='$ ' and ENV= in a scratch HOME, and both are measured in the same run,
// interleaved, so drift on the machine hits both alike.
//
// Colour is on: the outer terminal is xterm-256color with COLORTERM=truecolor,
// so both clients draw in colour, and the cat runs twice over: a plain file,
// and one whose every word is coloured (a few bold), as a build log or
// `ls --color` is.
//
// The work is fixed (a few cat runs, ~50 keystrokes, one 3 s idle window)
// and done once whatever b.N is: with -benchtime 1x (scripts/bench-attach)
// the function runs once; the figures are the custom metrics, not ns/op.
//
// Run it with scripts/bench-attach, or
//
//	go test ./internal/tui -run '^$' -bench Attached -benchtime 1x -v
func BenchmarkAttached(b *testing.B) {
	if testing.Short() {
		b.Skip("end-to-end benchmark")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		b.Skip("tmux is not installed: nothing to compare the attach client with")
	}
	runs := 3
	if s := os.Getenv("TUIOS_BENCH_CAT_RUNS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			runs = n
		}
	}

	bw := newBenchWorld(b, tmuxPath)
	file := filepath.Join(bw.work, "big.txt")
	benchWriteCatFile(b, file, 8<<20, false)
	tail := benchTailLetters(b, file, 16<<10)
	colourFile := filepath.Join(bw.work, "colour.txt")
	benchWriteCatFile(b, colourFile, 8<<20, true)
	colourTail := benchTailLetters(b, colourFile, 16<<10)

	tm := bw.startTmux()
	tu := bw.startTuios()
	// The same client with keys over the socket only (no passed pane
	// input), in a session of its own: the key figure's A/B in one run.
	so := bw.startTuiosAs("tuios-socket", benchSessionName+"2", "TUIOS_KEYS_OVER_SOCKET=1")
	clients := []*benchTerm{tu, tm}
	for _, o := range append(clients, so) {
		o.clearScreen()
	}

	// Figures 1 and 2: cat of the same file, runs interleaved; then the
	// coloured one.
	catTime := map[*benchTerm][]time.Duration{}
	catBytes := map[*benchTerm][]int64{}
	colTime := map[*benchTerm][]time.Duration{}
	colBytes := map[*benchTerm][]int64{}
	for r := 0; r < runs; r++ {
		for _, o := range clients {
			d, n := o.catRun(r+1, "big.txt")
			o.checkTail(r+1, tail)
			catTime[o] = append(catTime[o], d)
			catBytes[o] = append(catBytes[o], n)
			b.Logf("%s cat run %d: %v, %d bytes to the outer terminal", o.name, r+1, d.Round(time.Millisecond), n)
			o.clearScreen()
		}
	}
	for r := 0; r < runs; r++ {
		for _, o := range clients {
			d, n := o.catRun(runs+r+1, "colour.txt")
			o.checkTail(runs+r+1, colourTail)
			colTime[o] = append(colTime[o], d)
			colBytes[o] = append(colBytes[o], n)
			b.Logf("%s colour cat run %d: %v, %d bytes to the outer terminal", o.name, r+1, d.Round(time.Millisecond), n)
			o.clearScreen()
		}
	}

	// Figure 3: key to echo, alternating clients keystroke by keystroke,
	// with the CPU each side's two processes spent on them (a figure the
	// machine's other load does not move as much as the wall clock).
	keys := 50
	if s := os.Getenv("TUIOS_BENCH_KEYS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			keys = n
		}
	}
	keyLat := map[*benchTerm][]time.Duration{}
	tuPids := []int{tu.cmd.Process.Pid, bw.tuiosDaemonPid()}
	tmPids := []int{tm.cmd.Process.Pid, bw.tmuxServerPid()}
	if f := os.Getenv("TUIOS_BENCH_PIDFILE"); f != "" {
		// For a profiler: the four processes, before the keys start.
		os.WriteFile(f, []byte(fmt.Sprintf("%d %d %d %d\n", tuPids[0], tuPids[1], tmPids[0], tmPids[1])), 0o600)
	}
	tuCPU0, tmCPU0 := benchCPUNs(tuPids), benchCPUNs(tmPids)
	for i := 0; i < keys; i++ {
		for _, o := range clients {
			keyLat[o] = append(keyLat[o], o.keyEcho(byte('a'+i%26)))
		}
	}
	// Each keyEcho is a key and its erase: two echoes.
	tuKeyCPU := float64(benchCPUNs(tuPids)-tuCPU0) / float64(2*keys) / 1e3
	tmKeyCPU := float64(benchCPUNs(tmPids)-tmCPU0) / float64(2*keys) / 1e3
	// The socket-only client, interleaved with the two others again;
	// kept apart, so the figures above are those of the first round.
	keyLat2 := map[*benchTerm][]time.Duration{}
	for i := 0; i < keys; i++ {
		for _, o := range []*benchTerm{so, tu, tm} {
			keyLat2[o] = append(keyLat2[o], o.keyEcho(byte('a'+i%26)))
		}
	}

	// Figure 4: idle. Let both settle (tmux's status line, tuios's last
	// frames), then sample the four processes over the same 3 s window.
	for _, o := range clients {
		o.waitQuiet(500*time.Millisecond, 5*time.Second)
	}
	procs := []struct {
		key string
		pid int
	}{
		{"tuios-client", tu.cmd.Process.Pid},
		{"tuios-daemon", bw.tuiosDaemonPid()},
		{"tmux-client", tm.cmd.Process.Pid},
		{"tmux-server", bw.tmuxServerPid()},
	}
	before := make([]benchProcStat, len(procs))
	for i, p := range procs {
		before[i] = benchReadProcStat(b, p.pid)
	}
	tuBytes0, tmBytes0 := tu.bytes.Load(), tm.bytes.Load()
	const idleWindow = 3 * time.Second
	time.Sleep(idleWindow)
	idle := map[string]benchProcStat{}
	for i, p := range procs {
		idle[p.key] = benchReadProcStat(b, p.pid).sub(before[i])
	}
	tuIdleBytes, tmIdleBytes := tu.bytes.Load()-tuBytes0, tm.bytes.Load()-tmBytes0

	// Report.
	tuCat, tmCat := benchMedianDur(catTime[tu]), benchMedianDur(catTime[tm])
	tuCB, tmCB := benchMedianInt(catBytes[tu]), benchMedianInt(catBytes[tm])
	tuCol, tmCol := benchMedianDur(colTime[tu]), benchMedianDur(colTime[tm])
	tuColB, tmColB := benchMedianInt(colBytes[tu]), benchMedianInt(colBytes[tm])
	tuKey, tmKey := benchMedianDur(keyLat[tu]), benchMedianDur(keyLat[tm])
	soKey, tuKey2, tmKey2 := benchMedianDur(keyLat2[so]), benchMedianDur(keyLat2[tu]), benchMedianDur(keyLat2[tm])
	b.ReportMetric(benchMs(tuCat), "tuios-cat-ms")
	b.ReportMetric(benchMs(tmCat), "tmux-cat-ms")
	b.ReportMetric(float64(tuCB), "tuios-cat-bytes")
	b.ReportMetric(float64(tmCB), "tmux-cat-bytes")
	b.ReportMetric(benchMs(tuCol), "tuios-colour-cat-ms")
	b.ReportMetric(benchMs(tmCol), "tmux-colour-cat-ms")
	b.ReportMetric(float64(tuColB), "tuios-colour-cat-bytes")
	b.ReportMetric(float64(tmColB), "tmux-colour-cat-bytes")
	b.ReportMetric(benchMs(tuKey), "tuios-key-ms")
	b.ReportMetric(benchMs(tmKey), "tmux-key-ms")
	b.ReportMetric(benchMs(soKey), "tuios-socket-key-ms")
	b.ReportMetric(tuKeyCPU, "tuios-key-cpu-µs")
	b.ReportMetric(tmKeyCPU, "tmux-key-cpu-µs")
	for _, p := range procs {
		b.ReportMetric(idle[p.key].cpuMs, p.key+"-idle-cpu-ms")
		b.ReportMetric(float64(idle[p.key].ctxsw), p.key+"-idle-ctxsw")
	}
	b.ReportMetric(float64(tuIdleBytes), "tuios-idle-bytes")
	b.ReportMetric(float64(tmIdleBytes), "tmux-idle-bytes")

	b.Logf("cat runs tuios %v tmux %v; key echo p90 tuios %v tmux %v",
		benchRoundAll(catTime[tu]), benchRoundAll(catTime[tm]), benchPct(keyLat[tu], 90), benchPct(keyLat[tm], 90))
	b.Logf("SUMMARY keys, second round: passed input %.2f ms, over the socket only %.2f ms, tmux %.2f ms (tuios/tmux %.2f and %.2f)",
		benchMs(tuKey2), benchMs(soKey), benchMs(tmKey2), benchRatio(benchMs(tuKey2), benchMs(tmKey2)), benchRatio(benchMs(soKey), benchMs(tmKey2)))
	b.Logf("SUMMARY attached 120x40: cat %.0f ms vs tmux %.0f ms (tuios/tmux %.2f); cat bytes %d vs %d (%.2f); "+
		"colour cat %.0f ms vs %.0f ms (%.2f); colour cat bytes %d vs %d (%.2f); "+
		"key echo %.2f ms vs %.2f ms (%.2f), cpu per echo %.0f µs vs %.0f µs (%.2f); idle %v client cpu %.0f ms / %d ctxsw vs tmux %.0f ms / %d, "+
		"server cpu %.0f ms / %d ctxsw vs tmux %.0f ms / %d, bytes %d vs %d",
		benchMs(tuCat), benchMs(tmCat), benchRatio(benchMs(tuCat), benchMs(tmCat)),
		tuCB, tmCB, benchRatio(float64(tuCB), float64(tmCB)),
		benchMs(tuCol), benchMs(tmCol), benchRatio(benchMs(tuCol), benchMs(tmCol)),
		tuColB, tmColB, benchRatio(float64(tuColB), float64(tmColB)),
		benchMs(tuKey), benchMs(tmKey), benchRatio(benchMs(tuKey), benchMs(tmKey)),
		tuKeyCPU, tmKeyCPU, benchRatio(tuKeyCPU, tmKeyCPU),
		idleWindow,
		idle["tuios-client"].cpuMs, idle["tuios-client"].ctxsw, idle["tmux-client"].cpuMs, idle["tmux-client"].ctxsw,
		idle["tuios-daemon"].cpuMs, idle["tuios-daemon"].ctxsw, idle["tmux-server"].cpuMs, idle["tmux-server"].ctxsw,
		tuIdleBytes, tmIdleBytes)
}

// benchWorld is one scratch directory holding both servers' sockets, the
// shells' HOME, the file to cat and a freshly built tuios binary, so
// nothing of the person's own tmux or tuios is touched.
type benchWorld struct {
	b        *testing.B
	dir      string
	work     string
	bin      string
	tmux     string
	tmuxSock string
	tuSock   string
	vars     []string
}

const benchSessionName = "S"

func newBenchWorld(b *testing.B, tmuxPath string) *benchWorld {
	b.Helper()
	// Our own MkdirTemp (not b.TempDir) so cleanup can stop the servers
	// before the directory goes; a short path keeps the sockets under the
	// 108-byte sun_path limit.
	dir, err := os.MkdirTemp("", "tub")
	if err != nil {
		b.Fatal(err)
	}
	bw := &benchWorld{b: b, dir: dir, tmux: tmuxPath,
		work:     filepath.Join(dir, "work"),
		bin:      e2e.Binary(b),
		tmuxSock: filepath.Join(dir, "tmux.sock"),
		tuSock:   filepath.Join(dir, "run", "tuios", "tuios.sock"),
	}
	for _, d := range []string{"home", "run", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	// The socket is chosen through XDG_RUNTIME_DIR, not TUIOS_SOCKET: the
	// daemon takes a client whose environment names its socket for a
	// program inside one of its panes and refuses it a human attach.
	bw.vars = []string{
		"PATH=" + filepath.Dir(bw.bin) + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(dir, "home"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "home", ".config"),
		"SHELL=/bin/sh", "ENV=", "PS1=$ ", "TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8",
	}
	// Cleanup runs last-registered first: the clients registered later
	// are stopped before the servers go and the directory is removed.
	b.Cleanup(func() {
		bw.tmuxCmd("kill-server")
		bw.tuiosCmd("kill-server")
		os.RemoveAll(dir)
	})
	return bw
}

func (bw *benchWorld) tmuxCmd(args ...string) (string, error) {
	cmd := exec.Command(bw.tmux, append([]string{"-S", bw.tmuxSock, "-f", "/dev/null"}, args...)...)
	cmd.Env = bw.vars
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (bw *benchWorld) tuiosCmd(args ...string) (string, error) {
	cmd := exec.Command(bw.bin, args...)
	cmd.Env = bw.vars
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (bw *benchWorld) startTmux() *benchTerm {
	bw.b.Helper()
	// The session is made detached first at the outer size, so attaching
	// does not resize it; the pane is 120x39 under tmux's status line.
	if out, err := bw.tmuxCmd("new-session", "-d", "-s", benchSessionName, "-x", "120", "-y", "40", "-c", bw.work, "/bin/sh"); err != nil {
		bw.b.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return bw.attach("tmux", exec.Command(bw.tmux, "-S", bw.tmuxSock, "-f", "/dev/null", "attach", "-t", benchSessionName))
}

func (bw *benchWorld) startTuios() *benchTerm {
	bw.b.Helper()
	return bw.startTuiosAs("tuios", benchSessionName)
}

// startTuiosAs attaches a client named name to a new session, with env
// added to the client's environment.
func (bw *benchWorld) startTuiosAs(name, session string, env ...string) *benchTerm {
	bw.b.Helper()
	if out, err := bw.tuiosCmd("new", "--detach", session, "--cwd", bw.work); err != nil {
		bw.b.Fatalf("tuios new: %v\n%s", err, out)
	}
	cmd := exec.Command(bw.bin, "attach", "-t", session)
	cmd.Env = append(append([]string(nil), bw.vars...), env...)
	return bw.attach(name, cmd)
}

// tmuxServerPid asks the server itself: it is the only process serving
// this world's socket.
func (bw *benchWorld) tmuxServerPid() int {
	bw.b.Helper()
	out, err := bw.tmuxCmd("display-message", "-p", "#{pid}")
	pid, perr := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || perr != nil {
		bw.b.Fatalf("tmux server pid: %v %q", err, out)
	}
	return pid
}

// tuiosDaemonPid finds the daemon the CLI spawned for this world: its
// command line is "BIN daemon --socket SOCK" (internal/client).
func (bw *benchWorld) tuiosDaemonPid() int {
	bw.b.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		raw, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		if len(args) >= 4 && args[0] == bw.bin && args[1] == "daemon" && args[3] == bw.tuSock {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			return pid
		}
	}
	bw.b.Fatalf("no tuios daemon serves %s", bw.tuSock)
	return 0
}

// benchTerm is the outer terminal of one attach client: the PTY master,
// the emulator showing what the client drew, and a byte count.
type benchTerm struct {
	b     *testing.B
	name  string
	cmd   *exec.Cmd
	ptm   *os.File
	scr   *vt.Screen
	bytes atomic.Int64
	last  atomic.Int64 // UnixNano of the last read, for quiet waits
	done  chan struct{}

	// want is checked by the reader after each chunk, so the time of a
	// match is the time the chunk that made it true was read, not a
	// polling tick later.
	mu   sync.Mutex
	want func(string) bool
	hit  chan time.Time
}

// benchReplies queues the emulator's answers (DA1, DSR, ...) for a
// goroutine that writes them to the client: tmux and bubbletea query the
// terminal on start, and the reader must never block on the client's input.
type benchReplies chan []byte

func (r benchReplies) Write(p []byte) (int, error) {
	select {
	case r <- slices.Clone(p):
	default: // a client flooding queries loses answers rather than stall us
	}
	return len(p), nil
}

func (bw *benchWorld) attach(name string, cmd *exec.Cmd) *benchTerm {
	b := bw.b
	b.Helper()
	if cmd.Env == nil {
		cmd.Env = bw.vars
	}
	cmd.Dir = bw.work
	ptm, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
	if err != nil {
		b.Fatalf("%s attach: %v", name, err)
	}
	replies := make(benchReplies, 64)
	o := &benchTerm{b: b, name: name, cmd: cmd, ptm: ptm, done: make(chan struct{}), hit: make(chan time.Time, 1)}
	o.scr = vt.New(vt.Options{Cols: 120, Rows: 40, Scrollback: -1, Reply: replies})
	o.last.Store(time.Now().UnixNano())
	go func() {
		for p := range replies {
			if _, err := ptm.Write(p); err != nil {
				return
			}
		}
	}()
	go o.read()
	b.Cleanup(func() {
		// Ask the process to go, then make sure: it is ours, by pid.
		cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		ptm.Close()
		<-o.done
		close(replies)
	})
	o.waitFor("the shell's prompt", func(s string) bool { return strings.Contains(s, "$") }, 20*time.Second)
	return o
}

func (o *benchTerm) read() {
	defer close(o.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := o.ptm.Read(buf)
		if n > 0 {
			now := time.Now()
			o.scr.Write(buf[:n])
			o.bytes.Add(int64(n))
			o.last.Store(now.UnixNano())
			o.mu.Lock()
			if o.want != nil && o.want(o.scr.Text()) {
				o.want = nil
				o.hit <- now
			}
			o.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// arm sets the condition the next await waits for; it is set before the
// keys are sent, so a fast echo cannot slip between sending and waiting.
// A condition already true on the current screen matches at once.
func (o *benchTerm) arm(pred func(string) bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	select {
	case <-o.hit: // a stale match nobody waited for
	default:
	}
	if pred(o.scr.Text()) {
		o.hit <- time.Now()
		return
	}
	o.want = pred
}

// await returns when the armed condition was met, or fails the benchmark
// with what the outer screen showed.
func (o *benchTerm) await(what string, timeout time.Duration) time.Time {
	o.b.Helper()
	select {
	case t := <-o.hit:
		return t
	case <-o.done:
		o.b.Fatalf("%s: the client ended while waiting for %s; the screen:\n%s", o.name, what, o.scr.Text())
	case <-time.After(timeout):
		o.mu.Lock()
		o.want = nil
		o.mu.Unlock()
		o.b.Fatalf("%s: timed out after %v waiting for %s; the screen:\n%s", o.name, timeout, what, o.scr.Text())
	}
	return time.Time{}
}

func (o *benchTerm) waitFor(what string, pred func(string) bool, timeout time.Duration) time.Time {
	o.b.Helper()
	o.arm(pred)
	return o.await(what, timeout)
}

func (o *benchTerm) send(s string) {
	o.b.Helper()
	if _, err := o.ptm.Write([]byte(s)); err != nil {
		o.b.Fatalf("%s: typing %q: %v", o.name, s, err)
	}
}

// waitQuiet returns once the client wrote nothing for d (its last frames
// are in), or fails after limit.
func (o *benchTerm) waitQuiet(d, limit time.Duration) {
	o.b.Helper()
	deadline := time.Now().Add(limit)
	for {
		idle := time.Since(time.Unix(0, o.last.Load()))
		if idle >= d {
			return
		}
		if time.Now().After(deadline) {
			o.b.Fatalf("%s: still writing after %v; the screen:\n%s", o.name, limit, o.scr.Text())
		}
		time.Sleep(d - idle)
	}
}

// clearScreen leaves the pane with only a prompt, so that the next
// condition cannot match text left from before.
func (o *benchTerm) clearScreen() {
	o.b.Helper()
	o.send("clear\r")
	o.waitFor("the screen cleared", func(s string) bool {
		return !strings.Contains(s, "clear") && !strings.Contains(s, "DONE-") && strings.Contains(s, "$")
	}, 10*time.Second)
	o.waitQuiet(200*time.Millisecond, 5*time.Second)
}

// catRun types the cat line, waits for it to show (typing is not timed),
// then times Enter to the marker on the outer screen. The marker is
// computed by the shell, so the echoed command line never matches it, and
// differs per run. Bytes are counted from Enter until the client has been
// quiet for 300 ms: all it wrote to show that cat.
func (o *benchTerm) catRun(run int, file string) (time.Duration, int64) {
	o.b.Helper()
	line := fmt.Sprintf("cat %s; echo DONE-$((%d+1))", file, run)
	marker := fmt.Sprintf("DONE-%d", run+1)
	o.arm(func(s string) bool { return strings.Contains(s, line) })
	o.send(line)
	o.await("the cat line echoed", 10*time.Second)
	o.waitQuiet(200*time.Millisecond, 5*time.Second)

	o.arm(func(s string) bool { return strings.Contains(s, marker) })
	n0 := o.bytes.Load()
	t0 := time.Now()
	o.send("\r")
	t1 := o.await(marker+" after the cat", 3*time.Minute)
	o.waitQuiet(300*time.Millisecond, 30*time.Second)
	return t1.Sub(t0), o.bytes.Load() - n0
}

// checkTail says whether the outer screen ends the cat as the file ends:
// the rows above the marker, read from the marker's column (the pane's
// left edge, wherever the client put the pane), must be the file's last
// characters. Spaces and line ends are left out on both sides, so the
// check holds whatever the pane's width and wherever lines wrapped. A
// mismatch is an error, not a stop: the timings are still reported.
func (o *benchTerm) checkTail(run int, tailLetters string) {
	o.b.Helper()
	marker := fmt.Sprintf("DONE-%d", run+1)
	screen := o.scr.Text()
	rows := strings.Split(screen, "\n")
	y, x := -1, -1
	for i, r := range rows {
		if k := strings.Index(r, marker); k >= 0 {
			y, x = i, utf8.RuneCountInString(r[:k])
		}
	}
	// 20 rows: both panes are taller than that below their title rows.
	if y < 20 {
		o.b.Errorf("%s run %d: %s not found low enough on the screen:\n%s", o.name, run, marker, screen)
		return
	}
	var got strings.Builder
	for _, r := range rows[y-20 : y] {
		rs := []rune(r)
		if x < len(rs) {
			got.WriteString(string(rs[x:]))
		}
	}
	letters := strings.NewReplacer(" ", "", "\n", "").Replace(got.String())
	if !strings.HasSuffix(tailLetters, letters) {
		o.b.Errorf("%s run %d: the screen does not end as the file does; the screen:\n%s", o.name, run, screen)
	}
}

// benchTailLetters is the last n bytes of the file without spaces, line
// ends and SGR sequences, for checkTail.
func benchTailLetters(b *testing.B, path string, n int) string {
	b.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	raw = raw[max(0, len(raw)-n):]
	if i := bytes.IndexByte(raw, '\n'); i >= 0 {
		raw = raw[i+1:] // from a line's start: no sequence cut in half
	}
	text := regexp.MustCompile(`\x1b\[[0-9;]*m`).ReplaceAllString(string(raw), "")
	return strings.NewReplacer(" ", "", "\n", "").Replace(text)
}

// keyEcho types c at an empty prompt, times it until "$ c" shows, then
// erases it and waits for the prompt to be empty again.
func (o *benchTerm) keyEcho(c byte) time.Duration {
	o.b.Helper()
	typed := "$ " + string(c)
	o.arm(func(s string) bool { return strings.Contains(s, typed) })
	t0 := time.Now()
	o.send(string(c))
	t1 := o.await(fmt.Sprintf("%q echoed", c), 5*time.Second)
	o.arm(func(s string) bool { return !strings.Contains(s, typed) })
	o.send("\x7f")
	o.await(fmt.Sprintf("%q erased", c), 5*time.Second)
	return t1.Sub(t0)
}

// benchWriteCatFile writes size bytes of text lines, deterministic so every run
// cats the same thing: words of lowercase letters, lines 0 to 200 columns
// (some wrap at 120), never the marker "DONE-". With colour every word has
// one of the eight colours (one in eight also bold) and the line ends in a
// reset; without, there is no escape sequence.
func benchWriteCatFile(b *testing.B, path string, size int, colour bool) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	x := uint32(2463534242) // xorshift32 state
	next := func() uint32 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	written := 0
	line := make([]byte, 0, 256)
	for written < size {
		line = line[:0]
		n := int(next() % 201)
		cols := 0
		for cols < n {
			if cols > 0 {
				line = append(line, ' ')
				cols++
			}
			if colour {
				c := next()
				if c%8 == 0 {
					line = append(line, "\x1b[1m"...)
				}
				line = append(line, "\x1b[3"...)
				line = append(line, byte('0'+c%8), 'm')
			}
			for k := 1 + next()%9; k > 0 && cols < n; k-- {
				line = append(line, byte('a'+next()%26))
				cols++
			}
			if colour {
				line = append(line, "\x1b[0m"...)
			}
		}
		line = append(line, '\n')
		if written+len(line) > size {
			break // the file ends with a whole line
		}
		w.Write(line)
		written += len(line)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// benchProcStat is a process's CPU time (all threads, from /proc/PID/stat) and
// context switches. /proc/PID/status counts the main thread only, and a Go
// program does its work on other threads, so the switches are summed over
// /proc/PID/task/*/status (threads that exited are lost; in a window with
// nothing to do, none should).
type benchProcStat struct {
	cpuMs float64
	ctxsw int64
}

func (p benchProcStat) sub(q benchProcStat) benchProcStat {
	return benchProcStat{cpuMs: p.cpuMs - q.cpuMs, ctxsw: p.ctxsw - q.ctxsw}
}

func benchReadProcStat(b *testing.B, pid int) benchProcStat {
	b.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("reading pid %d: %v", pid, err)
	}
	// The command name is in parentheses and may hold spaces: fields are
	// counted after the last ')'; utime and stime are fields 14 and 15,
	// i.e. the 12th and 13th after it.
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		b.Fatalf("pid %d: short stat %q", pid, s)
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	// USER_HZ is 100 on Linux for every architecture Go supports.
	st := benchProcStat{cpuMs: float64(utime+stime) * 10}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	for _, t := range tasks {
		f, err := os.Open(t)
		if err != nil {
			continue
		}
		st.ctxsw += benchCtxSwitches(f)
		f.Close()
	}
	return st
}

// benchCPUNs is the CPU time the processes' threads have run, in ns, from
// /proc/PID/task/*/schedstat (finer than stat's 10 ms ticks).
func benchCPUNs(pids []int) int64 {
	var ns int64
	for _, pid := range pids {
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
		for _, t := range tasks {
			raw, err := os.ReadFile(t)
			if err != nil {
				continue
			}
			if f := strings.Fields(string(raw)); len(f) > 0 {
				v, _ := strconv.ParseInt(f[0], 10, 64)
				ns += v
			}
		}
	}
	return ns
}

func benchCtxSwitches(r io.Reader) int64 {
	var n int64
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
			c, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			n += c
		}
	}
	return n
}

func benchMedianDur(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func benchMedianInt(d []int64) int64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func benchPct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100].Round(10 * time.Microsecond)
}

func benchRoundAll(d []time.Duration) []time.Duration {
	out := make([]time.Duration, len(d))
	for i, v := range d {
		out[i] = v.Round(time.Millisecond)
	}
	return out
}

func benchMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func benchRatio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
