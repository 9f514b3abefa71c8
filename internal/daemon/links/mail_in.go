package links

import (
	"encoding/base64"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// Mail over links, the receiving side (docs/hosts.md, What another
// machine may do here). The daemon's mail verbs apply these rules to a
// call that came over a link (it knows the connection; these know the
// rules):
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
//     on with release-agent-message.
//   - A link reading the person's inbox gets a peek: another machine never
//     marks the person's mail read.

// Incoming is a message a link sends, about to be stored here.
type Incoming struct {
	// Peer is the link's peer name, from the connection.
	Peer string
	// HoldMail is the link policy's hold_mail for the peer.
	HoldMail bool
	// Stash is the stash of the session the message goes to.
	Stash       *mail.Stash
	Attachments []string
	// To and ToLabel are whom it is for; Receive rewrites them to human
	// when the mail is held.
	To, ToLabel string
}

// Received is what a link adds to one message.
type Received struct {
	Origin, Host          string
	Held                  bool
	HeldFor, HeldForLabel string
}

// Receive applies the link's rules to a message about to be stored:
// attachments in the stash, the origin from the connection, and holding.
func Receive(in *Incoming) (Received, *proto.Error) {
	for _, a := range in.Attachments {
		if !in.Stash.Holds(a) {
			return Received{}, proto.Errorf(proto.CodeInvalidParams, "a message from another machine can attach only a file in this session's stash, not %q", core.Clip(a, 256)).
				WithHint(proto.Hint{Param: "attachments", Command: "tuios stash put -s HOST:SESSION FILE", Detail: "stash the file on this host first and attach the path it prints"})
		}
	}
	r := Received{Origin: mail.OriginLink, Host: in.Peer}
	if in.HoldMail && in.To != mail.Human {
		r.Held, r.HeldFor, r.HeldForLabel = true, in.To, in.ToLabel
		if in.To == "" {
			r.HeldForLabel = "the session (a notice)"
		}
		in.To, in.ToLabel = mail.Human, mail.Human
	}
	return r, nil
}

// AnswersLink reports whether a local sender's message that replies to
// parent and is addressed to to answers a message from another machine
// and addresses its sender (no to, or to naming the far sender's label):
// it is then stored as a notice, which the far side reads in the thread.
func AnswersLink(parent mail.Message, to string) bool {
	return parent.Origin == mail.OriginLink && (to == "" || to == parent.FromLabel)
}

// StashPut is stash-put's source: a path on this machine, or the bytes
// (base64) and the name of a file from elsewhere.
type StashPut struct {
	Path, Data, Name string
	// OverLink says the call came over another machine's link.
	OverLink bool
}

// Check checks the source: a path or data, not both; a link sends data,
// since a path would name a file of this machine.
func (p StashPut) Check() *proto.Error {
	switch {
	case p.Path == "" && p.Data == "":
		return proto.Errorf(proto.CodeInvalidParams, "name the file: path (or data, its bytes)").WithHint(proto.Hint{Param: "path"})
	case p.Path != "" && p.Data != "":
		return proto.Errorf(proto.CodeInvalidParams, "give path or data, not both").WithHint(proto.Hint{Param: "data"})
	case p.Path != "" && p.OverLink:
		return proto.Errorf(proto.CodeForbidden, "over a link stash-put takes the file's bytes (data), not a path on this machine").
			WithHint(proto.Hint{Param: "data", Command: "tuios stash put -s HOST:SESSION FILE", Detail: "the CLI reads the file on your machine and sends its bytes"})
	}
	return nil
}

// Put stores the path, or the data decoded from base64, in st.
func (p StashPut) Put(st *mail.Stash) (mail.PutResult, error) {
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
