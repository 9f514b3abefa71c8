package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// The [notify] table: push notifications of Inbox items to the person's
// phone. This file owns its schema, its defaults and its bounds; package
// internal/push sends.
//
// [notify] is decoded on its own (File.Push stays a toml.Primitive until
// Parse decodes it): a mistake in it (a string where a number goes, an
// unknown content) is a problem of [notify] alone, listed by
// PushSettings.Problems, and never makes the rest of the file unreadable.
// Every address and secret in it is private: no problem, log line or
// error here repeats a value of [notify], only key names.

// Push is the [notify] table as written.
type Push struct {
	// Enabled (default true) sends at all.
	Enabled *bool `toml:"enabled"`
	// WebURL is tuios-web's address: a notification links to
	// WEB_URL/inbox?item=ID. "" links nothing.
	WebURL string `toml:"web_url"`
	// Content is "summary" (default: the kind, the pane's name and the
	// Inbox line) or "title" (the kind and the session only).
	Content string `toml:"content"`
	// QuietActiveSeconds (default 120) holds a notification while the
	// person typed in an attached client that recently; 0 sends at once.
	QuietActiveSeconds *int `toml:"quiet_active_seconds"`
	// CooldownSeconds (default 60) spaces notifications of one pane and
	// kind.
	CooldownSeconds *int `toml:"cooldown_seconds"`
	// MaxPerHour (default 30; 0 no limit) caps notifications per hour.
	MaxPerHour *int `toml:"max_per_hour"`
	// AllowHTTPRedirects lets a provider redirect a send to plain http.
	AllowHTTPRedirects bool `toml:"allow_http_redirects"`

	Triggers PushTriggers  `toml:"triggers"`
	Ntfy     *NtfyTable    `toml:"ntfy"`
	Pushover *PushoverSpec `toml:"pushover"`
	Webhook  *WebhookTable `toml:"webhook"`
}

// PushTriggers is [notify.triggers]: which Inbox kinds send. approval,
// plan, question and ask are on when unset; mail, errored and finished
// off.
type PushTriggers struct {
	Approval *bool `toml:"approval"`
	Plan     *bool `toml:"plan"`
	Question *bool `toml:"question"`
	Ask      *bool `toml:"ask"`
	Mail     *bool `toml:"mail"`
	Errored  *bool `toml:"errored"`
	Finished *bool `toml:"finished"`
}

// SecretSource names where a secret is read, the first one set of: the
// value itself, an environment variable of the reading process (the
// daemon's for pushes, the shell's for tuios notify test), or a file of
// mode 0600 or 0400.
type SecretSource struct {
	Value string
	Env   string
	File  string
}

// Set reports whether any source is named.
func (s SecretSource) Set() bool { return s.Value != "" || s.Env != "" || s.File != "" }

// NtfyTable is [notify.ntfy].
type NtfyTable struct {
	// URL is the server and the topic: https://ntfy.sh/TOPIC. The topic
	// is a secret (anyone who knows it reads the notifications).
	URL       string `toml:"url"`
	Token     string `toml:"token"`
	TokenEnv  string `toml:"token_env"`
	TokenFile string `toml:"token_file"`
	// Priority is 1 to 5; unset sends 4 for items that wait for the
	// person and 3 for the others.
	Priority int `toml:"priority"`
}

// PushoverSpec is [notify.pushover].
type PushoverSpec struct {
	User      string `toml:"user"`
	UserEnv   string `toml:"user_env"`
	UserFile  string `toml:"user_file"`
	Token     string `toml:"token"`
	TokenEnv  string `toml:"token_env"`
	TokenFile string `toml:"token_file"`
	// URL is a relay that speaks Pushover's messages API; "" is
	// Pushover's own.
	URL string `toml:"url"`
}

// WebhookTable is [notify.webhook].
type WebhookTable struct {
	URL       string `toml:"url"`
	Token     string `toml:"token"`
	TokenEnv  string `toml:"token_env"`
	TokenFile string `toml:"token_file"`
}

