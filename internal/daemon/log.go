package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// The daemon's log. Options.Logger has levels and attributes: a line
// about one pane or session carries pane= and session=; warnings (what a
// person may want to fix: a config key, a refused file, a host) and
// errors (what failed: a save, a panic, accept) are marked so. The many
// lines that only say what happened log at info through Options.Logf,
// which New makes from the Logger when it is not given.

// setupLog gives Options both a Logger and a Logf: a Logf-only caller
// (a test) gets every line, warnings and errors too, through its Logf; a
// Logger-only caller gets Logf as info lines of its Logger.
func setupLog(opt *Options) {
	if opt.Logger == nil {
		opt.Logger = loggerFromLogf(opt.Logf)
	}
	if opt.Logf == nil {
		l := opt.Logger
		opt.Logf = func(format string, args ...any) {
			if l.Enabled(context.Background(), slog.LevelInfo) {
				l.Info(fmt.Sprintf(format, args...))
			}
		}
	}
}

// log is the daemon's logger. A Server made without New (a test) logs
// through its Logf, or nowhere.
func (s *Server) log() *slog.Logger {
	if s.opt.Logger != nil {
		return s.opt.Logger
	}
	return loggerFromLogf(s.opt.Logf)
}

func loggerFromLogf(logf func(string, ...any)) *slog.Logger {
	if logf == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(logfHandler{logf: logf})
}

// logfHandler writes each record as one Logf line: the message first (so
// a line reads as it did before levels), then level= unless info, then
// the attributes.
type logfHandler struct {
	logf  func(string, ...any)
	attrs []slog.Attr
}

// Enabled leaves out debug lines: a Logf is a test's or an embedder's,
// which wants what the daemon says, not every request.
func (h logfHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h logfHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	if r.Level != slog.LevelInfo {
		b.WriteString(" level=" + r.Level.String())
	}
	put := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range h.attrs {
		put(a)
	}
	r.Attrs(put)
	// The line is the format (its % doubled), so a Logf that looks at
	// its format sees the message first.
	h.logf(strings.ReplaceAll(b.String(), "%", "%%"))
	return nil
}

func (h logfHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return logfHandler{logf: h.logf, attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], as...)}
}

func (h logfHandler) WithGroup(string) slog.Handler { return h }

// warnf logs a warning: what a person may want to fix (a config key, a
// refused file, a host that does not answer).
func (s *Server) warnf(format string, args ...any) { s.about("", "").warnf(format, args...) }

// errorf logs an error: what failed (a save, a panic, accept).
func (s *Server) errorf(format string, args ...any) { s.about("", "").errorf(format, args...) }

// about is a line about one pane and (when known) its session: it
// carries pane= and session=.
func (s *Server) about(pane, session string) lineLog {
	l := s.log()
	if pane != "" {
		l = l.With("pane", pane)
	}
	if session != "" {
		l = l.With("session", session)
	}
	return lineLog{l}
}

// lineLog logs formatted lines at a level.
type lineLog struct{ l *slog.Logger }

func (ll lineLog) warnf(format string, args ...any)  { ll.logf(slog.LevelWarn, format, args) }
func (ll lineLog) errorf(format string, args ...any) { ll.logf(slog.LevelError, format, args) }

func (ll lineLog) logf(level slog.Level, format string, args []any) {
	if ll.l.Enabled(context.Background(), level) {
		ll.l.Log(context.Background(), level, fmt.Sprintf(format, args...))
	}
}

// debugVerb logs one request at debug level when it ends: the verb, how
// long it ran and its error code. The verb's params are not logged: they
// carry what is typed into panes.
func (s *Server) debugVerb(verb string, start time.Time, perr **proto.Error) {
	l := s.log()
	if !l.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	attrs := []any{"verb", verb, "took", s.clock.Now().Sub(start).Round(time.Microsecond)}
	if *perr != nil {
		attrs = append(attrs, "error", (*perr).Code)
	}
	l.Debug("request", attrs...)
}
