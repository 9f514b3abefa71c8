package tui_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/tuios/tuios/vt"
)

// The drawing tests read the outer terminal as a person sees it: tmux is
// the outer terminal and capture-pane -e gives every cell's text, colour
// and attributes, which a vt.Screen turns back into cells.

// Corpus sizes: the tuios client at 104x30 shows one window's pane at
// 80x28 (a 24-column rail, a title row, a dock row); the inner tmux is
// given exactly that.
const (
	corpusCols, corpusRows = 80, 28
	clientCols, clientRows = corpusCols + 24, corpusRows + 2
)

// outerCells is what the outer tmux shows of target: cols x rows cells.
func (w *world) outerCells(target string, cols, rows int) *vt.Screen {
	w.t.Helper()
	out, err := w.tmuxRun("capture-pane", "-p", "-e", "-N", "-t", target)
	if err != nil {
		w.t.Fatalf("capture-pane: %v %s", err, out)
	}
	sc := vt.New(vt.Options{Cols: cols, Rows: rows})
	// The lines go in as one stream: capture-pane carries a style from
	// the end of a line to the next, as the terminal would.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	sc.Write([]byte(strings.Join(lines[:min(len(lines), rows)], "\r\n")))
	return sc
}

// sameCell compares two cells as a person sees them: text, colours and
// attributes, except what no terminal shows: on a blank that is neither
// reversed nor lined only the background shows (vim's and top's padded
// rows keep their text colour and bold in tmux, while a renderer that
// erases the rest of a row leaves default blanks), and the spelling of a
// colour: tmux sends an underline colour of the 256-colour palette as its
// RGB value, so a palette index is read as the standard palette's RGB
// before comparing.
func sameCell(a, b vt.Cell) bool {
	if a.Content != b.Content || a.Width != b.Width {
		return false
	}
	sa, sb := a.Style, b.Style
	const lined = vt.AttrReverse | vt.AttrUnderline | vt.AttrDoubleUnderline | vt.AttrCurlyUnderline |
		vt.AttrDottedUnderline | vt.AttrDashedUnderline | vt.AttrStrike
	if a.Content == " " && sa.Attrs&lined == 0 && sb.Attrs&lined == 0 {
		sa, sb = vt.Style{Bg: sa.Bg}, vt.Style{Bg: sb.Bg}
	}
	sa.Ul, sb.Ul = paletteRGB(sa.Ul), paletteRGB(sb.Ul)
	return sa == sb
}

// paletteRGB is a colour of the 256-colour palette's fixed part (16-255:
// the 6x6x6 cube and the grey ramp) as its standard RGB value; other
// colours are returned as they are.
func paletteRGB(c vt.Color) vt.Color {
	i, ok := c.Index()
	switch {
	case !ok || i < 16:
		return c
	case i < 232:
		i -= 16
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return vt.RGBColor(level(i/36), level(i/6%6), level(i%6))
	}
	g := 8 + 10*(i-232)
	return vt.RGBColor(g, g, g)
}

// compareRegions counts the cells of two rectangles of the same size that
// match in text, colour and attributes, and describes the first few that
// do not.
func compareRegions(a *vt.Screen, ax, ay int, b *vt.Screen, bx, by, cols, rows int) (match, strict, total int, diffs []string) {
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			ca, cb := a.Cell(ax+x, ay+y), b.Cell(bx+x, by+y)
			total++
			if ca == cb {
				strict++
			}
			if sameCell(ca, cb) {
				match++
				continue
			}
			if len(diffs) < 8 {
				diffs = append(diffs, fmt.Sprintf("(%d,%d) tuios %q %+v, tmux %q %+v", x, y, ca.Content, ca.Style, cb.Content, cb.Style))
			}
		}
	}
	return match, strict, total, diffs
}

