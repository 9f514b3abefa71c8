package attention

import (
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/review"
)

// senderLabel names who sends, for the message's header.
func (r *Review) senderLabel(who string) string {
	switch who {
	case byHuman:
		return "the person"
	case byShell:
		return "a script"
	}
	return "pane " + r.windowName(who)
}

func (r *Review) windowName(id string) string {
	if w, ok := r.h.Find(id); ok {
		return w.DisplayName
	}
	return id[:min(8, len(id))]
}

func (r *Review) send(c core.Call, p *proto.SendReviewParams) (any, *proto.Error) {
	t, err := r.target(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	arb := r.h.Tracker().Arbiter()
	if b := arb.Brief(t.window); b.State == agentstate.None && b.Harness == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s runs no agent tuios knows: nothing would read the notes", t.name).
			WithHint(proto.Hint{Param: "window", Command: "tuios list-agents"})
	}
	who, err := r.author(c, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	notes := r.follow(c.Context(), t, nil)
	want := map[string]bool{}
	for _, id := range p.IDs {
		want[id] = true
	}
	var picked []review.Note
	for _, n := range notes {
		if len(want) > 0 && want[n.ID] || len(want) == 0 && n.SentAt == 0 {
			picked = append(picked, n)
			delete(want, n.ID)
		}
	}
	if len(want) > 0 {
		var missing []string
		for id := range want {
			missing = append(missing, id)
		}
		return nil, proto.Errorf(proto.CodeInvalidParams, "no note %s on %s", strings.Join(missing, ", "), t.name).WithHint(proto.Hint{Param: "ids", Command: "tuios review notes"})
	}
	if len(picked) == 0 {
		return nil, proto.Errorf(codeNoNotes, "%s has no unsent review notes", t.name).
			WithHint(proto.Hint{Command: "tuios review note FILE:LINE TEXT", Detail: "add a note first; sent notes are listed by tuios review notes"})
	}
	// Each note is checked against its author's authority now, not when
	// it was written.
	var sendable []review.SendNote
	withheld := []proto.WithheldNote{}
	for _, n := range picked {
		reason := ""
		switch n.By {
		case byHuman, byShell:
		default:
			if _, alive := r.h.Find(n.By); !alive {
				reason = "the pane that wrote it (" + n.By[:min(8, len(n.By))] + ") has closed"
			}
			// GRANTS: here a pane author's write grant on the target
			// (may it still type there?) and a link author's write policy
			// are checked, once grants and links exist.
		}
		if reason != "" {
			withheld = append(withheld, proto.WithheldNote{ID: n.ID, By: n.By, Reason: reason})
			continue
		}
		sn := review.SendNote{Note: n}
		if who == byHuman && n.By != byHuman {
			sn.WrittenBy = r.senderLabel(n.By)
		}
		sendable = append(sendable, sn)
	}
	if len(sendable) == 0 {
		return nil, proto.Errorf(proto.CodeForbidden, "every note was withheld: %s", withheld[0].Reason).
			WithHint(proto.Hint{Detail: "notes by a pane that closed cannot be sent; remove them (tuios review note --remove ID) or write your own"})
	}
	base, _, berr := review.ResolveBase(c.Context(), review.DiffOptions{Dir: t.repo.Worktree, RecordedBase: r.recordedBase(t)})
	if berr != nil {
		return nil, ReviewError(berr)
	}
	msg, merr := review.ComposeMessage(review.Message{Base: base, Sender: r.senderLabel(who), Notes: sendable})
	if merr != nil {
		return nil, ReviewError(merr)
	}
	if p.Now {
		snap := arb.Get(t.window)
		queued := 0
		if r.q != nil {
			queued = r.q.Len(t.window)
		}
		switch {
		case snap.State == agentstate.NeedsInput:
			return nil, proto.Errorf(codeAgentBlocked, "%s waits on a prompt; nothing was sent", t.name).
				WithHint(proto.Hint{Command: "tuios peek-prompt -w " + t.window[:8], Detail: "answer it first, or send without --now to queue the notes"})
		case !atRest(snap.State) || queued > 0:
			return nil, proto.Errorf(codeNotReady, "%s is %s with %d queued; --now sends only to an agent at rest with nothing queued", t.name, snap.State, queued).
				WithHint(proto.Hint{Detail: "leave out --now to queue the notes: they are typed at the agent's next rest"})
		}
	}
	if r.q == nil {
		return nil, proto.Errorf(proto.CodeInternal, "the reply queue is not running")
	}
	qres, qerr := r.q.add(c, &proto.QueuePromptParams{Session: t.session, Window: t.window, Text: msg, HumanNonce: p.HumanNonce})
	if qerr != nil {
		return nil, qerr
	}
	queued, ok := qres.(*proto.PromptQueued)
	if !ok {
		return nil, proto.Errorf(proto.CodeInternal, "the reply queue answered %T", qres)
	}
	ids := make([]string, 0, len(sendable))
	sentAt := r.h.Clock().Now().UnixNano()
	r.mu.Lock()
	for _, n := range sendable {
		ids = append(ids, n.ID)
		if cur := r.book.Find(n.ID); cur != nil {
			cur.SentAt = sentAt
		}
	}
	r.saveLocked()
	r.mu.Unlock()
	return &proto.ReviewSent{Type: "review_sent", Session: t.session, Window: t.window, Notes: len(ids), IDs: ids,
		QueuedID: queued.ID, Position: queued.Position, Queued: queued.Queued, Delivering: queued.Delivering, Withheld: withheld}, nil
}
