package mailbox

import (
	"encoding/base64"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Mail over links, the receiving side (docs/hosts.md, What another
// machine may do here).
//
//   - A message sent over a link is stored with origin "link" and
//     origin_host the link's peer name, taken from the connection
//     (link-peer), never from the request. The sender's from is a label
//     only: it is never resolved against this machine's windows, and
//     "human" from a link is claimed_human, never the person.
//   - The ring caps link mail (32 unread messages and 32 notices a
//     session, rate_limited past that), and one rate bucket serves each
//     peer name.
//   - Attachments from a link must be files in that session's stash here
//     (the far side puts them with stash-put data first): a path would
//     name a file of this machine that the far side chose.
//   - A reply here to a link message, with no to or with to naming the far
//     sender's label, is stored as a notice in the ring, where the far side
//     reads it back (read-agent-messages -s HOST:SESSION --thread ID). It
//     is never delivered to a local window that happens to share the
//     label.
//   - Held mail: hold_mail for the sending machine stores its mail to
//     anyone but human with the person instead (held, held_for,
//     held_for_label); the sender is told held:true. The person passes it
//     on with release-agent-message (release.go).
//   - A link reading the person's inbox gets a peek: another machine never
//     marks the person's mail read.

// linkMail is what a link adds to one message.
type linkMail struct {
	origin, host          string
	held                  bool
	heldFor, heldForLabel string
}

// fromLink applies the link's rules to a message about to be stored:
// attachments in the stash, the origin from the connection, and holding.
// to and toLabel are rewritten to human when the mail is held.
func (m *Mail) fromLink(c core.Call, ring *mail.Ring, p *proto.SendMessageParams, to, toLabel *string) (linkMail, *proto.Error) {
	if !remote(c) {
		return linkMail{}, nil
	}
	st := ring.Stash()
	for _, a := range p.Attachments {
		if !st.Holds(a) {
			return linkMail{}, proto.Errorf(proto.CodeInvalidParams, "a message from another machine can attach only a file in this session's stash, not %q", core.Clip(a, 256)).
				WithHint(proto.Hint{Param: "attachments", Command: "tuios stash put -s HOST:SESSION FILE", Detail: "stash the file on this host first and attach the path it prints"})
		}
	}
	peer, hold := m.h.LinkMail(c)
	lk := linkMail{origin: mail.OriginLink, host: peer}
	if hold && *to != mail.Human {
		lk.held, lk.heldFor, lk.heldForLabel = true, *to, *toLabel
		if *to == "" {
			lk.heldForLabel = "the session (a notice)"
		}
		*to, *toLabel = mail.Human, mail.Human
	}
	return lk, nil
}

// replyToLink reports whether a local sender's message answers a message
// from another machine and addresses its sender (no to, or to naming the
// far sender's label): it is then stored as a notice, which the far side
// reads in the thread.
func replyToLink(c core.Call, ring *mail.Ring, p *proto.SendMessageParams) bool {
	if p.ReplyTo == 0 || remote(c) {
		return false
	}
	parent, ok := ring.Get(uint64(p.ReplyTo))
	return ok && parent.Origin == mail.OriginLink && (p.To == "" || p.To == parent.FromLabel)
}

// stashPutSource checks stash-put's source: a path or data, not both; a
// link sends data, since a path would name a file of this machine.
func stashPutSource(c core.Call, p *proto.StashPutParams) *proto.Error {
	switch {
	case p.Path == "" && p.Data == "":
		return proto.Errorf(proto.CodeInvalidParams, "name the file: path (or data, its bytes)").WithHint(proto.Hint{Param: "path"})
	case p.Path != "" && p.Data != "":
		return proto.Errorf(proto.CodeInvalidParams, "give path or data, not both").WithHint(proto.Hint{Param: "data"})
	case p.Path != "" && remote(c):
		return proto.Errorf(proto.CodeForbidden, "over a link stash-put takes the file's bytes (data), not a path on this machine").
			WithHint(proto.Hint{Param: "data", Command: "tuios stash put -s HOST:SESSION FILE", Detail: "the CLI reads the file on your machine and sends its bytes"})
	}
	return nil
}

// putStash stores a path, or data sent as base64.
func putStash(st *mail.Stash, p *proto.StashPutParams) (mail.PutResult, error) {
	if p.Path != "" {
		return st.Put(p.Path)
	}
	b, err := base64.StdEncoding.DecodeString(p.Data)
	if err != nil {
		return mail.PutResult{}, proto.Errorf(proto.CodeInvalidParams, "data is not base64: %v", err).WithHint(proto.Hint{Param: "data"})
	}
	if len(b) > mail.MaxLinkStashBytes {
		return mail.PutResult{}, proto.Errorf(proto.CodeInvalidParams, "the file is %d bytes, over the %d-byte cap for a file sent over a link", len(b), mail.MaxLinkStashBytes).
			WithHint(proto.Hint{Param: "data", Detail: "send a smaller file, or split it"})
	}
	name := p.Name
	if name == "" {
		name = "sent-over-link"
	}
	return st.PutBytes(name, b)
}
