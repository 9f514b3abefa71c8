package daemon

import (
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

type listAttentionParams struct {
	Session        string   `json:"session" desc:"only this session's items (default: every session)" maxlen:"4096"`
	Kinds          []string `json:"kinds" desc:"only these kinds: approval, plan, ask, question, mail, errored, resume, finished, outbox" maxlen:"9"`
	IncludeSnoozed bool     `json:"include_snoozed" desc:"the snoozed items too, after the open ones"`
	Host           string   `json:"host" desc:"local: this machine's items only; a linked host's name: the items mirrored from it (default: both, each mirrored item with its host)" maxlen:"256"`
	Select         string   `json:"select" desc:"a selector: key:value terms that must all match (harness, state, needs, session, group, host, name, cwd)" maxlen:"1024"`
}

type dismissAttentionParams struct {
	ID         string `json:"id" req:"true" desc:"the item's id" maxlen:"256"`
	HumanNonce string `json:"human_nonce" desc:"the nonce attach gave the person's client" maxlen:"256"`
}

type markAttentionParams struct {
	Action      string `json:"action" req:"true" desc:"what to do" accepted:"snooze,wake,unread,restore,undo"`
	ID          string `json:"id" desc:"the item's id (or session, window and kind)" maxlen:"256"`
	Session     string `json:"session" desc:"with window and kind: the item's pane (unread: the pane)"`
	Window      string `json:"window" desc:"with kind: the item's pane (unread: the pane)"`
	Kind        string `json:"kind" desc:"with window: which of the pane's items" accepted:"approval,plan,question,errored,resume,finished"`
	Until       int64  `json:"until" desc:"snooze: wake at this time (unix ms, within a year)" min:"1" max:"9007199254740991"`
	ForMS       int64  `json:"for_ms" desc:"snooze: wake after this many milliseconds (at most a year)" min:"1" max:"31536000000"`
	UntilChange bool   `json:"until_change" desc:"snooze: wake only when what the item says changes"`
	HumanNonce  string `json:"human_nonce" desc:"the nonce attach gave the person's client" maxlen:"256"`
}

// codeUnknownHost refuses a host list-attention does not know.
const codeUnknownHost = "unknown_host"

// codeHostUnreachable refuses a call to a host whose link is not up.
const codeHostUnreachable = "host_unreachable"

func (s *Server) attentionVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *listAttentionParams) (any, *proto.Error) { return s.listAttention(cn, p) })
	add("list-attention", reads|agentFeature, "List the Inbox: what the agents wait on, grouped and oldest first, with counts, seq and boot_id", "attention_list",
		`{"verb":"list-attention","params":{"kinds":["approval","question"],"select":"session:api-fan-* needs:you"}}`, p, h)

	p, h = handler(func(cn *conn, p *dismissAttentionParams) (any, *proto.Error) {
		if err := s.person(cn, "dismiss-attention", p.HumanNonce); err != nil {
			return nil, err
		}
		if _, _, ok := inbox.SplitHostID(p.ID); ok { // a mirrored item: dismissed here only
			return s.follow.dismiss(p.ID)
		}
		var d inbox.Dismissed
		err := s.att.Do(func(q *inbox.Queue) ([]inbox.Event, error) {
			var evs []inbox.Event
			var err error
			d, evs, err = q.Dismiss(p.ID)
			return evs, err
		})
		if err != nil {
			return nil, inboxErr(err)
		}
		s.afterDismiss(d)
		res := map[string]any{"type": "attention_dismissed", "id": d.ID, "kind": d.Kind, "session": d.Session, "dismissed": true}
		if d.Host != "" {
			res["host"] = d.Host
		}
		if d.ForHost != "" {
			res["for_host"], res["discarded"] = d.ForHost, d.Discarded
		}
		return res, nil
	})
	add("dismiss-attention", personOnly|agentFeature, "Take an item off the Inbox (a finished turn is marked seen, a mail thread read); undo with mark-attention undo within 10 s", "attention_dismissed",
		`{"verb":"dismiss-attention","params":{"id":"12"}}`, p, h)

	p, h = handler(func(cn *conn, p *markAttentionParams) (any, *proto.Error) { return s.markAttention(cn, p) })
	add("mark-attention", personOnly|agentFeature, "Snooze, wake, restore or undo an Inbox item, or mark a pane's finished turn unread", "attention_marked",
		`{"verb":"mark-attention","params":{"action":"snooze","id":"12","for_ms":900000}}`, p, h)
}

