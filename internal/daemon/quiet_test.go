package daemon

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// answer is one answer line as it came.
type quietAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *proto.Error    `json:"error"`
}

func (r *rpc) send(line string) {
	r.t.Helper()
	if _, err := r.c.Write([]byte(line + "\n")); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rpc) answer() quietAnswer {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(guard))
	defer r.c.SetReadDeadline(time.Time{})
	b, err := proto.ReadLine(r.r, proto.MaxLine)
	if err != nil {
		r.t.Fatalf("no answer: %v", err)
	}
	var a quietAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		r.t.Fatalf("bad answer %q", b)
	}
	return a
}

func quietText(id, window, text string, extra string) string {
	p, _ := json.Marshal(map[string]any{"window": window, "text": text})
	if extra != "" {
		p = append(p[:len(p)-1], ","+extra+"}"...)
	}
	return `{"id":` + id + `,"verb":"send-text","params":` + string(p) + `,"quiet":true}`
}

// A quiet request is answered only when it fails, in its place in the
// order and with its id: keys typed quietly reach the pane with no line
// back, and the next call's answer is the next line.
func TestQuietRequestsAnswerOnlyFailures(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "q"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 10000})

	r.send(quietText("-1", id, "echo qu", ""))
	r.send(quietText("-2", id, "iet-$((6*7))\r", ""))
	r.send(quietText("-3", "no-such-window", "x", ""))
	r.send(`{"id":-4,"verb":"attach","params":{"client":"t"},"quiet":true}`)
	r.send(`{"id":5,"verb":"wait-for","params":{"window":"` + id + `","condition":"window-output","pattern":"quiet-42","timeout":10000}}`)

	a := r.answer()
	if string(a.ID) != "-3" || a.Error == nil || a.Error.Code != proto.CodeWindowNotFound {
		t.Fatalf("first line: %+v, want the quiet failure -3 (not_found)", a)
	}
	a = r.answer()
	if string(a.ID) != "-4" || a.Error == nil || a.Error.Code != proto.CodeInvalidRequest || !strings.Contains(a.Error.Message, "cannot be quiet") {
		t.Fatalf("second line: %+v, want attach refused quiet", a)
	}
	a = r.answer()
	if string(a.ID) != "5" || a.Error != nil {
		t.Fatalf("third line: %+v, want the wait-for's answer: the quiet keys were typed and not answered", a)
	}
}

// A quiet key that finds the pane's input full waits for room on the
// connection's worker, in order, and its timeout is answered; the
// connection goes on taking requests.
func TestQuietTypingIntoAFullPaneWaitsInOrder(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	// sleep reads nothing: the terminal's buffer (raw, so nothing is
	// dropped) and then the 1 MiB queue fill up.
	id := str(r.must("new-session", map[string]any{"name": "full", "argv": []string{"sh", "-c", "stty raw -echo; echo RE''ADY; sleep 600"}})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "READY", "timeout": 10000})
	big := strings.Repeat("y", 1<<20+256<<10)
	if _, err := r.call("send-text", map[string]any{"window": id, "text": big, "timeout": 300}); err == nil || err.Code != proto.CodeTimeout {
		t.Fatalf("filling the queue: %v", err)
	}
	// A connection with nothing in hand reads the key and finds no room.
	r = dialRPC(t, sock)
	r.send(quietText("-1", id, "x", `"timeout":200`))
	r.send(`{"id":2,"verb":"list-sessions"}`)
	a := r.answer()
	if string(a.ID) != "-1" || a.Error == nil || a.Error.Code != proto.CodeTimeout {
		t.Fatalf("first line: %+v, want the quiet key's timeout", a)
	}
	if a = r.answer(); string(a.ID) != "2" || a.Error != nil {
		t.Fatalf("second line: %+v, want list-sessions", a)
	}
}

// The attach answer of a stream tells the client it may type quietly.
func TestAttachSaysQuietRequests(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "s"})
	_, res := attachStreamT(t, sock, map[string]any{"session": "s", "cols": 80, "rows": 24})
	if res["quiet_requests"] != true {
		t.Fatalf("attach answered %v", res)
	}
}
