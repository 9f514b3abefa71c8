package daemon

import (
	"context"
	"reflect"
	"testing"

	"github.com/tuios/tuios/internal/daemon/links"

	"github.com/tuios/tuios/internal/proto"
)

// The rail's host headers count the outbox: a followed host gets its
// queued count, a host mail waits for that is not followed gets a header
// of its own, in name order; hosts with nothing waiting are left alone.
func TestWithQueuedCountsTheOutbox(t *testing.T) {
	t.Parallel()
	if got := withQueued(nil, nil); got != nil {
		t.Fatalf("no outbox: %v", got)
	}
	o := links.NewOutbox(links.OutboxOptions{Status: func(string) string { return "unreachable" }})
	for _, host := range []string{"build", "build", "gpu"} { // the link is down: kept
		if _, err := o.Send(context.Background(), links.OutboxMsg{Host: host, Session: "api", Text: "hi"}, true); err != nil {
			t.Fatal(err)
		}
	}
	in := []proto.AttachHost{{Host: "build", Stale: true, SeenAt: 5}, {Host: "ci", Items: 1}}
	want := []proto.AttachHost{{Host: "build", Stale: true, SeenAt: 5, Queued: 2}, {Host: "ci", Items: 1}, {Host: "gpu", Queued: 1}}
	if got := withQueued(in, o); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
