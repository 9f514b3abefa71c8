package tui

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// The Alerts tab of the settings page: every key of [notifications.agent]
// (sound, sound_mode, quiet hours, which states alert, the cue files…)
// with its value and what it does, as tuios list-options lists them.
// enter on a row flips a switch, takes the next of a choice (sound_mode:
// audio, bell, both), or opens a line for a number or a text. Every
// change goes through the daemon's set-config verb, as tuios set-config
// does: the daemon is the one writer of the file, and refuses a bad
// value with the reason, which shows and leaves the file as it was. The
// client then follows the file as for any set-config (config_reload.go).
//
// Under the keys, what [notify] sends to a phone, read only: its
// addresses and secrets are never set over the socket (a pane could send
// the Inbox elsewhere), so the tab says to edit the file and run tuios
// config apply. Providers are named by their host only: the rest of an
// address, such as an ntfy topic, is a secret.

// alertsPrefix is the table the tab lists.
const alertsPrefix = "notifications.agent."

// alertOption is one key as list-options gives it.
type alertOption = proto.Option

// alertsTab is the tab's state.
type alertsTab struct {
	rows []alertOption
	path string
	at   int
	// note says why there are no rows: still reading, refused, or a
	// session on another machine.
	note string
	push []string // what [notify] sends, one line each
}

// readAlerts asks the daemon for the keys, and reads [notify] from the
// client's config file.
func (m *Model) readAlerts() {
	t := &m.agentsUI.page.alerts
	if m.link.host != "" {
		t.rows, t.note = nil, "The alerts are this machine's config file; the session is on "+m.link.host+
			". Run tuios set-config there, or attach to a session here."
		return
	}
	if len(t.rows) == 0 {
		t.note = "reading the alerts…"
	}
	m.call("list-options", proto.ListOptionsParams{Prefix: alertsPrefix}, "settings:alerts")
	t.push = m.pushLines()
}

// alertsReply takes list-options' answer.
func (m *Model) alertsReply(r replyMsg) {
	p := m.agentsUI.page
	if p == nil {
		return
	}
	t := &p.alerts
	if r.err != nil {
		t.rows, t.note = nil, "list-options: "+errText(r.err)
		return
	}
	var res proto.OptionList
	if err := json.Unmarshal(r.raw, &res); err != nil {
		t.note = "list-options: " + err.Error()
		return
	}
	t.rows, t.path, t.note = res.Options, res.Path, ""
	if len(t.rows) == 0 {
		t.note = "the daemon lists no " + alertsPrefix + " keys"
	}
	t.at = min(t.at, max(len(t.rows)-1, 0))
}

// alertsKey is a key of the page's table on the Alerts tab.
func (m *Model) alertsKey(act string) {
	p := m.agentsUI.page
	t := &p.alerts
	if len(t.rows) == 0 {
		return
	}
	switch act {
	case "settings.up":
		t.at = max(t.at-1, 0)
	case "settings.down":
		t.at = min(t.at+1, len(t.rows)-1)
	case "settings.top":
		t.at = 0
	case "settings.bottom":
		t.at = len(t.rows) - 1
	case "settings.do":
		o := t.rows[t.at]
		switch o.Type {
		case "bool":
			b, _ := o.Value.(bool)
			m.setAlert(o.Key, !b)
		case "enum":
			i := slices.Index(o.Accepted, valueText(o.Value))
			if len(o.Accepted) > 0 {
				m.setAlert(o.Key, o.Accepted[(i+1)%len(o.Accepted)])
			}
		default:
			m.openValueForm(o)
		}
	}
}

// openValueForm opens a line for a number or a text key.
func (m *Model) openValueForm(o alertOption) {
	help := o.Description
	if o.Type == "number" || o.Type == "int" {
		help = "a number: " + help
	}
	m.agentsUI.page.form = &settingsForm{
		title:    "Set " + o.Key,
		fields:   []formField{{label: shortKey(o.Key), text: []rune(valueText(o.Value)), help: help}},
		saveWord: "set",
		save: func(m *Model, f *settingsForm) string {
			// The daemon reads the text as the key's type and refuses
			// what it cannot take; the form waits for its answer.
			m.setAlert(o.Key, f.value(0))
			f.err = ""
			m.agentsUI.page.alerts.note = ""
			return formWaits
		},
	}
}

// formWaits is what a save returns when the daemon answers for it: the
// form stays open until the answer closes it or says why not.
const formWaits = "\x00waits"

// setAlert sets one key through the daemon's set-config verb.
func (m *Model) setAlert(key string, value any) {
	v, err := json.Marshal(value) // a bool or a string
	if err != nil {
		m.say("settings: %s: %v", key, err)
		return
	}
	m.call("set-config", proto.SetOptionParams{Key: key, Value: v}, "settings:set")
}

// setReply takes set-config's answer: the dock says what changed, or the
// open form (or the dock) why it was refused; the tab reads the keys again.
func (m *Model) setReply(r replyMsg) {
	p := m.agentsUI.page
	var f *settingsForm
	if p != nil && p.form != nil && p.form.saveWord == "set" {
		f = p.form
	}
	if r.err != nil {
		msg := "set-config: " + errText(r.err)
		if f != nil {
			f.err = msg
		} else {
			m.say("%s", msg)
		}
		return
	}
	var res proto.OptionSet
	json.Unmarshal(r.raw, &res)
	if res.Changed {
		m.say("%s = %s (was %s), in %s; it applies %s", res.Key, valueText(res.Value), valueText(res.Previous), res.Path, res.Applies)
	} else {
		m.say("%s is already %s; nothing was written", res.Key, valueText(res.Value))
	}
	if f != nil {
		p.form = nil
	}
	if p != nil && p.tab == tabAlerts {
		m.readAlerts()
	}
}

