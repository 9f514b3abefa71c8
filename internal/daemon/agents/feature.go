package agents

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
)

// Feature is the agent verbs, as the daemon composes it. It keeps no
// state of its own: the agent state is the tracker's, the panes and the
// table the core's.
type Feature struct{ h core.Host }

var _ core.Feature = (*Feature)(nil)

// New makes the feature; Init adds it to a daemon.
func New() *Feature { return &Feature{} }

// Name is "agents".
func (f *Feature) Name() string { return "agents" }

// Init serves the agent verbs.
func (f *Feature) Init(h core.Host) error {
	f.h = h
	f.addStateVerbs(h)   // state.go
	f.addExplainVerbs(h) // explain.go
	f.addHookVerbs(h)    // hooks.go
	f.addStartVerbs(h)   // start.go
	return nil
}

// Shutdown has nothing to stop: the verbs end with their calls.
func (f *Feature) Shutdown(context.Context) error { return nil }
