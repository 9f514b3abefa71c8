package attention

import (
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The Inbox's verbs: list-attention, dismiss-attention, mark-attention.

// Hosts is the follow of linked hosts' Inboxes as the Inbox's verbs use
// it (the daemon's): their mirrored items, numbered in the Store's seq.
type Hosts interface {
	// Check refuses a host list-attention does not know ("" and local
	// are always known).
	Check(host string) *proto.Error
	// List is list-attention's answer for host ("" both, local this
	// machine's, else that host's mirrored items).
	List(host string, opt inbox.ListOptions) any
	// Dismiss and Mark act on a mirrored item, here only.
	Dismiss(id string) (any, *proto.Error)
	Mark(p *proto.MarkAttentionParams) (any, *proto.Error)
	// Undo undoes the person's newest dismiss or snooze, local or
	// mirrored.
	Undo() ([]inbox.Event, error)
}

// VerbOptions is what the Inbox's verbs need besides the core.
type VerbOptions struct {
	Hosts Hosts
	// AfterDismiss does what a dismiss asks besides its close: a
	// finished turn seen, a thread's mail read, an outbox row's mail
	// discarded.
	AfterDismiss func(inbox.Dismissed)
}

// Serve gives the Store what its verbs need; the daemon calls it before
// the features' Init, which adds the verbs.
func (a *Store) Serve(opt VerbOptions) { a.verbs = opt }

func (a *Store) addVerbs(h core.Host) {
	params, run := core.Handle(func(c core.Call, p *proto.ListAttentionParams) (any, *proto.Error) { return a.listVerb(h, c, p) })
	h.AddVerb(core.Verb{Name: "list-attention", Class: core.Reads, Agent: true, Returns: "attention_list", Params: params, Run: run,
		Desc:    "List the Inbox: what the agents wait on, grouped and oldest first, with counts, seq and boot_id",
		Example: `{"verb":"list-attention","params":{"kinds":["approval","question"],"select":"session:api-fan-* needs:you"}}`})

	params, run = core.Handle(func(c core.Call, p *proto.DismissAttentionParams) (any, *proto.Error) { return a.dismissVerb(h, c, p) })
	h.AddVerb(core.Verb{Name: "dismiss-attention", Class: core.Person, Agent: true, Returns: "attention_dismissed", Params: params, Run: run,
		Desc:    "Take an item off the Inbox (a finished turn is marked seen, a mail thread read); undo with mark-attention undo within 10 s",
		Example: `{"verb":"dismiss-attention","params":{"id":"12"}}`})

	params, run = core.Handle(func(c core.Call, p *proto.MarkAttentionParams) (any, *proto.Error) { return a.markVerb(h, c, p) })
	h.AddVerb(core.Verb{Name: "mark-attention", Class: core.Person, Agent: true, Returns: "attention_marked", Params: params, Run: run,
		Desc:    "Snooze, wake, restore or undo an Inbox item, or mark a pane's finished turn unread",
		Example: `{"verb":"mark-attention","params":{"action":"snooze","id":"12","for_ms":900000}}`})
}

func (a *Store) listVerb(h core.Host, c core.Call, p *proto.ListAttentionParams) (any, *proto.Error) {
	if err := a.verbs.Hosts.Check(p.Host); err != nil {
		return nil, err
	}
	remote := p.Host != "" && p.Host != "local"
	if p.Host != "" {
		if err := h.Wide(c, "host"); err != nil { // another machine's Inbox
			return nil, err
		}
	}
	if p.Session != "" && !remote { // with a host, the session is that host's
		if err := h.NoSession(p.Session); err != nil {
			return nil, err
		}
		if err := h.InReach(c, p.Session); err != nil {
			return nil, err
		}
	}
	session := p.Session
	if session == "" && !remote {
		own, err := h.SubscribeReach(c) // every session it reaches: its own for a pane without admin
		if err != nil {
			return nil, err
		}
		session = own
	}
	opt := inbox.ListOptions{Session: session, IncludeSnoozed: p.IncludeSnoozed}
	for _, k := range p.Kinds {
		kind, err := inbox.ParseKind(k)
		if err != nil {
			pe := InboxError(err)
			if pe.Hint != nil {
				pe.Hint.Param = "kinds"
				pe.Hint.Accepted = kindNames()
			}
			return nil, pe
		}
		opt.Kinds = append(opt.Kinds, kind)
	}
	sel, perr := core.ParseSelect(p.Select)
	if perr != nil {
		return nil, perr
	}
	if sel != nil {
		var dirs map[string]string // an item carries no cwd: read each local pane's
		if sel.Uses(inbox.SelectorCwd) {
			dirs = h.PaneCwds()
		}
		opt.Filter = func(it inbox.Item) bool {
			f := itemFields(it)
			if it.Host == "" {
				f.Cwd = dirs[it.Window]
			}
			return sel.Match(&f)
		}
	}
	return a.verbs.Hosts.List(p.Host, opt), nil // local and mirrored items
}

func (a *Store) dismissVerb(h core.Host, c core.Call, p *proto.DismissAttentionParams) (any, *proto.Error) {
	if err := h.Person(c, "dismiss-attention", p.HumanNonce); err != nil {
		return nil, err
	}
	if _, _, ok := inbox.SplitHostID(p.ID); ok { // a mirrored item: dismissed here only
		return a.verbs.Hosts.Dismiss(p.ID)
	}
	var d inbox.Dismissed
	err := a.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
		var evs []inbox.Event
		var err error
		d, evs, err = q.Dismiss(p.ID)
		return evs, err
	})
	if err != nil {
		return nil, InboxError(err)
	}
	a.verbs.AfterDismiss(d)
	res := &proto.AttentionDismissed{Type: "attention_dismissed", ID: d.ID, Kind: string(d.Kind), Session: d.Session, Dismissed: true, Host: d.Host}
	if d.ForHost != "" {
		res.ForHost, res.Discarded = d.ForHost, &d.Discarded
	}
	return res, nil
}

