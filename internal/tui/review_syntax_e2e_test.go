package tui_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tuios/tuios/vt"
)

// textCell finds text on the outer screen: the column and row of its first
// cell, or -1, -1.
func textCell(sc *vt.Screen, cols, rows int, text string) (int, int) {
	for y := 0; y < rows; y++ {
		var row strings.Builder
		var at []int // the column of each byte of row
		for x := 0; x < cols; x++ {
			c := sc.Cell(x, y).Content
			for range len(c) {
				at = append(at, x)
			}
			row.WriteString(c)
		}
		if i := strings.Index(row.String(), text); i >= 0 {
			return at[i], y
		}
	}
	return -1, -1
}

// Seed 003, "Reviewing an agent's changes": the code is coloured by file
// type in the theme's colours (the terminal's palette): in a Go file the
// added line's keyword, string and comment each take their colour, and
// the rest of the line stays the added green; a .txt file stays plain.
func TestAttachReviewColoursCodeByFileType(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	repo := w.gitRepo("repo", map[string]string{"main.go": "package main\n"})
	os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n\nfunc retry() string { return \"again\" } // try once more\n"), 0o600)
	os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("func plain() { return \"text\" }\n"), 0o600)

	w.ok("new", "--detach", "s1")
	w.ok("new-window", "-s", "s1", "code", "--cwd", repo)
	w.waitFocused("s1", "code")
	const cols, rows = 140, 30
	w.startAt("c", cols, rows, "TERM=xterm-256color "+w.bin+" attach -t s1")
	w.waitFor("c", `\[s1\]`)
	w.keys("c", "C-b", "v")
	w.waitFor("c", `Review s1 code \S+  2 files`)
	w.waitFor("c", `func retry\(\) string \{ return "again" \} // try once more`)

	sc := w.waitCells("c", cols, rows, "the Go line coloured", func(sc *vt.Screen) bool {
		x, _ := textCell(sc, cols, rows, "func retry")
		return x >= 0
	})
	fg := func(text string) vt.Color {
		t.Helper()
		x, y := textCell(sc, cols, rows, text)
		if x < 0 {
			t.Fatalf("%q is not on the screen:\n%s", text, w.screen("c"))
		}
		return sc.Cell(x, y).Style.Fg
	}
	for _, c := range []struct {
		text string
		want vt.Color
	}{
		{"func retry", vt.IndexColor(5)},     // a keyword: magenta
		{`"again"`, vt.IndexColor(3)},        // a string: yellow
		{"// try once", vt.IndexColor(8)},    // a comment: bright black
		{"retry() string", vt.IndexColor(2)}, // the rest: the added line's green
	} {
		if got := fg(c.text); got != c.want {
			t.Errorf("%q is drawn in %v, want %v", c.text, got, c.want)
		}
	}

	// A file type it does not know is drawn in the line's colour alone.
	w.keys("c", "j")
	w.waitFor("c", `func plain\(\) \{ return "text" \}`)
	sc = w.outerCells("c", cols, rows)
	for _, text := range []string{"func plain", `"text"`} {
		if got := fg(text); got != vt.IndexColor(2) {
			t.Errorf("in notes.txt %q is drawn in %v, want the added green", text, got)
		}
	}
}
