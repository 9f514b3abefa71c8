package links

import (
	"strings"
	"time"

	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

// The Inbox verbs' host side: list-attention's host param and the
// mirrored items in its default listing, and dismiss and mark of a
// mirrored item (here only: its host keeps it). The Inbox's verbs
// (internal/daemon/attention) reach these through the daemon, as their
// Hosts.

// Check checks list-attention's host: "", local, or a configured host;
// anything else is unknown_host naming the configured ones.
func (f *Follow) Check(host string) *proto.Error {
	if host == "" || host == "local" || f.ls.Status(host) != "" || f.m.Known(host) {
		return nil
	}
	names := f.ls.Names()
	msg := "no host is configured; add one with tuios hosts add NAME ADDR"
	if len(names) > 0 {
		msg = "the configured hosts are " + strings.Join(names, ", ")
	}
	return proto.Errorf(CodeUnknownHost, "no host named %q: %s", core.Clip(host, 64), msg).
		WithHint(proto.Hint{Param: "host", Accepted: append([]string{"local"}, names...), Command: "tuios hosts"})
}

// List is list-attention's answer for host ("" both, "local" this
// machine's, else that host's mirrored items). It is read under the
// attention lock, so its seq covers exactly what it lists. Stale items
// are listed but not counted, neither in counts nor in total.
func (f *Follow) List(host string, opt inbox.ListOptions) any {
	var hostsView []HostView
	l := f.inbox.ListWith(host == "" || host == "local", opt, func(l *inbox.List) {
		// A session filter without a host names a local session.
		if host == "local" || host == "" && opt.Session != "" {
			return
		}
		items, counts := f.m.List(host, opt)
		for k, n := range counts {
			l.Counts[k] += n
		}
		for _, it := range items {
			if !it.Snoozed() && !it.Stale {
				l.Total++
			}
		}
		l.Items = inbox.Merge(l.Items, items)
		for _, v := range f.views() {
			if host == "" || v.Host == host {
				hostsView = append(hostsView, v)
			}
		}
	})
	counts := make(map[string]int, len(l.Counts))
	for k, n := range l.Counts {
		counts[string(k)] = n
	}
	items := l.Items
	if items == nil {
		items = []inbox.Item{}
	}
	return attentionList{Type: "attention_list", Items: items, Counts: counts, Total: l.Total, Seq: l.Seq, BootID: l.BootID, Hosts: hostsView}
}

// Dismiss takes a mirrored item off this machine's Inbox; its host keeps
// it (nothing is marked seen or read there).
func (f *Follow) Dismiss(id string) (any, *proto.Error) {
	var d inbox.Dismissed
	err := f.doErr(func() ([]inbox.Event, error) {
		var evs []inbox.Event
		var err error
		d, evs, err = f.m.Dismiss(id)
		return evs, err
	})
	if err != nil {
		return nil, core.InboxError(err)
	}
	return &proto.AttentionDismissed{Type: "attention_dismissed", ID: d.ID, Kind: string(d.Kind), Session: d.Session, Host: d.Host,
		Dismissed: true, LocalOnly: true}, nil
}

// Mark is mark-attention of a mirrored item (the verb's params, as far as
// a mirrored item reads them).
type Mark struct {
	ID, Action  string
	Until       int64 // unix ms
	ForMS       int64
	UntilChange bool
}

// Mark snoozes, wakes or restores a mirrored item here only. Marking a
// host's finished turn unread is that host's to do.
func (f *Follow) Mark(p Mark) (any, *proto.Error) {
	host, _, _ := inbox.SplitHostID(p.ID)
	var err error
	switch p.Action {
	case "snooze":
		var sz inbox.Snooze
		n := 0
		if p.Until != 0 {
			n++
			sz.Until = time.UnixMilli(p.Until)
		}
		if p.ForMS != 0 {
			n++
			sz.For = time.Duration(p.ForMS) * time.Millisecond
		}
		if p.UntilChange {
			n++
			sz.UntilChange = true
		}
		if n != 1 {
			return nil, proto.Errorf(proto.CodeInvalidParams, "a snooze takes exactly one of until, for_ms and until_change").
				WithHint(proto.Hint{Param: "for_ms", Detail: "why: snooze_spec"})
		}
		err = f.doErr(func() ([]inbox.Event, error) { return f.m.Snooze(p.ID, sz) })
	case "wake":
		err = f.doErr(func() ([]inbox.Event, error) { return f.m.Wake(p.ID) })
	case "restore":
		err = f.doErr(func() ([]inbox.Event, error) { return f.m.Restore(p.ID) })
	default:
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s is %s's item: it cannot be marked %s here", p.ID, host, p.Action).
			WithHint(proto.Hint{Param: "action", Accepted: []string{"snooze", "wake", "restore", "undo"},
				Detail: "mark it on its host: tuios mark-attention there, or open it with tuios attach --host " + host})
	}
	if err != nil {
		return nil, core.InboxError(err)
	}
	res := &proto.AttentionMarked{Type: "attention_marked", Action: p.Action, ID: p.ID, Host: host, LocalOnly: true}
	if it, ok := f.m.Get(p.ID); ok {
		res.SnoozedUntil = &it.SnoozedUntil
	}
	return res, nil
}

// Undo undoes the person's newest dismiss or snooze, local or mirrored:
// the local events go out as the queue's (a hold that came back and so
// on), the mirrored ones as the mirror's.
func (f *Follow) Undo() ([]inbox.Event, error) {
	var evs []inbox.Event
	var err error
	f.inbox.DoMixed(func() (local, mirrored []inbox.Event) {
		evs, err = f.m.Undo()
		for _, e := range evs {
			if e.Item.Host != "" {
				mirrored = append(mirrored, e)
			} else {
				local = append(local, e)
			}
		}
		return local, mirrored
	})
	f.rearm()
	return evs, err
}

// RefuseRequest refuses reply-approval and answer-ask for a request
// id that is not this machine's but a mirrored item's (held approval,
// plan or ask): the local Inbox cannot answer another host's prompt. A
// request id this machine has too is left to the verb.
func (f *Follow) RefuseRequest(id string) *proto.Error {
	if id == "" {
		return nil
	}
	items, _ := f.m.List("", inbox.ListOptions{IncludeSnoozed: true, Filter: func(it inbox.Item) bool {
		return it.RequestID == id || it.HeldID == id
	}})
	if len(items) == 0 {
		return nil
	}
	local := f.inbox.List(inbox.ListOptions{IncludeSnoozed: true, Filter: func(it inbox.Item) bool {
		return it.RequestID == id || it.HeldID == id
	}})
	if len(local.Items) > 0 {
		return nil
	}
	return hostAnswerRefusal(items[0])
}

// hostAnswerRefusal is the refusal for answering a mirrored item from
// this machine's Inbox: its prompt or hold is on its host, reached by
// peek-prompt/respond with HOST:SESSION:WINDOW.
func hostAnswerRefusal(it inbox.Item) *proto.Error {
	target := it.Host + ":" + it.Session + ":" + it.Window
	return proto.Errorf(proto.CodeInvalidParams, "%s is %s's item: this Inbox cannot answer it", it.ID, it.Host).
		WithHint(proto.Hint{Param: "id", Command: "tuios respond -w " + target,
			Detail: "peek it first with tuios peek-prompt -w " + target})
}

// attentionList is list-attention's result.
type attentionList struct {
	Type   string         `json:"type"`
	Items  []inbox.Item   `json:"items"`
	Counts map[string]int `json:"counts"`
	Total  int            `json:"total"`
	Seq    uint64         `json:"seq"`
	BootID string         `json:"boot_id"`
	// Hosts are the followed hosts (follow.go): stale, seen_at and
	// counts for the rail's header per host; absent with host local.
	Hosts []HostView `json:"hosts,omitempty"`
}
