package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/procstat"
	"github.com/tuios/tuios/internal/proto"
)

// The daemon reaps the orphans of its panes (it is their subreaper), and
// never an exit status pty waits for: many program windows started at
// once, each leaving an orphan behind, all report their own exit codes,
// each orphan is re-parented to the daemon while it runs, and none is
// left a zombie once it exits.
func TestOrphansAreReapedAndExitCodesKept(t *testing.T) {
	t.Parallel()
	if !subreaperHolds {
		t.Skip("no child subreaper on this system")
	}
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "o"})
	dir := t.TempDir()
	const n = 12
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := dialRPC(t, sock)
			// The orphan notes its pid and, once its starter is gone,
			// its parent; then it exits.
			orphan := fmt.Sprintf(`echo $$ > %[1]s/pid%[2]d.tmp; mv %[1]s/pid%[2]d.tmp %[1]s/pid%[2]d; sleep 0.3; read p c st pp rest < /proc/$$/stat; echo $pp > %[1]s/ppid%[2]d.tmp; mv %[1]s/ppid%[2]d.tmp %[1]s/ppid%[2]d`, dir, i)
			ids[i] = str(c.must("new-window", map[string]any{"session": "o", "no_focus": true,
				// The window waits for the orphan to be in a session of its
				// own: closing the window ends every process of its session.
				"argv": []string{"sh", "-c", "setsid -f sh -c '" + orphan + "'; while [ ! -e " + dir + "/pid" + strconv.Itoa(i) + " ]; do sleep 0.01; done; exit " + strconv.Itoa(i+1)}})["window_id"])
		}()
	}
	wg.Wait()
	// What this process starts itself keeps its own exit status: the
	// reaper never waits for a child in the daemon's session.
	for range 5 {
		if err := exec.Command("sh", "-c", "exit 5").Run(); err == nil || err.(*exec.ExitError).ExitCode() != 5 {
			t.Fatalf("a child the daemon's process ran: %v", err)
		}
	}
	for i, id := range ids {
		res := r.must("wait-for", map[string]any{"session": "o", "window": id, "condition": "window-exit", "timeout": 30000})
		if res["exit_code"] != float64(i+1) {
			t.Errorf("window %d: exit code %v, want %d", i, res["exit_code"], i+1)
		}
	}
	read := func(name string) int {
		var v int
		eventually(t, name+" written", func() bool {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return false
			}
			v, err = strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil
		})
		return v
	}
	for i := range n {
		pid, ppid := read(fmt.Sprintf("pid%d", i)), read(fmt.Sprintf("ppid%d", i))
		if ppid != os.Getpid() {
			t.Errorf("orphan %d (pid %d) had parent %d, not the daemon %d", i, pid, ppid, os.Getpid())
		}
		eventually(t, fmt.Sprintf("orphan %d (pid %d) is reaped", i, pid), func() bool {
			st, err := procstat.Read(pid)
			return err != nil || st.Parent != os.Getpid() // gone (or the pid reused by another's child)
		})
	}
}

// A process the daemon started itself, that is no pane (git, and any hook
// git runs), is not the person: it gets no nonce. The same process is the
// person's when this test binary plays the person (the control).
func TestTheDaemonsOwnChildrenAreNotThePerson(t *testing.T) {
	t.Parallel()
	if !subreaperHolds {
		t.Skip("reads /proc")
	}
	_, strict := strictServer(t)
	dialRPC(t, strict).must("new-session", map[string]any{"name": "n"})
	if out := helper(t, strict, "attach", ""); !strings.Contains(out, "code="+codeRespondNotHuman) {
		t.Fatalf("a child of the daemon got a nonce: %s", out)
	}
	_, lenient := server(t)
	dialRPC(t, lenient).must("new-session", map[string]any{"name": "n"})
	if out := helper(t, lenient, "attach", ""); !strings.Contains(out, "helper_result=ok") {
		t.Fatalf("the control: %s", out)
	}
}

