package daemon

import (
	"bufio"
	"encoding/json"
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
)

// stream is the client end of an attach stream.
type stream struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

// attachStreamT sends attach with stream:true and returns the stream after
// its attached reply.
func attachStreamT(t testing.TB, sock string, params map[string]any) (*stream, map[string]any) {
	t.Helper()
	r := dialRPC(t, sock)
	params["stream"] = true
	res := r.must("attach", params)
	return &stream{t: t, c: r.c, r: r.r}, res
}

// line is one stream line with its type.
type line struct {
	typ string
	raw []byte
}

func (s *stream) next() line {
	s.t.Helper()
	s.c.SetReadDeadline(time.Now().Add(guard))
	b, err := proto.ReadLine(s.r, proto.MaxLine)
	if err != nil {
		s.t.Fatalf("stream: no line: %v", err)
	}
	var h struct {
		Type string `json:"type"`
	}
	json.Unmarshal(b, &h)
	return line{h.Type, append([]byte(nil), b...)}
}

// until reads lines until match accepts one, failing after the guard.
func (s *stream) until(what string, match func(l line) bool) line {
	s.t.Helper()
	deadline := time.Now().Add(guard)
	for time.Now().Before(deadline) {
		if l := s.next(); match(l) {
			return l
		}
	}
	s.t.Fatalf("the stream never sent %s", what)
	return line{}
}

func layoutOf(t testing.TB, l line) proto.AttachLayout {
	t.Helper()
	var lay proto.AttachLayout
	if err := json.Unmarshal(l.raw, &lay); err != nil || lay.Type != "layout" {
		t.Fatalf("not a layout: %s", l.raw)
	}
	return lay
}

func screenOf(t testing.TB, l line) proto.AttachScreen {
	t.Helper()
	var sc proto.AttachScreen
	if err := json.Unmarshal(l.raw, &sc); err != nil || sc.Type != "screen" {
		t.Fatalf("not a screen: %s", l.raw)
	}
	return sc
}

func (s *stream) screenOf(window string, match func(sc proto.AttachScreen) bool) proto.AttachScreen {
	s.t.Helper()
	var out proto.AttachScreen
	s.until("a screen of "+window, func(l line) bool {
		if l.typ != "screen" {
			return false
		}
		out = screenOf(s.t, l)
		return out.Window == window && match(out)
	})
	return out
}

func linesText(sc proto.AttachScreen) string {
	var b strings.Builder
	for _, l := range sc.Lines {
		b.WriteString(stripSGRText(l.Text))
		b.WriteByte('\n')
	}
	return b.String()
}

func stripSGRText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// sttySize runs stty size in a pane and waits for "rows cols".
func sttySize(t *testing.T, r *rpc, window string, rows, cols int) {
	t.Helper()
	tag := "sz" + strconv.FormatInt(time.Now().UnixNano(), 36) // an old answer never matches
	r.must("send-text", map[string]any{"window": window, "text": "echo " + tag + " $(stty size)\n"})
	r.must("wait-for", map[string]any{"window": window, "condition": "window-output", "pattern": tag + " " + strconv.Itoa(rows) + " " + strconv.Itoa(cols), "timeout": 10000})
}

func windowsOf(t *testing.T, r *rpc, session string) []windowRow {
	t.Helper()
	var out struct {
		Windows []windowRow `json:"windows"`
	}
	remarshalT(t, r.must("list-windows", map[string]any{"session": session}), &out)
	return out.Windows
}

