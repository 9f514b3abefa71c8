package links

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/inbox"
)

func FuzzParseFarEvent(f *testing.F) {
	f.Add([]byte(`{"seq":3,"type":"attention","op":"open","item":{"id":"3","kind":"question","session":"api","summary":"x"}}`))
	f.Add([]byte(`{"type":"agent-state","session":"api","window":"w1","state":"needs_input"}`))
	f.Add([]byte(`{"type":"gap","dropped":4}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, ok := parseFarEvent(line)
		if !ok {
			return
		}
		if ev.Type == "" || len(ev.Window) > 256 || len(ev.State) > 32 {
			t.Fatalf("accepted %+v", ev)
		}
		// Whatever it says, the mirror keeps it clean.
		if ev.Item != nil {
			c := inbox.New(inbox.Options{BootID: "b"})
			m := inbox.NewMirror(c, nil)
			m.Apply("far", inbox.Op(ev.Op), *ev.Item)
			items, _ := m.List("", inbox.ListOptions{IncludeSnoozed: true})
			for _, it := range items {
				if it.Host != "far" || !strings.HasPrefix(it.ID, "far:") {
					t.Fatalf("kept %+v", it)
				}
			}
		}
	})
}

// A host's cache holds at most 512 sessions and 2048 agent rows, whatever
// the host sends; a closed session takes its rows with it.
func TestFollowCachesAreCapped(t *testing.T) {
	t.Parallel()
	rail := &railCore{}
	f := &Follow{core: rail, hosts: map[string]*followed{}}
	h := &followed{name: "far", sessions: map[string]struct{}{}, agents: map[string]farAgent{}}
	for i := 0; i < 3000; i++ {
		line := fmt.Sprintf(`{"type":"agent-state","session":"s%d","window":"w%d","state":"needs_input"}`, i%700, i)
		if !f.apply(h, []byte(line)) {
			t.Fatalf("line %d refused", i)
		}
	}
	for i := 0; i < 700; i++ {
		f.apply(h, []byte(fmt.Sprintf(`{"type":"session-created","session":"x%d"}`, i)))
	}
	if len(h.agents) != inbox.MaxHostAgents || len(h.sessions) != inbox.MaxHostSessions {
		t.Fatalf("%d agents, %d sessions", len(h.agents), len(h.sessions))
	}
	f.apply(h, []byte(`{"type":"session-closed","session":"s1"}`))
	for _, a := range h.agents {
		if a.Session == "s1" {
			t.Fatal("a closed session's agent row stayed")
		}
	}
	if rail.redrawn == 0 {
		t.Fatal("a host's new session did not redraw the rail")
	}
	if f.apply(h, []byte(`{"type":"gap","dropped":3}`)) || f.apply(h, []byte(`garbage`)) {
		t.Fatal("a gap or a garbage line did not end the stream (list again)")
	}
}

// railCore is a core that counts the rail's redraws.
type railCore struct {
	testCore
	redrawn int
}

func (c *railCore) RailChanged() { c.redrawn++ }
