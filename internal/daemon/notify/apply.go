package notify

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/push"
)

// Apply is apply-config: [notify] as the file says, in full. It returns
// one line per change, for the person who ran it.
func (f *Feature) Apply(file *config.File) []string {
	ps := file.PushSettings()
	old := f.n.Settings() // in use: the file may have narrowed what was applied
	f.mu.Lock()
	f.applied = ps
	f.mu.Unlock()
	f.n.SetSettings(ps)
	lines := changes(old, ps)
	log := f.h.Log()
	for _, l := range lines {
		log.Infof("config applied: %s", l)
	}
	return lines
}

// FileChanged is an edit of the file while the daemon runs: what
// narrows applies at once, the rest waits for apply-config and is
// returned, for the list of what waits (pane-grants, the Inbox, the
// log).
func (f *Feature) FileChanged(file *config.File) (waiting []string) {
	ps := file.PushSettings()
	log := f.h.Log()
	if ps.Broken {
		log.Warnf("config changed: %s; [notify] stays as applied", strings.Join(ps.Problems, "; "))
		return nil
	}
	f.mu.Lock()
	now, waiting := config.PushPending(f.applied, ps)
	f.mu.Unlock()
	before := f.n.Settings()
	f.n.SetSettings(now)
	for _, l := range changes(before, now) {
		log.Infof("config changed: %s (applied at once)", l)
	}
	return waiting
}

// changes says what differs between two settings, naming providers by
// their host only.
func changes(old, ps config.PushSettings) []string {
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
