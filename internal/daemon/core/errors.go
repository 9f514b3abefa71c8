package core

import (
	"errors"
	"strconv"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// CodeAgentsDisabled answers an agent verb when [agents] enabled = false.
const CodeAgentsDisabled = "agents_disabled"

// AgentsDisabled is the refusal of an agent verb (what) while agents are
// off: the multiplexer and mail go on.
func AgentsDisabled(what string) *proto.Error {
	return proto.Errorf(CodeAgentsDisabled, "%s: agent features are off ([agents] enabled = false)", what).
		WithHint(proto.Hint{Detail: "set enabled = true under [agents] in ~/.config/tuios/config.toml and restart the daemon"})
}

// InboxError turns a queue refusal into a protocol error with the same code;
// its Why goes in the hint. The Inbox's verbs and the follow of
// linked hosts' items answer with it.
func InboxError(err error) *proto.Error {
	var ie *inbox.Error
	if errors.As(err, &ie) {
		h := proto.Hint{Param: ie.Param, Detail: "why: " + string(ie.Why)}
		if x := ie.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(ie.Code()), "%s", ie.Message).WithHint(h)
	}
	var se *inbox.SelectorError
	if errors.As(err, &se) {
		h := proto.Hint{Param: se.Param, Accepted: se.Accepted(), DidYouMean: se.DidYouMean}
		if se.Term != "" {
			h.Detail = "the term " + strconv.Quote(se.Term) + ": "
		}
		h.Detail += "why: " + se.Why
		if x := se.Hint(); x != "" {
			h.Detail += "; " + x
		}
		return proto.Errorf(string(se.Code()), "%s", se.Message).WithHint(h)
	}
	return proto.Errorf(proto.CodeInternal, "%v", err)
}
