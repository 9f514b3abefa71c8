package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// othersAnswer checks that the rest of the daemon answers: listings that
// touch every pane, a pane of another session, a new connection.
func othersAnswer(t *testing.T, sock, stuck string) {
	t.Helper()
	r := dialRPC(t, sock)
	r.must("list-agents", map[string]any{"all_sessions": true, "all": true})
	r.must("get-agent-state", map[string]any{"window": stuck})
	r.must("list-windows", map[string]any{"session": "stuck"})
	r.must("list-sessions", nil)
	r.must("new-session", map[string]any{"name": fmt.Sprint("other", time.Now().UnixNano()), "argv": []string{"/bin/cat"}})
	fresh := dialRPC(t, sock)
	fresh.must("hello", nil)
}

func stuckPane(t *testing.T, r *rpc, script string) string {
	t.Helper()
	res := r.must("new-session", map[string]any{"name": "stuck", "argv": []string{"/bin/sh", "-c", script}})
	return str(res["window_id"])
}

// A raw-mode program that floods cursor-position queries and never reads
// its input: its replies have nowhere to go. Nothing else may wait on it.
func TestAPaneFloodingQueriesFreezesNothing(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	id := stuckPane(t, r, `stty raw -echo; i=0; while [ $i -lt 50000 ]; do printf '\033[6n'; i=$((i+1)); done; echo flood_done; sleep 300`)
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "flood_done", "timeout": 60000})
	othersAnswer(t, sock, id)
	srv.Close() // kill-server and SIGTERM both come here; it must return
}

// More than a pane's input queue (1 MiB) typed into a program that is not
// reading, then one query from it: the typing gives up at its timeout and
// says how much it queued, and every other verb answers meanwhile. (200 KB
// used to freeze the daemon; now that much is queued and answered at once.)
func TestTypingIntoAProgramThatDoesNotReadFreezesNothing(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := stuckPane(t, r, `stty raw -echo; sleep 1; printf 'ask\033[6n'; sleep 300`)
	typed := make(chan *proto.Error, 1)
	go func() {
		w := dialRPC(t, sock)
		_, err := w.call("send-text", map[string]any{"window": id, "text": strings.Repeat("x", 1536<<10), "timeout": 2000})
		typed <- err
	}()
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "ask", "timeout": 30000})
	othersAnswer(t, sock, id)
	if err := <-typed; err == nil || err.Code != proto.CodeTimeout || !strings.Contains(err.Message, "bytes were queued") {
		t.Fatalf("typing into a program that never reads must time out and say how much was queued: %+v", err)
	}
}

// A hook naming a FIFO as its transcript must not block anything.
func TestATranscriptPathNamingAFIFOFreezesNothing(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := stuckPane(t, r, `sleep 300`)
	fifo := filepath.Join(t.TempDir(), "t.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r.must("set-agent-state", map[string]any{"window": id, "state": "working", "harness": "claude-code", "transcript_path": fifo})
	othersAnswer(t, sock, id)
	r.must("set-agent-state", map[string]any{"window": id, "state": "done", "harness": "claude-code"})
}

// One request must never crash the daemon: every number has a bound.
func TestNumbersOutOfBoundsAreRefused(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	for _, c := range []struct {
		verb   string
		params map[string]any
		param  string
	}{
		{"subscribe", map[string]any{"queue": int64(1) << 60}, "queue"},
		{"new-session", map[string]any{"name": "big", "cols": 65535, "rows": 65535}, "cols"},
		{"new-session", map[string]any{"name": "neg", "rows": -3}, "rows"},
		{"wait-for", map[string]any{"condition": "window-idle", "timeout": int64(1) << 40}, "timeout"},
		{"capture-pane", map[string]any{"lines": -1}, "lines"},
		{"read-agent-messages", map[string]any{"limit": 1 << 30}, "limit"},
		{"set-agent-state", map[string]any{"state": "working", "harness_pid": -5}, "harness_pid"},
	} {
		_, err := r.call(c.verb, c.params)
		if err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil || err.Hint.Param != c.param {
			t.Errorf("%s %v: want invalid_params naming %s, got %+v", c.verb, c.params, c.param, err)
		}
	}
	r.must("hello", nil)
}

// Every required param, as list-verbs describes it, is refused at once
// when missing: derived from the schema, not listed by hand.
func TestEveryVerbRefusesAMissingRequiredParam(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	list := r.must("list-verbs", nil)
	b, _ := json.Marshal(list["verbs"])
	var verbs []proto.VerbInfo
	json.Unmarshal(b, &verbs)
	checked := 0
	for _, v := range verbs {
		for _, missing := range v.Params {
			if !missing.Required && len(missing.RequiredWhen) == 0 {
				continue
			}
			params := map[string]any{}
			for _, other := range v.Params {
				if other.Name != missing.Name && other.Required {
					params[other.Name] = sample(other)
				}
			}
			for k, vals := range missing.RequiredWhen {
				params[k] = vals[0]
			}
			for _, other := range v.Params {
				if other.Name == "timeout" && other.Maximum != nil {
					// The old bug waited out the whole timeout: with the
					// longest one, a wait that starts runs into the
					// call's guard and fails the test.
					params["timeout"] = *other.Maximum
				}
			}
			_, err := r.call(v.Verb, params)
			if err == nil || err.Code != proto.CodeInvalidParams || err.Hint == nil || err.Hint.Param != missing.Name {
				t.Errorf("%s without %s (%v): want invalid_params naming it, got %+v", v.Verb, missing.Name, params, err)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d required params found in list-verbs", checked)
	}
}

// sample is a value of the param's type that passes its checks.
func sample(p proto.Param) any {
	switch {
	case len(p.Accepted) > 0:
		return p.Accepted[0]
	case p.Type == "int":
		if p.Minimum != nil && *p.Minimum > 0 {
			return *p.Minimum
		}
		return 1
	case p.Type == "bool":
		return true
	case p.Type == "[]string":
		return []string{"x"}
	}
	return "x"
}

// A client that hangs up ends its wait at once: 1,000 abandoned waits
// hold no descriptor and no goroutine afterwards.
func TestAbandonedWaitsLeaveNothingBehind(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "w", "argv": []string{"/bin/sleep", "300"}})
	time.Sleep(200 * time.Millisecond) // let the pane's goroutines settle before the baseline
	fds, gor := openFDs(), runtime.NumGoroutine()
	n := 1000
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil && int(lim.Cur) < 2*n+300 {
		n = (int(lim.Cur) - 300) / 2 // both ends of each connection live in this process
	}
	var conns []net.Conn
	for i := 0; i < n; i++ {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, `{"verb":"wait-for","params":{"session":"w","condition":"window-exit","timeout":3600000}}`+"\n")
		conns = append(conns, c)
	}
	eventually(t, "the waits to start", func() bool { return runtime.NumGoroutine() >= gor+n })
	for _, c := range conns {
		c.Close()
	}
	eventually(t, "descriptors and goroutines back to the baseline", func() bool {
		return openFDs() <= fds+2 && runtime.NumGoroutine() <= gor+5
	})
	r.must("hello", nil)
}