// Defaults and bounds of [notify].
const (
	PushQuietDefault    = 120 * time.Second
	PushCooldownDefault = 60 * time.Second
	PushMaxPerHour      = 30
	// pushSecondsMax bounds quiet_active_seconds and cooldown_seconds (a
	// day); pushPerHourMax bounds max_per_hour.
	pushSecondsMax = 86400
	pushPerHourMax = 3600
	// PushoverDefaultURL is Pushover's messages API.
	PushoverDefaultURL = "https://api.pushover.net/1/messages.json"
)

// PushTriggerKinds are the Inbox kinds [notify.triggers] names, in order.
func PushTriggerKinds() []string {
	return []string{"approval", "plan", "question", "ask", "mail", "errored", "finished"}
}

// PushSettings is [notify] with its defaults applied and its values
// checked. A provider with a problem is left out (nil) and its problem
// listed; a top-level key with a problem takes its default.
type PushSettings struct {
	Enabled            bool
	WebURL             string
	TitleOnly          bool // content = "title"
	Quiet              time.Duration
	Cooldown           time.Duration
	MaxPerHour         int // 0: no limit
	AllowHTTPRedirects bool
	// Triggers says which kinds send: kind → on, every kind of
	// PushTriggerKinds present.
	Triggers map[string]bool

	Ntfy     *NtfySettings
	Pushover *PushoverSettings
	Webhook  *WebhookSettings

	// Problems are the mistakes found, one sentence each, naming keys,
	// never their values.
	Problems []string
	// Broken is [notify] that could not be read at all (a value of the
	// wrong type): every key is at its default and no provider is set.
	Broken bool
}

// NtfySettings is a checked [notify.ntfy].
type NtfySettings struct {
	URL      string
	Token    SecretSource
	Priority int // 0: by the item
}

// PushoverSettings is a checked [notify.pushover].
type PushoverSettings struct {
	URL   string
	User  SecretSource
	Token SecretSource
}

// WebhookSettings is a checked [notify.webhook].
type WebhookSettings struct {
	URL   string
	Token SecretSource
}

// decodePush reads [notify] from its primitive; a mistake is a problem of
// [notify], kept for PushSettings.
func (f *File) decodePush(md toml.MetaData) {
	if !md.IsDefined("notify") {
		return
	}
	var p Push
	if err := md.PrimitiveDecode(f.PushTable, &p); err != nil {
		f.push = Push{}
		f.pushErr = scrubTOMLError(err) + ": no notification is sent until it is fixed"
		return
	}
	f.push = p
}

// hideNotifyValue keeps a syntax error in [notify] from quoting the text
// it tripped on (a token written without quotes, say): the line and the
// key are enough to find it, and the error reaches the daemon's log.
func hideNotifyValue(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) && (pe.LastKey == "notify" || strings.HasPrefix(pe.LastKey, "notify.")) {
		return fmt.Errorf("toml: line %d (last key %q): the value does not parse (its text is not shown: [notify] holds addresses and secrets; a string goes in quotes)",
			pe.Position.Line, pe.LastKey)
	}
	return err
}

// scrubTOMLError keeps a decode error's key and type, never the value it
// quotes (an address or a token).
func scrubTOMLError(err error) string {
	msg := err.Error()
	// BurntSushi's messages quote the offending value after "incompatible
	// types" or in "cannot decode"; keep the key path only.
	if i := strings.Index(msg, "toml: "); i >= 0 {
		msg = msg[i+len("toml: "):]
	}
	if k := quotedKey(msg); k != "" {
		return k + " has the wrong type (see tuios --skill config)"
	}
	return "[notify] has a value of the wrong type (see tuios --skill config)"
}

