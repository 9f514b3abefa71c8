//go:build linux

package daemon

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/rawio"
)

// passedInput is what attach-input passed: the pane's terminal and the
// shared page.
type passedInput struct {
	tty  *os.File
	page *rawio.Page
}

func (p *passedInput) revoked() bool { return p.page.Word(pageRevoked).Load() != 0 }

// askInput sends attach-input on a connection of its own from this
// process and reads the answer with the descriptors passed along it. The
// connection stays open until the test ends, as a client's call
// connection does (a grant ends with its connection).
func askInput(t *testing.T, sock string, params map[string]any, extra map[string]any) (*passedInput, *proto.Error) {
	t.Helper()
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := map[string]any{"id": 1, "verb": "attach-input", "params": params}
	for k, v := range extra {
		req[k] = v
	}
	b, _ := json.Marshal(req)
	c.SetDeadline(time.Now().Add(guard))
	if _, err := c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	var line []byte
	var fds []int
	buf := make([]byte, 4096)
	oob := make([]byte, syscall.CmsgSpace(4*4))
	for !bytes.Contains(line, []byte("\n")) {
		n, oobn, _, _, err := c.(*net.UnixConn).ReadMsgUnix(buf, oob)
		if err != nil {
			t.Fatalf("attach-input: no answer: %v", err)
		}
		line = append(line, buf[:n]...)
		if oobn > 0 {
			msgs, _ := syscall.ParseSocketControlMessage(oob[:oobn])
			for _, m := range msgs {
				got, _ := syscall.ParseUnixRights(&m)
				fds = append(fds, got...)
			}
		}
	}
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *proto.Error   `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		t.Fatalf("bad answer %q", line)
	}
	if resp.Error != nil {
		if len(fds) != 0 {
			t.Fatalf("a refusal passed %d descriptors", len(fds))
		}
		return nil, resp.Error
	}
	if len(fds) != 2 || resp.Result["fds"] != float64(2) {
		t.Fatalf("attach-input passed %d descriptors: %v", len(fds), resp.Result)
	}
	page, err := rawio.MapPage(fds[1])
	syscall.Close(fds[1])
	if err != nil {
		t.Fatal(err)
	}
	p := &passedInput{tty: os.NewFile(uintptr(fds[0]), "pane"), page: page}
	t.Cleanup(func() { p.tty.Close(); p.page.Close() })
	return p, nil
}

// writeKeys writes s to the passed terminal as the client does: stamp,
// then a non-blocking write.
func (p *passedInput) writeKeys(t *testing.T, s string) {
	t.Helper()
	p.page.Word(pageTyped).Store(time.Now().UnixNano())
	n, errno := rawio.Write(p.tty.Fd(), []byte(s))
	if errno != 0 || n != len(s) {
		t.Fatalf("writing %q to the passed input: %d, %v", s, n, errno)
	}
}

// The person's attached client takes the focused pane's input and types
// into it itself: the keys arrive in order, mixed with keys sent over the
// socket before, and the echo of a key written straight to the terminal
// still goes out at once (the page's stamp makes the pane typed into).
func TestAttachInputKeysReachThePaneInOrder(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "k"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 15000})

	// Not attached yet: no input for this process.
	if _, err := askInput(t, sock, map[string]any{"session": "k", "window": id}, nil); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("before attaching: %v", err)
	}
	st, _ := attachStreamT(t, sock, map[string]any{"session": "k", "cols": 100, "rows": 30})
	st.until("the prompt", func(l line) bool { return l.typ == "screen" && bytes.Contains(l.raw, []byte("$")) })

	r.must("send-text", map[string]any{"window": id, "text": "echo one"}) // over the socket first
	p, err := askInput(t, sock, map[string]any{"session": "k", "window": id}, nil)
	if err != nil {
		t.Fatalf("attach-input: %s: %s", err.Code, err.Message)
	}
	w := srv.tab.WindowByID(id)
	before, _ := w.LastTyped()
	p.writeKeys(t, "-two")
	st.until("the echo of a key written to the pane", func(l line) bool {
		return l.typ == "screen" && bytes.Contains(l.raw, []byte("echo one-two"))
	})
	if at, _ := w.LastTyped(); at <= before {
		t.Fatal("a key written to the pane did not make it typed into (its echo would wait for the pacing)")
	}
	for _, k := range []string{"-th", "ree", "\n"} {
		p.writeKeys(t, k)
	}
	eventually(t, "echo one-two-three run in the pane", func() bool {
		return regexp.MustCompile(`(?m)^one-two-three$`).MatchString(str(r.must("capture-pane", map[string]any{"window": id})["content"]))
	})
	// The note does what send-text does besides writing.
	r.must("attach-typed", map[string]any{"session": "k", "window": id})
	if p.revoked() {
		t.Fatal("the input was taken back while the pane kept the focus")
	}
}

// The daemon takes a passed input back when the focus moves, when input
// is queued for the pane, and before the pane closes; a closed pane's
// terminal reaches no other pane.
func TestAttachInputTakenBack(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "b"})["window_id"])
	b := str(r.must("new-window", map[string]any{"session": "b", "name": "two"})["window_id"])
	for _, id := range []string{a, b} {
		r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 15000})
	}
	attachStreamT(t, sock, map[string]any{"session": "b", "cols": 100, "rows": 30})

	// Only the focused window's input is passed.
	if _, err := askInput(t, sock, map[string]any{"session": "b", "window": a}, nil); err == nil || err.Code != proto.CodeInvalidRequest {
		t.Fatalf("a window without the focus: %v", err)
	}
	pb, err := askInput(t, sock, map[string]any{"session": "b", "window": b}, nil)
	if err != nil {
		t.Fatalf("attach-input: %s", err.Message)
	}
	r.must("focus-window", map[string]any{"session": "b", "window": a})
	eventually(t, "the input taken back when the focus moved", pb.revoked)

	pa, err := askInput(t, sock, map[string]any{"session": "b", "window": a}, nil)
	if err != nil {
		t.Fatalf("attach-input after the focus moved: %s", err.Message)
	}
	r.must("close-window", map[string]any{"session": "b", "window": a})
	if !pa.revoked() {
		t.Fatal("the closed pane's input was not taken back by the time close-window answered")
	}
	// A stale terminal is the closed pane's own: what is written there
	// reaches no other pane (the focus is on b now).
	syscall.Write(int(pa.tty.Fd()), []byte("echo STALE-KEYS\n"))
	r.must("send-text", map[string]any{"session": "b", "window": b, "text": "echo MARK-$((6*7))\n"})
	r.must("wait-for", map[string]any{"window": b, "condition": "window-output", "pattern": `MARK-42`, "timeout": 15000})
	if s := str(r.must("capture-pane", map[string]any{"window": b})["content"]); strings.Contains(s, "STALE") {
		t.Fatalf("keys written to a closed pane's terminal reached another pane:\n%s", s)
	}

	// Input queued for the pane (a program that does not read) takes it
	// back, and none is passed while anything waits.
	// Raw mode, so the terminal holds what it cannot pass on and the
	// daemon's writes block: in canonical mode a full line buffer may
	// drop keys instead, and the queue could empty before the check.
	r.must("send-text", map[string]any{"session": "b", "window": b, "text": "stty raw -echo; echo RAW-$((6*7)); sleep 600\n"})
	r.must("wait-for", map[string]any{"window": b, "condition": "window-output", "pattern": `RAW-42`, "timeout": 15000})
	pq, err := askInput(t, sock, map[string]any{"session": "b", "window": b}, nil)
	if err != nil {
		t.Fatalf("attach-input: %s", err.Message)
	}
	big := strings.Repeat("x", 256<<10) // more than the terminal holds: the rest waits in the daemon's queue
	r.call("send-text", map[string]any{"session": "b", "window": b, "text": big, "timeout": 200})
	if !pq.revoked() {
		t.Fatal("input queued for the pane did not take the passed input back")
	}
	if _, err := askInput(t, sock, map[string]any{"session": "b", "window": b}, nil); err == nil || err.Code != proto.CodeTimeout {
		t.Fatalf("attach-input with input queued: %v", err)
	}
}

// No caller inside a pane gets a pane's input: not one that names its
// pane with a token, and not a real attach client run in a pane (here a
// program asking as the attach client would, with SCM_RIGHTS read).
func TestAttachInputNeverInsideAPane(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 plays the client inside the pane")
	}
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "in"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 15000})
	attachStreamT(t, sock, map[string]any{"session": "in", "cols": 100, "rows": 30})

	// This process attached; with its pane's token it is inside that pane.
	r.must("send-text", map[string]any{"window": id, "text": "echo TOK=$TUIOS_PANE_TOKEN\n"})
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "TOK=[0-9a-f]{32}", "timeout": 15000})
	screen := str(r.must("capture-pane", map[string]any{"window": id})["content"])
	tok := screen[strings.LastIndex(screen, "TOK=")+4:][:32]
	if _, err := askInput(t, sock, map[string]any{"session": "in", "window": id}, map[string]any{"pane_token": tok}); err == nil || err.Code != proto.CodeForbidden {
		t.Fatalf("a caller placed in a pane by its token: %v", err)
	}

	script := filepath.Join(t.TempDir(), "client.py")
	os.WriteFile(script, []byte(`import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
def call(verb, params):
    s.sendall((json.dumps({"id": 1, "verb": verb, "params": params}) + "\n").encode())
    data, fds, _, _ = socket.recv_fds(s, 65536, 4)
    return json.loads(data.split(b"\n")[0]), len(fds)
att, _ = call("attach", {"client": "tuios-client", "session": "in", "stream": False})
inp, n = call("attach-input", {"session": "in", "window": sys.argv[2]})
print("RESULT", "attach=" + (att.get("error") or {}).get("code", "ok"), "input=" + (inp.get("error") or {}).get("code", "ok"), "fds=%d" % n)
`), 0o600)
	r.must("send-text", map[string]any{"window": id, "text": "clear; " + python + " " + script + " " + sock + " " + id + "\n"})
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `RESULT attach=\S+ input=\S+ fds=\d`, "timeout": 15000})
	screen = str(r.must("capture-pane", map[string]any{"window": id})["content"])
	if !strings.Contains(screen, "RESULT attach=not_human input=forbidden fds=0") {
		t.Fatalf("a client inside a pane:\n%s", screen)
	}
}
