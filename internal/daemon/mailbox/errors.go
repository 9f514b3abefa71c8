package mailbox

import (
	"errors"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Error codes of the mail verbs that proto does not name (stable wire
// names; docs/protocol.md lists every code).
const (
	codeNoKeyboard    = "no_keyboard"
	codeAgentBlocked  = "agent_blocked"
	codeNotReady      = "not_ready"
	codeLoopRefused   = "loop_refused"
	codePromptStalled = "prompt_stalled"
)

// mailErr turns a mail refusal into a protocol error: a mail.Error keeps
// its code, param and hint, a refusal already made is itself, anything
// else is internal.
func mailErr(err error) *proto.Error {
	if pe, ok := err.(*proto.Error); ok { // already a refusal (putStash)
		return pe
	}
	var e *mail.Error
	if errors.As(err, &e) {
		pe := proto.Errorf(string(e.Code()), "%s", e.Message)
		if e.Param != "" || e.Hint() != "" {
			pe.Hint = &proto.Hint{Param: e.Param, Detail: e.Hint()}
		}
		return pe
	}
	return proto.Errorf(proto.CodeInternal, "%v", err)
}
