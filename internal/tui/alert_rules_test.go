package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/proto"
)

// runCmd runs cmd and the commands of every batch in it, and returns
// their messages. It is only for commands that hold no timer.
func runCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, runCmd(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// rawOut is what the messages write to the outer terminal.
func rawOut(msgs []tea.Msg) string {
	var b strings.Builder
	for _, m := range msgs {
		if r, ok := m.(tea.RawMsg); ok {
			s, _ := r.Msg.(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// setState moves pane w9 of session api to state, as a layout would.
func setState(m *Model, state, message string) tea.Cmd {
	l := m.layout
	l.Agents = []proto.AttachAgent{{Session: "api", Window: "w9", Name: "codex", State: state, Message: message, Harness: "codex"}}
	return m.alerts(l)
}

func TestAlertSettleDropsAShortState(t *testing.T) {
	t.Parallel()
	m, _, clk := newTest(t, Options{Notify: true, Alert: AlertRules{Settle: 5 * time.Second}})
	if cmd := setState(m, "needs_input", ""); cmd == nil {
		t.Fatal("no timer armed for the settle time")
	}
	if strings.Contains(plain(m)[19], "needs you") {
		t.Fatal("the alert was raised before the settle time")
	}
	clk.t = clk.t.Add(time.Second)
	setState(m, "working", "") // within 5 s: the alert is dropped
	clk.t = clk.t.Add(10 * time.Second)
	if out := rawOut(runCmd(m.alertDue())); out != "" || strings.Contains(plain(m)[19], "needs you") {
		t.Fatalf("a needs_input that lasted 1 s alerted: %q / %q", out, plain(m)[19])
	}

	// A state that holds for the settle time alerts once it is over.
	setState(m, "errored", "")
	clk.t = clk.t.Add(4 * time.Second)
	if out := rawOut(runCmd(m.alertDue())); out != "" {
		t.Fatalf("alerted after 4 s of 5: %q", out)
	}
	clk.t = clk.t.Add(time.Second)
	if out := rawOut(runCmd(m.alertDue())); out != "\x1b]9;codex in api stopped on an error\a" {
		t.Fatalf("after 5 s: %q", out)
	}
	if !strings.Contains(plain(m)[19], "codex in api stopped on an error") {
		t.Fatalf("dock %q", plain(m)[19])
	}
	// Raised once: nothing is left pending.
	if out := rawOut(runCmd(m.alertDue())); out != "" {
		t.Fatalf("raised twice: %q", out)
	}
}

func TestAlertStatesTable(t *testing.T) {
	t.Parallel()
	f, err := config.Parse([]byte("[notifications.agent]\nsettle_seconds = 0\n[notifications.agent.states]\ndone = false\nidle = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{}
	opt.Configure(f)
	m, _, _ := newTest(t, opt)
	if out := rawOut(runCmd(setState(m, "done", ""))); out != "" {
		t.Fatalf("done is off in [notifications.agent.states] but alerted: %q", out)
	}
	if out := rawOut(runCmd(setState(m, "idle", ""))); out != "\x1b]9;codex in api is idle\a" {
		t.Fatalf("idle is on but: %q", out)
	}
	if out := rawOut(runCmd(setState(m, "errored", ""))); !strings.Contains(out, "stopped on an error") {
		t.Fatalf("errored keeps its default but: %q", out)
	}
}

func TestAlertQuietHours(t *testing.T) {
	t.Parallel()
	q, _ := config.ParseQuietHours("22:00-07:00")
	m, _, clk := newTest(t, Options{Notify: true, Bell: true, Alert: AlertRules{Quiet: q, SoundMode: "bell"}})
	clk.t = time.Date(2026, 12, 2, 23, 30, 0, 0, time.Local)
	if out := rawOut(runCmd(setState(m, "needs_input", ""))); out != "" || strings.Contains(plain(m)[19], "needs you") {
		t.Fatalf("an alert in quiet hours: %q / %q", out, plain(m)[19])
	}
	clk.t = time.Date(2026, 12, 3, 7, 0, 0, 0, time.Local) // the end is not quiet
	if out := rawOut(runCmd(setState(m, "errored", ""))); out != "\a\x1b]9;codex in api stopped on an error\a" {
		t.Fatalf("at 07:00: %q", out)
	}
}

func TestAlertCommandRuns(t *testing.T) {
	dir := t.TempDir()
	out, evil := filepath.Join(dir, "out"), filepath.Join(dir, "evil")
	t.Setenv("ALERT_TEST_OUT", out)
	m, _, _ := newTest(t, Options{Alert: AlertRules{
		Command: `printf '%s|%s|%s|%s|%s' "$TUIOS_ALERT_SESSION" "$TUIOS_ALERT_WINDOW" "$TUIOS_ALERT_STATE" "$TUIOS_ALERT_MESSAGE" "$TUIOS_ALERT_TEXT" > "$ALERT_TEST_OUT"`}})
	// The message is pane text: it must reach the command as data only.
	msg := "ok'; touch " + evil + "; echo '$(touch " + evil + ")"
	msgs := runCmd(setState(m, "needs_input", msg))
	var ran *alertRanMsg
	for _, v := range msgs {
		if r, ok := v.(alertRanMsg); ok {
			ran = &r
		}
	}
	if ran == nil || ran.err != nil {
		t.Fatalf("the command did not run: %v", msgs)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "api|codex|needs_input|" + msg + "|codex in api needs you"; string(got) != want {
		t.Fatalf("env = %q, want %q", got, want)
	}
	if _, err := os.Stat(evil); err == nil {
		t.Fatal("the message was run as shell")
	}
}

func TestAlertCommandIsBounded(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	// A child that keeps the output open is killed with the group.
	err := runAlertCommand(ctx, "sleep 30 & sleep 30", nil)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("a command past its time: err %v after %v", err, time.Since(start))
	}
}

func TestAlertSoundModes(t *testing.T) {
	bin, cache := t.TempDir(), t.TempDir()
	played := filepath.Join(t.TempDir(), "played")
	// paplay stands in for the machine's audio player: it records the file
	// it is given.
	os.WriteFile(filepath.Join(bin, "paplay"), []byte("#!/bin/sh\nhead -c 4 \"$1\" >> "+played+"\necho >> "+played+"\n"), 0o755)
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("XDG_CACHE_HOME", cache)

	m, _, clk := newTest(t, Options{Bell: true, Alert: AlertRules{SoundMode: "audio", Cooldown: 3 * time.Second}})
	msgs := runCmd(setState(m, "done", ""))
	if out := rawOut(msgs); out != "" {
		t.Fatalf("audio mode rang the bell: %q", out)
	}
	var cue *cueMsg
	for _, v := range msgs {
		if c, ok := v.(cueMsg); ok {
			cue = &c
		}
	}
	if cue == nil || cue.err != nil || filepath.Base(cue.player) != "paplay" {
		t.Fatalf("no cue played: %+v", msgs)
	}
	if b, _ := os.ReadFile(played); string(b) != "RIFF\n" {
		t.Fatalf("the player got %q, want the built-in WAV", b)
	}
	// Within the cooldown: no second cue.
	clk.t = clk.t.Add(time.Second)
	runCmd(setState(m, "errored", ""))
	if b, _ := os.ReadFile(played); string(b) != "RIFF\n" {
		t.Fatalf("a cue within the cooldown: %q", b)
	}
	clk.t = clk.t.Add(3 * time.Second)
	runCmd(setState(m, "needs_input", ""))
	if b, _ := os.ReadFile(played); string(b) != "RIFF\nRIFF\n" {
		t.Fatalf("no cue after the cooldown: %q", b)
	}

	// both: the bell and the cue.
	m.opt.Alert.SoundMode = "both"
	clk.t = clk.t.Add(time.Minute)
	if out := rawOut(runCmd(setState(m, "done", ""))); out != "\a" {
		t.Fatalf("both: %q", out)
	}
	if b, _ := os.ReadFile(played); strings.Count(string(b), "RIFF") != 3 {
		t.Fatalf("both played no cue: %q", b)
	}

	// No audio player: silent, no bell, no message.
	t.Setenv("PATH", t.TempDir())
	m.opt.Alert.SoundMode = "audio"
	clk.t = clk.t.Add(time.Minute)
	msgs = runCmd(setState(m, "errored", ""))
	for _, v := range msgs {
		if c, ok := v.(cueMsg); !ok || c.player != "" || c.err != nil {
			t.Fatalf("without a player: %+v", msgs)
		}
	}
	if rawOut(msgs) != "" {
		t.Fatalf("without a player the bell rang: %q", rawOut(msgs))
	}
}

func TestConfigureAlertRules(t *testing.T) {
	t.Parallel()
	opt := Options{}
	opt.Configure(load(t, "[notifications.agent]\nsound = true\nsettle_seconds = 1\nquiet_hours = \"01:00-02:00\"\ncommand = \"true\"\n"))
	a := opt.Alert
	if a.SoundMode != "audio" || a.Settle != time.Second || a.Quiet.String() != "01:00-02:00" || a.Command != "true" || !a.alerts("done") || a.alerts("idle") {
		t.Fatalf("rules %+v", a)
	}
}
