package daemon

import (
	"sort"

	"github.com/tuios/tuios/inbox"
)

// The rail lists each linked host's sessions under the host (attach a
// far session with a click). The follow caches them: seeded from the
// host's list-sessions when the follow starts, then kept by its
// session-created and session-closed events.

// railHostSessions caps the names one host puts in a layout: the rail is
// a column of a screen, not a listing (tuios ls --all-hosts is).
const railHostSessions = 32

// farSessions is the part of a far list-sessions the follow reads.
type farSessions struct {
	Sessions []struct {
		Name string `json:"name"`
	} `json:"sessions"`
}

// seedSessions adds the host's own list of sessions to its cache, so a
// session with no agent in it is listed too. A host too old to list is
// left to its agents and events.
func (f *hostFollow) seedSessions(h *followed, st *followStream) {
	var l farSessions
	if err := st.call("list-sessions", map[string]any{}, &l); err != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range l.Sessions {
		if s.Name != "" && len(s.Name) <= 4096 && len(h.sessions) < inbox.MaxHostSessions {
			h.sessions[s.Name] = struct{}{}
		}
	}
}

// railSessions are host's cached session names, sorted, at most
// railHostSessions of them.
func (f *hostFollow) railSessions(host string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := f.hosts[host]
	if h == nil || len(h.sessions) == 0 {
		return nil
	}
	out := make([]string, 0, len(h.sessions))
	for name := range h.sessions {
		out = append(out, name)
	}
	sort.Strings(out)
	if len(out) > railHostSessions {
		out = out[:railHostSessions]
	}
	return out
}
