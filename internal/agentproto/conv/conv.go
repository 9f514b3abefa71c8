package conv

import "context"

// Event is one thing the agent said. The concrete types are below.
type Event interface{ event() }

// Role says whose text a Text event carries.
type Role int

// The roles.
const (
	RoleAgent   Role = iota // the agent's answer
	RoleThought             // its reasoning, shown dimmed
	RoleUser                // the person's prompt, echoed back by the agent
)

// Ready: the handshake is over and a session is open; prompts may go.
type Ready struct {
	Agent   string // the agent's name and version as it gave them, may be ""
	Session string // the protocol's session or thread id
}

// Text is a chunk of a message; chunks of one message share ID (the
// protocols that have no message id leave it "" and a change of role
// starts a new message).
type Text struct {
	ID   string
	Role Role
	Text string
}

// Tool is a tool call seen for the first time or updated; fields left ""
// are unchanged.
type Tool struct {
	ID     string
	Title  string // the agent's one-line title
	Kind   string // read, edit, execute, fetch, search, … (ACP's kinds)
	Status string // pending, in_progress, completed, failed
	Target string // the command, path or URL the call acts on
	Output string // a tail of what it printed, when the protocol says
}

// PlanEntry is one step of a plan.
type PlanEntry struct {
	Text   string
	Status string // pending, in_progress, completed
}

// Plan replaces the plan shown.
type Plan struct{ Entries []PlanEntry }

// Permission asks the person whether a tool call may run. It is answered
// with Agent.Answer; Once and Deny say which answers the agent offers.
type Permission struct {
	ID     string // this client's id for the request
	ToolID string
	Tool   string // a one-word tool name for the risk rules (execute, read, …)
	Kind   string // the tool call's kind (execute, edit, read, …)
	Title  string
	Target string // what it acts on: the command, path or URL
	Once   bool   // the agent offers allowing this call once
	Deny   bool   // the agent offers rejecting it
}

// PermissionGone says the agent withdrew a permission request (it was
// answered another way, or its turn ended).
type PermissionGone struct{ ID string }

// TurnStarted: the agent took a prompt.
type TurnStarted struct{}

// Outcome is how a turn ended.
type Outcome int

// The outcomes.
const (
	EndDone      Outcome = iota // the agent finished
	EndCancelled                // the person cancelled it
	EndFailed                   // it stopped on an error
)

// TurnEnded: the turn is over. Reason is the protocol's word (end_turn,
// max_tokens, interrupted, …) or an error's text for EndFailed.
type TurnEnded struct {
	Outcome Outcome
	Reason  string
}

// Notice is a line to show that is not part of the conversation: a
// warning from the agent, a retry.
type Notice struct{ Text string }

func (Ready) event()          {}
func (Text) event()           {}
func (Tool) event()           {}
func (Plan) event()           {}
func (Permission) event()     {}
func (PermissionGone) event() {}
func (TurnStarted) event()    {}
func (TurnEnded) event()      {}
func (Notice) event()         {}

// Decision answers a permission request.
type Decision int

// The decisions a pane offers: once and deny only.
const (
	AllowOnce Decision = iota + 1
	Deny
	Cancelled // the turn was cancelled while the request waited
)

// Agent is a client of one agent process. Start runs the handshake
// (ctx bounds it);
// Prompt starts a turn and returns once the agent took it (the turn's end
// comes as a TurnEnded event); Cancel ends the running turn and answers
// every pending permission request as cancelled; Answer answers one.
// Events come through the emit function the client was made with, in the
// order the agent sent them, never on the goroutine that called a method
// (the caller may be the one reading them).
type Agent interface {
	Start(ctx context.Context) error
	Prompt(text string) error
	Cancel()
	Answer(id string, d Decision) error
}
