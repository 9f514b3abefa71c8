package attention

import (
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// What review takes from the worktrees: the base a worktree was made
// from, and another attempt of the same fan to diff against.

// made is the worktree record of the pane's session, when tuios made the
// worktree the pane's repository is.
func (r *Review) made(t *reviewTarget) (core.Worktree, bool) {
	rec, ok := r.h.Worktree(t.session)
	if !ok || t.repo == nil || rec.Worktree != t.repo.Worktree {
		return core.Worktree{}, false
	}
	return rec, true
}

// recordedBase is the base the pane's worktree was made from, when tuios
// made it ("" otherwise): the base order's second step.
func (r *Review) recordedBase(t *reviewTarget) string {
	rec, _ := r.made(t)
	return rec.Base
}

// fanGroupOf is the fan the pane's worktree is an attempt of ("" none).
func (r *Review) fanGroupOf(t *reviewTarget) string {
	rec, _ := r.made(t)
	return rec.Group
}

// againstAttempt is the attempt a review diffs against: another attempt
// of the fan the pane's worktree is in, that the caller reaches.
func (r *Review) againstAttempt(c core.Call, t *reviewTarget, session string) (core.Worktree, *proto.Error) {
	rec, ok := r.made(t)
	if !ok || rec.Group == "" {
		return core.Worktree{}, proto.Errorf(proto.CodeInvalidParams, "against names another attempt of the same fan, and %s is in no fan", t.name).
			WithHint(proto.Hint{Param: "against", Detail: "leave it out to diff against the base"})
	}
	other, ok := r.h.Worktree(session)
	if !ok || other.Group != rec.Group || other.Repo != rec.Repo {
		return core.Worktree{}, proto.Errorf(proto.CodeInvalidParams, "%q is not an attempt of %s", session, rec.Group).
			WithHint(proto.Hint{Param: "against", Command: "tuios fan compare " + rec.Session, Detail: "fan compare lists the attempts"})
	}
	if other.SessionID == rec.SessionID {
		return core.Worktree{}, proto.Errorf(proto.CodeInvalidParams, "%s is the attempt under review: name another one", session).WithHint(proto.Hint{Param: "against"})
	}
	if err := r.h.FanReach(c, other.Session); err != nil {
		return core.Worktree{}, err
	}
	return other, nil
}
