package daemon

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/vt"
)

func TestScreenshotGridHasEveryRowAndBoundedHistory(t *testing.T) {
	t.Parallel()
	sc := vt.New(vt.Options{Cols: 20, Rows: 5})
	for i := range 30 {
		fmt.Fprintf(sc, "\x1b[3%dmline %d\x1b[0m\r\n", i%8, i)
	}
	sc.Write([]byte("$ "))
	cols, rows, hist, content := styledGrid(sc, false, 500)
	lines := strings.Split(content, "\n")
	if cols != 20 || rows != 5 || hist != 0 || len(lines) != 5 {
		t.Fatalf("screen: %dx%d hist %d, %d lines:\n%q", cols, rows, hist, len(lines), content)
	}
	if !strings.Contains(lines[0], "\x1b[") || !strings.Contains(lines[3], "line 29") || lines[4] != "$" { // the prompt's trailing blank is trimmed, as capture-pane -e does
		t.Errorf("screen rows lost their styles or order:\n%q", content)
	}
	_, _, hist, content = styledGrid(sc, true, 10)
	lines = strings.Split(content, "\n")
	if hist != 10 || len(lines) != 15 || !strings.Contains(lines[0], "line 16") || !strings.Contains(lines[9], "line 25") {
		t.Errorf("history: %d lines (hist %d), want the last 10 history lines above 5 rows:\n%q", len(lines), hist, content)
	}
	// The alternate screen has no history: none is sent.
	sc.Write([]byte("\x1b[?1049h\x1b[Hfull screen"))
	_, _, hist, content = styledGrid(sc, true, 500)
	if lines = strings.Split(content, "\n"); hist != 0 || len(lines) != 5 || lines[0] != "full screen" {
		t.Errorf("alternate screen: hist %d, %q", hist, content)
	}
	// A nearly blank screen still gives every row.
	blank := vt.New(vt.Options{Cols: 10, Rows: 4})
	_, rows, hist, content = styledGrid(blank, true, 500)
	if rows != 4 || hist != 0 || content != "\n\n\n" {
		t.Errorf("blank screen: rows %d hist %d %q", rows, hist, content)
	}
}

// The verb reports the pane's own size, which after a client's resize is
// not the tile's (the title bar takes a row): the picture must be drawn at
// the grid's size.
func TestScreenshotVerbSizeAfterResize(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "c"})["window_id"])
	r.must("resize", map[string]any{"session": "c", "cols": 70, "rows": 14})
	sttySize(t, r, id, 13, 70)
	r.must("send-text", map[string]any{"window": id, "text": "clear; printf '\\033[31mred\\033[0m\\n'\n"})
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "(?m)^red$", "timeout": 10000})
	var res map[string]any
	eventually(t, "the red line on screen", func() bool {
		res = r.must("screenshot", map[string]any{"window": id})
		return strings.Contains(str(res["content"]), "\x1b[0;31mred\x1b[0m")
	})
	if res["type"] != "pane_screenshot" || res["cols"] != 70.0 || res["rows"] != 13.0 || res["history"] != 0.0 || res["session"] != "c" {
		t.Fatalf("screenshot: %v", res)
	}
	if n := strings.Count(str(res["content"]), "\n") + 1; n != 13 {
		t.Fatalf("%d rows of content, want 13", n)
	}
	if _, err := r.call("screenshot", map[string]any{"window": id, "scrollback": true, "history": 20000}); err == nil || err.Code != "invalid_params" {
		t.Fatalf("history over its bound: %v", err)
	}
}