// quotedKey finds the key a decode error names: the text between the
// first pair of double quotes after "field", "key" or at the start.
func quotedKey(msg string) string {
	for _, lead := range []string{"field \"", "key \"", "\""} {
		if i := strings.Index(msg, lead); i >= 0 {
			rest := msg[i+len(lead):]
			if j := strings.IndexByte(rest, '"'); j > 0 && j <= 64 && !strings.ContainsAny(rest[:j], "/: @") {
				return rest[:j]
			}
		}
	}
	return ""
}

// PushSettings is [notify] checked, with every default applied.
func (f *File) PushSettings() PushSettings {
	p := f.push
	s := PushSettings{
		Enabled: On(p.Enabled), Quiet: PushQuietDefault, Cooldown: PushCooldownDefault,
		MaxPerHour: PushMaxPerHour, AllowHTTPRedirects: p.AllowHTTPRedirects, Triggers: map[string]bool{},
	}
	if f.pushErr != "" {
		s.Problems = append(s.Problems, f.pushErr)
		s.Broken = true
	}
	problem := func(format string, a ...any) { s.Problems = append(s.Problems, fmt.Sprintf(format, a...)) }
	if p.WebURL != "" {
		if why := checkPushURL(p.WebURL, false); why != "" {
			problem("notify.web_url %s: notifications carry no link", why)
		} else {
			s.WebURL = strings.TrimRight(p.WebURL, "/")
		}
	}
	switch strings.ToLower(strings.TrimSpace(p.Content)) {
	case "", "summary":
	case "title":
		s.TitleOnly = true
	default:
		problem(`notify.content is "summary" or "title": "summary" is used`)
	}
	secs := func(key string, v *int, def time.Duration) time.Duration {
		switch {
		case v == nil:
			return def
		case *v < 0:
			problem("notify.%s is negative: %d s is used", key, int(def/time.Second))
			return def
		case *v > pushSecondsMax:
			problem("notify.%s is over %d (a day): %d is used", key, pushSecondsMax, pushSecondsMax)
			return pushSecondsMax * time.Second
		}
		return time.Duration(*v) * time.Second
	}
	s.Quiet = secs("quiet_active_seconds", p.QuietActiveSeconds, PushQuietDefault)
	s.Cooldown = secs("cooldown_seconds", p.CooldownSeconds, PushCooldownDefault)
	if v := p.MaxPerHour; v != nil {
		switch {
		case *v < 0:
			problem("notify.max_per_hour is negative: %d is used (0 is no limit)", PushMaxPerHour)
		case *v > pushPerHourMax:
			problem("notify.max_per_hour is over %d: %d is used", pushPerHourMax, pushPerHourMax)
			s.MaxPerHour = pushPerHourMax
		default:
			s.MaxPerHour = *v
		}
	}
	t := p.Triggers
	for kind, v := range map[string]*bool{"approval": t.Approval, "plan": t.Plan, "question": t.Question, "ask": t.Ask} {
		s.Triggers[kind] = On(v)
	}
	for kind, v := range map[string]*bool{"mail": t.Mail, "errored": t.Errored, "finished": t.Finished} {
		s.Triggers[kind] = v != nil && *v
	}

	if n := p.Ntfy; n != nil {
		ok := true
		if n.URL == "" {
			problem("notify.ntfy.url is missing (https://ntfy.sh/YOUR-TOPIC): ntfy is off")
			ok = false
		} else if why := checkPushURL(n.URL, true); why != "" {
			problem("notify.ntfy.url %s: ntfy is off", why)
			ok = false
		}
		if n.Priority < 0 || n.Priority > 5 {
			problem("notify.ntfy.priority is 1 to 5: ntfy is off")
			ok = false
		}
		if ok {
			s.Ntfy = &NtfySettings{URL: n.URL, Token: SecretSource{n.Token, n.TokenEnv, n.TokenFile}, Priority: n.Priority}
		}
	}
	if po := p.Pushover; po != nil {
		ok := true
		u := po.URL
		if u == "" {
			u = PushoverDefaultURL
		} else if why := checkPushURL(u, false); why != "" {
			problem("notify.pushover.url %s: pushover is off", why)
			ok = false
		}
		user := SecretSource{po.User, po.UserEnv, po.UserFile}
		token := SecretSource{po.Token, po.TokenEnv, po.TokenFile}
		if !user.Set() {
			problem("notify.pushover needs user, user_env or user_file (your user key): pushover is off")
			ok = false
		}
		if !token.Set() {
			problem("notify.pushover needs token, token_env or token_file (your application's API token): pushover is off")
			ok = false
		}
		if ok {
			s.Pushover = &PushoverSettings{URL: u, User: user, Token: token}
		}
	}
	if w := p.Webhook; w != nil {
		switch why := checkPushURL(w.URL, false); {
		case w.URL == "":
			problem("notify.webhook.url is missing: the webhook is off")
		case why != "":
			problem("notify.webhook.url %s: the webhook is off", why)
		default:
			s.Webhook = &WebhookSettings{URL: w.URL, Token: SecretSource{w.Token, w.TokenEnv, w.TokenFile}}
		}
	}
	return s
}

