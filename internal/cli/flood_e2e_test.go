package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/sock"
)

// flood is the helper's flood mode, run in a pane: it opens
// $TUIOS_FLOOD_CONNS connections (default 64) to the control socket and
// as many to the herdr socket, each holding a ten-minute wait, until
// OUT.stop exists; it writes OUT.dialled once every connection was tried,
// then its tally to OUT when it stops.
func flood(ctl, out string) {
	n, _ := strconv.Atoi(os.Getenv("TUIOS_FLOOD_CONNS"))
	if n <= 0 {
		n = 64
	}
	herdr, pane := os.Getenv("HERDR_SOCKET_PATH"), os.Getenv("HERDR_PANE_ID")
	var tally struct{ MainRefused, HerdrRefused, DialErrors, Held atomic.Int64 }
	var mu sync.Mutex
	var held []net.Conn
	var wg sync.WaitGroup
	one := func(path, req string, refused *atomic.Int64) {
		defer wg.Done()
		c, err := net.Dial("unix", path)
		if err != nil {
			tally.DialErrors.Add(1)
			return
		}
		mu.Lock()
		held = append(held, c)
		mu.Unlock()
		c.Write([]byte(req + "\n"))
		go func() {
			// A refusal is one line and a hang-up; a held wait says nothing.
			if l, err := bufio.NewReader(c).ReadString('\n'); err == nil && strings.Contains(l, "rate_limited") {
				refused.Add(1)
			}
		}()
	}
	// Started, and waiting for the word: the burst is the connections,
	// not sixteen processes starting.
	os.WriteFile(out+".ready", nil, 0o600)
	for {
		if _, err := os.Stat(filepath.Join(filepath.Dir(out), "go")); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for range n {
		wg.Add(2)
		go one(ctl, `{"id":1,"verb":"wait-for","params":{"condition":"window-output","pattern":"never printed here","timeout":600000}}`, &tally.MainRefused)
		go one(herdr, `{"id":"w","method":"agent.wait","params":{"pane_id":"`+pane+`","status":"done","timeout_ms":600000}}`, &tally.HerdrRefused)
	}
	wg.Wait()
	os.WriteFile(out+".dialled", nil, 0o600)
	for {
		if _, err := os.Stat(out + ".stop"); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := json.Marshal(map[string]int64{"main_refused": tally.MainRefused.Load(), "herdr_refused": tally.HerdrRefused.Load(),
		"dial_errors": tally.DialErrors.Load(), "tried": int64(2 * n)})
	os.WriteFile(out+".tmp", b, 0o600)
	os.Rename(out+".tmp", out)
	mu.Lock()
	for _, c := range held {
		c.Close()
	}
	mu.Unlock()
}

// daemonProc reads the daemon's pid (the kernel's word, from a
// connection) and then its open descriptors and resident memory.
func daemonPID(t *testing.T, path string) int {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cred, err := sock.Peer(c)
	if err != nil {
		t.Fatal(err)
	}
	return cred.PID
}

// cpuTicks is the process's user and system time, in clock ticks (10 ms
// on Linux).
func cpuTicks(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	k, _ := strconv.Atoi(f[12])
	return u + k
}

func fdsAndRSS(pid int) (fds int, rssKB int) {
	ents, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			rssKB, _ = strconv.Atoi(strings.Fields(v)[0])
		}
	}
	return len(ents), rssKB
}

// personProbe makes the person's call (list-sessions on a connection of
// its own, as `tuios ls` does) again and again until stopped, and keeps
// what each took and every failure.
type personProbe struct {
	start  time.Time
	mu     sync.Mutex
	took   []time.Duration
	failed []string
	stop   chan struct{}
	done   chan struct{}
}

func probePerson(path string) *personProbe {
	p := &personProbe{start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			select {
			case <-p.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			start := time.Now()
			got := lsCall(path)
			took := time.Since(start)
			p.mu.Lock()
			p.took = append(p.took, took)
			if got != "" {
				p.failed = append(p.failed, got)
			}
			p.mu.Unlock()
		}
	}()
	return p
}

// lsCall is list-sessions on a fresh connection: "" when it answered.
func lsCall(path string) string {
	c, err := net.Dial("unix", path)
	if err != nil {
		return "dial: " + err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	c.Write([]byte(`{"id":1,"verb":"list-sessions"}` + "\n"))
	l, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "read: " + err.Error()
	}
	if !strings.Contains(l, `"result"`) {
		return l
	}
	return ""
}

func (p *personProbe) end() (took []time.Duration, failed []string) {
	close(p.stop)
	<-p.done
	slices.Sort(p.took)
	return p.took, p.failed
}

func quantile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(q*float64(len(d))))]
}

