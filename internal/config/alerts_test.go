package config

import (
	"strings"
	"testing"
	"time"
)

// switches are the on/off keys of [notifications.agent].
type switches struct{ Enabled, Notify, Dock, Sound, SuppressFocused bool }

func switchesOf(a Alerts) switches {
	return switches{a.Enabled, a.Notify, a.Dock, a.Sound, a.SuppressFocused}
}

func TestAlertKeysDefaults(t *testing.T) {
	f, err := Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	a := f.Alerts()
	if a.SoundMode != "audio" || a.Settle != 2*time.Second || a.Cooldown != 3*time.Second || a.Quiet.Set || a.Command != "" || len(a.Sounds) != 0 {
		t.Fatalf("defaults: %+v", a)
	}
	for state, want := range map[string]bool{"needs_input": true, "errored": true, "done": true, "idle": false, "working": false, "unknown": false, "none": false} {
		if a.States[state] != want {
			t.Errorf("state %s alerts %v by default, want %v", state, a.States[state], want)
		}
	}
}

func TestAlertKeysAreRead(t *testing.T) {
	f, err := Parse([]byte(`
[notifications.agent]
sound = true
sound_mode = "both"
sound_cooldown_seconds = 0.5
settle_seconds = 5
quiet_hours = "22:00-07:00"
command = "notify-send tuios"
[notifications.agent.states]
needs_input = false
done = false
idle = true
[notifications.agent.sounds]
default = "/s/cue.wav"
errored = "/s/err.wav"
`))
	if err != nil {
		t.Fatal(err)
	}
	if u := f.Unknown(); len(u) != 0 {
		t.Fatalf("documented keys reported unknown: %v", u)
	}
	a := f.Alerts()
	if a.SoundMode != "both" || a.Cooldown != 500*time.Millisecond || a.Settle != 5*time.Second || a.Command != "notify-send tuios" {
		t.Fatalf("read: %+v", a)
	}
	if q := a.Quiet; q.String() != "22:00-07:00" {
		t.Fatalf("quiet hours %+v", q)
	}
	if a.States["needs_input"] || a.States["done"] || !a.States["errored"] || !a.States["idle"] || a.States["working"] {
		t.Fatalf("states %v", a.States)
	}
	if a.Sounds["errored"] != "/s/err.wav" || a.Sounds["done"] != "/s/cue.wav" {
		t.Fatalf("sounds %v", a.Sounds)
	}
	// A key this build does not read is still reported.
	f, _ = Parse([]byte("[notifications.agent]\nsettle = 3\n[notifications.agent.states]\nbusy = true\n"))
	if got := strings.Join(f.Unknown(), " "); got != "notifications.agent.settle notifications.agent.states.busy" {
		t.Fatalf("unknown = %q", got)
	}
}

func TestAlertKeysRefused(t *testing.T) {
	for _, c := range []struct{ file, key string }{
		{`sound_mode = "loud"`, "sound_mode"},
		{`settle_seconds = -1`, "settle_seconds"},
		{`sound_cooldown_seconds = 99999`, "sound_cooldown_seconds"},
		{`quiet_hours = "22-7"`, "quiet_hours"},
		{`quiet_hours = "25:00-07:00"`, "quiet_hours"},
		{`quiet_hours = "22:00"`, "quiet_hours"},
	} {
		_, err := Parse([]byte("[notifications.agent]\n" + c.file + "\n"))
		if err == nil || !strings.Contains(err.Error(), "notifications.agent."+c.key) {
			t.Errorf("%s: %v", c.file, err)
		}
	}
}

func TestQuietHoursBoundaries(t *testing.T) {
	at := func(h, m int) time.Time { return time.Date(2026, 12, 2, h, m, 30, 0, time.Local) }
	night, _ := ParseQuietHours("22:00-07:00")
	day, _ := ParseQuietHours(" 09:30 - 17:00 ")
	never, _ := ParseQuietHours("07:00-07:00")
	for _, c := range []struct {
		q    QuietHours
		h, m int
		want bool
	}{
		{night, 21, 59, false}, {night, 22, 0, true}, {night, 23, 59, true}, {night, 0, 0, true},
		{night, 6, 59, true}, {night, 7, 0, false}, {night, 12, 0, false},
		{day, 9, 29, false}, {day, 9, 30, true}, {day, 16, 59, true}, {day, 17, 0, false},
		{never, 7, 0, false}, {never, 3, 0, false}, {QuietHours{}, 23, 0, false},
	} {
		if got := c.q.Contains(at(c.h, c.m)); got != c.want {
			t.Errorf("%s at %02d:%02d: quiet %v, want %v", c.q, c.h, c.m, got, c.want)
		}
	}
}

func FuzzParseQuietHours(f *testing.F) {
	for _, s := range []string{"22:00-07:00", "", "9:5-1:00", "00:00-23:59", "-", "+1:00-2:00", "24:00-01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuietHours(s)
		if err != nil {
			return
		}
		if q.Set && (q.Start < 0 || q.Start >= 24*60 || q.End < 0 || q.End >= 24*60) {
			t.Fatalf("%q read as %+v", s, q)
		}
		if q.Set {
			// What it prints reads back the same.
			if r, err := ParseQuietHours(q.String()); err != nil || r != q {
				t.Fatalf("%q -> %q -> %+v %v", s, q.String(), r, err)
			}
		}
	})
}