// checkPushURL says what is wrong with an address of [notify] ("" when
// nothing is), without repeating it. needPath asks for a path past "/"
// (ntfy's topic).
func checkPushURL(raw string, needPath bool) string {
	if len(raw) > 2048 {
		return "is longer than 2048 bytes"
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "is not an address"
	case u.Scheme != "https" && u.Scheme != "http":
		return "is not an https:// (or http://) address"
	case u.Host == "" || u.Hostname() == "":
		return "names no host"
	case u.Fragment != "":
		return "has a #fragment"
	case needPath && strings.Trim(u.Path, "/") == "":
		return "names no topic (https://ntfy.sh/YOUR-TOPIC)"
	}
	return ""
}

// PushPending compares what the file asks for with what was applied and
// says what may apply at once and what waits for tuios config apply: a
// new address, a new secret source, a provider added, web_url, content
// and the timing keys wait (a program in a pane can edit the file, and
// must not redirect the person's notifications); turning pushes off,
// trigger changes and a provider removed apply at once. The result is the
// settings to use now, and one line per change that waits.
func PushPending(applied, file PushSettings) (now PushSettings, waiting []string) {
	now = applied
	now.Problems = nil
	now.Triggers = map[string]bool{}
	for k, v := range file.Triggers {
		now.Triggers[k] = v
	}
	now.Enabled = applied.Enabled && file.Enabled
	if file.Enabled && !applied.Enabled {
		waiting = append(waiting, "notify.enabled = true")
	}
	if file.Ntfy == nil {
		now.Ntfy = nil
	} else if applied.Ntfy == nil || *applied.Ntfy != *file.Ntfy {
		waiting = append(waiting, "[notify.ntfy] (a new address, secret source or priority)")
	}
	if file.Pushover == nil {
		now.Pushover = nil
	} else if applied.Pushover == nil || *applied.Pushover != *file.Pushover {
		waiting = append(waiting, "[notify.pushover] (a new address or secret source)")
	}
	if file.Webhook == nil {
		now.Webhook = nil
	} else if applied.Webhook == nil || *applied.Webhook != *file.Webhook {
		waiting = append(waiting, "[notify.webhook] (a new address or secret source)")
	}
	if file.WebURL != applied.WebURL {
		waiting = append(waiting, "notify.web_url")
	}
	if file.TitleOnly != applied.TitleOnly {
		waiting = append(waiting, "notify.content")
	}
	if file.Quiet != applied.Quiet || file.Cooldown != applied.Cooldown || file.MaxPerHour != applied.MaxPerHour ||
		file.AllowHTTPRedirects != applied.AllowHTTPRedirects {
		waiting = append(waiting, "notify timing or redirects (quiet_active_seconds, cooldown_seconds, max_per_hour, allow_http_redirects)")
	}
	return now, waiting
}
