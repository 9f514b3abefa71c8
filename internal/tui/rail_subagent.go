package tui

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/tuios/tuios/internal/proto"
)

// An agent row's subagents (the agents page: "the rail shows a row for
// each subagent"): one row each under the agent's, indented, with the
// glyph of how it stands, what it was asked to do, and the tool it runs
// now or the error it failed with.

// subagentState is the agent state whose glyph draws a subagent: running
// works, done finished, failed errored, stopped is at rest.
func subagentState(s string) string {
	switch s {
	case "running":
		return "working"
	case "done":
		return "done"
	case "failed":
		return "errored"
	}
	return "idle"
}

// subagentRailLines are the rows of a's subagents, inner cells wide.
func (m *Model) subagentRailLines(a proto.AttachAgent, inner int) []string {
	var lines []string
	for _, x := range a.Subagents {
		text := firstOf(x.Description, x.Type)
		detail := ""
		switch x.State {
		case "running":
			detail = x.Now
		case "failed":
			detail = x.Result
		}
		if detail != "" {
			text += ": " + detail
		}
		st := subagentState(x.State)
		g := glyph(st, false, m.opt.ASCIIOnly)
		lines = append(lines, "   "+stateSGR(st)+g+sgrReset+" "+fitPlain(clean(text), max(inner-4-ansi.StringWidth(g), 0), m.opt.ASCIIOnly))
	}
	return lines
}
