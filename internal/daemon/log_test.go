package daemon

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// A Logf-only caller gets every line with the message first, the level
// when it is not info, and the pane and session; debug lines are left
// out; a % in a message does not become a verb.
func TestLogfCallerGetsLevelsAndAttributes(t *testing.T) {
	var got []string
	var formats []string
	opt := Options{Logf: func(f string, a ...any) { formats = append(formats, f); got = append(got, fmt.Sprintf(f, a...)) }}
	setupLog(&opt)
	s := &Server{opt: opt}
	s.opt.Logf("restore: brought back %d windows", 2)
	s.about("1234abcd-pane", "work").warnf("queue: %s dropped: %s", "q1", "100% gone")
	s.errorf("panic in %s: %v", "list-agents", "boom")
	s.opt.Logger.Debug("request", "verb", "hello")
	want := []string{
		"restore: brought back 2 windows",
		"queue: q1 dropped: 100% gone level=WARN pane=1234abcd-pane session=work",
		"panic in list-agents: boom level=ERROR",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(formats[2], "panic in") {
		t.Errorf("the format of a panic line %q does not start with its message", formats[2])
	}
}

// A Logger-only caller gets Logf's lines at info, and none below its level.
func TestLoggerCallerGetsLogfAtInfo(t *testing.T) {
	var b strings.Builder
	opt := Options{Logger: slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	setupLog(&opt)
	s := &Server{opt: opt}
	s.opt.Logf("an info line")
	s.warnf("a %s line", "warning")
	if out := b.String(); strings.Contains(out, "info line") || !strings.Contains(out, `level=WARN msg="a warning line"`) {
		t.Fatalf("%s", out)
	}
}
