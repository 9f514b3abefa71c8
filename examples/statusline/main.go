// Command statusline keeps one line per coding agent in your tmux panes —
// which pane, which agent, what it is doing — for tmux's status bar or a
// shell prompt. It needs no tuios daemon: it tracks the panes tmux already
// has with the SDK's detect.Tracker.
//
//	go run ./examples/statusline                        # print the lines on every change
//	go run ./examples/statusline -tmux-option @agents   # and keep them in a tmux option
//
// With the option kept, tmux shows it in the status bar and a prompt can
// read it:
//
//	set -g status-right '#{@agents}'                    # ~/.tmux.conf
//	PS1='$(tmux show -gv @agents 2>/dev/null) \$ '      # a shell prompt
//
// A line reads "work:1.0 claude-code ▲ needs_input approval: Do you want
// to proceed?": the pane (session:window.pane), the harness, the state's
// glyph and name, and the agent's words, escaped (they came from a
// program).
//
// # Why it reads tmux this way
//
// The SDK tracks terminals a program owns: it is handed their output as
// it is written. A tmux user's panes belong to the tmux server, which
// hands their output only to clients attached to a session. So this
// helper reads what tmux shows of every pane, once per -interval: the
// pane's process tree from /proc (by #{pane_pid}, the way the tracker
// reads any pane), and the pane's screen through tmux capture-pane,
// drawn again on the tracker's copy of that pane whenever it changed,
// with its title. The screen and title rules then read what you see, and
// a screen that changes counts as output, so detection, the trailing look
// and the stall window work as they do on a PTY.
//
// What it cannot see: the bytes a program wrote but tmux does not keep
// (OSC 9;4 progress, OSC 7501 program status, notifications), and hooks
// (a program that starts the agents itself wires their hooks to
// detect.Pane.Hook; here nothing does). It costs one tmux call per pane
// per interval.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/vt"
)

func main() {
	interval := flag.Duration("interval", time.Second, "how often tmux is asked for its panes and their screens")
	option := flag.String("tmux-option", "", "also keep the lines in this tmux user option (e.g. @agents), joined on one line")
	socket := flag.String("S", "", "the tmux server's socket path (tmux -S); default: the server tmux finds")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: statusline [-interval 1s] [-tmux-option @NAME] [-S socket]")
		fmt.Fprintln(os.Stderr, "One line per coding agent in your tmux panes, printed on every change.")
		flag.PrintDefaults()
		fmt.Fprintln(os.Stderr, "example:\n  statusline -tmux-option @agents &    # then: tmux set -g status-right '#{@agents}'")
	}
	flag.Parse()
	*interval = max(*interval, 100*time.Millisecond) // a tmux call per pane each time

	t := &tmux{socket: *socket}
	w := newWatch(t)
	defer w.tracker.Close()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)

	changes := w.tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{})
	defer changes.Close()
	poll := time.NewTicker(*interval)
	defer poll.Stop()
	last := "\x00" // nothing printed yet
	for {
		if err := w.sync(); err != nil {
			fmt.Fprintln(os.Stderr, "statusline:", err)
		}
		if lines := w.lines(); strings.Join(lines, "\n") != last {
			last = strings.Join(lines, "\n")
			if *option != "" {
				t.setOption(*option, strings.Join(lines, "  ·  "))
			}
			for _, l := range lines {
				fmt.Println(l)
			}
			fmt.Println()
		}
		select {
		case <-poll.C:
		case <-changes.C: // a look or the stall deadline changed a state
		case <-stop:
			if *option != "" {
				t.run("set-option", "-gu", *option)
			}
			return
		}
	}
}

// tmux runs tmux commands against one server.
type tmux struct{ socket string }

func (t *tmux) run(args ...string) ([]byte, error) {
	verb := args[0]
	if t.socket != "" {
		args = append([]string{"-S", t.socket}, args...)
	}
	out, err := exec.Command("tmux", args...).Output()
	if ee, ok := err.(*exec.ExitError); ok {
		err = fmt.Errorf("tmux %s: %s", verb, bytes.TrimSpace(ee.Stderr))
	}
	return out, err
}

