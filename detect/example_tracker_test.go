package detect_test

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/agentstate/fakeclock"
	"github.com/tuios/tuios/detect"
)

// A tracker turns a pane's output into agent state. Here the agent's hook
// said it is working (as Claude Code's hooks do) and the agent then paints
// its permission prompt and falls silent: the screen tier takes the pane
// over the stale claim once it has stood for 2 s.
func ExampleTracker() {
	clock := fakeclock.New(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	tr := detect.NewTracker(detect.TrackerOptions{Clock: clock, DetectInterval: -1})
	defer tr.Close()
	pane := tr.Attach("build", detect.PaneOptions{Cols: 80, Rows: 24})

	pane.Report(agentstate.Report{State: agentstate.Working, Source: agentstate.SourceReport, Harness: "claude-code"}, "")
	clock.Advance(500 * time.Millisecond)
	pane.Write([]byte("● Bash(rm -rf build/)\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n"))

	clock.Advance(detect.SettleDelay)
	s := tr.Arbiter().Get("build")
	fmt.Println(s.Glyph(), s.State, "from", s.SourceName())

	clock.Advance(2 * time.Second)
	s = tr.Arbiter().Get("build")
	fmt.Println(s.Glyph(), s.State, "from", s.SourceName()+":", s.Message)
	// Output:
	// ● working from report
	// ▲ needs_input from screen: approval: Do you want to proceed?
}
