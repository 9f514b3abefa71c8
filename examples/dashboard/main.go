// Command dashboard runs several commands, each on a terminal of its own,
// and shows in one table what the coding agent in each is doing, live:
// working, waiting for a person, idle or done, and why. There is no
// daemon: it is the SDK's packages pty (the terminals), detect (one
// Tracker for every pane) and agentstate (the states and their changes).
//
//	go run ./examples/dashboard claude codex 'go run ./examples/pretend-agent'
//
// Each argument is a command line, run by sh on a PTY of 100x30 (the
// screen the rules read). The table is drawn again on every change of
// state and every second; the commands' own output is not shown, only
// their last line. It ends when every command has exited, or on ctrl-c
// (which ends the commands), with the table as it stood then.
//
// The program's parts, to copy:
//
//   - one detect.Tracker for all panes, and one subscription to its
//     arbiter's changes, which wakes the redraw;
//   - per command: pty.Start, Tracker.Attach with the child's pid and the
//     PTY as PaneOptions.Reply (nothing else answers the program's
//     terminal queries: its output goes nowhere else), and a goroutine
//     copying the PTY into the pane; Pane.Exited when the output ends;
//   - the table read from Arbiter.Get, with the pane's text (its message,
//     its last line) escaped by vt.Escape: it came from a program, and
//     must not move the dashboard's cursor.
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
	"github.com/tuios/tuios/vt"
)

const cols, rows = 100, 30

// run is one command on its PTY.
type run struct {
	id   string // the pane's id in the tracker
	cmd  string
	proc *pty.Process
	pane *detect.Pane

	mu     sync.Mutex
	exited bool
	status pty.ExitStatus
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: dashboard COMMAND...   (each COMMAND is run by sh -c on a PTY of its own)")
		fmt.Fprintln(os.Stderr, "example: dashboard claude codex 'go run ./examples/pretend-agent'")
		os.Exit(2)
	}
	tracker := detect.NewTracker(detect.TrackerOptions{})
	defer tracker.Close()
	changes := tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{})
	defer changes.Close()

	exits := make(chan *run, len(os.Args))
	var runs []*run
	for i, cmd := range os.Args[1:] {
		proc, err := pty.Start(pty.Options{Argv: []string{"sh", "-c", execLine(cmd)}, Cols: cols, Rows: rows})
		if err != nil {
			fmt.Fprintf(os.Stderr, "dashboard: %s: %v\n", cmd, err)
			continue
		}
		r := &run{id: strconv.Itoa(i + 1), cmd: cmd, proc: proc}
		r.pane = tracker.Attach(r.id, detect.PaneOptions{ShellPID: proc.Pid(), Cols: cols, Rows: rows, Reply: proc})
		runs = append(runs, r)
		go func() {
			io.Copy(r.pane, proc) // every chunk of output goes through the tracker
			r.pane.Exited()
			st, _ := proc.Wait()
			r.mu.Lock()
			r.exited, r.status = true, st
			r.mu.Unlock()
			exits <- r
		}()
	}
	if len(runs) == 0 {
		os.Exit(1)
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	left := len(runs)
	draw(tracker, runs)
	for left > 0 {
		select {
		case <-changes.C:
		case <-exits:
			left--
		case <-tick.C:
		case <-stop:
			for _, r := range runs {
				r.proc.Close() // ends the command and everything it started
			}
			left = 0
		}
		draw(tracker, runs)
	}
}

// draw writes the table over the last one.
func draw(tracker *detect.Tracker, runs []*run) {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	fmt.Fprintf(&b, "%-2s %-24s %-14s %-11s %-12s %s\r\n", "#", "COMMAND", "STATE", "SOURCE", "HARNESS", "MESSAGE / LAST LINE")
	for _, r := range runs {
		s := tracker.Arbiter().Get(r.id)
		state := s.State.String()
		if g := s.Glyph(); g != "" {
			state = g + " " + state
		}
		r.mu.Lock()
		if r.exited {
			state = "exited " + strconv.Itoa(r.status.Code)
			if r.status.Signaled() {
				state = "ended: " + r.status.Signal.String()
			}
		}
		r.mu.Unlock()
		note := s.Message
		if note == "" {
			if tail := r.pane.Screen().Tail(1); len(tail) > 0 {
				note = tail[0]
			}
		}
		fmt.Fprintf(&b, "%-2s %-24s %-14s %-11s %-12s %s\r\n", r.id, clip(r.cmd, 24), clip(state, 14),
			s.SourceName(), clip(s.Harness, 12), clip(vt.Escape(note), 36))
	}
	os.Stdout.WriteString(b.String())
}

// execLine has sh exec a simple command rather than run it as its child:
// the agent is then the pane's own process, found at once, and its exit
// status is the pane's. A line with shell syntax is left to sh (an agent
// behind sh is still found: detect looks behind interpreters).
func execLine(cmd string) string {
	if strings.ContainsAny(cmd, ";&|<>()$`\n") {
		return cmd
	}
	return "exec " + cmd
}

// clip cuts s to n runes.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
