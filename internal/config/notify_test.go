package config

import (
	"strings"
	"testing"
	"time"
)

func TestPushDefaults(t *testing.T) {
	f, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := f.PushSettings()
	if !s.Enabled || s.TitleOnly || s.Quiet != 120*time.Second || s.Cooldown != 60*time.Second || s.MaxPerHour != 30 ||
		s.AllowHTTPRedirects || s.WebURL != "" || s.Ntfy != nil || s.Pushover != nil || s.Webhook != nil || len(s.Problems) != 0 {
		t.Fatalf("defaults: %+v", s)
	}
	want := map[string]bool{"approval": true, "plan": true, "question": true, "ask": true, "mail": false, "errored": false, "finished": false}
	for _, k := range PushTriggerKinds() {
		if s.Triggers[k] != want[k] {
			t.Fatalf("trigger %s: %v", k, s.Triggers[k])
		}
	}
}

func TestPushTables(t *testing.T) {
	f, err := Parse([]byte(`
[notify]
web_url = "https://term.example.com/"
content = "title"
quiet_active_seconds = 0
cooldown_seconds = 5
max_per_hour = 0
allow_http_redirects = true
[notify.triggers]
mail = true
ask = false
[notify.ntfy]
url = "https://ntfy.sh/my-topic"
token_env = "NTFY_TOKEN"
priority = 5
[notify.pushover]
user_file = "~/.config/tuios/pushover-user"
token = "abc"
[notify.webhook]
url = "https://hooks.example.com/x"
token_file = "/run/secrets/hook"
`))
	if err != nil {
		t.Fatal(err)
	}
	s := f.PushSettings()
	if len(s.Problems) != 0 || len(f.Unknown()) != 0 {
		t.Fatalf("problems %v unknown %v", s.Problems, f.Unknown())
	}
	if s.WebURL != "https://term.example.com" || !s.TitleOnly || s.Quiet != 0 || s.Cooldown != 5*time.Second || s.MaxPerHour != 0 ||
		!s.AllowHTTPRedirects || !s.Triggers["mail"] || s.Triggers["ask"] || !s.Triggers["approval"] {
		t.Fatalf("%+v", s)
	}
	if *s.Ntfy != (NtfySettings{URL: "https://ntfy.sh/my-topic", Token: SecretSource{Env: "NTFY_TOKEN"}, Priority: 5}) {
		t.Fatalf("ntfy %+v", *s.Ntfy)
	}
	if *s.Pushover != (PushoverSettings{URL: PushoverDefaultURL, User: SecretSource{File: "~/.config/tuios/pushover-user"}, Token: SecretSource{Value: "abc"}}) {
		t.Fatalf("pushover %+v", *s.Pushover)
	}
	if *s.Webhook != (WebhookSettings{URL: "https://hooks.example.com/x", Token: SecretSource{File: "/run/secrets/hook"}}) {
		t.Fatalf("webhook %+v", *s.Webhook)
	}
}

// A mistake in [notify] is a problem of [notify] alone: the rest of the
// file is read, the key takes its default or the provider is off, and no
// problem repeats a value (an address or a token).
func TestPushProblems(t *testing.T) {
	for _, c := range []struct {
		file, want string
		check      func(PushSettings) bool
	}{
		{"[notify]\nquiet_active_seconds = -5\n", "notify.quiet_active_seconds is negative", func(s PushSettings) bool { return s.Quiet == 120*time.Second }},
		{"[notify]\ncooldown_seconds = 999999\n", "over 86400", func(s PushSettings) bool { return s.Cooldown == 86400*time.Second }},
		{"[notify]\nmax_per_hour = 99999\n", "over 3600", func(s PushSettings) bool { return s.MaxPerHour == 3600 }},
		{"[notify]\ncontent = \"everything\"\n", `notify.content is "summary" or "title"`, func(s PushSettings) bool { return !s.TitleOnly }},
		{"[notify]\nweb_url = \"ftp://secret-host/x\"\n", "notify.web_url is not an https://", func(s PushSettings) bool { return s.WebURL == "" }},
		{"[notify.ntfy]\nurl = \"https://ntfy.sh/\"\n", "names no topic", func(s PushSettings) bool { return s.Ntfy == nil }},
		{"[notify.ntfy]\nurl = \"https://ntfy.sh/secret-topic\"\npriority = 7\n", "priority is 1 to 5", func(s PushSettings) bool { return s.Ntfy == nil }},
		{"[notify.ntfy]\ntoken = \"tk_secret\"\n", "notify.ntfy.url is missing", func(s PushSettings) bool { return s.Ntfy == nil }},
		{"[notify.pushover]\ntoken = \"tk_secret\"\n", "needs user, user_env or user_file", func(s PushSettings) bool { return s.Pushover == nil }},
		{"[notify.pushover]\nuser = \"u_secret\"\n", "needs token, token_env or token_file", func(s PushSettings) bool { return s.Pushover == nil }},
		{"[notify.webhook]\nurl = \"secret-host/x\"\n", "notify.webhook.url is not an https://", func(s PushSettings) bool { return s.Webhook == nil }},
		{"[notify.ntfy]\nurl = \"https://ntfy.sh/secret-topic\"\npriority = \"tk_secret\"\n", "notify.ntfy.priority has the wrong type",
			func(s PushSettings) bool { return s.Ntfy == nil }},
	} {
		f, err := Parse([]byte("[daemon]\nrestore = false\n" + c.file))
		if err != nil {
			t.Fatalf("%q: the whole file failed: %v", c.file, err)
		}
		if f.RestoreSessions() {
			t.Fatalf("%q: the rest of the file was not read", c.file)
		}
		s := f.PushSettings()
		got := strings.Join(s.Problems, "; ")
		if !strings.Contains(got, c.want) || !c.check(s) {
			t.Fatalf("%q: problems %q, settings %+v", c.file, got, s)
		}
		for _, secret := range []string{"secret", "ftp://"} {
			if strings.Contains(got, secret) {
				t.Fatalf("%q: a problem repeats a value: %s", c.file, got)
			}
		}
	}
}