// errText is an error as the dock and the form show it: the daemon's
// message and its hint.
func errText(err error) string {
	var pe *proto.Error
	if errors.As(err, &pe) && pe.Hint != nil {
		h := pe.Hint
		var more []string
		if len(h.Accepted) > 0 {
			more = append(more, "accepted: "+strings.Join(h.Accepted, ", "))
		}
		if h.Detail != "" {
			more = append(more, h.Detail)
		}
		if len(more) > 0 {
			return clean(pe.Message + " (" + strings.Join(more, "; ") + ")")
		}
	}
	return clean(err.Error())
}

// valueText is a value as the file and tuios get-config write it.
func valueText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// shortKey is a key under the tab's table: sound, states.done.
func shortKey(key string) string { return strings.TrimPrefix(key, alertsPrefix) }

// alertsLines draw the tab's body in rows lines: the table's path, one
// line per key (the selected one in the selection's colours, reverse
// video without them), and what [notify] sends. rowOf[i] is the key line
// i shows, -1 for none: a click finds its key there.
func (m *Model) alertsLines(cols, rows int) (lines []string, rowOf []int) {
	t := &m.agentsUI.page.alerts
	a := m.opt.ASCIIOnly
	line := func(s string) string { return fitPlain(s, cols, a) }
	head := " [notifications.agent]: what an attached client does when an agent's state changes"
	if t.path != "" {
		head = " [notifications.agent] in " + t.path + "   * set in the file"
	}
	out := []string{line(head)}
	if t.note != "" {
		out = append(out, line(""), line(" "+t.note))
	}
	kw, vw := 0, 0
	for _, o := range t.rows {
		kw, vw = max(kw, len(shortKey(o.Key))), max(vw, len([]rune(valueText(o.Value)))+2)
	}
	kw, vw = min(kw, 28), min(max(vw, 7), 24)
	var list []string
	var listRow []int
	for i, o := range t.rows {
		listRow = append(listRow, i)
		v := valueText(o.Value)
		if o.Type == "string" && v == "" {
			v = `""`
		}
		if o.Set {
			v += " *"
		}
		l := line("   " + padRight(shortKey(o.Key), kw) + "  " + padRight(v, vw) + "  " + clean(o.Description))
		if i == t.at {
			l = sgrSelect + l + sgrReset
		}
		list = append(list, l)
	}
	var push []string
	if len(t.push) > 0 {
		push = append(push, line(""))
		for i, p := range t.push {
			if i == 0 {
				push = append(push, sgrBold+line(" "+p)+sgrReset)
			} else {
				push = append(push, sgrMuted+line("   "+p)+sgrReset)
			}
		}
	}
	// The list scrolls to keep the selected key in view; [notify] goes
	// under it as far as there is room.
	room := rows - len(out)
	if len(list) > room {
		first := max(t.at-room+1, 0)
		list, listRow = list[first:min(first+room, len(list))], listRow[first:min(first+room, len(list))]
	}
	for range out {
		rowOf = append(rowOf, -1)
	}
	out, rowOf = append(out, list...), append(rowOf, listRow...)
	for _, p := range push {
		if len(out) < rows {
			out, rowOf = append(out, p), append(rowOf, -1)
		}
	}
	return out, rowOf
}

// pushLines say what [notify] sends, from the client's config file: off,
// or the kinds that send and each provider by its host.
func (m *Model) pushLines() []string {
	const title = "Push notifications [notify], read only: edit the file, then tuios config apply"
	if m.opt.ConfigPath == "" {
		return nil
	}
	f, err := config.Load(m.opt.ConfigPath)
	if err != nil {
		return []string{title, "the config file does not read: " + clean(err.Error())}
	}
	ps := f.PushSettings()
	var to []string
	host := func(raw string) string {
		if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
			return " (" + u.Hostname() + ")"
		}
		return ""
	}
	if ps.Ntfy != nil {
		to = append(to, "ntfy"+host(ps.Ntfy.URL))
	}
	if ps.Pushover != nil {
		to = append(to, "Pushover"+host(ps.Pushover.URL))
	}
	if ps.Webhook != nil {
		to = append(to, "a webhook"+host(ps.Webhook.URL))
	}
	var kinds []string
	for _, k := range config.PushTriggerKinds() {
		if ps.Triggers[k] {
			kinds = append(kinds, k)
		}
	}
	out := []string{title}
	switch {
	case !ps.Enabled:
		out = append(out, "off (enabled = false)")
	case len(to) == 0:
		out = append(out, "no provider: set [notify.ntfy], [notify.pushover] or [notify.webhook] to get Inbox items on your phone")
	default:
		out = append(out, "sends "+strings.Join(kinds, ", ")+" to "+strings.Join(to, ", "))
	}
	for _, p := range ps.Problems {
		out = append(out, clean(p))
	}
	return out
}
