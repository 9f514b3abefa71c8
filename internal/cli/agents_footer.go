package cli

import (
	"fmt"
	"io"

	"github.com/tuios/tuios/internal/proto"
)

// isAgent: the row is a pane with an agent in it, not a plain pane that
// list-agents --all lists too.
func isAgent(a proto.AgentRow) bool {
	return a.State != "" && a.State != "none" || a.HarnessID != ""
}

// paneCount is the list-agents footer's count: "3 agent pane(s)" when
// every row is an agent, else "3 pane(s), 1 agent" (--all lists plain
// panes too, and calling them agent panes would contradict the view
// without --all).
func paneCount(rows []proto.AgentRow) string {
	n := 0
	for _, a := range rows {
		if isAgent(a) {
			n++
		}
	}
	if n == len(rows) {
		return fmt.Sprintf("%d agent pane(s)", n)
	}
	noun := "agents"
	if n == 1 {
		noun = "agent"
	}
	return fmt.Sprintf("%d pane(s), %d %s", len(rows), n, noun)
}

// writeHumanUnread is the footer line for the person's mail: how many
// messages wait in -w human, when any do.
func writeHumanUnread(w io.Writer, n int) {
	if n > 0 {
		fmt.Fprintf(w, "human: %d unread (tuios read-agent-messages -w human)\n", n)
	}
}