func TestResizeRetilesAndSizesThePTYs(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "t"})["window_id"])
	ws := windowsOf(t, r, "t")
	if w := ws[0]; w.X != 0 || w.Y != 0 || w.Width != 80 || w.Height != 24 {
		t.Fatalf("a session nobody showed keeps its pane at the whole 80x24: %+v", w)
	}
	sttySize(t, r, a, 24, 80)
	r.must("new-window", map[string]any{"session": "t", "argv": []string{"/bin/cat"}, "workspace": 2, "no_focus": true})
	sttySize(t, r, a, 24, 80) // untiled: another window takes no room

	res := r.must("resize", map[string]any{"session": "t", "cols": 101, "rows": 31})
	if res["type"] != "resized" || res["cols"] != 101.0 || res["rows"] != 31.0 || res["session"] != "t" {
		t.Fatalf("resize answered %v", res)
	}
	sttySize(t, r, a, 30, 101)

	nw := r.must("new-window", map[string]any{"session": "t"})
	b := str(nw["window_id"])
	if nw["unplaced"] != false || nw["width"] != 50.0 || nw["height"] != 30.0 {
		t.Fatalf("a new window is placed at once: %v", nw)
	}
	ws = windowsOf(t, r, "t")
	// A column between them for the border: each PTY is the cells its
	// pane is drawn in.
	if ws[0].X != 0 || ws[0].Width != 50 || ws[0].Height != 31 || ws[2].X != 51 || ws[2].Width != 50 || ws[2].Height != 31 ||
		ws[1].Width != 80 || ws[1].Height != 24 { // off screen: keeps its size
		t.Fatalf("two windows side by side: %+v", ws)
	}
	sttySize(t, r, a, 30, 50)
	sttySize(t, r, b, 30, 50)

	r.must("set-window", map[string]any{"window": b, "minimize": true})
	sttySize(t, r, a, 30, 101)

	for _, bad := range []map[string]any{{"cols": 0, "rows": 10}, {"cols": 5000, "rows": 10}, {"cols": 10}, {"cols": 10, "rows": 1001}} {
		if _, err := r.call("resize", bad); err == nil || err.Code != proto.CodeInvalidParams {
			t.Fatalf("resize %v: %+v", bad, err)
		}
	}
	if _, err := r.call("resize", map[string]any{"session": "nope", "cols": 10, "rows": 10}); err == nil || err.Code != proto.CodeSessionNotFound {
		t.Fatalf("resize of a missing session: %+v", err)
	}
}

func TestAttachStreamSendsLayoutThenChangedRows(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "s"})["window_id"])
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `\$`, "timeout": 10000})

	st, res := attachStreamT(t, sock, map[string]any{"session": "s", "cols": 60, "rows": 20})
	if res["type"] != "attached" || res["human_nonce"] == "" || res["session"] != "s" || res["stream"] != true || res["cols"] != 60.0 {
		t.Fatalf("attached: %v", res)
	}
	first := st.next()
	lay := layoutOf(t, first)
	if lay.Session != "s" || lay.Cols != 60 || lay.Rows != 20 || lay.Workspace != 1 || lay.Focused != id || len(lay.Windows) != 1 ||
		len(lay.Workspaces) != 9 || len(lay.Sessions) != 1 || !lay.Sessions[0].Current || lay.Workspaces[0].Windows != 1 {
		t.Fatalf("first layout: %s", first.raw)
	}
	if w := lay.Windows[0]; w.ID != id || w.X != 0 || w.Y != 0 || w.Width != 60 || w.Height != 20 {
		t.Fatalf("the one window fills the area: %+v", w)
	}
	sc := st.screenOf(id, func(sc proto.AttachScreen) bool { return sc.Full })
	if sc.Cols != 60 || sc.Rows != 19 || len(sc.Lines) != 19 || !strings.Contains(linesText(sc), "$") {
		t.Fatalf("first screen: %+v", sc)
	}
	for _, l := range sc.Lines {
		if got := len([]rune(stripSGRText(l.Text))); got != 60 {
			t.Fatalf("row %d draws %d cells, not 60: %q", l.Y, got, l.Text)
		}
	}

	r.must("send-text", map[string]any{"window": id, "text": "echo typed_here"})
	sc = st.screenOf(id, func(sc proto.AttachScreen) bool { return strings.Contains(linesText(sc), "echo typed_here") })
	if sc.Full || len(sc.Lines) != 1 || sc.Cursor.X < len("$ echo typed_here") {
		t.Fatalf("typing must send only its row: %+v", sc)
	}

	// A request on the stream is refused; the stream goes on.
	st.c.Write([]byte(`{"id":7,"verb":"list-sessions"}` + "\n"))
	st.until("the refusal", func(l line) bool {
		return l.typ == "" && strings.Contains(string(l.raw), proto.CodeInvalidRequest) && strings.Contains(string(l.raw), `"id":7`)
	})

	// A bell rings through, and the layout follows a new window.
	r.must("send-text", map[string]any{"window": id, "text": "\nprintf '\\a\\033]9;hello there\\007'\n"})
	st.until("the BEL", func(l line) bool {
		return l.typ == "bell" && strings.Contains(string(l.raw), id) && !strings.Contains(string(l.raw), "text")
	})
	st.until("the notification", func(l line) bool { return l.typ == "bell" && strings.Contains(string(l.raw), "hello there") })
	b := str(r.must("new-window", map[string]any{"session": "s"})["window_id"])
	st.until("a layout of two", func(l line) bool { return l.typ == "layout" && len(layoutOf(t, l).Windows) == 2 })
	st.screenOf(b, func(sc proto.AttachScreen) bool { return sc.Full && sc.Cols == 29 }) // 60 = 30 | border | 29

	r.must("kill-session", map[string]any{"session": "s"})
	end := st.until("the end", func(l line) bool { return l.typ == "detached" })
	if !strings.Contains(string(end.raw), `"reason":"session-closed"`) {
		t.Fatalf("end: %s", end.raw)
	}
}