func (s *Server) listAttention(cn *conn, p *listAttentionParams) (any, *proto.Error) {
	if err := s.attentionHost(p.Host); err != nil { // host_follow_list.go
		return nil, err
	}
	remote := p.Host != "" && p.Host != "local"
	if p.Host != "" {
		if err := s.wide(cn, "host"); err != nil { // verbs_grants.go: another machine's Inbox
			return nil, err
		}
	}
	if p.Session != "" && !remote { // with a host, the session is that host's
		s.mu.Lock()
		ok := s.sessions[p.Session] != nil
		names := s.sessionNames()
		s.mu.Unlock()
		if !ok {
			return nil, proto.Errorf(proto.CodeSessionNotFound, "no session %q", p.Session).
				WithHint(proto.Hint{Param: "session", DidYouMean: nearestWord(p.Session, names), Available: names})
		}
		if err := s.sessionInReach(cn, p.Session); err != nil {
			return nil, err
		}
	}
	session := p.Session
	if session == "" && !remote {
		own, _, err := s.subscribeReach(cn, "", "") // every session it reaches: its own for a pane without admin
		if err != nil {
			return nil, err
		}
		session = own
	}
	opt := inbox.ListOptions{Session: session, IncludeSnoozed: p.IncludeSnoozed}
	for _, k := range p.Kinds {
		kind, err := inbox.ParseKind(k)
		if err != nil {
			pe := inboxErr(err)
			if pe.Hint != nil {
				pe.Hint.Param = "kinds"
				pe.Hint.Accepted = kindNames()
			}
			return nil, pe
		}
		opt.Kinds = append(opt.Kinds, kind)
	}
	sel, perr := parseSelect(p.Select)
	if perr != nil {
		return nil, perr
	}
	if sel != nil {
		var dirs map[string]string // an item carries no cwd: read each local pane's (pane_cwd.go)
		if sel.Uses(inbox.SelectorCwd) {
			dirs = s.paneDirs()
		}
		opt.Filter = func(it inbox.Item) bool {
			f := itemFields(it)
			if it.Host == "" {
				f.Cwd = dirs[it.Window]
			}
			return sel.Match(&f)
		}
	}
	return s.follow.list(p.Host, opt), nil // host_follow_list.go: local and mirrored items
}

// attentionList is list-attention's result.
type attentionList struct {
	Type   string         `json:"type"`
	Items  []inbox.Item   `json:"items"`
	Counts map[string]int `json:"counts"`
	Total  int            `json:"total"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
	// Hosts are the followed hosts (host_follow.go): stale, seen_at and
	// counts for the rail's header per host; absent with host local.
	Hosts []hostView `json:"hosts,omitempty"`
}

func kindNames() []string {
	var out []string
	for _, k := range inbox.Kinds() {
		out = append(out, string(k))
	}
	return out
}

// afterDismiss does what a dismiss asks of the daemon besides its close:
// a finished turn is seen, a thread's mail to the person read.
func (s *Server) afterDismiss(d inbox.Dismissed) {
	if d.ForHost != "" && d.Host == "" { // this machine's outbox row: its waiting mail goes (outbox.go)
		s.discardOutbox(d.ForHost)
	}
	if d.MarkSeen != "" {
		s.tracker.Arbiter().MarkSeen(d.MarkSeen)
	}
	if d.ReadSession != "" && d.ReadThread != 0 {
		s.mu.Lock()
		var ring *mail.Ring
		if ss := s.sessions[d.ReadSession]; ss != nil {
			ring = ss.mail
		}
		s.mu.Unlock()
		if ring != nil {
			ring.Read(mail.ReadOptions{Inbox: mail.Human, Thread: d.ReadThread, Limit: -1})
		}
	}
}

func (s *Server) markAttention(cn *conn, p *markAttentionParams) (any, *proto.Error) {
	if err := s.person(cn, "mark-attention", p.HumanNonce); err != nil {
		return nil, err
	}
	a := s.att
	res := map[string]any{"type": "attention_marked", "action": p.Action}
	if _, _, ok := inbox.SplitHostID(p.ID); ok && p.Action != "undo" { // a mirrored item: marked here only
		return s.follow.mark(p)
	}
	if p.Action == "undo" {
		evs, err := s.follow.undo() // host_follow_list.go: the newest act, local or mirrored
		if err != nil {
			return nil, inboxErr(err)
		}
		if len(evs) > 0 {
			res["id"] = evs[len(evs)-1].Item.ID
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
		s.mu.Lock()
		_, w, err := s.target(cn, p.Session, p.Window)
		s.mu.Unlock()
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
		front := s.inFront(paneID)
		err = a.Do(func(q *inbox.Queue) ([]inbox.Event, error) { return q.MarkUnread(paneID, front) })
		if err == nil {
			if it, ok := a.Find(inbox.PaneKey(inbox.KindFinished, paneID)); ok {
				id = it.ID
			}
		}
	}
	if err != nil {
		return nil, inboxErr(err)
	}
	res["id"] = id
	if it, ok := a.Get(id); ok {
		res["snoozed_until"] = it.SnoozedUntil
	}
	return res, nil
}
