package attention

import (
	"errors"
	"strconv"

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

// InboxError turns a queue refusal into a protocol error with the same code;
// its Why goes in the hint.
func InboxError(err error) *proto.Error {
	var ie *inbox.Error
	if errors.As(err, &ie) {
		h := proto.Hint{Param: ie.Param, Detail: "why: " + string(ie.Why)}
		if x := ie.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(ie.Code()), "%s", ie.Message).WithHint(h)
	}
	var se *inbox.SelectorError
	if errors.As(err, &se) {
		h := proto.Hint{Param: se.Param, Accepted: se.Accepted(), DidYouMean: se.DidYouMean}
		if se.Term != "" {
			h.Detail = "the term " + strconv.Quote(se.Term) + ": "
		}
		h.Detail += "why: " + se.Why
		if x := se.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(se.Code()), "%s", se.Message).WithHint(h)
	}
	return proto.Errorf(proto.CodeInternal, "%v", err)
}
