// Command embed tracks the agent in one command's terminal, with no
// daemon: it starts the command on a PTY, shows its output, and prints
// every change of agent state with its glyph, source and message.
//
//	go run ./examples/embed -- claude
//	go run ./examples/embed -- go run ./examples/pretend-agent
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

func main() {
	argv := os.Args[1:]
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		argv = []string{"sh"}
	}
	// The PTY takes the real terminal's size, so what the command draws
	// fits the window it is shown in (and the screen the tracker reads
	// is the one the person sees).
	cols, rows := 100, 30
	if w, h, err := term.GetSize(os.Stdout.Fd()); err == nil {
		cols, rows = w, h
	}
	proc, err := pty.Start(pty.Options{Argv: argv, Cols: cols, Rows: rows})
	if err != nil {
		fmt.Fprintln(os.Stderr, "embed:", err)
		os.Exit(1)
	}
	defer proc.Close()

	tracker := detect.NewTracker(detect.TrackerOptions{})
	defer tracker.Close()
	opt := detect.PaneOptions{ShellPID: proc.Pid(), Cols: cols, Rows: rows}
	// On a terminal, the terminal answers the command's queries (cursor
	// position, device attributes) and the answers come back through
	// stdin: the tracker's screen must not answer too. With the output
	// going elsewhere, nothing else answers, so the tracker does.
	if !term.IsTerminal(os.Stdout.Fd()) {
		opt.Reply = proc
	}
	// Subscribe before Attach: Attach reads the pane's foreground at once,
	// and a change made before the subscription is not sent to it.
	changes := tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{})
	pane := tracker.Attach("pane", opt)
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		for c := range changes.C {
			if c.From != c.To {
				from := "" // an unclaimed pane (the agent left) has no source
				if c.Claimed {
					from = " from " + c.SourceName()
				}
				fmt.Fprintf(os.Stderr, "\r\n[%s %s%s] %q\r\n", c.To.Glyph(false), c.To, from, c.Message)
			}
		}
	}()
	if old, err := term.MakeRaw(os.Stdin.Fd()); err == nil {
		defer term.Restore(os.Stdin.Fd(), old) // keys go to the command as typed
	}
	go io.Copy(proc, os.Stdin)
	io.Copy(io.MultiWriter(os.Stdout, pane), proc)
	pane.Exited()
	// What the exit changed (the agent left: none) is printed before the
	// exit status: the changes queued so far are read, then the printer
	// ends.
	changes.Close()
	<-printed
	status, _ := proc.Wait()
	fmt.Fprintln(os.Stderr, "exited:", status)
}