// A client that closes only its writing half still gets its answer.
func TestAHalfClosedClientStillGetsItsAnswer(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, `{"id":9,"verb":"wait-for","params":{"session":"nope","condition":"session-exists","timeout":300}}`+"\n")
	c.(*net.UnixConn).CloseWrite()
	c.SetDeadline(time.Now().Add(guard))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":9`) || !strings.Contains(line, "timeout") {
		t.Fatalf("%q %v", line, err)
	}
}

// Unfinished lines on many connections cannot add up past the budget.
func TestUnfinishedLinesHaveAnOverallCap(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	chunk := strings.Repeat("x", 1<<20)
	var conns []net.Conn
	for i := 0; i < 20; i++ { // 20 × 15 MB would be 300 MB held
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		c.Write([]byte(`{"verb":"hello","params":{"client":"`))
		for j := 0; j < 15; j++ {
			c.Write([]byte(chunk))
		}
	}
	eventually(t, "every byte to be read", func() bool { return srv.budget.Used() >= lineBudget-16<<20 })
	if used := srv.budget.Used(); used > lineBudget {
		t.Fatalf("lines hold %d bytes, over the %d budget", used, lineBudget)
	}
	refused := 0
	for _, c := range conns {
		c.Write([]byte("\"}}\n"))
		c.SetDeadline(time.Now().Add(guard))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, proto.CodeRateLimited) {
			refused++
		}
		c.Close()
	}
	if refused == 0 {
		t.Fatal("no line was refused")
	}
	eventually(t, "the budget to be given back", func() bool { return srv.budget.Used() == 0 })
	dialRPC(t, sock).must("hello", nil)
}

// Stopping the daemon ends every pane's processes, background jobs in
// groups of their own included, before Close returns.
func TestStopLeavesNoPaneProcessRunning(t *testing.T) {
	srv, sock := server(t)
	r := dialRPC(t, sock)
	var sids []int
	for i := 0; i < 16; i++ {
		res := r.must("new-session", map[string]any{"name": fmt.Sprint("s", i), "argv": []string{"/bin/sh", "-c",
			`set -m; (trap "" HUP; sleep 300) & sleep 300 & echo started; wait`}})
		r.must("wait-for", map[string]any{"window": str(res["window_id"]), "condition": "window-output", "pattern": "started"})
		win := r.must("get-window", map[string]any{"window": str(res["window_id"])})
		sids = append(sids, int(win["pid"].(float64)))
	}
	srv.Close()
	for _, sid := range sids {
		if left := inSession(sid); len(left) > 0 {
			t.Errorf("session %d still has %v after Close", sid, left)
		}
	}
}