func TestAttachStreamZoom(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	a := str(r.must("new-session", map[string]any{"name": "z", "cols": 100, "rows": 30})["window_id"])
	b := str(r.must("new-window", map[string]any{"session": "z"})["window_id"])
	c := str(r.must("new-window", map[string]any{"session": "z"})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "z"})
	lay := layoutOf(t, st.next())
	if len(lay.Windows) != 3 || lay.Windows[0].ID != a || lay.Windows[0].Width != 50 || lay.Windows[1].Height != 15 || lay.Focused != c {
		t.Fatalf("master and stack: %+v", lay)
	}
	r.must("run-command", map[string]any{"session": "z", "window": b, "command": "ToggleZoom"})
	l := st.until("a zoomed layout", func(l line) bool { return l.typ == "layout" && layoutOf(t, l).Zoomed })
	lay = layoutOf(t, l)
	if len(lay.Windows) != 1 || lay.Windows[0].ID != b || lay.Windows[0].Width != 100 || lay.Windows[0].Height != 30 || lay.Focused != b {
		t.Fatalf("zoomed: %s", l.raw)
	}
	sttySize(t, r, b, 29, 100)
	if info := r.must("session-info", map[string]any{"session": "z"}); info["zoomed"] != true {
		t.Fatalf("session-info: %v", info)
	}
	// Focus moves the zoom.
	r.must("focus-window", map[string]any{"window": a})
	st.until("the zoom on the newly focused window", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		return len(lay.Windows) == 1 && lay.Windows[0].ID == a
	})
	sttySize(t, r, a, 29, 100)
	r.must("run-command", map[string]any{"session": "z", "command": "ToggleZoom"})
	st.until("the tiles again", func(l line) bool { return l.typ == "layout" && len(layoutOf(t, l).Windows) == 3 })
	sttySize(t, r, a, 29, 50)
}