func (t *tmux) setOption(name, value string) {
	t.run("set-option", "-g", name, value)
	t.run("refresh-client", "-S") // redraw the status bars now
}

// tmuxPane is one row of list-panes.
type tmuxPane struct {
	id, name, title string
	pid, cols, rows int
}

const paneFormat = "#{pane_id}\t#{pane_pid}\t#{pane_width}\t#{pane_height}\t#{session_name}:#{window_index}.#{pane_index}\t#{pane_title}"

func (t *tmux) panes() ([]tmuxPane, error) {
	out, err := t.run("list-panes", "-a", "-F", paneFormat)
	if err != nil {
		return nil, err
	}
	var ps []tmuxPane
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.SplitN(line, "\t", 6)
		if len(f) < 6 {
			continue
		}
		p := tmuxPane{id: f[0], name: f[4], title: f[5]}
		p.pid, _ = strconv.Atoi(f[1])
		p.cols, _ = strconv.Atoi(f[2])
		p.rows, _ = strconv.Atoi(f[3])
		ps = append(ps, p)
	}
	return ps, nil
}

// watched is what the helper keeps for one tmux pane.
type watched struct {
	tmuxPane
	pane   *detect.Pane
	screen []byte // the last capture drawn
}

type watch struct {
	t       *tmux
	tracker *detect.Tracker
	panes   map[string]*watched
}

func newWatch(t *tmux) *watch {
	return &watch{t: t, tracker: detect.NewTracker(detect.TrackerOptions{}), panes: map[string]*watched{}}
}

// sync brings the tracker in line with tmux: panes that came and went,
// sizes, and every screen or title that changed.
func (w *watch) sync() error {
	ps, err := w.t.panes()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, tp := range ps {
		seen[tp.id] = true
		wp := w.panes[tp.id]
		if wp == nil || wp.pid != tp.pid {
			// No Reply: the pane's program talks to tmux, which answers it.
			wp = &watched{tmuxPane: tmuxPane{id: tp.id, pid: tp.pid, cols: tp.cols, rows: tp.rows},
				pane: w.tracker.Attach(tp.id, detect.PaneOptions{ShellPID: tp.pid, Cols: tp.cols, Rows: tp.rows})}
			w.panes[tp.id] = wp
		}
		if tp.cols != wp.cols || tp.rows != wp.rows {
			wp.pane.Resize(tp.cols, tp.rows)
		}
		wp.name, wp.cols, wp.rows = tp.name, tp.cols, tp.rows
		screen, err := w.t.run("capture-pane", "-p", "-e", "-t", tp.id)
		if err != nil {
			continue // the pane closed meanwhile
		}
		var out []byte
		if tp.title != wp.title {
			out = append(out, "\x1b]2;"+strings.Map(noControls, tp.title)+"\x07"...)
			wp.title = tp.title
		}
		if !bytes.Equal(screen, wp.screen) {
			wp.screen = screen
			// Home, clear, and the rows as tmux shows them: the
			// tracker's screen becomes the pane's.
			out = append(out, "\x1b[H\x1b[2J\x1b[0m"...)
			out = append(out, bytes.ReplaceAll(bytes.TrimSuffix(screen, []byte("\n")), []byte("\n"), []byte("\r\n"))...)
		}
		if len(out) > 0 {
			wp.pane.Write(out)
		}
	}
	for id := range w.panes {
		if !seen[id] {
			w.tracker.Detach(id)
			delete(w.panes, id)
		}
	}
	return nil
}

// noControls drops control characters from a title before it goes into
// an OSC sequence of ours.
func noControls(r rune) rune {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return -1
	}
	return r
}

// lines is one line per pane an agent holds, by pane name.
func (w *watch) lines() []string {
	var out []string
	for _, wp := range w.panes {
		s := w.tracker.Arbiter().Get(wp.id)
		if s.State == agentstate.None {
			continue
		}
		line := fmt.Sprintf("%s %s %s %s", wp.name, s.Harness, s.Glyph(), s.State)
		if s.Message != "" {
			line += " " + vt.Escape(s.Message)
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}