// What a program in a pane may change by editing the file: turning
// pushes off, the triggers and removing a provider apply at once; a new
// address, a new secret source, web_url, content and the timing wait.
func TestPushPending(t *testing.T) {
	read := func(s string) PushSettings {
		f, err := Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return f.PushSettings()
	}
	applied := read("[notify.ntfy]\nurl = \"https://ntfy.sh/mine\"\n[notify.webhook]\nurl = \"https://h.example/x\"\n")

	now, waiting := PushPending(applied, read("[notify]\nenabled = false\n[notify.triggers]\nfinished = true\n[notify.ntfy]\nurl = \"https://ntfy.sh/mine\"\n"))
	if now.Enabled || !now.Triggers["finished"] || now.Webhook != nil || now.Ntfy == nil || len(waiting) != 0 {
		t.Fatalf("narrowing: %+v waiting %v", now, waiting)
	}

	now, waiting = PushPending(applied, read("[notify]\nweb_url = \"https://evil.example\"\ncontent = \"title\"\nquiet_active_seconds = 0\n"+
		"[notify.ntfy]\nurl = \"https://evil.example/theirs\"\n[notify.webhook]\nurl = \"https://h.example/x\"\ntoken_env = \"X\"\n[notify.pushover]\nuser = \"u\"\ntoken = \"t\"\n"))
	if now.Ntfy.URL != "https://ntfy.sh/mine" || now.Webhook.Token.Set() || now.Pushover != nil || now.WebURL != "" || now.TitleOnly || now.Quiet != applied.Quiet {
		t.Fatalf("widening applied at once: %+v", now)
	}
	got := strings.Join(waiting, "; ")
	for _, want := range []string{"[notify.ntfy]", "[notify.webhook]", "[notify.pushover]", "notify.web_url", "notify.content", "timing"} {
		if !strings.Contains(got, want) {
			t.Fatalf("waiting %q lacks %s", got, want)
		}
	}
	if strings.Contains(got, "evil") {
		t.Fatalf("waiting repeats an address: %s", got)
	}

	off := applied
	off.Enabled = false
	now, waiting = PushPending(off, read("[notify.ntfy]\nurl = \"https://ntfy.sh/mine\"\n[notify.webhook]\nurl = \"https://h.example/x\"\n"))
	if now.Enabled || len(waiting) != 1 || waiting[0] != "notify.enabled = true" {
		t.Fatalf("turning on waits: %+v %v", now.Enabled, waiting)
	}
}

// set-config refuses every [notify] key, naming why; get-config and
// list-options know none of them.
func TestNotifyIsNoOption(t *testing.T) {
	for _, k := range []string{"notify.enabled", "notify.ntfy.url", "notify.ntfy.token", "notify.triggers.mail", "notify"} {
		_, err := LookupOption(k)
		oe, ok := err.(*OptionError)
		if !ok || oe.Kind != OptionExcluded || !strings.Contains(oe.Why, "tuios config apply") {
			t.Fatalf("%s: %v", k, err)
		}
	}
	for _, o := range Options() {
		if strings.HasPrefix(o.Key, "notify.") {
			t.Fatalf("option %s", o.Key)
		}
	}
}

// A syntax error in [notify] names the line and the key, never the text.
func TestNotifySyntaxErrorHidesTheValue(t *testing.T) {
	_, err := Parse([]byte("[notify.ntfy]\nurl = \"https://ntfy.sh/x\"\ntoken = tk_SECRET123\n"))
	if err == nil || strings.Contains(err.Error(), "tk") || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "notify.ntfy.token") {
		t.Fatalf("%v", err)
	}
	// Elsewhere the parser's own words stay.
	if _, err := Parse([]byte("[ui]\nrail = left\n")); err == nil || !strings.Contains(err.Error(), "left") {
		t.Fatalf("%v", err)
	}
}