func TestAttachStreamBadInput(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	if _, err := r.call("attach", map[string]any{"stream": true}); err == nil || err.Code != proto.CodeSessionNotFound {
		t.Fatalf("a stream with no session at all: %+v", err)
	}
	r.must("new-session", map[string]any{"name": "x", "argv": []string{"/bin/cat"}})
	for _, c := range []struct {
		params map[string]any
		code   string
	}{
		{map[string]any{"stream": true, "session": "nope"}, proto.CodeSessionNotFound},
		{map[string]any{"stream": true, "cols": 0}, proto.CodeInvalidParams},
		{map[string]any{"stream": true, "cols": 5000}, proto.CodeInvalidParams},
		{map[string]any{"stream": true, "rows": -1}, proto.CodeInvalidParams},
		{map[string]any{"stream": true, "cols": "wide"}, proto.CodeInvalidParams},
	} {
		if _, err := r.call("attach", c.params); err == nil || err.Code != c.code {
			t.Fatalf("attach %v: %+v, want %s", c.params, err, c.code)
		}
	}
	// Nothing changed, and a plain attach still works without a session.
	if info := r.must("session-info", map[string]any{"session": "x"}); info["width"] != 80.0 || info["height"] != 24.0 {
		t.Fatalf("a refused attach changed the area: %v", info)
	}
	if res := r.must("attach", map[string]any{"client": "c"}); res["human_nonce"] == "" || res["stream"] != nil {
		t.Fatalf("plain attach: %v", res)
	}
}

func TestAttachStreamEndsWhenTheDaemonStops(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "q", "argv": []string{"/bin/cat"}})
	st, _ := attachStreamT(t, sock, map[string]any{})
	st.until("the layout", func(l line) bool { return l.typ == "layout" })
	go srv.Close()
	end := st.until("the end", func(l line) bool { return l.typ == "detached" })
	if !strings.Contains(string(end.raw), `"reason":"server-stopped"`) {
		t.Fatalf("end: %s", end.raw)
	}
}

// A client that half-closes its side is detached with a last line.
func TestAttachStreamDetachOnHalfClose(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "h", "argv": []string{"/bin/cat"}})
	st, _ := attachStreamT(t, sock, map[string]any{"session": "h"})
	st.until("the layout", func(l line) bool { return l.typ == "layout" })
	st.c.(*net.UnixConn).CloseWrite()
	end := st.until("the end", func(l line) bool { return l.typ == "detached" })
	if !strings.Contains(string(end.raw), `"reason":"detached"`) {
		t.Fatalf("end: %s", end.raw)
	}
}

// A pane that floods output while the client does not read: the pane
// keeps running, other windows answer, memory stays bounded, and the
// client then gets few frames (at most one per tick), not a backlog.
func TestAttachStreamAFloodingPaneWithASlowClient(t *testing.T) {
	srv, sock := server(t)
	// The client stops reading until the flood is over, which on a
	// loaded machine can take longer than the 10 s after which a client
	// that does not read is dropped (TestAttachStreamDropsAClientThatDoesNotRead).
	srv.attach.writeWait.Store(int64(2 * guard))
	r := dialRPC(t, sock)
	quiet := str(r.must("new-session", map[string]any{"name": "f"})["window_id"])
	flood := str(r.must("new-window", map[string]any{"session": "f", "argv": []string{"/bin/sh", "-c",
		"head -c 4000000 /dev/urandom | od -An -tx1 -v; echo flood''_done; sleep 300"}})["window_id"])
	start := time.Now()
	st, _ := attachStreamT(t, sock, map[string]any{"session": "f", "cols": 300, "rows": 80}) // big frames: the socket fills
	st.until("the layout", func(l line) bool { return l.typ == "layout" })

	// Not reading now. The flood goes on, and the rest of the daemon answers.
	o := dialRPC(t, sock)
	r.must("wait-for", map[string]any{"window": flood, "condition": "window-output", "pattern": "flood_done", "timeout": 60000})
	o.must("send-text", map[string]any{"window": quiet, "text": "echo other_ok\n"})
	o.must("wait-for", map[string]any{"window": quiet, "condition": "window-output", "pattern": "other_ok", "timeout": 10000})
	o.must("list-windows", map[string]any{"session": "f"})
	o.must("list-agents", map[string]any{"all": true})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 256<<20 {
		t.Fatalf("the daemon holds %d MiB after a flood to a client that did not read", ms.HeapAlloc>>20)
	}

	// Reading again: the last frame shows the end of the flood.
	frames := 0
	st.until("the flood's end", func(l line) bool {
		if l.typ != "screen" {
			return false
		}
		sc := screenOf(t, l)
		if sc.Window != flood {
			return false
		}
		frames++
		return strings.Contains(linesText(sc), "flood_done")
	})
	elapsed := time.Since(start)
	// Every frame after the first waits out a tick: a backlog would show
	// as more frames than ticks.
	if most := 2 + int(elapsed/attachTick); frames > most {
		t.Fatalf("%d frames of the flooding pane in %v (at most %d ticks)", frames, elapsed, most)
	}
	t.Logf("%d frames of the flooding pane in %v", frames, elapsed)
}

