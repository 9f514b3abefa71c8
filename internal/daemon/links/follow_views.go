package links

import (
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// What list-attention, list-hosts and the attached clients' rail show of
// the follow.

// HostView is one followed host as list-attention's hosts[] shows it:
// for the rail's header per host (stale, seen_at, mail) and its cache.
type HostView struct {
	inbox.HostState
	Events   string `json:"events,omitempty"` // live, polling, or "" while not following
	Note     string `json:"events_note,omitempty"`
	Sessions int    `json:"sessions"`
	Agents   int    `json:"agents"`
	NeedsYou int    `json:"needs_you"` // cached agents on needs_input or errored
}

// views lists the followed hosts, by name.
func (f *Follow) views() []HostView {
	states := f.m.Hosts()
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]HostView, 0, len(states))
	for _, st := range states {
		v := HostView{HostState: st}
		if h := f.hosts[st.Host]; h != nil {
			v.Events, v.Note = h.mode, h.note
			v.Sessions, v.Agents = len(h.sessions), len(h.agents)
			for _, a := range h.agents {
				if a.State == "needs_input" || a.State == "errored" {
					v.NeedsYou++
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// eventsOf is list-hosts' events and events_note for host: live while
// subscribed, polling for a host too old to subscribe, "" otherwise.
func (f *Follow) eventsOf(host string) (string, string) {
	if f == nil {
		return "", ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if h := f.hosts[host]; h != nil {
		return h.mode, h.note
	}
	return "", ""
}

// AttachHosts is the layout's hosts: the rail's header per followed host.
func (f *Follow) AttachHosts() []proto.AttachHost {
	if f == nil {
		return nil
	}
	var out []proto.AttachHost
	for _, st := range f.m.Hosts() {
		h := proto.AttachHost{Host: st.Host, Stale: st.Stale, Items: st.Items, Mail: st.Mail, Rev: st.Rev,
			Sessions: f.railSessions(st.Host)} // follow_sessions.go
		if st.SeenAt > 0 {
			h.SeenAt = time.Unix(0, st.SeenAt).UnixMilli()
		}
		out = append(out, h)
	}
	return out
}
