package daemon

import (
	"testing"

	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/fan"
)

// A fan's first prompt waits for the same rest as the reply queue: an
// agent whose hook says idle as it starts is not typed into before its
// input takes keys, whichever of the two types.
func TestFanPromptRestIsTheQueuesRest(t *testing.T) {
	if fan.PromptRest != attn.QueueRest {
		t.Fatalf("fan's prompt rest %v, the reply queue's %v", fan.PromptRest, attn.QueueRest)
	}
}
