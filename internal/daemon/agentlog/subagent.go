package agentlog

import (
	"fmt"
	"time"

	"github.com/tuios/tuios/agentstate"
)

// Subagent entries in the agent log read like the agents page's subagent
// rows: "Research tmux (general-purpose) started", then "Research tmux
// (general-purpose) done after 3m, 14 tools". The description, tool count
// and end state come from the arbiter's subagent list (which already took
// the description from the agent's Task call); the duration from the
// start time this log kept.

// maxSubagentStarts bounds the start times a pane's log keeps: a subagent
// that never stops must not grow it.
const maxSubagentStarts = 64

// SubagentRow is the subagent id's row in the pane's list, if it is shown.
func SubagentRow(list []agentstate.Subagent, id string) (agentstate.Subagent, bool) {
	for _, r := range list {
		if r.ID == id {
			return r, true
		}
	}
	return agentstate.Subagent{}, false
}

// subagentLabel names a subagent the way the agents page does: its
// description, then its type in parentheses.
func subagentLabel(desc, typ string) string {
	switch {
	case desc != "" && typ != "":
		return desc + " (" + typ + ")"
	case desc != "":
		return desc
	case typ != "":
		return "a " + typ + " subagent"
	}
	return "a subagent"
}

// SubagentStartText is a start's entry.
func SubagentStartText(row agentstate.Subagent) string {
	return subagentLabel(row.Description, row.Type) + " started"
}

// SubagentStopText is an end's entry: its end state, how long it ran when
// its start was logged, its tool count, and a failure's error.
func SubagentStopText(row agentstate.Subagent, ran time.Duration, known bool) string {
	state := row.State
	if state == "" || state == "running" {
		state = "stopped"
	}
	s := subagentLabel(row.Description, row.Type) + " " + state
	if known {
		s += " after " + shortDuration(ran)
	}
	s += ", " + fmt.Sprintf("%d tool", row.Tools)
	if row.Tools != 1 {
		s += "s"
	}
	if state == "failed" && row.Result != "" {
		s += ": " + row.Result
	}
	return s
}

// SubagentBegan keeps when a subagent started, for its end's duration.
func (l *Log) SubagentBegan(pane, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil || id == "" {
		return
	}
	if pl.subStarts == nil {
		pl.subStarts = map[string]int64{}
	}
	if _, ok := pl.subStarts[id]; !ok && len(pl.subStarts) >= maxSubagentStarts {
		return
	}
	pl.subStarts[id] = l.clock.Now().UnixNano()
}

// SubagentEnded is how long the subagent ran, if its start was kept; it
// forgets the start.
func (l *Log) SubagentEnded(pane, id string) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil {
		return 0, false
	}
	at, ok := pl.subStarts[id]
	if !ok {
		return 0, false
	}
	delete(pl.subStarts, id)
	return time.Duration(l.clock.Now().UnixNano() - at), true
}
