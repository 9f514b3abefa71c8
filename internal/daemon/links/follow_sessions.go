package links

import (
	"bufio"
	"context"
	"sort"
	"time"

	"github.com/tuios/tuios/inbox"
)

// The rail lists each linked host's sessions under the host (attach a
// far session with a click). The follow caches them: listed from the
// host's list-sessions when the follow starts, kept by its
// session-created and session-closed events, and listed again once a
// minute while live (the spec's backstop: an event lost on the way would
// otherwise leave a session in the rail, or out of it, until the link
// drops).

// followSessionsBackstop is how often a live follow lists the host's
// sessions again.
const followSessionsBackstop = time.Minute

// railHostSessions caps the names one host puts in a layout: the rail is
// a column of a screen, not a listing (tuios ls --all-hosts is).
const railHostSessions = 32

// farSessions is the part of a far list-sessions the follow reads.
type farSessions struct {
	Sessions []struct {
		Name string `json:"name"`
	} `json:"sessions"`
}

// seedSessions replaces the host's cached sessions with its own list, so
// a session with no agent in it is listed too and one that closed while
// an event was lost goes. A host too old to list keeps what its events
// said. It reports whether the cache changed.
func (f *Follow) seedSessions(h *followed, st *followStream) bool {
	var l farSessions
	if err := st.call("list-sessions", map[string]any{}, &l); err != nil {
		return false
	}
	fresh := map[string]struct{}{}
	for _, s := range l.Sessions {
		if s.Name != "" && len(s.Name) <= 4096 && len(fresh) < inbox.MaxHostSessions {
			fresh[s.Name] = struct{}{}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	changed := len(fresh) != len(h.sessions)
	for name := range fresh {
		if _, ok := h.sessions[name]; !ok {
			changed = true
		}
	}
	h.sessions = fresh
	return changed
}

// sessionsBackstop lists the host's sessions again every
// followSessionsBackstop on a stream of its own, until ctx ends (the
// live follow it belongs to ended).
func (f *Follow) sessionsBackstop(ctx context.Context, h *followed) {
	for {
		f.mu.Lock()
		every := f.sessionsEvery
		f.mu.Unlock()
		fire := make(chan struct{})
		t := f.core.Clock().AfterFunc(every, func() { close(fire) })
		select {
		case <-fire:
		case <-ctx.Done():
			t.Stop()
			return
		}
		open, _, _ := f.opener()
		rw, err := open(ctx, h.name)
		if err != nil {
			continue
		}
		changed := f.seedSessions(h, &followStream{w: rw, r: bufio.NewReaderSize(rw, 64<<10)})
		rw.Close()
		if changed {
			f.layoutChanged()
		}
	}
}

// railSessions are host's cached session names, sorted, at most
// railHostSessions of them.
func (f *Follow) railSessions(host string) []string {
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
