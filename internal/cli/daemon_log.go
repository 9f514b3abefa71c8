package cli

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/tuios/tuios/internal/logfile"
)

// daemonLogger is the daemon's logger: log/slog's text lines (time,
// level, message, attributes) on stderr, or in --log-file, which the
// daemon then owns: it rotates the file and points its stdout and stderr
// at it, so what the runtime writes there (a panic's trace) lands in it.
func daemonLogger(ctx *Context) (*slog.Logger, func(), error) {
	level, err := logLevel(str(ctx, "log-level"))
	if err != nil {
		return nil, nil, usageError("tuios daemon --log-level info", "--log-level is %q: it takes debug, info, warn or error", escapeControls(str(ctx, "log-level")))
	}
	// A bad $TUIOS_LOG_LEVEL does not keep a daemon a verb starts from
	// starting: it logs at info and says why.
	var envErr string
	if str(ctx, "log-level") == "" {
		env := os.Getenv("TUIOS_LOG_LEVEL")
		if level, err = logLevel(env); err != nil {
			level, envErr = slog.LevelInfo, fmt.Sprintf("TUIOS_LOG_LEVEL is %q: it takes debug, info, warn or error; logging at info", escapeControls(env))
		}
	}
	opts := &slog.HandlerOptions{Level: level}
	var logger *slog.Logger
	closeLog := func() {}
	if path := str(ctx, "log-file"); path == "" {
		logger = slog.New(slog.NewTextHandler(ctx.Stderr, opts))
	} else {
		max, _ := ctx.Flags.GetInt64("log-max-size")
		if max < 4096 || max > 1<<30 {
			return nil, nil, usageError("tuios daemon --log-file FILE --log-max-size 5242880", "--log-max-size is %d: it takes 4096 to 1073741824 bytes", max)
		}
		f, err := logfile.Open(logfile.Options{Path: path, MaxBytes: max, Redirect: []int{1, 2}})
		if err != nil {
			return nil, nil, &Error{Code: "command_failed", Message: "cannot open the log file: " + err.Error(), Hint: "name a file in a directory you can write with --log-file"}
		}
		logger, closeLog = slog.New(slog.NewTextHandler(f, opts)), func() { f.Close() }
	}
	if envErr != "" {
		logger.Warn(envErr)
	}
	return logger, closeLog, nil
}

// logLevel reads a level's name; empty is info.
func logLevel(name string) (slog.Level, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "info":
		return slog.LevelInfo, nil
	case "debug":
		return slog.LevelDebug, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, errors.New("not a level")
}
