package inbox_test

import (
	"testing"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/mail"
)

// X8: held link mail opens a mail item that says who it was for and
// which message to pass on; releasing it closes the item (the held
// message counts as read once passed on).
func TestHeldMailItemCarriesTheMessage(t *testing.T) {
	r := newRig(t)
	ring := mail.NewRing(mail.RingOptions{Session: "api", Clock: r.clock, RateBurst: -1})
	held, err := ring.Send(mail.SendRequest{From: "build-bot", FromLabel: "build-bot", To: mail.Human, Text: "deploy at 5",
		Origin: "link", OriginHost: "build", Held: true, HeldFor: "w7", HeldForLabel: "worker"})
	if err != nil {
		t.Fatal(err)
	}
	feed := func() []inbox.Event {
		res := ring.Read(mail.ReadOptions{Thread: held.ThreadID, Limit: -1, Peek: true})
		return r.q.Mail(inbox.MailFrom("api", res.Messages))
	}
	wantOps(t, feed(), "open mail#1")
	it, _ := r.q.Find(inbox.MailKey("api", held.ThreadID))
	if it.HeldFor != "worker" || it.MessageID != held.ID || it.HeldID != "" {
		t.Fatalf("held mail item: %+v", it)
	}
	if _, _, err := ring.Release(held.ID, "w7", "worker"); err != nil {
		t.Fatal(err)
	}
	wantOps(t, feed(), "close read mail#1")
}
