package inbox_test

import (
	"testing"

	"github.com/tuios/tuios/inbox"
)

func TestConfigItemOpensUpdatesAndCloses(t *testing.T) {
	q := inbox.New(inbox.Options{})
	evs := q.Config("permissions", "a change waits for tuios config apply: mode strict to open")
	if len(evs) != 1 || evs[0].Op != inbox.OpOpen || evs[0].Item.Kind != inbox.KindConfig || evs[0].Item.Kind.Group() != inbox.GroupConfig {
		t.Fatalf("open: %+v", evs)
	}
	if evs := q.Config("permissions", "a change waits for tuios config apply: mode strict to open"); len(evs) != 0 {
		t.Fatalf("the same line again: %+v", evs)
	}
	if evs := q.Config("permissions", "a change waits: grants read to read,write"); len(evs) != 1 || evs[0].Op != inbox.OpUpdate {
		t.Fatalf("update: %+v", evs)
	}
	q.Config("widened", "started with wider grants")
	if got := q.List(inbox.ListOptions{}); len(got.Items) != 2 {
		t.Fatalf("two items: %+v", got.Items)
	}
	if evs := q.Config("permissions", ""); len(evs) != 1 || evs[0].Op != inbox.OpClose || evs[0].Item.Closed != inbox.ReasonResolved {
		t.Fatalf("close: %+v", evs)
	}
}