// The floods of a hostile review, at a scale a test runs: 16 processes of
// one pane holding 64 waits each on the control socket and 64 on the
// herdr socket (a per-process cap would let all 2,048 in), and a `tuios
// mcp` in another pane asked for 200 waits at once. The daemon holds
// each pane to its cap (512 on the control socket, 64 on herdr's), the
// MCP server runs 64 and answers the rest rate_limited, and all the
// while the person's ls answers, attach gets a nonce and new-window
// opens a window. Latency is reported, not asserted.
func TestFloodsFromPanesLeaveThePersonIn(t *testing.T) {
	t.Parallel()
	linuxOnly(t) // it reads the daemon's descriptors in /proc
	e := newEnv(t)
	e.ok("new", "--detach", "work")
	e.ok("new-window", "-s", "work", "flood", "--no-focus")
	e.ok("wait-for", "window-output", "-s", "work", "-w", "flood", "--pattern", `(?m)^[$#] ?$`, "--timeout", "10000")
	ctl := e.socket()
	pid := daemonPID(t, ctl)
	fds0, rss0 := fdsAndRSS(pid)
	cpu0 := 0
	exe, _ := os.Executable()
	out := filepath.Join(e.dir, "flood")
	os.MkdirAll(out, 0o700)
	const procs = 16

	launch := fmt.Sprintf(`for i in $(seq %d); do '%s' -test.run='^TestBoundaryHelper$' '%s' '%s'/f$i flood & done`, procs, exe, ctl, out)
	e.ok("send-text", "-s", "work", "-w", "flood", launch+"\n")
	for i := 1; i <= procs; i++ {
		waitFile(t, filepath.Join(out, fmt.Sprintf("f%d.ready", i)))
	}
	probe := probePerson(ctl)
	cpu0 = cpuTicks(pid)
	os.WriteFile(filepath.Join(out, "go"), nil, 0o600)
	for i := 1; i <= procs; i++ {
		waitFile(t, filepath.Join(out, fmt.Sprintf("f%d.dialled", i)))
	}
	// The MCP flood, from a pane of its own.
	p := startMCPInPane(t, e, "mcp")
	p.initialize("2025-06-18")
	const calls = 200
	for i := range calls {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call",
			"params": map[string]any{"name": "tuios_wait_for", "arguments": map[string]any{"condition": "window-output", "pattern": "never printed here", "timeout": 600000}}})
		p.sendLine(string(b))
	}
	limited := 0
	for range calls - 64 {
		m, _ := p.recv().(map[string]any)
		res, _ := m["result"].(map[string]any)
		sc, _ := res["structuredContent"].(map[string]any)
		e2, _ := sc["error"].(map[string]any)
		if res["isError"] != true || e2["code"] != "rate_limited" {
			t.Fatalf("a call over the MCP server's cap: %v", m)
		}
		limited++
	}

	// While both floods hold: the person gets in.
	fds, rss := fdsAndRSS(pid)
	var cli []time.Duration
	for range 10 {
		start := time.Now()
		if r := e.run("ls"); r.code != 0 || !strings.Contains(r.out, "work") {
			t.Fatalf("the person's tuios ls during the flood: %+v", r)
		}
		cli = append(cli, time.Since(start))
	}
	slices.Sort(cli)
	if got := rawCall(ctl, "attach"); got != "ok" {
		t.Fatalf("the person's attach during the flood: %s", got)
	}
	e.ok("new-window", "-s", "work", "during", "--no-focus")
	// The daemon held each pane to its caps: 512 + 64 for the flood,
	// 64 for the MCP server, far from the 2,048 + 200 asked for.
	if over := fds - fds0; over > 512+64+64+64 {
		t.Errorf("the daemon holds %d descriptors more than before the flood", over)
	}

	// Stop: every flood process ends, and the daemon lets go.
	for i := 1; i <= procs; i++ {
		os.WriteFile(filepath.Join(out, fmt.Sprintf("f%d.stop", i)), nil, 0o600)
	}
	var mainRefused, herdrRefused, dialErrs int64
	for i := 1; i <= procs; i++ {
		var tl map[string]int64
		json.Unmarshal([]byte(waitFile(t, filepath.Join(out, fmt.Sprintf("f%d", i)))), &tl)
		mainRefused += tl["main_refused"]
		herdrRefused += tl["herdr_refused"]
		dialErrs += tl["dial_errors"]
	}
	took, failed := probe.end()
	cpu := cpuTicks(pid) - cpu0
	over100 := 0
	for _, d := range took {
		if d > 100*time.Millisecond {
			over100++
		}
	}
	if len(failed) > 0 {
		t.Errorf("the person's list-sessions failed %d of %d times during the flood: %v", len(failed), len(took), failed[:min(3, len(failed))])
	}
	t.Logf("flood: %d processes x 64 waits on each socket from one pane, %d MCP waits (%d answered rate_limited)", procs, calls, limited)
	t.Logf("refused: control %d, herdr %d, dial errors %d", mainRefused, herdrRefused, dialErrs)
	t.Logf("daemon: %d fds, %d MB RSS before; %d fds, %d MB RSS during; %d ms of CPU for the whole flood", fds0, rss0/1024, fds, rss/1024, cpu*10)
	t.Logf("person's list-sessions (dial + call) during the flood: %d calls in %v, p50 %v, p90 %v, max %v, %d over 100 ms",
		len(took), time.Since(probe.start).Round(time.Millisecond), quantile(took, 0.5), quantile(took, 0.9), quantile(took, 1), over100)
	t.Logf("person's tuios ls (the binary, start to exit) during the flood: p50 %v, max %v", quantile(cli, 0.5), quantile(cli, 1))
	eventually := func(what string, cond func() bool) {
		deadline := time.Now().Add(60 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("never happened: %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	e.ok("close-window", "-s", "work", "-w", "mcp")
	eventually("the daemon lets go of the flood's descriptors", func() bool {
		n, _ := fdsAndRSS(pid)
		return n <= fds0+16
	})
}
