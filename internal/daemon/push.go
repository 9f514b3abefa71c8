package daemon

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/push"
)

// Push notifications (docs/integrations.md, Push notifications; package
// internal/push sends): the daemon hands the Notifier every change of its
// Inbox and says when the person typed, so what waits for them reaches
// their phone whether or not a client is attached.
//
//   - The Inbox's changes come from the event hub, as the attention
//     events every subscriber gets: nothing in the Inbox's code knows of
//     pushes. The subscriber's queue is bounded; when it overflows, the
//     open items are listed again (Resync), and the Notifier looks each
//     item up when it falls due, so a missed close never sends.
//   - The person typed: send-text from a process that holds a live human
//     nonce, that is from an attached client (the attach client types
//     through send-text on its calls connection). Nothing a pane runs
//     holds one.
//   - [notify] is applied when the daemon starts and on apply-config (tuios
//     config apply, refused from inside a pane). While the daemon follows
//     the file, an edit applies at once only what narrows (enabled =
//     false, the triggers, a provider removed); a new address, a new
//     secret source, web_url, content and the timing wait for apply-config
//     and the log says so: a program in a pane can edit the file, and must
//     not send the person's Inbox elsewhere.
//   - token_env is read from the daemon's own environment (the one it
//     started with), on each send.

// pushSubQueue bounds the events waiting for the Notifier.
const pushSubQueue = 1024

type pushFollow struct {
	s *Server
	n *push.Notifier

	mu      sync.Mutex
	applied config.PushSettings // what the start or apply-config applied
}

func newPushFollow(s *Server, f *config.File) *pushFollow {
	ps := f.PushSettings()
	for _, p := range ps.Problems {
		s.warnf("config: %s", p)
	}
	p := &pushFollow{s: s, applied: ps}
	p.n = push.New(push.Options{
		Settings: ps,
		Clock:    s.clock,
		Logf:     s.opt.Logf,
		Send:     push.SendOptions{Getenv: s.getenv, Where: "the daemon's environment"},
		Lookup: func(id string) (inbox.Item, bool) {
			return s.att.Get(id)
		},
	})
	return p
}

// start follows the Inbox. Called once the Inbox was loaded: the items
// that came back from before the restart were sent (or not) then.
func (p *pushFollow) start() {
	sub := &subscriber{types: map[string]bool{"attention": true}, q: make(chan event, pushSubQueue)}
	p.s.hub.addWith(sub, nil)
	go p.follow(sub)
}

// follow feeds the Notifier until the hub closes (the daemon stops).
func (p *pushFollow) follow(sub *subscriber) {
	for ev := range sub.q {
		sub.mu.Lock()
		missed := sub.dropped
		sub.dropped = 0
		sub.mu.Unlock()
		if missed > 0 {
			p.n.Resync(p.s.att.List(inbox.ListOptions{}).Items)
		}
		if ev.Item != nil {
			p.n.Observe(inbox.Event{Op: inbox.Op(ev.Op), Item: *ev.Item})
		}
	}
}

func (p *pushFollow) stop() { p.n.Close() }

// typed notes that cn typed: the person, when cn comes from the process
// of an attached client.
func (p *pushFollow) typed(cn *conn) {
	if cn.link == nil && p.s.nonces.heldByClient(cn) {
		p.n.PersonTyped()
	}
}

// apply is apply-config: [notify] as the file says, in full. It returns
// one line per change, for the person who ran it.
func (p *pushFollow) apply(f *config.File) []string {
	ps := f.PushSettings()
	old := p.n.Settings() // in use: the file may have narrowed what was applied
	p.mu.Lock()
	p.applied = ps
	p.mu.Unlock()
	p.n.SetSettings(ps)
	lines := pushChanges(old, ps)
	for _, l := range lines {
		p.s.opt.Logf("config applied: %s", l)
	}
	return lines
}

// fileChanged is an edit of the file while the daemon runs: what narrows
// applies at once, the rest waits for apply-config and is returned, for
// the list of what waits (config_follow.go: pane-grants, the Inbox, the
// log).
func (p *pushFollow) fileChanged(f *config.File) (waiting []string) {
	file := f.PushSettings()
	if file.Broken {
		p.s.warnf("config changed: %s; [notify] stays as applied", strings.Join(file.Problems, "; "))
		return nil
	}
	p.mu.Lock()
	now, waiting := config.PushPending(p.applied, file)
	p.mu.Unlock()
	before := p.n.Settings()
	p.n.SetSettings(now)
	for _, l := range pushChanges(before, now) {
		p.s.opt.Logf("config changed: %s (applied at once)", l)
	}
	return waiting
}

// pushChanges says what differs between two settings, naming providers by
// their host only.
func pushChanges(old, ps config.PushSettings) []string {
	var out []string
	if old.Enabled != ps.Enabled {
		out = append(out, map[bool]string{true: "notify: turned on", false: "notify: turned off"}[ps.Enabled])
	}
	was, now := push.Providers(old), push.Providers(ps)
	for _, name := range []string{"ntfy", "pushover", "webhook"} {
		a, b := findProvider(was, name), findProvider(now, name)
		switch {
		case a == nil && b != nil:
			out = append(out, "notify: "+b.String()+" added")
		case a != nil && b == nil:
			out = append(out, "notify: "+a.String()+" removed")
		case a != nil && !sameProvider(old, ps, name):
			out = append(out, "notify: "+b.String()+" changed")
		}
	}
	var trig []string
	for _, k := range config.PushTriggerKinds() {
		if old.Triggers[k] != ps.Triggers[k] {
			trig = append(trig, fmt.Sprintf("%s %s", k, map[bool]string{true: "on", false: "off"}[ps.Triggers[k]]))
		}
	}
	if len(trig) > 0 {
		out = append(out, "notify: triggers "+strings.Join(trig, ", "))
	}
	if old.WebURL != ps.WebURL || old.TitleOnly != ps.TitleOnly || old.Quiet != ps.Quiet || old.Cooldown != ps.Cooldown ||
		old.MaxPerHour != ps.MaxPerHour || old.AllowHTTPRedirects != ps.AllowHTTPRedirects {
		out = append(out, "notify: web_url, content, timing or redirects changed")
	}
	for _, pr := range ps.Problems {
		out = append(out, "notify: "+pr)
	}
	return out
}

func findProvider(ps []push.Provider, name string) *push.Provider {
	for i := range ps {
		if ps[i].Name == name {
			return &ps[i]
		}
	}
	return nil
}

func sameProvider(a, b config.PushSettings, name string) bool {
	switch name {
	case "ntfy":
		return *a.Ntfy == *b.Ntfy
	case "pushover":
		return *a.Pushover == *b.Pushover
	}
	return *a.Webhook == *b.Webhook
}
