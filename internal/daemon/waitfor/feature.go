package waitfor

import (
	"context"
	"sync"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// MailWait is what a wait for a message waits on.
type MailWait struct {
	Session string // the session param ("": the caller's, else the most recently active)
	Inbox   string // the inbox (a window or human); "" for any mail of the session
	Thread  uint64 // only this thread; 0 for any
}

// Options is what the daemon hands the feature.
type Options struct {
	// Mail is the mail feature's wait for a message matching w, until ctx
	// ends: it answers with the message (a proto.MessageWaitResult), or
	// makes its refusal with timedOut when none came.
	Mail func(ctx context.Context, c core.Call, w MailWait, timedOut func(string) *proto.Error) (any, *proto.Error)
}

// Feature is wait-for, as the daemon composes it.
type Feature struct {
	opt Options
	h   core.Host

	mu    sync.Mutex          // a leaf: nothing is taken under it
	exits map[string]*exitLog // recent program exits, by session id
}

var _ core.Feature = (*Feature)(nil)

// New makes the feature; Init adds it to a daemon.
func New(opt Options) *Feature { return &Feature{opt: opt, exits: map[string]*exitLog{}} }

// Name is "wait-for".
func (f *Feature) Name() string { return "wait-for" }

// Init serves wait-for and keeps the exits of program windows, which a
// session's close forgets.
func (f *Feature) Init(h core.Host) error {
	f.h = h
	h.OnProgramExit(f.programExited)
	h.OnSessionClosed(f.sessionClosed)
	f.addVerb(h) // verb.go
	return nil
}

// Shutdown has nothing to stop: every wait ends with its caller's
// context, which ends as the daemon stops.
func (f *Feature) Shutdown(context.Context) error { return nil }
