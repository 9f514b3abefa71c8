package inbox

// Code is the stable code of an *Error (the control protocol's code for
// the same refusal).
type Code string

// Codes carried by *Error.
const (
	// CodeInvalidParams refuses a request: an unknown id, a second
	// dismiss, a kind that cannot be snoozed, a restore too late.
	CodeInvalidParams Code = "invalid_params"
	// CodeRateLimited refuses a 17th open question from no pane in a
	// session.
	CodeRateLimited Code = "rate_limited"
	// CodeNotBlocked refuses a hold: the pane is not waiting on an
	// approval item (request-approval answers reason not_blocked).
	CodeNotBlocked Code = "not_blocked"
	// CodeNotShown refuses a hold whose line the Inbox could not show as
	// it is (request-approval answers reason not_shown).
	CodeNotShown Code = "not_shown"
	// CodeCorrupt refuses saved queue state that is not what Marshal
	// writes.
	CodeCorrupt Code = "corrupt"
)

// Why names one refusal exactly; several share a Code. Tests and callers
// that need to tell refusals apart read it.
type Why string

// Refusals.
const (
	WhyUnknownID     Why = "unknown_id"      // no open or snoozed item has the id
	WhyDismissed     Why = "dismissed"       // the item was dismissed already
	WhyNotSnoozable  Why = "not_snoozable"   // held approval, plan, ask, outbox
	WhySnoozeSpec    Why = "snooze_spec"     // not exactly one of until, for, until_change; out of range
	WhySnoozeFull    Why = "snooze_full"     // MaxSnoozed items sleep already
	WhyNotSnoozed    Why = "not_snoozed"     // wake of an item that is awake
	WhyNothingToUndo Why = "nothing_to_undo" // no dismiss or snooze to undo
	WhyTooLate       Why = "too_late"        // the undo window (10 s) has passed
	WhyNotRestorable Why = "not_restorable"  // outbox (mail discarded), ask (asker told)
	WhyNewerItem     Why = "newer_item"      // a newer item about the same thing exists
	WhyFactEnded     Why = "fact_ended"      // the pane left the state the item was about
	WhyUnknownPane   Why = "unknown_pane"    // the queue has never heard of the pane
	WhyFocused       Why = "focused"         // the pane in front of the person cannot be marked unread
	WhyNotAtRest     Why = "not_at_rest"     // unread needs an agent at rest
	WhyNoTurn        Why = "no_turn"         // unread needs a finished turn
	WhyNotAnswerable Why = "not_answerable"  // only asks and held approvals take an answer
	WhyBadAnswer     Why = "bad_answer"      // the answer is not one of the options
	WhyBadQuestion   Why = "bad_question"    // an ask-human question the Inbox would rewrite
	WhyBadOptions    Why = "bad_options"     // ask-human options: 1-9 printable lines, no repeats
	WhyTooManyAsks   Why = "too_many_asks"   // 16 open questions from no pane in the session
	WhyMissing       Why = "missing"         // a required field is empty
	WhyUnknownKind   Why = "unknown_kind"    // not one of the ten kinds
	WhyBadReason     Why = "bad_reason"      // Close with a reason that has its own call
	WhyNotBlocked    Why = "not_blocked"     // hold: no approval item on the pane
	WhyNotShown      Why = "not_shown"       // hold: the line is not shown as it is
	WhyNotFresh      Why = "not_fresh"       // Unmarshal into a queue that has been used
	WhyCorrupt       Why = "corrupt"         // saved state that is not what Marshal writes
	WhyNewerVersion  Why = "newer_version"   // saved by a newer version of the package
)

// Error is a refusal: a stable code, what exactly was refused (Why), a
// one-line message, the parameter at fault and a hint saying what to do
// next. A refused call changes nothing.
type Error struct {
	code    Code
	Why     Why
	Message string
	Param   string // the request parameter at fault, or ""
	hint    string
}

func (e *Error) Error() string { return "inbox: " + e.Message }

// Code returns the stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next, or "".
func (e *Error) Hint() string { return e.hint }

func refuse(code Code, why Why, param, hint, msg string) *Error {
	return &Error{code: code, Why: why, Param: param, hint: hint, Message: msg}
}

func invalid(why Why, param, hint, msg string) *Error {
	return refuse(CodeInvalidParams, why, param, hint, msg)
}