// A window started while its session is killed leaves no process behind.
func TestNewWindowRacingKillSessionLeavesNothing(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	before := len(liveChildren())
	for i := 0; i < 100; i++ {
		name := fmt.Sprint("race", i)
		r.must("new-session", map[string]any{"name": name, "window": false})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); dialRPC(t, sock).call("new-window", map[string]any{"session": name}) }()
		go func() { defer wg.Done(); dialRPC(t, sock).call("kill-session", map[string]any{"session": name}) }()
		wg.Wait()
		r.call("kill-session", map[string]any{"session": name})
	}
	eventually(t, "no pane process outlives its session", func() bool { return len(liveChildren()) <= before })
	if res := r.must("list-sessions", nil); res["total"].(float64) != 0 {
		t.Fatalf("sessions left: %v", res)
	}
}

// The window's own process exiting is its exit, even while a background
// child that ignores SIGHUP keeps the terminal open.
func TestWindowExitDoesNotWaitForABackgroundChild(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	pidFile := filepath.Join(t.TempDir(), "child")
	res := r.must("new-session", map[string]any{"name": "x"})
	id := str(res["window_id"])
	r.must("send-text", map[string]any{"window": id, "text": `sh -c 'trap "" HUP; echo $$ > ` + pidFile + `; exec sleep 60' &` + "\n"})
	eventually(t, "the background child to start", func() bool { b, _ := os.ReadFile(pidFile); return len(b) > 0 })
	r.must("send-text", map[string]any{"window": id, "text": "exit 3\n"})
	got := r.must("wait-for", map[string]any{"window": id, "condition": "window-exit", "timeout": 30000})
	if got["exit_code"].(float64) != 3 {
		t.Errorf("exit code %v", got["exit_code"])
	}
	b, _ := os.ReadFile(pidFile)
	child, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if child == 0 || syscall.Kill(child, 0) != nil {
		t.Fatal("the background child was already gone: the test proves nothing")
	}
	// It still holds the terminal; closing the window ends it.
	r.must("close-window", map[string]any{"window": id})
	eventually(t, "the child to end with its window", func() bool { return syscall.Kill(child, 0) != nil })
}

// Rotating the sender label outside a pane does not buy a fresh rate
// bucket, so a flood cannot evict a real unread message.
func TestMailRateLimitIsKeyedOnWhatTheCallerCannotChoose(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	res := r.must("new-session", map[string]any{"name": "m", "argv": []string{"/bin/cat"}})
	id := str(res["window_id"])
	r.must("send-agent-message", map[string]any{"session": "m", "to": id, "from": "real", "text": "the one that matters"})
	limited := 0
	for i := 0; i < 600; i++ {
		if _, err := r.call("send-agent-message", map[string]any{"session": "m", "to": id, "from": fmt.Sprint("rotating-", i), "text": "flood"}); err != nil {
			if err.Code != proto.CodeRateLimited {
				t.Fatalf("send %d: %+v", i, err)
			}
			limited++
		}
	}
	if limited < 550 {
		t.Fatalf("only %d of 600 rotated-label sends were rate limited", limited)
	}
	got := r.must("read-agent-messages", map[string]any{"session": "m", "to": id, "peek": true, "limit": 256})
	if !strings.Contains(fmt.Sprint(got["messages"]), "the one that matters") {
		t.Fatal("the real unread message was evicted")
	}
}

// Placement changes racing listings and renames (run with -race).
func TestConcurrentVerbsDoNotRace(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	res := r.must("new-session", map[string]any{"name": "r"})
	id := str(res["window_id"])
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dialRPC(t, sock)
			for i := 0; i < 30; i++ {
				c.call("focus-window", map[string]any{"window": id})
				c.call("move-window", map[string]any{"window": id, "workspace": 1 + i%9})
				c.call("set-window", map[string]any{"window": id, "name": fmt.Sprint("n", i)})
				c.call("new-session", map[string]any{"name": fmt.Sprint("r", g, "-", i), "argv": []string{"/bin/cat"}})
				c.call("list-windows", map[string]any{"session": "r"})
				c.call("list-agents", map[string]any{"all_sessions": true, "all": true})
			}
		}()
	}
	wg.Wait()
}

// A harness manifest that does not load is not discarded: the daemon keeps
// it and explain-agent-detect shows why, with a hint.
func TestManifestLoadErrorsAreShown(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "broken.toml"), []byte("schema_version = 1\nid = \"mine\"\n[detect\n"), 0o600)
	t.Setenv("TUIOS_HARNESS_DIR", dir)
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := stuckPane(t, r, `sleep 300`)
	res := r.must("explain-agent-detect", map[string]any{"window": id})
	errs, _ := res["manifest_errors"].([]any)
	if len(errs) != 1 {
		t.Fatalf("manifest_errors = %v", res["manifest_errors"])
	}
	e := errs[0].(map[string]any)
	if !strings.HasSuffix(str(e["source"]), "broken.toml") || str(e["code"]) != "parse" || str(e["hint"]) == "" {
		t.Fatalf("manifest error %v", e)
	}
	if !strings.Contains(str(res["text"]), "broken.toml") {
		t.Fatalf("the text does not name the manifest:\n%s", res["text"])
	}
}
