// Command goldengen records the golden screens under vt/testdata/golden.
//
// For each stream it runs a real program on a 120x40 PTY (package pty),
// keeps the raw output bytes (<name>.raw), then replays exactly those bytes
// in a tmux pane of the same size (stty raw, so the replay adds no CR) and
// keeps `tmux capture-pane -p` of the result (<name>.tmux.txt) and tmux's
// cursor position, cursor visibility and alternate-screen flag
// (<name>.tmux.cursor), and, for streams that end on the main screen,
// the history above the screen plus the screen (capture-pane -S - -E -,
// trailing empty lines dropped: <name>.tmux.history.txt).
//
// Run from the repository root (needs tmux, git, vim, less, top, htop, bash):
//
//	go run ./vt/internal/goldengen            # all streams
//	go run ./vt/internal/goldengen -only vim  # one stream
//	go run ./vt/internal/goldengen -replay    # re-capture the .tmux.txt of existing .raw files
//
// The test (vt/golden_test.go) only reads the committed files.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/pty"
)

const (
	cols    = 120
	rows    = 40
	maxRaw  = 300 << 10
	outDir  = "vt/testdata/golden"
	tmuxSrv = "tuios-goldengen"
)

type recorder struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	last time.Time
	done chan struct{}
}

func record(p *pty.Process) *recorder {
	r := &recorder{done: make(chan struct{}), last: time.Now()}
	go func() {
		defer close(r.done)
		b := make([]byte, 32<<10)
		for {
			n, err := p.Read(b)
			r.mu.Lock()
			r.buf.Write(b[:n])
			if n > 0 {
				r.last = time.Now()
			}
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return r
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Len()
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf.Bytes()...)
}

// quiet waits until no output came for d (at most max).
func (r *recorder) quiet(d, max time.Duration) {
	end := time.Now().Add(max)
	for time.Now().Before(end) {
		r.mu.Lock()
		idle := time.Since(r.last)
		r.mu.Unlock()
		if idle >= d {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *recorder) waitFor(s string, max time.Duration) error {
	end := time.Now().Add(max)
	for time.Now().Before(end) {
		if bytes.Contains(r.bytes(), []byte(s)) {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("timed out waiting for %q", s)
}

type stream struct {
	name  string
	argv  []string
	setup func(dir string) error
	// drive interacts with the program and returns how many bytes to keep
	// (-1: everything up to the program's exit).
	drive func(p *pty.Process, r *recorder) (int, error)
}

func send(p *pty.Process, s string) { p.Write([]byte(s)) }

// snapshotThen keeps the bytes present once the program went quiet, then
// sends keys to make it exit.
func snapshotThen(keys string, settle time.Duration) func(*pty.Process, *recorder) (int, error) {
	return func(p *pty.Process, r *recorder) (int, error) {
		time.Sleep(settle)
		r.quiet(300*time.Millisecond, 5*time.Second)
		n := r.len()
		send(p, keys)
		return n, nil
	}
}

func quitWith(keys string, settle time.Duration) func(*pty.Process, *recorder) (int, error) {
	return func(p *pty.Process, r *recorder) (int, error) {
		time.Sleep(settle)
		r.quiet(300*time.Millisecond, 5*time.Second)
		send(p, keys)
		return -1, nil
	}
}

func streams() []stream {
	return []stream{
		{name: "ls-color", argv: []string{"ls", "--color=always", "-la", "/usr/bin"}},
		{name: "git-log-graph", argv: []string{"git", "--no-pager", "log", "--graph", "--color=always", "--all", "--decorate"}, setup: gitRepo},
		{name: "vim", argv: []string{"vim", "-u", "NONE", "-i", "NONE", "-N", "sample.go"}, setup: sampleFile, drive: snapshotThen("\x1b:q!\r", 800*time.Millisecond)},
		{name: "vim-quit", argv: []string{"sh", "-c", "printf 'before vim\\n'; vim -u NONE -i NONE -N sample.go; printf 'after vim\\n'"}, setup: sampleFile, drive: quitWith("\x1b:q!\r", 800*time.Millisecond)},
		{name: "less", argv: []string{"less", "sample.go"}, setup: sampleFile, drive: snapshotThen("q", 500*time.Millisecond)},
		{name: "less-search", argv: []string{"less", "-N", "sample.go"}, setup: sampleFile, drive: func(p *pty.Process, r *recorder) (int, error) {
			time.Sleep(500 * time.Millisecond)
			r.quiet(300*time.Millisecond, 5*time.Second)
			send(p, "/func\r")
			time.Sleep(300 * time.Millisecond)
			send(p, " ")
			time.Sleep(300 * time.Millisecond)
			r.quiet(300*time.Millisecond, 5*time.Second)
			n := r.len()
			send(p, "q")
			return n, nil
		}},
		// top and htop are limited to their own process (-p) so the goldens
		// do not list whatever else runs on the recording machine.
		{name: "top", argv: []string{"sh", "-c", "exec top -b -n1 -w 120 -p $$"}},
		{name: "htop", argv: []string{"sh", "-c", "exec htop -p $$"}, drive: snapshotThen("q", 3500*time.Millisecond)},
		{name: "cjk-emoji", argv: []string{"cat", "unicode.txt"}, setup: unicodeFile},
		{name: "scroll-regions", argv: []string{"sh", "scroll.sh"}, setup: scrollScript},
		{name: "ink-redraw", argv: []string{"sh", "ink.sh"}, setup: inkScript},
		{name: "edit-ops", argv: []string{"sh", "editops.sh"}, setup: editOpsScript},
		{name: "ink-overflow", argv: []string{"sh", "overflow.sh"}, setup: inkOverflowScript},
		{name: "osc-events", argv: []string{"sh", "osc.sh"}, setup: oscScript},
		{name: "bash-readline", argv: []string{"bash", "--norc", "--noprofile", "-i"}, drive: bashSession},
	}
}

func main() {
	only := flag.String("only", "", "record only this stream")
	replay := flag.Bool("replay", false, "only re-capture .tmux.txt from existing .raw files")
	flag.Parse()
	if _, err := os.Stat("go.mod"); err != nil {
		fatal(errors.New("run from the repository root"))
	}
	os.MkdirAll(outDir, 0o755)
	defer exec.Command("tmux", "-L", tmuxSrv, "kill-server").Run()
	for _, s := range streams() {
		if *only != "" && s.name != *only {
			continue
		}
		rawPath := filepath.Join(outDir, s.name+".raw")
		if !*replay {
			raw, err := run(s)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v (skipped)\n", s.name, err)
				continue
			}
			if len(raw) > maxRaw {
				fmt.Fprintf(os.Stderr, "%s: %d bytes, over the %d limit (skipped)\n", s.name, len(raw), maxRaw)
				continue
			}
			if err := os.WriteFile(rawPath, raw, 0o644); err != nil {
				fatal(err)
			}
		}
		screen, state, history, err := tmuxReplay(s.name, rawPath)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: tmux: %v\n", s.name, err)
			continue
		}
		if err := os.WriteFile(filepath.Join(outDir, s.name+".tmux.txt"), []byte(screen), 0o644); err != nil {
			fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outDir, s.name+".tmux.cursor"), []byte(state), 0o644); err != nil {
			fatal(err)
		}
		histPath := filepath.Join(outDir, s.name+".tmux.history.txt")
		os.Remove(histPath)
		if strings.Contains(state, "alternate=0") {
			if err := os.WriteFile(histPath, []byte(trimLines(history)), 0o644); err != nil {
				fatal(err)
			}
		}
		st, _ := os.Stat(rawPath)
		fmt.Printf("%-16s %7d bytes raw\n", s.name, st.Size())
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "goldengen:", err)
	os.Exit(1)
}

func run(s stream) ([]byte, error) {
	dir, err := os.MkdirTemp("", "goldengen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if s.setup != nil {
		if err := s.setup(dir); err != nil {
			return nil, err
		}
	}
	if _, err := exec.LookPath(s.argv[0]); err != nil {
		return nil, err
	}
	p, err := pty.Start(pty.Options{
		Argv: s.argv, Dir: dir, Cols: cols, Rows: rows,
		Env: []string{
			"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + dir, "TERM=xterm-256color",
			"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LESS=", "LESSHISTFILE=-", "TZ=UTC",
			"GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat", "PS1=$ ", "HISTFILE=/dev/null", "INPUTRC=/dev/null",
		},
	})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	r := record(p)
	keep := -1
	if s.drive != nil {
		if keep, err = s.drive(p, r); err != nil {
			return nil, err
		}
	}
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		return nil, errors.New("program did not exit")
	}
	st, _ := p.Wait()
	raw := r.bytes()
	if keep >= 0 {
		raw = raw[:keep]
	} else if !st.Success() {
		return nil, fmt.Errorf("exited with %v: %q", st, tail(raw))
	}
	return raw, nil
}

func tail(b []byte) []byte {
	if len(b) > 300 {
		return b[len(b)-300:]
	}
	return b
}

// tmuxReplay shows the raw bytes in a detached 120x40 tmux pane and
// captures the screen once tmux has drawn everything.
func tmuxReplay(name, rawPath string) (screen, state, history string, err error) {
	abs, err := filepath.Abs(rawPath)
	if err != nil {
		return "", "", "", err
	}
	conf, err := os.CreateTemp("", "goldengen-tmux-*.conf")
	if err != nil {
		return "", "", "", err
	}
	defer os.Remove(conf.Name())
	fmt.Fprintln(conf, "set -g status off")
	fmt.Fprintln(conf, "set -g default-size 120x40")
	fmt.Fprintln(conf, "set -g history-limit 100000")
	conf.Close()
	doneFile := abs + ".done"
	os.Remove(doneFile)
	defer os.Remove(doneFile)
	session := "g-" + name
	tmux := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", tmuxSrv, "-f", conf.Name()}, args...)...)
	}
	script := fmt.Sprintf("stty raw -echo; cat '%s'; touch '%s'; exec sleep 100000", abs, doneFile)
	// The server exits with its last session; a new-session racing that
	// exit fails, so retry.
	for attempt := 0; ; attempt++ {
		out, err := tmux("new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-s", session, script).CombinedOutput()
		if err == nil {
			break
		}
		if attempt == 5 {
			return "", "", "", fmt.Errorf("%v: %s", err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	defer tmux("kill-session", "-t", session).Run()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(doneFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return "", "", "", errors.New("replay did not finish")
		}
		time.Sleep(50 * time.Millisecond)
	}
	size, err := tmux("display-message", "-p", "-t", session, "#{pane_width}x#{pane_height}").Output()
	if err != nil || strings.TrimSpace(string(size)) != fmt.Sprintf("%dx%d", cols, rows) {
		return "", "", "", fmt.Errorf("pane size %q, %v", size, err)
	}
	prev := ""
	for i := 0; ; i++ {
		time.Sleep(300 * time.Millisecond)
		out, err := tmux("capture-pane", "-p", "-t", session).Output()
		if err != nil {
			return "", "", "", err
		}
		if string(out) == prev {
			state, err := tmux("display-message", "-p", "-t", session,
				"cursor_x=#{cursor_x} cursor_y=#{cursor_y} cursor_visible=#{cursor_flag} alternate=#{alternate_on}").Output()
			if err != nil {
				return "", "", "", err
			}
			hist, err := tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", session).Output()
			if err != nil {
				return "", "", "", err
			}
			return normalize(prev), string(state), string(hist), nil
		}
		prev = string(out)
		if i > 50 {
			return "", "", "", errors.New("screen never settled")
		}
	}
}

// trimLines right-trims each line and drops trailing empty lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n") + "\n"
}

// normalize right-trims each line and keeps exactly rows lines.
func normalize(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for len(lines) < rows {
		lines = append(lines, "")
	}
	lines = lines[:rows]
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
