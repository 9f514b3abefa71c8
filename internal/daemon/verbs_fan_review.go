package daemon

import (
	"github.com/tuios/tuios/internal/proto"
)

// What review takes from the worktrees: the base a worktree was made
// from, and another attempt of the same fan to diff against.

// recordedBase is the base the pane's worktree was made from, when tuios
// made it ("" otherwise): the base order's second step.
func (s *Server) recordedBase(t *reviewTarget) string {
	rec, ok := s.wts.bySession(t.session)
	if !ok || t.repo == nil || rec.Worktree != t.repo.Worktree {
		return ""
	}
	return rec.Base
}

// againstAttempt is the attempt a review diffs against: another attempt
// of the fan the pane's worktree is in, that the caller reaches.
func (s *Server) againstAttempt(cn *conn, t *reviewTarget, session string) (wtRecord, *proto.Error) {
	rec, ok := s.wts.bySession(t.session)
	if !ok || rec.Group == "" || t.repo == nil || rec.Worktree != t.repo.Worktree {
		return wtRecord{}, proto.Errorf(proto.CodeInvalidParams, "against names another attempt of the same fan, and %s is in no fan", t.name).
			WithHint(proto.Hint{Param: "against", Detail: "leave it out to diff against the base"})
	}
	other, ok := s.wts.bySession(session)
	if !ok || other.Group != rec.Group || other.Repo != rec.Repo {
		return wtRecord{}, proto.Errorf(proto.CodeInvalidParams, "%q is not an attempt of %s", session, rec.Group).
			WithHint(proto.Hint{Param: "against", Command: "tuios fan compare " + rec.Session, Detail: "fan compare lists the attempts"})
	}
	if other.SessionID == rec.SessionID {
		return wtRecord{}, proto.Errorf(proto.CodeInvalidParams, "%s is the attempt under review: name another one", session).WithHint(proto.Hint{Param: "against"})
	}
	if err := s.fanInReach(cn, other); err != nil {
		return wtRecord{}, err
	}
	return other, nil
}

// fanGroupOf is the fan the pane's worktree is an attempt of ("" none).
func (s *Server) fanGroupOf(t *reviewTarget) string {
	rec, ok := s.wts.bySession(t.session)
	if !ok || t.repo == nil || rec.Worktree != t.repo.Worktree {
		return ""
	}
	return rec.Group
}
