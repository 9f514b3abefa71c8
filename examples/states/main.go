// Command states prints the agent states of the command it runs on a PTY.
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/pty"
)

func main() {
	proc, err := pty.Start(pty.Options{Argv: os.Args[1:], Cols: 100, Rows: 30})
	if err != nil {
		log.Fatal(err)
	}
	tracker := detect.NewTracker(detect.TrackerOptions{})
	changes := tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{}) // before Attach, which reads the first state
	// Reply: nothing else shows this output, so the tracker's screen answers
	// the program's terminal queries (leave it nil beside a real terminal).
	pane := tracker.Attach("pane", detect.PaneOptions{ShellPID: proc.Pid(), Cols: 100, Rows: 30, Reply: proc})
	go func() {
		io.Copy(pane, proc) // every chunk of output goes through the tracker
		pane.Exited()
		changes.Close() // ends the loop below
	}()
	for c := range changes.C {
		if c.From != c.To { // From == To: the same state, another source or message
			fmt.Printf("%-13s %-10s %s\n", c.To.Glyph(false)+" "+c.To.String(), c.SourceName(), c.Message)
		}
	}
}
