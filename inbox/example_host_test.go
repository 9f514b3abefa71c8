package inbox_test

import (
	"fmt"

	"github.com/tuios/tuios/inbox"
)

// A daemon mirrors a linked host's Inbox beside its own: the host's items
// get the host's name and an id HOST:ID; when the link drops they turn
// stale and stop counting.
func ExampleMirror() {
	q := inbox.New(inbox.Options{BootID: "here"})
	m := inbox.NewMirror(q, nil)
	m.Sync("build", "build-boot-1", []inbox.Item{
		{ID: "12", Kind: inbox.KindQuestion, Session: "api", Window: "w3", Name: "claude", Summary: "which retry policy?", Since: 1},
		{ID: "13", Kind: inbox.KindErrored, Host: "gpu", Session: "train", Summary: "build mirrors this from gpu", Since: 2},
	})
	items, counts := m.List("", inbox.ListOptions{})
	for _, it := range items {
		fmt.Println(it.ID, it.Host, it.Kind, it.Summary)
	}
	fmt.Println("questions:", counts[inbox.KindQuestion])

	m.Down("build")
	items, counts = m.List("", inbox.ListOptions{})
	fmt.Println("stale:", items[0].Stale, "questions:", counts[inbox.KindQuestion])
	// Output:
	// build:12 build question which retry policy?
	// questions: 1
	// stale: true questions: 0
}
