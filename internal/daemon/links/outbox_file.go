package links

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/hosts"
	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// The outbox file: version, the next queue id, every waiting message in
// delivery order per host, and each host's latest refusal. Written whole
// and atomically (0600, atomicfile.WriteFile) after every change, before a
// send answers "queued": what the caller was told is on disk.

const (
	outboxVersion = 1
	// outboxMaxFileBytes bounds the file read at start: 256 messages of
	// 8 KiB with their fields fit many times over.
	outboxMaxFileBytes = 16 << 20
	// OutboxMaxField bounds session, to, from and each attachment path.
	OutboxMaxField = 4096
	// outboxMaxRefusal bounds a kept refusal line.
	outboxMaxRefusal = 512
)

// OutboxMsg is one message waiting for a host: what send-agent-message
// will say there. list-outbox shows it and the outbox file stores it in
// the same form.
type OutboxMsg = proto.OutboxMessage

// farParams are the far verb's params: the message without its host.
func farParams(m OutboxMsg) map[string]any {
	p := map[string]any{"text": m.Text}
	for k, v := range map[string]string{"session": m.Session, "to": m.To, "from": m.From, "subject": m.Subject} {
		if v != "" {
			p[k] = v
		}
	}
	if m.ReplyTo > 0 {
		p["reply_to"] = m.ReplyTo
	}
	if len(m.Attachments) > 0 {
		p["attachments"] = m.Attachments
	}
	return p
}

// outboxState is the file's content.
type outboxState struct {
	Version  int               `json:"version"`
	NextID   uint64            `json:"next_id"`
	Messages []OutboxMsg       `json:"messages"`
	Refused  map[string]string `json:"refused,omitempty"`
}

// checkMessage refuses a message the outbox would not have kept.
func checkMessage(m OutboxMsg) error {
	switch {
	case !hosts.ValidName(m.Host) || m.Host == "local":
		return fmt.Errorf("host %q is not a host name", m.Host)
	case len(m.Session) > OutboxMaxField || len(m.To) > OutboxMaxField || len(m.From) > OutboxMaxField:
		return errors.New("a session, to or from that is too long")
	case strings.TrimSpace(m.Text) == "" || len(m.Text) > mail.MaxBodyBytes:
		return errors.New("a text that is blank or over 8 KiB")
	case utf8.RuneCountInString(m.Subject) > mail.MaxSubjectChars:
		return errors.New("a subject over 120 characters")
	case len(m.Attachments) > mail.MaxAttachments:
		return errors.New("more than 8 attachments")
	case m.ReplyTo < 0:
		return errors.New("a negative reply_to")
	}
	for _, a := range m.Attachments {
		if a == "" || len(a) > OutboxMaxField {
			return errors.New("an attachment path that is empty or too long")
		}
	}
	return nil
}

// decodeOutbox reads the file's bytes, refusing anything the outbox would
// not have written: another version, unknown fields, a message out of
// bounds, a duplicate or unissued queue id, more than the caps.
func decodeOutbox(b []byte) (outboxState, error) {
	var st outboxState
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return outboxState{}, fmt.Errorf("it is not an outbox: %v", err)
	}
	if dec.More() {
		return outboxState{}, errors.New("it has more than one value")
	}
	if st.Version != outboxVersion {
		return outboxState{}, fmt.Errorf("version %d, not %d", st.Version, outboxVersion)
	}
	if st.NextID == 0 {
		return outboxState{}, errors.New("next_id is 0")
	}
	if len(st.Messages) > OutboxTotal {
		return outboxState{}, fmt.Errorf("%d messages, over the cap of %d", len(st.Messages), OutboxTotal)
	}
	seen := map[uint64]bool{}
	per := map[string]int{}
	for i, m := range st.Messages {
		if m.ID == 0 || m.ID >= st.NextID || seen[m.ID] {
			return outboxState{}, fmt.Errorf("message %d: queue id %d is 0, unissued or used twice", i, m.ID)
		}
		seen[m.ID] = true
		if err := checkMessage(m); err != nil {
			return outboxState{}, fmt.Errorf("message %d: %v", i, err)
		}
		if per[m.Host]++; per[m.Host] > OutboxPerHost {
			return outboxState{}, fmt.Errorf("more than %d messages for %s", OutboxPerHost, m.Host)
		}
	}
	for host, why := range st.Refused {
		if !hosts.ValidName(host) || why == "" || len(why) > outboxMaxRefusal {
			return outboxState{}, fmt.Errorf("a refusal for %q that is not a host, empty or too long", host)
		}
	}
	return st, nil
}

// encodeOutbox is the file's bytes for the outbox's state. Called with mu
// held.
func (o *Outbox) encodeLocked() ([]byte, error) {
	st := outboxState{Version: outboxVersion, NextID: o.next, Messages: []OutboxMsg{}}
	names := make([]string, 0, len(o.hosts))
	for name := range o.hosts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		h := o.hosts[name]
		st.Messages = append(st.Messages, h.msgs...)
		if h.refused != "" {
			if st.Refused == nil {
				st.Refused = map[string]string{}
			}
			st.Refused[name] = h.refused
		}
	}
	return json.Marshal(st)
}

// saveLocked writes the file. Called with mu held, so writes land in the
// order of the changes.
func (o *Outbox) saveLocked() error {
	if o.opt.Path == "" {
		return nil
	}
	b, err := o.encodeLocked()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(o.opt.Path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
}

// load reads the file at start. A file that is corrupt, not ours or not
// private is set aside and the outbox starts empty. It returns the hosts
// that have mail or a refusal.
func (o *Outbox) Load() []string {
	if o.opt.Path == "" {
		return nil
	}
	b, why := atomicfile.ReadPrivate(o.opt.Path, o.opt.UID, outboxMaxFileBytes)
	if b == nil && why == "" {
		return nil
	}
	var st outboxState
	if why == "" {
		var err error
		if st, err = decodeOutbox(b); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		o.opt.SetAside(o.opt.Path, why)
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.fillLocked(st)
	names := make([]string, 0, len(o.hosts))
	for name := range o.hosts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// fillLocked puts what a read file holds in the outbox: the id counter,
// each host's waiting messages in order, and its latest refusal.
func (o *Outbox) fillLocked(st outboxState) {
	o.next = st.NextID
	for _, m := range st.Messages {
		h := o.hostLocked(m.Host)
		h.msgs = append(h.msgs, m)
	}
	for host, why := range st.Refused {
		o.hostLocked(host).refused = why
	}
}