// rawCall sends one request line with an envelope of its own making.
func rawCall(t *testing.T, sock string, req map[string]any) (map[string]any, *proto.Error) {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, _ := json.Marshal(req)
	c.SetDeadline(time.Now().Add(guard))
	c.Write(append(b, '\n'))
	line, err := bufio.NewReader(c).ReadBytes('\n')
	if err != nil {
		t.Fatalf("%v: no answer: %v", req, err)
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *proto.Error   `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("bad answer %q", line)
	}
	return resp.Result, resp.Error
}

// TUIOS_PANE_TOKEN places a caller the kernel places in no pane (here the
// daemon's own process, which the kernel places nowhere) in the pane it
// names, and a token, right or wrong, never makes a caller the person.
func TestAPaneTokenPlacesButNeverMakesThePerson(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "t"})
	id := str(r.must("new-window", map[string]any{"session": "t", "name": "tok", "no_focus": true})["window_id"])
	r.must("send-text", map[string]any{"session": "t", "window": "tok", "text": "echo TOK=$TUIOS_PANE_TOKEN\n"})
	r.must("wait-for", map[string]any{"session": "t", "window": "tok", "condition": "window-output", "pattern": "TOK=[0-9a-f]{32}", "timeout": 15000})
	screen := str(r.must("capture-pane", map[string]any{"session": "t", "window": "tok"})["content"])
	tok := regexp.MustCompile(`TOK=([0-9a-f]{32})`).FindStringSubmatch(screen)[1]

	// Without a token this process is the person, in no pane.
	if _, err := rawCall(t, sock, map[string]any{"verb": "resolve-pane"}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("no token: %v", err)
	}
	if res, err := rawCall(t, sock, map[string]any{"verb": "attach", "params": map[string]any{"client": "t"}}); err != nil || res["human_nonce"] == nil {
		t.Fatalf("the person's attach: %v %v", res, err)
	}
	// With the pane's token: placed in that pane, and no nonce.
	res, err := rawCall(t, sock, map[string]any{"verb": "resolve-pane", "pane_token": tok})
	if err != nil || res["window_id"] != id || res["found_by"] != "token" {
		t.Fatalf("resolve-pane with the token: %v %v", res, err)
	}
	if _, err := rawCall(t, sock, map[string]any{"verb": "attach", "params": map[string]any{"client": "t"}, "pane_token": tok}); err == nil || err.Code != codeRespondNotHuman {
		t.Fatalf("attach with a pane's token: %v", err)
	}
	// A wrong token places nowhere and is still no person.
	wrong := strings.Repeat("0", 32)
	if _, err := rawCall(t, sock, map[string]any{"verb": "resolve-pane", "pane_token": wrong}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("a wrong token placed the caller: %v", err)
	}
	if _, err := rawCall(t, sock, map[string]any{"verb": "attach", "params": map[string]any{"client": "t"}, "pane_token": wrong}); err == nil || err.Code != codeRespondNotHuman {
		t.Fatalf("attach with a wrong token: %v", err)
	}
	if _, err := rawCall(t, sock, map[string]any{"verb": "link-peer", "params": map[string]any{"peer": "x"}, "pane_token": wrong}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("a caller that showed a token became a link: %v", err)
	}
	// The token dies with its window.
	r.must("close-window", map[string]any{"session": "t", "window": "tok"})
	if _, err := rawCall(t, sock, map[string]any{"verb": "resolve-pane", "pane_token": tok}); err == nil || err.Code != proto.CodeWindowNotFound {
		t.Fatalf("a closed window's token: %v", err)
	}
}

// The environment only ever puts a caller inside: herdr's variables are
// read as tuios's are (a live window's HERDR_PANE_ID, or this daemon's
// herdr socket beside HERDR_ENV=1), and any TUIOS_PANE_TOKEN is a pane's.
// Here the caller is a process the kernel places outside every pane.
func TestHerdrVariablesAndATokenInTheEnvironmentAreAPanes(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "n"})
	id := str(r.must("new-window", map[string]any{"session": "n", "no_focus": true})["window_id"])
	paneID := "w" + herdrHex(srv.tab.SessionNamed("n").ID) + ":p" + herdrHex(id)
	for _, c := range []struct {
		env    []string
		person bool
	}{
		{nil, true},
		{[]string{"HERDR_PANE_ID=" + paneID}, false},
		{[]string{"HERDR_PANE_ID=w000000000000:p000000000000"}, true}, // names no window here
		{[]string{"HERDR_ENV=1", "HERDR_SOCKET_PATH=" + srv.herdr.Path()}, false},
		{[]string{"HERDR_SOCKET_PATH=" + srv.herdr.Path()}, true}, // named alone, as a person may
		{[]string{"TUIOS_PANE_TOKEN=0123"}, false},
	} {
		out := helper(t, sock, "attach", "", c.env...)
		if got := strings.Contains(out, "helper_result=ok"); got != c.person {
			t.Errorf("%v: %s", c.env, out)
		}
	}
}
