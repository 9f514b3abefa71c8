package fan

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Worktrees is the feature: the worktrees tuios made and their sessions'
// fan tags, the worktree and fan verbs, and the first prompts it types.
// It is the core's core.Fans.
type Worktrees struct {
	h    core.Host
	path string // "" keeps nothing

	mu       sync.Mutex
	recs     []*record
	reserved map[string]string // names being made: branch@repo, session, folder → who
	// tags are the sessions' fan tags by session id: an immutable map,
	// swapped whole under mu, read without it (the target check).
	tags atomic.Pointer[map[string]*core.FanTag]

	// running counts the prompt deliveries and checks still watched, for
	// Shutdown.
	running sync.WaitGroup
}

// New makes the feature; Init adds it to the daemon.
func New() *Worktrees {
	t := &Worktrees{reserved: map[string]string{}}
	t.tags.Store(&map[string]*core.FanTag{})
	return t
}

// Name names the feature in the daemon's log.
func (t *Worktrees) Name() string { return "worktrees" }

// Init registers the verbs, and the load of the records file once the
// daemon holds its socket.
func (t *Worktrees) Init(h core.Host) error {
	t.h = h
	t.path = recordsPath(h.Options().StateDir)
	t.worktreeVerbs(h)
	t.fanVerbs(h)
	h.OnListen(t.load)
	return nil
}

// Shutdown waits for the prompt deliveries and checks to let go: they end
// as the daemon stops.
func (t *Worktrees) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() { t.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Worktree is the worktree tuios made for the session named session
// (core.Fans).
func (t *Worktrees) Worktree(session string) (core.Worktree, bool) {
	rec, ok := t.bySession(session)
	if !ok {
		return core.Worktree{}, false
	}
	return core.Worktree{Session: rec.Session, SessionID: rec.SessionID, Repo: rec.Repo, Worktree: rec.Worktree, Base: rec.Base, Group: rec.Group}, true
}

// Reach says why c may not reach the fan attempt in session (core.Fans).
func (t *Worktrees) Reach(c core.Call, session string) *proto.Error {
	rec, ok := t.bySession(session)
	if !ok {
		return nil
	}
	return t.inReach(c, rec)
}

// inReach: the person, a link and an admin pane reach every fan; a pane
// the fan it is in, or one a fan from its session started; else what the
// target check says of the attempt's session, while it is open.
func (t *Worktrees) inReach(c core.Call, rec record) *proto.Error {
	fc := t.h.FanCaller(c)
	if fc.All {
		return nil
	}
	if own := fc.PaneSessionID; own != "" {
		if rec.LaunchedBy == own {
			return nil
		}
		if tag := t.Tag(own); tag != nil && tag.Group == rec.Group && tag.Repo == rec.Repo {
			return nil
		}
	}
	if sv, ok := t.h.FindSession(rec.Session); ok && sv.ID == rec.SessionID {
		return t.h.Target(c, rec.Session, "")
	}
	return t.h.OutOfReach(c)
}

var (
	_ core.Fans    = (*Worktrees)(nil)
	_ core.Feature = (*Worktrees)(nil)
)
