package daemon

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// Echoes are sent by the pane's reader as far as the client's socket
// takes them, and the stream's goroutine finishes the rest: a client that
// reads nothing while a thousand keys echo, then reads, gets every line
// whole and in order, ending on the screen as it is.
func TestEchoesToAClientThatReadsLateArriveWhole(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "e"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 10000})
	st, _ := attachStreamT(t, sock, map[string]any{"session": "e", "cols": 120, "rows": 40})
	st.screenOf(id, func(sc proto.AttachScreen) bool { return strings.Contains(linesText(sc), "$") })

	const keys = 1500 // under the terminal's 4096-byte line
	calls := dialRPC(t, sock)
	for i := 0; i < keys; i++ {
		calls.send(quietText("-1", id, "x", ""))
	}
	// Every line is whole JSON; the rows, as the screens left them,
	// hold every x once the last echo is in.
	rows := map[int]string{}
	count := func() int {
		n := 0
		for _, text := range rows {
			n += strings.Count(stripSGRText(text), "x")
		}
		return n
	}
	st.until("every echo", func(l line) bool {
		if l.typ == "" {
			t.Fatalf("a broken line: %q", l.raw)
		}
		if l.typ != "screen" {
			return false
		}
		var sc proto.AttachScreen
		if err := json.Unmarshal(l.raw, &sc); err != nil {
			t.Fatalf("a broken screen line: %v %q", err, l.raw)
		}
		if sc.Window != id {
			return false
		}
		if sc.Full {
			clear(rows)
		}
		for _, ln := range sc.Lines {
			rows[ln.Y] = ln.Text
		}
		return count() == keys
	})
}

// The same with frames bigger than the connection's buffer, more of them
// than the socket takes: each key scrolls the whole screen of a cat, and
// the client reads only once the last key is typed (well within the 10 s
// a client may take).
func TestScrollingEchoesToAClientThatReadsLateArriveWhole(t *testing.T) {
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "c", "argv": []string{"/bin/cat"}})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "c", "cols": 200, "rows": 50})
	st.until("the first screen", func(l line) bool { return l.typ == "screen" })
	calls := dialRPC(t, sock)
	const keys = 40
	for i := 1; i <= keys; i++ {
		// One line at a time, each read by the daemon before the next
		// is typed: small reads, each a frame of the whole screen.
		calls.send(quietText("-1", id, strings.Repeat("y", 190)+strconv.Itoa(i)+"\r", ""))
		r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "y{190}" + strconv.Itoa(i) + `\s+y{190}` + strconv.Itoa(i), "timeout": 10000})
	}
	last := strconv.Itoa(keys)
	rows := map[int]string{}
	st.until("the last line twice", func(l line) bool {
		if l.typ == "" {
			t.Fatalf("a broken line: %q", l.raw)
		}
		if l.typ != "screen" {
			return false
		}
		var sc proto.AttachScreen
		if err := json.Unmarshal(l.raw, &sc); err != nil {
			t.Fatalf("a broken screen line: %v %q", err, l.raw)
		}
		if sc.Full {
			clear(rows)
		}
		for _, ln := range sc.Lines {
			rows[ln.Y] = stripSGRText(ln.Text)
		}
		n := 0
		for _, text := range rows {
			if strings.TrimSpace(text) == strings.Repeat("y", 190)+last {
				n++
			}
		}
		return n == 2 // typed, and cat's copy
	})
}
