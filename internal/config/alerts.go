package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// AlertStates is [notifications.agent.states]: which states alert. A state
// left unset keeps its default: needs_input, errored and done alert;
// idle, working and unknown do not.
type AlertStates struct {
	NeedsInput *bool `toml:"needs_input"`
	Errored    *bool `toml:"errored"`
	Done       *bool `toml:"done"`
	Idle       *bool `toml:"idle"`
	Working    *bool `toml:"working"`
	Unknown    *bool `toml:"unknown"`
}

func (s AlertStates) on() map[string]bool {
	off := func(b *bool) bool { return b != nil && *b }
	return map[string]bool{
		"needs_input": On(s.NeedsInput), "errored": On(s.Errored), "done": On(s.Done),
		"idle": off(s.Idle), "working": off(s.Working), "unknown": off(s.Unknown),
	}
}

// AlertSounds is [notifications.agent.sounds]: the person's own cue file
// for a state, and a default one for the states without their own.
type AlertSounds struct {
	Default    string `toml:"default"`
	NeedsInput string `toml:"needs_input"`
	Errored    string `toml:"errored"`
	Done       string `toml:"done"`
	Idle       string `toml:"idle"`
	Working    string `toml:"working"`
	Unknown    string `toml:"unknown"`
}

func (s AlertSounds) byState() map[string]string {
	m := map[string]string{}
	if s.Default != "" {
		m["default"] = s.Default
	}
	for state, file := range map[string]string{
		"needs_input": s.NeedsInput, "errored": s.Errored, "done": s.Done,
		"idle": s.Idle, "working": s.Working, "unknown": s.Unknown,
	} {
		if file == "" {
			file = s.Default
		}
		if file != "" {
			m[state] = file
		}
	}
	return m
}

// QuietHours is a part of the day, in local time, when no alert is
// raised. The zero value is never quiet.
type QuietHours struct {
	// Start and End are minutes after midnight; End before Start spans
	// midnight ("22:00-07:00").
	Start, End int
	Set        bool
}

// Contains says whether t falls inside the quiet hours: from Start
// (included) to End (excluded), in t's own location. Equal ends are an
// empty span: "07:00-07:00" is never quiet.
func (q QuietHours) Contains(t time.Time) bool {
	if !q.Set || q.Start == q.End {
		return false
	}
	m := t.Hour()*60 + t.Minute()
	if q.Start < q.End {
		return m >= q.Start && m < q.End
	}
	return m >= q.Start || m < q.End
}

func (q QuietHours) String() string {
	if !q.Set {
		return ""
	}
	return fmt.Sprintf("%02d:%02d-%02d:%02d", q.Start/60, q.Start%60, q.End/60, q.End%60)
}

// ParseQuietHours reads "HH:MM-HH:MM" (24-hour clock, "" for none).
func ParseQuietHours(s string) (QuietHours, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return QuietHours{}, nil
	}
	from, to, ok := strings.Cut(s, "-")
	if !ok {
		return QuietHours{}, fmt.Errorf("%q is not HH:MM-HH:MM, such as \"22:00-07:00\"", s)
	}
	a, err := clockMinutes(from)
	if err != nil {
		return QuietHours{}, err
	}
	b, err := clockMinutes(to)
	if err != nil {
		return QuietHours{}, err
	}
	return QuietHours{Start: a, End: b, Set: true}, nil
}

// clockMinutes reads "HH:MM" as minutes after midnight.
func clockMinutes(s string) (int, error) {
	s = strings.TrimSpace(s)
	h, m, ok := strings.Cut(s, ":")
	bad := fmt.Errorf("%q is not a time of day HH:MM, such as \"07:30\"", s)
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, bad
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 || h[0] == '+' || h[0] == '-' || m[0] == '+' || m[0] == '-' {
		return 0, bad
	}
	return hh*60 + mm, nil
}

// soundMode is sound_mode with its default: audio.
func soundMode(s string) string {
	switch m := strings.ToLower(strings.TrimSpace(s)); m {
	case "bell", "both":
		return m
	}
	return "audio"
}

// seconds is a number of seconds from the file, def when unset.
func seconds(p *float64, def float64) time.Duration {
	v := def
	if p != nil {
		v = *p
	}
	return time.Duration(v * float64(time.Second))
}

// checkAlerts refuses the [notifications.agent] values that cannot mean
// anything, naming the key, so a typo is not silently a different alert.
func checkAlerts(a *AgentAlerts) error {
	switch strings.ToLower(strings.TrimSpace(a.SoundMode)) {
	case "", "audio", "bell", "both":
	default:
		return fmt.Errorf("notifications.agent.sound_mode: %q is not audio, bell or both", a.SoundMode)
	}
	for key, p := range map[string]*float64{"settle_seconds": a.SettleSeconds, "sound_cooldown_seconds": a.SoundCooldownSeconds} {
		if p != nil && (math.IsNaN(*p) || *p < 0 || *p > 3600) {
			return fmt.Errorf("notifications.agent.%s: %v is not a number of seconds from 0 to 3600", key, *p)
		}
	}
	if _, err := ParseQuietHours(a.QuietHours); err != nil {
		return fmt.Errorf("notifications.agent.quiet_hours: %v", err)
	}
	return nil
}
