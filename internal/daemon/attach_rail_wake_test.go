package daemon

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// A finished subagent's row leaves an attached client's rail when its
// minute is up, with nothing else happening: the arbiter drops the row
// by the clock, and the daemon redraws the rails then (it waited for
// some other change before).
func TestAFinishedSubagentLeavesTheRailOnTime(t *testing.T) {
	t.Parallel()
	clk, sock, r, w := subagentPane(t)
	st, _ := attachStreamT(t, sock, map[string]any{"session": "api", "cols": 100, "rows": 30})
	defer st.c.Close()
	subagents := func(l line) ([]proto.AttachSubagent, bool) {
		if l.typ != "layout" {
			return nil, false
		}
		var lay proto.AttachLayout
		if json.Unmarshal(l.raw, &lay) != nil {
			return nil, false
		}
		for _, a := range lay.Agents {
			if a.Window == w {
				return a.Subagents, true
			}
		}
		return nil, false
	}
	for _, p := range []map[string]any{
		{"event": "subagent_start", "id": "ab34", "subagent_type": "Explore", "description": "Find the rail"},
		{"event": "subagent_stop", "id": "ab34", "result": "Found it"},
	} {
		recordActivity(t, r, w, p)
	}
	// The layouts that follow the stop show the finished row.
	st.until("the finished subagent's row", func(l line) bool {
		subs, ok := subagents(l)
		return ok && len(subs) == 1 && subs[0].State == "done"
	})
	clk.Advance(time.Minute)
	st.until("a layout without the row, once its minute is up", func(l line) bool {
		subs, ok := subagents(l)
		return ok && len(subs) == 0
	})
}
