package tui_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tuios/tuios/vt"
)

// Copy, paste and the keys learnt from inside, in a real terminal: the
// client runs in a tmux of its own with set-clipboard on, so an OSC 52
// the client writes lands in that tmux's paste buffers (show-buffer).

// clipboardWorld is a world whose outer tmux takes OSC 52, with the
// client attached to session s in tmux session c.
//
// The client runs with CLICOLOR_FORCE=1: until the renderer reads its
// colour profile from the real terminal (issue 25, item 1) that is what
// lets reverse video through, and these tests look at the selection.
func clipboardWorld(t *testing.T) *world {
	w := newWorld(t)
	w.ok("new", "--detach", "s")
	w.start("c", "CLICOLOR_FORCE=1 "+w.bin+" attach -t s")
	if out, err := w.tmuxRun("set", "-g", "set-clipboard", "on"); err != nil {
		t.Fatalf("set-clipboard: %v %s", err, out)
	}
	w.waitFor("c", `\[s\] 1\*`)
	return w
}

// waitBuffer polls the outer tmux's newest paste buffer until it is want.
func (w *world) waitBuffer(want string) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := w.tmuxRun("show-buffer")
		if out == want {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the outer terminal's buffer is %q, want %q", out, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFile polls a file until its content is want.
func (w *world) waitFile(path, want string) {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if string(b) == want {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s holds %q, want %q", filepath.Base(path), b, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cellOf is the 1-based cell where text first shows on the screen.
func cellOf(t *testing.T, screen, text string) (x, y int) {
	t.Helper()
	for i, line := range strings.Split(screen, "\n") {
		if at := strings.Index(line, text); at >= 0 {
			return utf8.RuneCountInString(line[:at]) + 1, i + 1
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", text, screen)
	return 0, 0
}

// drag presses the left button at (x0, y), drags to x1 and releases, as
// SGR mouse reports from the terminal; shift holds shift throughout.
func (w *world) drag(target string, x0, x1, y int, shift bool) {
	w.t.Helper()
	b := 0
	if shift {
		b = 4
	}
	n := strconv.Itoa
	w.keys(target, "-l", "\x1b[<"+n(b)+";"+n(x0)+";"+n(y)+"M"+
		"\x1b[<"+n(b+32)+";"+n(x1)+";"+n(y)+"M"+
		"\x1b[<"+n(b)+";"+n(x1)+";"+n(y)+"m")
}

// Copy mode: PgUp moves a whole page the first time and every time;
// v, a move and y copy through OSC 52 to the outer terminal.
func TestAttachCopyModePagesAndClipboard(t *testing.T) {
	t.Parallel()
	w := clipboardWorld(t)
	w.keys("c", "for i in $(seq 1 200); do echo row-$i; done", "Enter")
	w.waitFor("c", `(?m)│row-200\s*$`)
	w.keys("c", "C-b", "[")
	w.waitFor("c", `copy mode:`)
	w.waitFor("c", `(?m)│row-200\s*$`)
	firstRow := func() int {
		// The tile's first history row is the screen's second.
		line := strings.Split(w.screen("c"), "\n")[1]
		m := regexp.MustCompile(`│row-(\d+)`).FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no row on the first line: %q", line)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	top := firstRow()
	// 30 rows: the dock and the title bar leave 28 for the history.
	for page := 1; page <= 2; page++ {
		w.keys("c", "PPage")
		w.waitFor("c", `(?m)^.{23}│row-`+strconv.Itoa(top-28*page)+`\s`)
	}
	w.keys("c", "/", "row-150", "Enter")
	w.keys("c", "v", "j", "$")
	// The selection is drawn in reverse video, cell for cell.
	w.waitSelected("c", 120, 30, "row-150", "row-151")
	w.keys("c", "y")
	w.waitFor("c", `copied 2 lines`)
	w.waitBuffer("row-150\nrow-151")
	if s := w.screen("c"); strings.Contains(s, "copy mode:") {
		t.Errorf("y did not leave copy mode:\n%s", s)
	}
}

// prefix ] types what was copied into the pane: bracketed for a program
// that asked for bracketed paste, plain otherwise, as the program reads it.
func TestAttachPasteBracketedAndNot(t *testing.T) {
	t.Parallel()
	w := clipboardWorld(t)
	w.keys("c", "echo paste-me", "Enter")
	s := w.waitFor("c", `(?m)│paste-me\s*$`)
	x, y := cellOf(t, s, "│paste-me")
	w.drag("c", x+1, x+8, y, false)
	w.waitBuffer("paste-me")

	got := filepath.Join(w.dir, "got")
	w.keys("c", `printf '\033[?2004h'; echo ready-b; head -n 1 > `+got+`.b; printf '\033[?2004l'`, "Enter")
	// ready-X at a line's end is echo's output (the typed line has "; "
	// after it), wherever the prompt put it: a line typed before the
	// last command's prompt came back prints as "$ ready-X".
	w.waitFor("c", `(?m)ready-b\s*$`)
	w.keys("c", "C-b", "]")
	w.keys("c", "Enter")
	w.waitFile(got+".b", "\x1b[200~paste-me\x1b[201~\n")

	w.keys("c", `echo ready-p; head -n 1 > `+got+`.p`, "Enter")
	w.waitFor("c", `(?m)ready-p\s*$`)
	w.keys("c", "C-b", "]")
	w.keys("c", "Enter")
	w.waitFile(got+".p", "paste-me\n")
}

// A drag over a pane's text selects and copies it; over a program that
// asked for the mouse the drag is the program's, and shift+drag is the
// person's selection, which the program never sees.
func TestAttachMouseSelectionAndShift(t *testing.T) {
	t.Parallel()
	w := clipboardWorld(t)
	w.keys("c", "echo pick-this-text", "Enter")
	s := w.waitFor("c", `(?m)│pick-this-text\s*$`)
	x, y := cellOf(t, s, "│pick-this-text")
	w.drag("c", x+1, x+14, y, false)
	w.waitFor("c", `copied 14 characters`)
	w.waitBuffer("pick-this-text")
	w.waitSelected("c", 120, 30, "pick-this-text") // drawn until the next key
	w.keys("c", "Escape")
	w.waitCells("c", 120, 30, "the selection gone", func(sc *vt.Screen) bool {
		for y := 0; y < 30; y++ {
			if x := findText(sc, y, "pick-this-text"); x >= 0 && sc.Cell(x, y).Style.Attrs&vt.AttrReverse == 0 {
				return true
			}
		}
		return false
	})

	out := filepath.Join(w.dir, "mouse")
	// The terminal modes come first, then the text: once the text shows,
	// the client knows the program asked for the mouse.
	w.keys("c", `clear; stty -icanon -echo; printf '\033[?1000h\033[?1006hunder-the-mouse\n'; cat > `+out, "Enter")
	s = w.waitFor("c", `(?m)│under-the-mouse\s*$`)
	x, y = cellOf(t, s, "│under-the-mouse")
	// A plain drag: the program gets the press and the release (mode
	// 1000 reports no motion); the terminal's buffer stays.
	w.drag("c", x+1, x+5, y, false)
	press := "\x1b[<0;1;" + strconv.Itoa(y-1) + "M\x1b[<0;5;" + strconv.Itoa(y-1) + "m"
	w.waitFile(out, press)
	w.waitBuffer("pick-this-text")

	// shift+drag: the person's selection.
	w.drag("c", x+1, x+9, y, true)
	w.waitBuffer("under-the")
	w.waitSelected("c", 120, 30, "under-the") // just the cells dragged over
	// The program saw none of it: a plain click after it is the next
	// thing it reads.
	w.drag("c", x+2, x+2, y, false)
	w.waitFile(out, press+"\x1b[<0;2;"+strconv.Itoa(y-1)+"M\x1b[<0;2;"+strconv.Itoa(y-1)+"m")
}

// Learnable from inside: the hint after the prefix, prefix ? with a key
// rebound in the config file, the rail off then toggled, % and " split,
// an empty workspace that says how to open a window, attach --help.
func TestAttachLearnableFromInside(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conf := filepath.Join(w.dir, "home", ".config", "tuios")
	os.MkdirAll(conf, 0o700)
	os.WriteFile(filepath.Join(conf, "config.toml"), []byte("[keybindings]\nzoom = \"Z\"\n[ui]\nrail = \"off\"\n"), 0o600)
	w.ok("new", "--detach", "s")
	w.start("c", w.bin+" attach -t s")
	s := w.waitFor("c", `\[s\] 1\*`)
	w.waitFor("c", `(?m)^ 0:\S`) // the rail is off: the tile starts at the left edge
	if strings.Contains(s, "Sessions") {
		t.Errorf("rail = off drew the rail:\n%s", s)
	}
	w.seeAgent("c", "s") // the help lists the agents' keys once an agent has been seen

	w.keys("c", "C-b")
	w.waitFor("c", `(?m)^\[s\] 1\*  ctrl\+b:  c new  % " split  n next  Z zoom  x close .*\? help\s*$`)
	w.keys("c", "?")
	w.waitFor("c", `Z\s+zoom the focused window \(again to unzoom\)\s+\[keybindings\] zoom`)
	w.waitFor("c", `Window mode: after the prefix, ctrl\+b`)
	w.keys("c", "G")
	w.waitFor("c", `an agent row: review its changes`)
	w.keys("c", "q")
	w.waitGone("c", `Window mode`)

	w.keys("c", "C-b", "b")
	w.waitFor("c", `(?m)^ Sessions`)
	w.keys("c", "C-b", "b")
	w.waitGone("c", `Sessions`)

	w.keys("c", "C-b", "%")
	w.waitFor("c", `(?m)^ 0:\S.* 1:\S`) // side by side: two title bars on the first row
	w.keys("c", "C-b", `"`)
	w.waitFor("c", `(?m)^ {60,}├ 2:\S`) // the third one, under the second on the right (├: its title bar joins the border)
	if out := w.ok("list-windows", "-s", "s"); strings.Count(out, "\n") < 4 {
		t.Errorf("after %% and \": %s", out)
	}

	w.keys("c", "C-b", "3")
	w.waitFor("c", `No windows in this workspace\.`)
	w.waitFor("c", `ctrl\+b c  open a window here`)
	w.waitFor("c", `ctrl\+b 1  workspace 1 \(3 windows\)`)

	help := w.ok("attach", "--help")
	if !regexp.MustCompile(`(?m)^\s+Z\s+zoom the focused window`).MatchString(help) || !strings.Contains(help, "[keybindings.copy] page-up") {
		t.Errorf("attach --help:\n%s", help)
	}
	w.detach("c")
}
