package detect_test

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
)

// A replay of a recorded session names its harness: the rules read the
// recording from its first byte, with no process to detect and no report
// to fake.
func ExamplePaneOptions_harness() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, Registry: reg, DetectInterval: -1})
	defer tr.Close()
	pane := tr.Attach("replay", detect.PaneOptions{Harness: "claude-code", Cols: 80, Rows: 24})

	pane.Write([]byte("● Bash(rm -rf build/)\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n"))
	clock.Advance(detect.SettleDelay)
	s := tr.Arbiter().Get("replay")
	fmt.Println(s.Glyph(), s.State, "from", s.SourceName()+":", s.Message)
	// Output:
	// ▲ needs_input from screen: approval: Do you want to proceed?
}

// A pane is resized with its terminal, after the PTY: the screen reflows
// as a terminal's does (the text a narrow pane wrapped is joined again),
// and the rules read it once the program has repainted.
func ExamplePane_Resize() {
	tr := detect.NewTracker(detect.TrackerOptions{DetectInterval: -1})
	defer tr.Close()
	pane := tr.Attach("p", detect.PaneOptions{Cols: 12, Rows: 5})
	pane.Write([]byte("Do you want to proceed?\r\n"))
	fmt.Printf("%q\n", pane.Screen().Tail(5))

	// proc.Resize(40, 5) first: the program learns the size from the PTY.
	pane.Resize(40, 5)
	fmt.Printf("%q\n", pane.Screen().Tail(5))
	// Output:
	// ["Do you want" "to proceed?"]
	// ["Do you want to proceed?"]
}
