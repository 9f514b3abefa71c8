package daemon

import (
	"path/filepath"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/atomicfile"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
	"github.com/tuios/tuios/review"
)

// The Inbox is the attention set's store (attn.Store, a core.Feature,
// first in the list); the daemon holds it as inboxStore, what the core's
// files call: they feed it (a pane's state, mail, closes, notices), read
// it (the rail, push, list-attention) and hand subscribe's replay to it.

const (
	// attentionSaveDelay debounces the queue file's writes.
	attentionSaveDelay = attn.SaveDelay
	// codeNotHuman refuses an Inbox action from a program inside a pane.
	codeNotHuman = core.CodeNotHuman
)

// inboxStore is the Inbox as the core uses it (attn.Store). Its lock is
// held across each change and the publish of its events; the core calls
// it with none of its own locks held.
type inboxStore interface {
	// Change, Do, DoMixed and DoMirrored change the queue (or the
	// mirror of the linked hosts' items) and publish the events.
	Change(fn func() []inbox.Event)
	Do(fn func(q *inbox.Queue) ([]inbox.Event, error)) error
	DoMixed(fn func() (local, mirrored []inbox.Event))
	DoMirrored(fn func() []inbox.Event) []inbox.Event
	NewMirror() *inbox.Mirror

	Update(pane string)
	UpdateAll()
	MailThread(session string, ring *mail.Ring, thread uint64)
	SessionClosed(name string)
	Notice(p inbox.Pane, summary string)
	Resume(p inbox.Pane, command string)
	Close(key inbox.Key, reason inbox.Reason)
	Config(thing, summary string)
	Outbox(in inbox.OutboxInput)
	Seen(pane string)

	List(opt inbox.ListOptions) inbox.List
	// Risky are the rule names of each local pane's risky approval.
	Risky() map[string][]string
	ListWith(local bool, opt inbox.ListOptions, more func(l *inbox.List)) inbox.List
	Find(key inbox.Key) (inbox.Item, bool)
	Get(id string) (inbox.Item, bool)
	Seq() uint64
	BootID() string
	Replayed(match func(event) bool) (event, bool)
	Replay(replay bool, afterSeq uint64, bootID string, wants func(event) bool,
		add func(pre []event) (uint64, int)) (hubSeq, seq uint64, n int, resync bool)

	Load(keep func(session, window string) bool)
	Save(final bool)
	// Armed and Marshal are for tests: the snooze timer, the file's
	// content.
	Armed() (time.Time, bool)
	Marshal() ([]byte, error)
}

// stateDir is $XDG_STATE_HOME/tuios, else ~/.local/state/tuios; "" when
// neither can be told.
func stateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "tuios")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "tuios")
	}
	return ""
}

// newAttention makes the Inbox's store with what it reads of the core:
// a pane as the Inbox is fed it (its name, its state, the risk of its
// approval read whole: attention's Prompts.ApprovalRisk) and the hub.
func newAttention(s *Server, dir string) *attn.Store {
	return attn.NewStore(attn.StoreOptions{Clock: s.clock, StateDir: dir, UID: s.uid, Log: host{s}.Log(),
		Publish: s.hub.Publish,
		Saw:     func(e inbox.Event) { s.holds.Saw(e) }, // a held item that closed ends its hook's wait
		Pane: func(id string) (inbox.Pane, agentstate.Snapshot, bool) {
			p, w := s.tab.InboxPane(id) // table.go
			if w == nil {
				return p, agentstate.Snapshot{}, false
			}
			snap := s.tracker.Arbiter().Get(id)
			p.Risk = s.prompts.ApprovalRisk(w.Handle(), snap) // the risk column: attention's prompt_risk.go
			return p, snap, true
		},
		Panes: s.tab.WindowIDs, // table.go
	})
}

// riskChecker is the risk rules of [agents.approvals.risk], which the
// held approvals and respond judge with; rules that do not compile are
// logged and the shipped ones used.
func (s *Server) riskChecker() *review.Checker {
	chk, err := review.NewChecker(s.opt.Config.RiskConfig())
	if err != nil {
		s.warnf("config %s: %v: the shipped risk rules are used", s.opt.Config.Path, err)
		chk, _ = review.NewChecker(review.RiskConfig{})
	}
	return chk
}

// riskyPanes are the rule names of each local pane's risky approval, for
// the rail (attention's Store.Risky).
func (s *Server) riskyPanes() map[string][]string { return s.att.Risky() }

// writeFileAtomic replaces path with b, mode 0600, in a directory made
// 0700 when missing: a crash leaves the old file or the new one.
func writeFileAtomic(path string, b []byte) error {
	return atomicfile.WriteFile(path, b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
}

// ---- who may act ----

// isPerson reports whether a call carrying nonce comes from the person:
// a live nonce an attached client holds, presented by that client's
// process from outside every pane.
func (s *Server) isPerson(cn *conn, nonce string) bool {
	return linkStandsIn(cn) || nonce != "" && s.nonces.valid(cn, nonce) && s.outsidePanes(cn)
}

// person refuses, with not_human, a call that acts as the person
// (docs/security.md, The person boundary) and is not theirs: it needs the
// attached client's live nonce, or, when the daemon was started with
// respond_from_shell, a shell outside every pane. A program inside a pane
// is never the person, with or without a copied nonce.
func (s *Server) person(cn *conn, verb, nonce string) *proto.Error {
	if s.isPerson(cn, nonce) || s.fromShell && s.outsidePanes(cn) {
		return nil
	}
	detail := "use the Inbox in an attached client (tuios attach)"
	if !s.fromShell {
		detail += ", or set respond_from_shell = true under [daemon] in " + s.configPath() + " and restart the daemon to act from a shell outside every pane"
	}
	return proto.Errorf(codeNotHuman, "%s acts as the person: it needs a live human nonce from an attached client", verb).
		WithHint(proto.Hint{Detail: detail})
}