func (a *Store) markVerb(h core.Host, c core.Call, p *proto.MarkAttentionParams) (any, *proto.Error) {
	if err := h.Person(c, "mark-attention", p.HumanNonce); err != nil {
		return nil, err
	}
	res := &proto.AttentionMarked{Type: "attention_marked", Action: p.Action}
	if _, _, ok := inbox.SplitHostID(p.ID); ok && p.Action != "undo" { // a mirrored item: marked here only
		return a.verbs.Hosts.Mark(p)
	}
	if p.Action == "undo" {
		evs, err := a.verbs.Hosts.Undo() // the newest act, local or mirrored
		if err != nil {
			return nil, InboxError(err)
		}
		if len(evs) > 0 {
			res.ID = evs[len(evs)-1].Item.ID
		}
		return res, nil
	}
	// The item: by id, or by its pane and kind (unread needs only the pane).
	id := p.ID
	var paneID string
	if id == "" || p.Action == "unread" {
		if p.Window == "" && p.Session == "" {
			return nil, proto.Errorf(proto.CodeInvalidParams, "name the item: id, or session, window and kind").WithHint(proto.Hint{Param: "id"})
		}
		w, err := h.Window(c, p.Session, p.Window)
		if err != nil {
			return nil, err
		}
		paneID = w.ID
		if p.Action != "unread" {
			if p.Kind == "" {
				return nil, proto.Errorf(proto.CodeInvalidParams, "with a window, name the item's kind").
					WithHint(proto.Hint{Param: "kind", Accepted: []string{"approval", "plan", "question", "errored", "resume", "finished"}})
			}
			it, ok := a.Find(inbox.PaneKey(inbox.Kind(p.Kind), paneID))
			if !ok {
				return nil, proto.Errorf(proto.CodeInvalidParams, "the pane has no %s item", p.Kind).WithHint(proto.Hint{Param: "kind", Detail: "why: unknown_id; tuios list-attention lists the items"})
			}
			id = it.ID
		}
	}
	snoozeSet := 0
	for _, set := range []bool{p.Until != 0, p.ForMS != 0, p.UntilChange} {
		if set {
			snoozeSet++
		}
	}
	if p.Action != "snooze" && snoozeSet > 0 {
		return nil, proto.Errorf(proto.CodeInvalidParams, "until, for_ms and until_change go only with snooze").WithHint(proto.Hint{Param: "action"})
	}
	var err error
	switch p.Action {
	case "snooze":
		if snoozeSet != 1 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "a snooze takes exactly one of until, for_ms and until_change").
				WithHint(proto.Hint{Param: "for_ms", Detail: "why: snooze_spec"})
		}
		var sz inbox.Snooze
		switch {
		case p.Until != 0:
			sz.Until = time.UnixMilli(p.Until)
		case p.ForMS != 0:
			sz.For = time.Duration(p.ForMS) * time.Millisecond
		default:
			sz.UntilChange = true
		}
		err = a.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.Snooze(id, sz) })
	case "wake":
		err = a.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.Wake(id) })
	case "restore":
		err = a.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.Restore(id) })
	case "unread":
		// The pane in front of the person cannot be marked: they are
		// looking at it.
		front := h.InFront(paneID)
		err = a.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.MarkUnread(paneID, front) })
		if err == nil {
			if it, ok := a.Find(inbox.PaneKey(inbox.KindFinished, paneID)); ok {
				id = it.ID
			}
		}
	}
	if err != nil {
		return nil, InboxError(err)
	}
	res.ID = id
	if it, ok := a.Get(id); ok {
		res.SnoozedUntil = &it.SnoozedUntil
	}
	return res, nil
}

func kindNames() []string {
	var out []string
	for _, k := range inbox.Kinds() {
		out = append(out, string(k))
	}
	return out
}

// itemFields is what a selector reads of an Inbox item: its state comes
// from its kind; cwd and group are not known in the Inbox (list-attention
// fills cwd from the pane).
func itemFields(it inbox.Item) inbox.SelectorFields {
	st := it.Kind.State()
	return inbox.SelectorFields{Host: it.Host, Session: it.Session, Name: it.Name, Harness: it.Harness,
		State: st, NoState: st == agentstate.None}
}