// A client that stops reading while its pane floods is dropped once a
// frame has waited the write timeout, and the daemon goes on answering.
func TestAttachStreamDropsAClientThatDoesNotRead(t *testing.T) {
	t.Parallel()
	srv, sock := server(t)
	srv.attach.writeWait.Store(int64(300 * time.Millisecond))
	r := dialRPC(t, sock)
	r.must("new-session", map[string]any{"name": "f", "argv": []string{"/bin/sh", "-c",
		"while :; do od -An -tx1 -N 65536 /dev/urandom; done"}})
	st, _ := attachStreamT(t, sock, map[string]any{"session": "f", "cols": 300, "rows": 80})
	st.until("the layout", func(l line) bool { return l.typ == "layout" })
	eventually(t, "the stream is dropped", func() bool { return srv.attach.n.Load() == 0 })
	// What the socket held is read, then the end (perhaps in the middle
	// of a line the deadline cut).
	st.c.SetReadDeadline(time.Now().Add(guard))
	for {
		_, err := proto.ReadLine(st.r, proto.MaxLine)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("the dropped stream's connection stays open")
		}
		if err != nil {
			break
		}
	}
	r.must("list-windows", map[string]any{"session": "f"})
}

// No timer ticks for an idle stream: it sends nothing at all.
func TestAttachStreamIsSilentWhenIdle(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "i", "argv": []string{"/bin/cat"}})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "i"})
	st.screenOf(id, func(sc proto.AttachScreen) bool { return sc.Full })
	st.c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if b, err := st.r.ReadBytes('\n'); err == nil {
		t.Fatalf("an idle stream sent %s", b)
	}
}

// BenchmarkAttachScreen builds one screen message for a 200x50 pane whose
// every row changed (the busy case), JSON included.
func BenchmarkAttachScreen(b *testing.B) {
	tr := detect.NewTracker(detect.TrackerOptions{StallAfter: -1, DetectInterval: -1})
	defer tr.Close()
	var wins [2]*mux.Window
	for i := range wins {
		p := tr.Attach("pane"+strconv.Itoa(i), detect.PaneOptions{Cols: 200, Rows: 50})
		var sb strings.Builder
		for y := 0; y < 50; y++ {
			for x := 0; x < 20; x++ {
				sb.WriteString("\x1b[3" + strconv.Itoa((x+y+i)%8) + "mword" + strconv.Itoa(i) + "ab ")
			}
			if y < 49 {
				sb.WriteString("\r\n")
			}
		}
		p.Write([]byte(sb.String()))
		wins[i] = mux.ScreenOnly("w", p)
	}
	st := newAttachStream(nil, nil, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, ok := st.screen(wins[i%2]) // alternating: every row differs
		if !ok {
			b.Fatal("no change")
		}
		st.out.Reset()
		st.out.Write(proto.AppendAttachScreen(st.out.AvailableBuffer(), &msg))
	}
	b.SetBytes(int64(st.out.Len()))
}
