package hook

import "github.com/tuios/tuios/agentstate"

// States lists the states a harness's hook events can report, in the
// order the event map first names them. A caller uses it to tell whether a
// pane running the harness could ever read idle, done or working from its
// hooks (the reply queue: a harness that can never show idle is at rest
// on unknown). Each row is applied to an empty payload: the state a row
// reports does not depend on the payload, only its message does. Rows
// whose report hangs on a payload field (a compacted session start
// reports working) are read in their plain form; that can only leave a
// state out, never add one the harness does not report.
func States(harness string) []agentstate.State {
	var out []agentstate.State
	seen := map[agentstate.State]bool{}
	for _, e := range table() {
		if e.Harness != harness {
			continue
		}
		var t Translation
		e.do(&t, &payload{})
		if t.Report && !seen[t.State] {
			seen[t.State] = true
			out = append(out, t.State)
		}
	}
	return out
}
