package hosts

import "fmt"

// Code is a stable error code, the same as tuios's control protocol uses,
// so a CLI or daemon can report a hosts error without translating it.
type Code string

// The codes this package returns.
const (
	CodeInvalidParams    Code = "invalid_params"
	CodeUnknownHost      Code = "unknown_host"
	CodeHostUnreachable  Code = "host_unreachable"
	CodeHostRefused      Code = "host_refused"
	CodeProtocolMismatch Code = "protocol_mismatch"
)

// Reason is finer than Code: it says which step failed, and for a dial it
// maps onto the state a host's link is left in (see Reason.Status).
type Reason string

// The reasons.
const (
	ReasonBadName        Reason = "bad_name"         // the host's name is not letters, digits, . - _
	ReasonBadAddr        Reason = "bad_addr"         // addr is empty or starts with '-'
	ReasonOptionRefused  Reason = "option_refused"   // an ssh option outside the safe subset
	ReasonSSHConfig      Reason = "ssh_config"       // ~/.ssh/config asks for something not done here
	ReasonConnect        Reason = "connect"          // TCP connect failed or timed out
	ReasonHostKeyUnknown Reason = "host_key_unknown" // no known_hosts line for the host
	ReasonHostKeyChanged Reason = "host_key_changed" // known_hosts has a different key
	ReasonAuth           Reason = "auth"             // no key was accepted
	ReasonNoTuios        Reason = "no_tuios"         // the far side has no tuios where we looked
	ReasonNoDaemon       Reason = "no_daemon"        // the far tuios found no daemon
	ReasonIncompatible   Reason = "incompatible"     // protocol versions differ
	ReasonProtocol       Reason = "protocol"         // the far side answered something that is not the protocol
	ReasonDropped        Reason = "dropped"          // a link that was up ended (Link.Err says how)
	ReasonNoRoom         Reason = "no_room"          // the far sshd refused one more channel (MaxSessions)
)

// Status is the link state a dial that failed for this reason leaves the
// host in.
func (r Reason) Status() string {
	switch r {
	case ReasonNoTuios, ReasonNoDaemon, ReasonIncompatible:
		return string(r)
	}
	return "unreachable"
}

// Error is a hosts failure: the stable code, the step that failed, the
// host it concerns, and a hint that says what a person can do.
type Error struct {
	code   Code
	Reason Reason
	Host   string
	// Hop is the jump host on the way to Host that failed ("" when the
	// failure is Host's own), so a person knows which machine to look at.
	Hop  string
	Msg  string
	hint string
	Err  error
}

func (e *Error) Error() string {
	s := e.Msg
	if e.Hop != "" {
		s = "jump host " + e.Hop + ": " + s
	}
	if e.Host != "" {
		s = fmt.Sprintf("host %s: %s", e.Host, s)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap gives the underlying error (a net or ssh error), if any.
func (e *Error) Unwrap() error { return e.Err }

// Code is the stable code.
func (e *Error) Code() Code { return e.code }

// Hint says what to do next.
func (e *Error) Hint() string { return e.hint }

func newErr(code Code, reason Reason, host, hint, format string, args ...any) *Error {
	return &Error{code: code, Reason: reason, Host: host, hint: hint, Msg: fmt.Sprintf(format, args...)}
}
