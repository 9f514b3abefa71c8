package mail

// Release passes held mail on (release-agent-message): the held message
// id becomes a new message to to (a window id, or "" for a notice) with
// the original sender, origin and text, its ReleasedFrom naming the held
// one. A message is released once: a second release, an id that is not
// held mail, or one the ring no longer holds is CodeInvalidParams. The
// caller checks that to still exists; the sender's rate bucket and the
// link caps are not charged again (the person chose to pass it on). It
// returns the held message (now marked) and the delivered one.
func (r *Ring) Release(id uint64, to, toLabel string) (held, released Message, err error) {
	now := r.opt.Clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Message{}, Message{}, errClosed()
	}
	h := r.find(id)
	switch {
	case h == nil:
		return Message{}, Message{}, errorf(CodeInvalidParams, "id", "read the person's inbox for held mail: read-agent-messages -w human", "message %d is not in this session", id)
	case !h.Held:
		return Message{}, Message{}, errorf(CodeInvalidParams, "id", "only mail held for the person (hold_mail) is released", "message %d is not held mail", id)
	case h.ReleasedAs != 0:
		return Message{}, Message{}, errorf(CodeInvalidParams, "id", "it was passed on already; read it there", "message %d was released already, as message %d", id, h.ReleasedAs)
	}
	m := &Message{
		ID: r.opt.IDs.Next(), Kind: KindMessage, Session: r.opt.Session,
		From: h.From, FromLabel: h.FromLabel, To: to, ToLabel: toLabel,
		Subject: h.Subject, Text: h.Text, ReplyTo: h.ReplyTo, ReplyToMissing: h.ReplyToMissing,
		Attachments: append([]Attachment(nil), h.Attachments...), SentAt: now.UnixNano(),
		Origin: h.Origin, OriginHost: h.OriginHost, VerifiedHuman: h.VerifiedHuman, ClaimedHuman: h.ClaimedHuman,
		ReleasedFrom: h.ID,
	}
	if to == "" {
		m.Kind = KindNotice
	}
	// A reply keeps its thread; a first message starts its own there.
	m.ThreadID = m.ID
	if h.ReplyTo != 0 {
		m.ThreadID = h.ThreadID
	}
	h.ReleasedAs = m.ID
	if h.ReadAt == 0 {
		h.ReadAt = now.UnixNano()
	}
	held = r.copyOf(h, false)
	r.store(m)
	return held, r.copyOf(m, false), nil
}

// Get is the message with id, as a read would return it (nothing
// marked), and whether the ring holds it.
func (r *Ring) Get(id uint64) (Message, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.find(id)
	if m == nil {
		return Message{}, false
	}
	return r.copyOf(m, false), true
}
