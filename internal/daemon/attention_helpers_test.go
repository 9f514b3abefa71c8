package daemon

import (
	"time"

	attn "github.com/tuios/tuios/internal/daemon/attention"
)

// What the tests of the reply queue and the held approvals read of them,
// now that they are the attention feature's (internal/daemon/attention).

const (
	queueGate          = attn.QueueGate
	queueQuiet         = attn.QueueQuiet
	maxQueuedText      = attn.MaxQueuedText
	defaultDenyMessage = attn.DefaultDenyMessage
)

// queuedRow is one entry as list-queued shows it.
type queuedRow = attn.QueuedRow

// restSigns is what a harness can show, as the queue reads it.
type restSigns struct{ idle, working bool }

func (q replyQueue) signs(harness string) restSigns {
	idle, working := q.Signs(harness)
	return restSigns{idle: idle, working: working}
}

// armedFor says when the pane's timer is due.
func (q replyQueue) armedFor(window string) (time.Time, bool) { return q.ArmedFor(window) }
