package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 25: a session narrowed to 80 columns and widened back to 160 (what
// a client's resize does) must not cut the lines capture-pane returns. A
// real shell prints a 150-column line and a numbered prompt longer than 80
// columns; at 80 columns they wrap, at 160 they are whole again, on the
// screen and in the history.
func TestCapturePaneKeepsLinesWholeAcrossAResize(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "rf"})["window_id"])
	r.must("resize", map[string]any{"session": "rf", "cols": 160, "rows": 25}) // one window: 24 rows under its title
	sttySize(t, r, id, 24, 160)

	long := "line-with-a-long-tail-" + strings.Repeat("0123456789abcdef", 8) // 150 columns
	prompt := "  2. No, and tell the agent what to do differently, then go on with the plan (esc)"
	// The shell prints them from a file, so the typed command holds neither.
	file := filepath.Join(t.TempDir(), "lines")
	if err := os.WriteFile(file, []byte("  1. Yes\n"+long+"\n"+prompt+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.must("send-text", map[string]any{"window": id, "text": "clear; cat " + file + "\n"})
	r.must("wait-for", map[string]any{"window": id, "condition": "window-output", "pattern": `(?m)^  2\. No, and tell.*\(esc\)$`, "timeout": 10000})

	capture := func(scrollback bool) []string {
		t.Helper()
		c := str(r.must("capture-pane", map[string]any{"window": id, "scrollback": scrollback})["content"])
		return strings.Split(c, "\n")
	}
	has := func(lines []string, want string) bool {
		for _, l := range lines {
			if l == want {
				return true
			}
		}
		return false
	}

	r.must("resize", map[string]any{"session": "rf", "cols": 80, "rows": 25})
	sttySize(t, r, id, 24, 80)
	if vis := capture(false); !has(vis, long[:80]) || !has(vis, long[80:]) || !has(vis, prompt[:80]) || !has(vis, prompt[80:]) {
		t.Fatalf("at 80 columns the lines must wrap at 80:\n%s", strings.Join(vis, "\n"))
	}

	r.must("resize", map[string]any{"session": "rf", "cols": 160, "rows": 25})
	sttySize(t, r, id, 24, 160)
	for _, scrollback := range []bool{false, true} {
		got := capture(scrollback)
		if !has(got, long) || !has(got, prompt) || !has(got, "  1. Yes") {
			t.Fatalf("back at 160 columns (scrollback %v) capture-pane cut the lines:\n%s", scrollback, strings.Join(got, "\n"))
		}
	}

	// Narrower than the prompt's words and back, twice over: still whole.
	for _, cols := range []int{23, 160, 41, 160} {
		r.must("resize", map[string]any{"session": "rf", "cols": cols, "rows": 25})
		sttySize(t, r, id, 24, cols)
	}
	if got := capture(true); !has(got, long) || !has(got, prompt) {
		t.Fatalf("after more resizes capture-pane cut the lines:\n%s", strings.Join(got, "\n"))
	}
}
