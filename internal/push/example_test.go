package push_test

import (
	"context"
	"fmt"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/push"
	"github.com/tuios/tuios/internal/push/pushtest"
)

// What an approval waiting in pane worker of session api sends: with
// content = "summary" the pane's name and its Inbox line, with
// content = "title" the kind and the session only.
func ExampleFromItem() {
	f, _ := config.Parse([]byte("[notify]\nweb_url = \"https://term.example.com/\"\n"))
	s := f.PushSettings()
	it := inbox.Item{ID: "17", Kind: inbox.KindApproval, Session: "api", Window: "w-3f2a", Name: "worker", Summary: "Bash: make test"}
	n := push.FromItem(it, s)
	fmt.Println(n.Title)
	fmt.Println(n.Body)
	fmt.Println(n.Link, n.Urgent)
	s.TitleOnly = true
	n = push.FromItem(it, s)
	fmt.Printf("%s %q\n", n.Title, n.Body)
	// Output:
	// Approval needed: worker (api)
	// Bash: make test
	// https://term.example.com/inbox?item=17 true
	// Approval needed in api ""
}

// Send is the one-shot that tuios notify test runs: every provider at
// once, one result each, the address shown by its host only. Here a
// webhook of the test servers, trusted through RootCAs.
func ExampleSend() {
	ca, _ := pushtest.NewCA()
	hook := ca.Webhook("hook-token", pushtest.Mode{})
	defer hook.Close()
	f, _ := config.Parse([]byte(fmt.Sprintf("[notify.webhook]\nurl = %q\ntoken = \"hook-token\"\n", hook.URL+"/secret-path")))
	s := f.PushSettings()
	for _, r := range push.Send(context.Background(), s, push.TestNotification("box", s), push.SendOptions{RootCAs: ca.Pool()}) {
		fmt.Println(r.Provider, r.OK, r.Error == "")
	}
	got := hook.Deliveries()[0]
	fmt.Println(got.Auth, got.JSON["event"], got.JSON["kind"], got.JSON["test"])
	// Output:
	// webhook true true
	// Bearer hook-token tuios.inbox test true
}
