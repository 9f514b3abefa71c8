package term_test

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/mux/term"
	"github.com/tuios/tuios/pty"
)

// A pane whose process prints a line and exits: its screen holds the line
// once the exit is recorded.
func Example() {
	tr := detect.NewTracker(detect.TrackerOptions{DetectInterval: -1, StallAfter: -1})
	defer tr.Close()
	t, err := term.Start(term.Options{ID: "pane-1", Tracker: tr,
		Start: pty.Options{Argv: []string{"sh", "-c", "echo hello from the pane"}, Env: []string{"PATH=/usr/bin:/bin"}, Cols: 40, Rows: 5}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer t.Close()
	t.Run()
	<-t.Exited()
	st, _ := t.ExitStatus()
	fmt.Println(strings.Contains(t.Tracked().Screen().Text(), "hello from the pane"), st.Code)
	// Output: true 0
}
