package daemon

import (
	"errors"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// codeGitFailed is a git call that failed for a reason of its own.
const codeGitFailed = "git_failed"

// reviewErr turns a package review error (fan compare's changes) into a
// protocol error.
func reviewErr(err error) *proto.Error {
	var de *review.DiffError
	if errors.As(err, &de) {
		e := proto.Errorf(de.Code, "%s", de.Message)
		if de.Hint != "" || de.Param != "" {
			e = e.WithHint(proto.Hint{Param: de.Param, Detail: de.Hint})
		}
		return e
	}
	return proto.Errorf(codeGitFailed, "%v", err).WithHint(proto.Hint{Detail: "check that git works in the pane's repository"})
}