// stableCapture waits until target shows want and stays the same for a
// moment, and returns what it shows.
func (w *world) stableCapture(target, want string) string {
	w.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	last, since := "", time.Now()
	for {
		out, _ := w.tmuxRun("capture-pane", "-p", "-e", "-N", "-t", target)
		if out != last {
			last, since = out, time.Now()
		} else if strings.Contains(out, want) && time.Since(since) >= 200*time.Millisecond {
			return out
		}
		if time.Now().After(deadline) {
			plain, _ := w.tmuxRun("capture-pane", "-p", "-t", target)
			w.t.Fatalf("%s: waiting for %q to show and settle; the screen:\n%s", target, want, plain)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// corpusFixture makes what the corpus's programs show: a directory for
// ls, a git repository with branches and a change, a Go file for vim, and
// a recording of top's screen (top's numbers change every second, so both
// terminals are given the same bytes).
func corpusFixture(t *testing.T, dir string, vars []string) {
	t.Helper()
	must := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(append([]string{}, vars...),
			"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@x",
			"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	write := func(name, text string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	// ls: a directory, an executable, a link, a broken link, a world-
	// writable directory, an archive.
	for _, d := range []string{"ls/docs", "ls/tmpdir"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.Chmod(filepath.Join(dir, "ls/tmpdir"), 0o1777)
	write("ls/run.sh", "#!/bin/sh\n", 0o755)
	write("ls/notes.txt", "notes\n", 0o644)
	write("ls/pack.tar.gz", "x", 0o644)
	os.Symlink("notes.txt", filepath.Join(dir, "ls/link"))
	os.Symlink("gone", filepath.Join(dir, "ls/broken"))

	// git: two branches merged, then an uncommitted change.
	write("repo/main.go", "package main\n\nfunc main() {\n\tprintln(\"one\")\n}\n", 0o644)
	gitIn := func(args ...string) { t.Helper(); must("git", append([]string{"-C", "repo"}, args...)...) }
	gitIn("init", "-q", "-b", "main")
	gitIn("add", ".")
	gitIn("commit", "-q", "-m", "first")
	gitIn("checkout", "-q", "-b", "side")
	write("repo/side.txt", "side\n", 0o644)
	gitIn("add", ".")
	gitIn("commit", "-q", "-m", "on the side")
	gitIn("checkout", "-q", "main")
	write("repo/main.go", "package main\n\nfunc main() {\n\tprintln(\"two\")\n}\n", 0o644)
	gitIn("commit", "-q", "-am", "second")
	gitIn("merge", "-q", "--no-ff", "-m", "merge side", "side")
	write("repo/main.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"three\") // changed\n}\n", 0o644)

	// vim: a Go file with a bit of everything syntax colours.
	write("code.go", `// Package demo is drawn by vim with syntax on.
package demo

import "fmt"

const answer = 42

type point struct {
	x, y float64 // coordinates
}

func (p point) String() string {
	if p.x < 0 {
		return fmt.Sprintf("(%g, %g)", p.x, p.y)
	}
	return "origin"
}
`, 0o644)

	// The charts and a sampler of every attribute.
	write("chart256.sh", `i=0
while [ $i -lt 256 ]; do
  printf '\033[48;5;%dm%4d\033[0m' $i $i
  i=$((i+1))
  [ $((i % 16)) -eq 0 ] && printf '\n'
done
`, 0o644)
	write("truecolor.sh", `y=0
while [ $y -lt 12 ]; do
  x=0
  while [ $x -lt 76 ]; do
    r=$((x * 255 / 75)); g=$((y * 255 / 11)); b=$((255 - x * 255 / 75))
    printf '\033[48;2;%d;%d;%dm\033[38;2;%d;%d;%dm#' $r $g $b $b $r $g
    x=$((x+1))
  done
  printf '\033[0m\n'
  y=$((y+1))
done
`, 0o644)
	write("attrs.sh", `printf '\033[1mbold\033[0m \033[2mdim\033[0m \033[3mitalic\033[0m \033[4munder\033[0m \033[4:2mdouble\033[0m \033[4:3mcurly\033[0m\n'
printf '\033[4:4mdotted\033[0m \033[4:5mdashed\033[0m \033[5mblink\033[0m \033[7mreverse\033[0m \033[8mhidden\033[0m \033[9mstrike\033[0m\n'
printf '\033[4;58;5;196mred-underline\033[0m \033[4;58;2;0;128;255mrgb-underline\033[0m \033[1;3;4;9;31;47mall-at-once\033[0m\n'
printf '\033[90mgrey\033[0m \033[97;100mbright\033[0m \033[38;5;208morange\033[0m \033[38;2;10;200;30mtrue\033[0m\n'
`, 0o644)

	// top: one screen recorded on a PTY of the pane's size.
	cmd := exec.Command("top", "-n", "1")
	cmd.Env = append(append([]string{}, vars...), "TERM=xterm-256color")
	ptm, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: corpusCols, Rows: corpusRows})
	if err != nil {
		t.Fatalf("top: %v", err)
	}
	var rec []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := ptm.Read(buf)
		rec = append(rec, buf[:n]...)
		if err != nil {
			break
		}
	}
	cmd.Wait()
	ptm.Close()
	// Leaving the alternate screen would hide what top drew.
	if i := strings.LastIndex(string(rec), "\x1b[?1049l"); i > 0 {
		rec = rec[:i]
	}
	write("top.bytes", string(rec), 0o644)
}

// TestAttachCorpusMatchesTmux draws real programs through the tuios
// client and through tmux, side by side in the same outer terminal (a
// tmux server of the test's own), and compares what each shows cell for
// cell: text, colour and every attribute.
func TestAttachCorpusMatchesTmux(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, p := range []string{"git", "vim", "top", "ls"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed: the corpus needs it", p)
		}
	}
	work := filepath.Join(w.dir, "work")
	os.MkdirAll(work, 0o755)
	corpusFixture(t, work, w.vars)

	// tuios: one window, so its pane is the whole area.
	w.ok("new", "--detach", "s", "--cwd", work)
	w.startAt("c", clientCols, clientRows, "TERM=xterm-256color COLORTERM=truecolor "+w.bin+" attach -t s")
	w.waitFor("c", `\[s\] 1\*`)

	// tmux inside tmux, in a window of exactly the pane's size, its
	// status line off; its panes get the TERM tuios gives its own.
	inner := "tuios-inner-" + filepath.Base(w.dir)
	conf := filepath.Join(w.dir, "inner.conf")
	os.WriteFile(conf, []byte("set -g status off\nset -g default-command /bin/sh\nset -g default-terminal xterm-256color\nset -as terminal-features ',xterm-256color:RGB'\n"), 0o600)
	tmuxIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command(w.tmux, append([]string{"-L", inner, "-f", conf}, args...)...)
		cmd.Env = w.vars
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("inner tmux %v: %v %s", args, err, out)
		}
	}
	tmuxIn("new-session", "-d", "-s", "in", "-x", fmt.Sprint(corpusCols), "-y", fmt.Sprint(corpusRows), "-c", work)
	t.Cleanup(func() { exec.Command(w.tmux, "-L", inner, "kill-server").Run() })
	w.startAt("i", corpusCols, corpusRows, "unset TMUX; TERM=xterm-256color "+w.tmux+" -L "+inner+" -f "+conf+" attach -t in")
	w.waitFor("i", `\$`)

	run := func(line string) {
		t.Helper()
		w.ok("send-text", "-s", "s", "-w", "0", "clear; "+line+"\n")
		tmuxIn("send-keys", "-t", "in", "-l", "clear; "+line+"\n")
	}
	type item struct {
		name, line, want string
		after            func()
	}
	var quitVim = func() {
		w.ok("send-text", "-s", "s", "-w", "0", ":q!\r")
		tmuxIn("send-keys", "-t", "in", ":q!", "Enter")
		// vim drops what is typed while it exits: wait for the shell.
		w.waitGone("c", "origin")
		w.waitGone("i", "origin")
	}
	var leaveAlt = func() {
		run("printf '\\033[?1049l'")
	}
	corpus := []item{
		{"ls --color", "ls --color=always -F ls; echo END-ls", "END-ls", nil},
		{"git log --graph --color", "git -C repo log --graph --color --oneline --decorate --all; echo END-log", "END-log", nil},
		{"git diff --color", "git -C repo --no-pager diff --color; echo END-diff", "END-diff", nil},
		{"256-colour chart", "sh chart256.sh; echo END-256", "END-256", nil},
		{"truecolor chart", "sh truecolor.sh; echo END-rgb", "END-rgb", nil},
		{"every attribute", "sh attrs.sh; echo END-attrs", "END-attrs", nil},
		{"vim with syntax on", "vim -u NONE -N -i NONE -n -c 'syntax on' -c 'set ruler' code.go", "origin", quitVim},
		{"top", "cat top.bytes; echo", "PID", leaveAlt},
	}
	allMatch, allStrict, allTotal := 0, 0, 0
	for _, it := range corpus {
		run(it.line)
		w.stableCapture("c", it.want)
		w.stableCapture("i", it.want)
		a := w.outerCells("c", clientCols, clientRows)
		b := w.outerCells("i", corpusCols, corpusRows)
		match, strict, total, diffs := compareRegions(a, 24, 1, b, 0, 0, corpusCols, corpusRows)
		allMatch += match
		allStrict += strict
		allTotal += total
		t.Logf("%-24s %5d of %5d cells match (%.2f%%); %5d identical to the last invisible bit (%.2f%%)",
			it.name, match, total, 100*float64(match)/float64(total), strict, 100*float64(strict)/float64(total))
		if match != total {
			t.Errorf("%s: %d cells differ from tmux, first: %s", it.name, total-match, strings.Join(diffs, "; "))
		}
		if it.after != nil {
			it.after()
			// Both back at the prompt before the next program starts.
			run("echo READY-$((6*7))")
			w.stableCapture("c", "READY-42")
			w.stableCapture("i", "READY-42")
		}
	}
	t.Logf("corpus: %d of %d cells match tmux (%.2f%%); %d identical to the last invisible bit (%.2f%%)",
		allMatch, allTotal, 100*float64(allMatch)/float64(allTotal), allStrict, 100*float64(allStrict)/float64(allTotal))
}
