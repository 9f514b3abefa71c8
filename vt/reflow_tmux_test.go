package vt

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxPane runs a stream in a real tmux pane (a program that prints it and
// then waits without redrawing), to compare reflows with tmux's.
type tmuxPane struct {
	t    *testing.T
	tmux string
	sock string
}

// newTmuxPane starts a pane that prints parts[0], then each next part when
// next is called.
func newTmuxPane(t *testing.T, cols, rows int, parts ...string) *tmuxPane {
	t.Helper()
	tm, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("", "vt-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	script := "stty -onlcr -echo -icanon"
	for i, part := range parts {
		in := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(in, []byte(part), 0o600); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			script += "; head -c1 >/dev/null"
		}
		script += "; cat " + in
	}
	p := &tmuxPane{t: t, tmux: tm, sock: filepath.Join(dir, "s")}
	p.run("new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-s", "a",
		script+"; exec cat >/dev/null")
	t.Cleanup(func() { exec.Command(tm, "-S", p.sock, "kill-server").Run() })
	return p
}

// next lets the pane print its next part.
func (p *tmuxPane) next() { p.run("send-keys", "-t", "a", "x") }

func (p *tmuxPane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// state is the history and screen text (trailing blank lines dropped) and
// the cursor, x past the last column for a pending wrap, as tmux has it.
func (p *tmuxPane) state() string {
	text := p.run("capture-pane", "-p", "-S", "-", "-t", "a")
	cur := strings.TrimSpace(p.run("display", "-p", "-t", "a", "#{cursor_x},#{cursor_y}"))
	return strings.TrimRight(text, "\n") + "\n@" + cur
}

func vtState(s *Screen) string {
	x, y, _ := s.Cursor()
	s.mu.RLock()
	if s.pendingWrap {
		x++
	}
	s.mu.RUnlock()
	return s.Capture(CaptureOptions{Scrollback: true}) + fmt.Sprintf("\n@%d,%d", x, y)
}

// visible is the screen as tmux shows it now (no history), with the cursor.
func (p *tmuxPane) visible() string {
	text := p.run("capture-pane", "-p", "-t", "a")
	cur := strings.TrimSpace(p.run("display", "-p", "-t", "a", "#{cursor_x},#{cursor_y}"))
	return strings.TrimRight(text, "\n") + "\n@" + cur
}

func vtVisible(s *Screen) string {
	x, y, _ := s.Cursor()
	s.mu.RLock()
	if s.pendingWrap {
		x++
	}
	s.mu.RUnlock()
	return s.Text() + fmt.Sprintf("\n@%d,%d", x, y)
}

// waitFor polls tmux until its pane shows want on screen: tmux reads the
// program's output on its own time.
func (p *tmuxPane) waitFor(want string) string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := p.visible()
		if got == want || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReflowMatchesTmux writes streams to a Screen and to a tmux pane,
// resizes both through the same sizes and compares history, screen and
// cursor after each step. The cases keep the screen full and the cursor at
// or inside the text: where tmux and this package decide differently (a
// screen ending in blank rows, a cursor right of the text) the package doc
// says so and TestReflow covers it.
func TestReflowMatchesTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("starts tmux servers")
	}
	long := "line-with-a-long-tail-" + strings.Repeat("0123456789", 4)
	for _, c := range []struct {
		name       string
		cols, rows int
		parts      []string // the stream; "next" in steps prints the next part
		steps      []string // "COLSxROWS" or "next"
	}{
		{"long lines and a prompt", 40, 4,
			[]string{"first\r\n" + long + "\r\n  2. No, and tell the agent what to do\r\n$ "},
			[]string{"20x4", "40x4", "13x4", "40x4", "80x4", "40x4"}},
		{"history takes and gives", 20, 3,
			[]string{"a1\r\n" + long + "\r\nb2\r\n" + long + "\r\nc3"},
			[]string{"10x3", "20x3", "7x3", "33x3", "20x3"}},
		{"wide characters never split", 11, 3,
			[]string{"ab中文字符测试和更多的x\r\nz\r\n中文中文中文中文中文中文"},
			[]string{"7x3", "11x3", "4x3", "30x3", "11x3"}},
		{"cursor inside a wrapped line", 12, 3,
			[]string{"one\r\n" + long + "\x1b[20D"},
			[]string{"7x3", "12x3", "30x3", "12x3"}},
		{"pending wrap", 10, 3,
			[]string{"x\r\ny\r\nabcdefghij"},
			[]string{"5x3", "10x3", "20x3", "10x3"}},
		{"hard line exactly the width", 10, 3,
			[]string{"x\r\nabcdefghij\r\n0123456789\r\nz"},
			[]string{"5x3", "10x3", "20x3", "10x3"}},
		{"written spaces are text", 10, 3,
			[]string{"x\r\nab\x1b[41m        \x1b[0m\r\nhello worl d\r\nz"},
			[]string{"6x3", "10x3", "3x3", "10x3"}},
		{"rows and columns together", 20, 5,
			[]string{"p1\r\n" + long + "\r\n" + long + "\r\nq"},
			[]string{"10x3", "20x5", "15x8", "20x5"}},
		{"saved cursor", 20, 3,
			[]string{"a\r\n" + long + "\r\n$ ab\x1b[2D\x1b7\r\n", "\x1b8X"},
			[]string{"10x3", "next", "20x3"}},
		// The main screen waits at its size while the alternate screen is
		// shown, and is reflowed from there with the restored cursor.
		{"alternate screen", 20, 3,
			[]string{"a\r\n" + long + "\r\n$ ab\x1b[2D\x1b[?1049hALT", "\x1b[?1049l"},
			[]string{"10x4", "30x4", "8x3", "next", "20x3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{Cols: c.cols, Rows: c.rows, Scrollback: 2000}) // tmux's default history-limit
			s.Write([]byte(c.parts[0]))
			p := newTmuxPane(t, c.cols, c.rows, c.parts...)
			want := vtVisible(s)
			if got := p.waitFor(want); got != want {
				t.Fatalf("before any resize, tmux shows\n%s\nwe show\n%s", got, want)
			}
			part := 1
			for _, step := range c.steps {
				if step == "next" {
					s.Write([]byte(c.parts[part]))
					part++
					p.next()
					want := vtVisible(s)
					if got := p.waitFor(want); got != want {
						t.Fatalf("after the next part, tmux shows\n%s\nwe show\n%s", got, want)
					}
				} else {
					var cols, rows int
					fmt.Sscanf(step, "%dx%d", &cols, &rows)
					s.Resize(cols, rows)
					p.run("resize-window", "-t", "a", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows))
				}
				if s.AltScreen() {
					if ours, theirs := vtVisible(s), p.visible(); ours != theirs {
						t.Fatalf("after %s, tmux shows\n%s\nwe show\n%s", step, theirs, ours)
					}
					continue
				}
				if ours, theirs := vtState(s), p.state(); ours != theirs {
					t.Fatalf("after %s, tmux shows\n%s\nwe show\n%s", step, theirs, ours)
				}
			}
		})
	}
}
