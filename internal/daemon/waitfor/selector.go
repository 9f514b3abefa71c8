package waitfor

import (
	"errors"
	"strconv"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// selectorError is a refusal of --select as every verb that takes a
// selector words it: the code, the message, and a hint naming the param,
// the term at fault, why, and what is accepted.
func selectorError(err error) *proto.Error {
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
