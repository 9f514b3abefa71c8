package push

import (
	"net/url"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/config"
)

// Limits of what a notification carries: Pushover's, the strictest of
// the three (a 250-character title, a 1024-character message, a
// 512-character link).
const (
	maxTitle = 250
	maxBody  = 1024
	maxLink  = 512
)

// Notification is one push, as every provider gets it.
type Notification struct {
	// Kind is the Inbox kind (approval, plan, question, ask, mail,
	// errored, finished), or "test".
	Kind string
	// Title is the first line the phone shows. Body is the Inbox line
	// ("" with content = "title"). Both came from a pane in part: data.
	Title string
	Body  string
	// Link opens the Inbox on the item in tuios-web; "" without web_url.
	Link string
	// Urgent is an item that waits for the person: an approval, a plan, a
	// question or an ask.
	Urgent  bool
	ItemID  string
	Session string
	Window  string
	Harness string
	// Test is tuios notify test's notification.
	Test bool
}

// Pushable reports whether items of kind may send at all: the kinds
// [notify.triggers] names.
func Pushable(kind inbox.Kind) bool {
	switch kind {
	case inbox.KindApproval, inbox.KindPlan, inbox.KindQuestion, inbox.KindAsk,
		inbox.KindMail, inbox.KindErrored, inbox.KindFinished:
		return true
	}
	return false
}

// Urgent reports whether items of kind wait for the person.
func Urgent(kind inbox.Kind) bool {
	switch kind {
	case inbox.KindApproval, inbox.KindPlan, inbox.KindQuestion, inbox.KindAsk:
		return true
	}
	return false
}

// label is how a kind reads on the phone.
func label(kind inbox.Kind) string {
	switch kind {
	case inbox.KindApproval:
		return "Approval needed"
	case inbox.KindPlan:
		return "Plan to review"
	case inbox.KindQuestion:
		return "Question"
	case inbox.KindAsk:
		return "Asks you"
	case inbox.KindMail:
		return "Mail"
	case inbox.KindErrored:
		return "Errored"
	case inbox.KindFinished:
		return "Finished"
	}
	return "Inbox"
}

// FromItem is the notification of an Inbox item. content = "summary"
// (the default) gives the kind and the pane's name as the title and the
// Inbox line as the body; content = "title" gives the kind and the
// session only, and no body: nothing the pane wrote leaves the machine.
func FromItem(it inbox.Item, s config.PushSettings) Notification {
	n := Notification{Kind: string(it.Kind), Urgent: Urgent(it.Kind), ItemID: it.ID,
		Session: clean(it.Session, 128), Window: it.Window, Harness: clean(it.Harness, 64)}
	if s.TitleOnly {
		n.Title = clean(label(it.Kind)+" in "+it.Session, maxTitle)
	} else {
		who := it.Name
		if who == "" {
			who = it.Session
		} else if it.Session != "" {
			who += " (" + it.Session + ")"
		}
		n.Title = clean(label(it.Kind)+": "+who, maxTitle)
		n.Body = clean(it.Summary, maxBody)
	}
	if s.WebURL != "" && it.ID != "" {
		if l := s.WebURL + "/inbox?item=" + url.QueryEscape(it.ID); len(l) <= maxLink {
			n.Link = l
		}
	}
	return n
}

// TestNotification is what tuios notify test sends.
func TestNotification(host string, s config.PushSettings) Notification {
	n := Notification{Kind: "test", Test: true, Title: "tuios: test notification",
		Body: clean("Pushes from "+host+" reach you here.", maxBody)}
	if s.WebURL != "" {
		n.Link = s.WebURL + "/inbox"
	}
	return n
}
