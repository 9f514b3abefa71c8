package inbox

import (
	"fmt"
	"strings"

	"github.com/tuios/tuios/agentstate"
)

// Kind is what an item is about, as its wire name.
type Kind string

// The ten kinds, in list order (the order is also the sort key).
const (
	KindApproval Kind = "approval" // a pane waits on an approval (or a hook holds one)
	KindPlan     Kind = "plan"     // a hook holds a plan; shares the pane's blocking key
	KindAsk      Kind = "ask"      // an ask-human question
	KindQuestion Kind = "question" // a pane waits on anything else
	KindMail     Kind = "mail"     // unread mail to the person, one item per thread
	KindErrored  Kind = "errored"  // a pane errored
	KindResume   Kind = "resume"   // a conversation to resume after a restart
	KindFinished Kind = "finished" // a finished turn nobody has looked at
	KindOutbox   Kind = "outbox"   // mail waiting for a linked machine
	KindConfig   Kind = "config"   // a config change that waits for the person, or one the daemon found at start
)

var kinds = [...]Kind{KindApproval, KindPlan, KindAsk, KindQuestion, KindMail, KindErrored, KindResume, KindFinished, KindOutbox, KindConfig}

// Kinds returns the ten kinds in list order.
func Kinds() []Kind { return append([]Kind(nil), kinds[:]...) }

// Valid reports whether k is one of the ten kinds.
func (k Kind) Valid() bool { return k.Rank() < len(kinds) }

// Rank is k's place in the kind order, 0 for approval; an unknown kind
// ranks after all ten.
func (k Kind) Rank() int {
	switch k {
	case KindApproval:
		return 0
	case KindPlan:
		return 1
	case KindAsk:
		return 2
	case KindQuestion:
		return 3
	case KindMail:
		return 4
	case KindErrored:
		return 5
	case KindResume:
		return 6
	case KindFinished:
		return 7
	case KindOutbox:
		return 8
	case KindConfig:
		return 9
	}
	return len(kinds)
}

// Group is a list heading. Questions holds both kinds of question.
type Group string

// The groups, in list order.
const (
	GroupApprovals Group = "Approvals"
	GroupPlans     Group = "Plans"
	GroupQuestions Group = "Questions"
	GroupMail      Group = "Mail"
	GroupErrored   Group = "Errored"
	GroupResume    Group = "Resume"
	GroupDone      Group = "Done"
	GroupOutbox    Group = "Waiting to send"
	GroupConfig    Group = "Settings"
	GroupOther     Group = "Other" // an unknown kind (a newer host's)
)

var groups = [...]Group{GroupApprovals, GroupPlans, GroupQuestions, GroupMail, GroupErrored, GroupResume, GroupDone, GroupOutbox, GroupConfig, GroupOther}

// Groups returns the headings in list order.
func Groups() []Group { return append([]Group(nil), groups[:]...) }

// Group is the heading k is listed under.
func (k Kind) Group() Group { return groups[k.groupRank()] }

// groupRank orders the groups: ask and question share one.
func (k Kind) groupRank() int {
	switch r := k.Rank(); {
	case r <= 1:
		return r
	case r <= 3:
		return 2
	default:
		return r - 1
	}
}

// Snoozable reports whether an item of kind k may be snoozed at all; a
// held approval may not be either (see Item.Snoozable).
func (k Kind) Snoozable() bool {
	switch k {
	case KindApproval, KindQuestion, KindMail, KindErrored, KindResume, KindFinished:
		return true
	}
	return false
}

// Blocking reports whether k is on a pane's blocking key (approval, plan,
// question): one of them per pane at most.
func (k Kind) Blocking() bool { return k == KindApproval || k == KindPlan || k == KindQuestion }

// State is the agent state an item of kind k stands for, as selectors
// read it: approval, plan and question are needs_input, errored is
// errored, finished is done; other kinds stand for no state (None).
func (k Kind) State() agentstate.State {
	switch k {
	case KindApproval, KindPlan, KindQuestion:
		return agentstate.NeedsInput
	case KindErrored:
		return agentstate.Errored
	case KindFinished:
		return agentstate.Done
	}
	return agentstate.None
}

// ParseKind reads a wire name. An unknown name is an *Error with
// CodeInvalidParams that lists the accepted names.
func ParseKind(name string) (Kind, error) {
	if k := Kind(name); k.Valid() {
		return k, nil
	}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	return "", &Error{code: CodeInvalidParams, Why: WhyUnknownKind, Param: "kinds",
		Message: fmt.Sprintf("unknown kind %q", name), hint: "use one of: " + strings.Join(names, ", ")}
}

// Reason is why an item closed, as its wire name.
type Reason string

// Close reasons.
const (
	ReasonResolved      Reason = "resolved"       // what opened it stopped being true
	ReasonAnswered      Reason = "answered"       // the person answered it
	ReasonSuperseded    Reason = "superseded"     // a newer ask from the same pane
	ReasonRead          Reason = "read"           // the person read the thread
	ReasonSeen          Reason = "seen"           // someone looked at the pane that finished
	ReasonDismissed     Reason = "dismissed"      // the person dismissed it
	ReasonWindowClosed  Reason = "window_closed"  // its pane closed
	ReasonSessionClosed Reason = "session_closed" // its session ended
	ReasonEvicted       Reason = "evicted"        // the queue overflowed
	ReasonHostRemoved   Reason = "host_removed"   // its host left the hosts table
	ReasonSnoozed       Reason = "snoozed"        // the person snoozed it (it sleeps)
)

// Reasons lists every close reason.
func Reasons() []Reason {
	return []Reason{ReasonResolved, ReasonAnswered, ReasonSuperseded, ReasonRead, ReasonSeen, ReasonDismissed,
		ReasonWindowClosed, ReasonSessionClosed, ReasonEvicted, ReasonHostRemoved, ReasonSnoozed}
}
