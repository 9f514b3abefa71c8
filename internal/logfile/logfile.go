// Package logfile is the daemon's log file: appended to, and capped by
// one rotation. When a write would take the file past MaxBytes it is
// renamed to PATH.1 (replacing an older PATH.1) and a new PATH is begun,
// so the two hold at most about twice MaxBytes. Descriptors named in
// Redirect (stderr) are pointed at the new file after each rotation, so
// what the runtime writes there itself, a panic's trace, lands in the
// current log too.
//
// It is a writer for a log/slog handler; it does not format lines.
package logfile

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// DefaultMaxBytes caps daemon.log before it is rotated to daemon.log.1.
const DefaultMaxBytes = 5 << 20

// Options say where the log goes.
type Options struct {
	// Path is the log file, created 0600 when missing.
	Path string
	// MaxBytes is the size past which the file is rotated; zero is
	// DefaultMaxBytes.
	MaxBytes int64
	// Redirect lists descriptors (2: stderr) made to point at the log
	// file at Open and after every rotation.
	Redirect []int
}

// File is an open log file. Its methods are safe for concurrent use.
type File struct {
	opt     Options
	mu      sync.Mutex
	f       *os.File
	retryAt int64 // after a failed rotation, the size to try again at
}

// Open opens (or creates) the log for appending; a file already past
// MaxBytes is rotated first.
func Open(opt Options) (*File, error) {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	l := &File{opt: opt}
	if err := l.open(); err != nil {
		return nil, err
	}
	if fi, err := l.f.Stat(); err == nil && fi.Size() >= opt.MaxBytes {
		l.rotate(fi.Size())
	}
	return l, nil
}

func (l *File) open() error {
	f, err := os.OpenFile(l.opt.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	for _, fd := range l.opt.Redirect {
		if err := unix.Dup2(int(f.Fd()), fd); err != nil {
			f.Close()
			return fmt.Errorf("pointing descriptor %d at %s: %w", fd, l.opt.Path, err)
		}
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f = f
	return nil
}

// Write appends p (one log line) to the file, rotating it first when p
// would take it past MaxBytes.
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// The size is read from the file, not counted: the redirected
	// descriptors write to it too.
	size := int64(0)
	if fi, err := l.f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > 0 && size+int64(len(p)) > l.opt.MaxBytes && size >= l.retryAt {
		l.rotate(size)
	}
	return l.f.Write(p)
}

// rotate moves the file to PATH.1 and begins a new one. If that fails
// the log goes on where it is, tried again once another MaxBytes has been
// written, and the log says why.
func (l *File) rotate(size int64) {
	err := os.Rename(l.opt.Path, l.opt.Path+".1")
	if err == nil {
		err = l.open()
		// On an error the old descriptor writes to PATH.1: better
		// than nothing.
	}
	if err != nil {
		l.retryAt = size + l.opt.MaxBytes
		fmt.Fprintf(l.f, "logfile: cannot rotate %s: %v\n", l.opt.Path, err)
		return
	}
	l.retryAt = 0
}

// Close closes the file (the redirected descriptors stay open).
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f.Close()
}
