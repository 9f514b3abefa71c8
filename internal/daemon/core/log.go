package core

import (
	"context"
	"fmt"
	"log/slog"
)

// Log writes formatted lines at a level; a line about one pane carries
// pane= and session= (About).
type Log struct{ L *slog.Logger }

// About is the log of lines about one pane and its session ("" leaves
// either out).
func (l Log) About(pane, session string) Log {
	out := l.L
	if pane != "" {
		out = out.With("pane", pane)
	}
	if session != "" {
		out = out.With("session", session)
	}
	return Log{out}
}

// Infof logs what happened.
func (l Log) Infof(format string, args ...any) { l.logf(slog.LevelInfo, format, args) }

// Warnf logs what a person may want to fix.
func (l Log) Warnf(format string, args ...any) { l.logf(slog.LevelWarn, format, args) }

// Errorf logs what failed.
func (l Log) Errorf(format string, args ...any) { l.logf(slog.LevelError, format, args) }

func (l Log) logf(level slog.Level, format string, args []any) {
	if l.L != nil && l.L.Enabled(context.Background(), level) {
		l.L.Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}

// Clip keeps text a caller sent short in an error message.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
