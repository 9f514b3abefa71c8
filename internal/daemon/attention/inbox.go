package attention

import (
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// Inbox is the Inbox as the rest of the attention set uses it: the
// Store (store.go), behind this interface so that each part can be made
// and tested with the Inbox it is given.
type Inbox interface {
	// Do runs fn on the queue under the Inbox's lock and publishes the
	// events it returns as attention events, as every change of the
	// Inbox is made. fn may take the asks' lock, nothing else of this
	// package's.
	Do(fn func(q *inbox.Queue) ([]inbox.Event, error)) error
	// Find is the open item with key.
	Find(key inbox.Key) (inbox.Item, bool)
	// Replayed is the newest attention event kept for replay that match
	// says; false when none is.
	Replayed(match func(core.Event) bool) (core.Event, bool)
	// Update feeds the pane's agent state to the Inbox now.
	Update(pane string)
}

// InboxError turns a queue refusal into a protocol error with the same
// code (core.InboxError, which the links' follow of hosts' items uses too).
func InboxError(err error) *proto.Error { return core.InboxError(err) }
