package daemon

import (
	"strings"
	"testing"
)

// The visible capture is the pane's full height: it ends in the blank
// rows below the cursor. History and --lines keep counting from the last
// line with content.
func TestCaptureVisibleIsThePanesHeight(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "c"})["window_id"])
	r.must("send-text", map[string]any{"window": id, "text": "clear; echo q$((1+0)); echo q$((1+1))\n"})
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": "(?m)^q2$", "timeout": 10000})
	check := func(rows int) {
		t.Helper()
		var vis string
		eventually(t, "the prompt after q2", func() bool {
			vis = str(r.must("capture-pane", map[string]any{"window": id})["content"])
			return strings.Contains(vis, "q2\n$")
		})
		lines := strings.Split(vis, "\n")
		if len(lines) != rows {
			t.Fatalf("visible capture has %d rows, the pane %d:\n%q", len(lines), rows, vis)
		}
		if lines[0] != "q1" || lines[1] != "q2" || strings.TrimSpace(lines[rows-1]) != "" {
			t.Fatalf("rows: %q", lines)
		}
		ansi := str(r.must("capture-pane", map[string]any{"window": id, "ansi": true})["content"])
		if n := strings.Count(ansi, "\n") + 1; n != rows {
			t.Fatalf("--ansi visible capture has %d rows, the pane %d", n, rows)
		}
		for _, p := range []map[string]any{{"window": id, "scrollback": true}, {"window": id, "lines": 5}} {
			c := str(r.must("capture-pane", p)["content"])
			if strings.HasSuffix(c, "\n") || strings.Count(c, "\n") > 4 {
				t.Fatalf("capture %v keeps the trailing blank rows:\n%q", p, c)
			}
		}
	}
	check(24)
	r.must("resize", map[string]any{"session": "c", "cols": 70, "rows": 14}) // one window: 13 rows under its title
	sttySize(t, r, id, 13, 70)
	r.must("send-text", map[string]any{"window": id, "text": "clear; echo q$((1+0)); echo q$((1+1))\n"})
	check(13)
}
