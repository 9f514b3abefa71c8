package core

import (
	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Seat is a window as the agent verbs read it (Host.Seat, Host.Seats):
// its list-windows row and what the core keeps beside it, copied at one
// moment.
type Seat struct {
	// Row is the window as list-windows has it: its index, names, cwd,
	// workspace, focus and queued count.
	Row proto.Window
	// Group is its session's fan group; "" for none.
	Group string
	// Protocol is the agent protocol it was opened with (start-agent
	// --protocol); "" for none.
	Protocol string
	// Ring is its session's mail ring; nil when none was made (copying
	// a seat makes none).
	Ring *mail.Ring
	// Pane is a live handle on its pane.
	Pane Pane
}

// SessionSeats are one session's windows as the agent verbs read them.
type SessionSeats struct {
	Name string
	// Ring is the session's mail ring; nil when none was made.
	Ring    *mail.Ring
	Windows []Seat
}

// NeedOrder ranks a pane's agent state by what it needs from the person,
// first what needs most: errored, then waiting for input, then working,
// then unknown, then finished and not yet seen, then finished and seen
// or idle, then the rest. list-agents sorts by it and the rail lists by
// it.
func NeedOrder(snap agentstate.Snapshot) int {
	switch snap.State {
	case agentstate.Errored:
		return 0
	case agentstate.NeedsInput:
		return 1
	case agentstate.Working:
		return 2
	case agentstate.Unknown:
		return 3
	case agentstate.Done:
		if snap.FinishedUnread {
			return 4
		}
		return 5
	case agentstate.Idle:
		return 5
	}
	return 6
}

// Loudness turns NeedOrder around for picking the loudest state among
// panes (a session's or workspace's row): higher is louder, in the
// rail's order, so an errored pane outshouts one waiting for input and a
// turn not yet seen outshouts an idle pane. 0 is never returned.
func Loudness(snap agentstate.Snapshot) int { return 7 - NeedOrder(snap) }
