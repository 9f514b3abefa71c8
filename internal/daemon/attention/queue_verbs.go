package attention

import (
	"strconv"
	"strings"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

const (
	// codeQueueFull refuses an entry past [agents.queue] max on one pane.
	codeQueueFull = "queue_full"
	// codeNoKeyboard refuses typing for human: the person has no pane.
	codeNoKeyboard = "no_keyboard"
	// codeNotHuman refuses a call that acts as the person and is not.
	codeNotHuman = core.CodeNotHuman
)

// QueuedRow is one entry as list-queued shows it.
type QueuedRow struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	Window  string `json:"window"`
	Name    string `json:"name"`
	At      int64  `json:"at"`
	By      string `json:"by"`
	From    string `json:"from,omitempty"`
	Preview string `json:"preview"`
	Text    string `json:"text,omitempty"` // whole, for the person only
	State   string `json:"state"`
}

func (q *Queue) addVerbs() {
	h := q.h
	p, run := core.Handle(q.add)
	h.AddVerb(core.Verb{Name: "queue-prompt", Class: core.QueuesInput, Returns: "prompt_queued", Params: p, Run: run,
		Desc:    "Queue a message for an agent: typed (paste then Enter) once the agent has been at rest for 1 s, one message per rest, never over a prompt",
		Example: `{"verb":"queue-prompt","params":{"window":"build","text":"make the backoff jitter configurable"}}`})
	p, run = core.Handle(q.list)
	h.AddVerb(core.Verb{Name: "list-queued", Class: core.Reads, Returns: "queued_prompts", Params: p, Run: run,
		Desc:    "List the queued messages of a session's panes (or one pane), the next first per pane; previews are pane-bound text",
		Example: `{"verb":"list-queued","params":{"session":"work"}}`})
	p, run = core.Handle(q.cancel)
	h.AddVerb(core.Verb{Name: "cancel-queued", Class: core.Writes, Returns: "queue_cancelled", Params: p, Run: run,
		Desc:    "Drop a queued message (id) or every one on a pane the caller may drop (all); one being typed cannot be dropped",
		Example: `{"verb":"cancel-queued","params":{"id":"q3"}}`})
}

// origin decides who the caller is for the queue: human (a live nonce
// from outside every pane), the caller's own window id (inside a pane), or
// shell (outside every pane). A nonce that is not live is refused, never
// quietly downgraded: the caller meant to act as the person.
func (q *Queue) origin(c core.Call, nonce string) (string, *proto.Error) {
	if nonce != "" {
		if q.h.IsPerson(c, nonce) {
			return byHuman, nil
		}
		return "", proto.Errorf(codeNotHuman, "the human nonce is not live on this connection: only the person at an attached client acts as human").
			WithHint(proto.Hint{Param: "human_nonce", Detail: "leave it out to act as yourself, or use the attached client"})
	}
	if id := q.h.CallerPane(c); id != "" {
		return id, nil
	}
	return byShell, nil
}

func (q *Queue) add(c core.Call, p *proto.QueuePromptParams) (any, *proto.Error) {
	if p.Window == mail.Human {
		return nil, proto.Errorf(codeNoKeyboard, "human has no keyboard to type into").
			WithHint(proto.Hint{Command: "tuios send-agent-message -w human TEXT", Detail: "leave the person a message instead"})
	}
	if strings.TrimSpace(p.Text) == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the message is blank").WithHint(proto.Hint{Param: "text"})
	}
	if len(p.Text) > MaxQueuedText {
		return nil, proto.Errorf(proto.CodeInvalidParams, "the message is %d bytes; an entry holds at most %d", len(p.Text), MaxQueuedText).
			WithHint(proto.Hint{Param: "text", Detail: "send a long text as mail or a stashed file and queue a short note naming it"})
	}
	by, err := q.origin(c, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	from := ""
	switch {
	case by == byHuman:
	case p.From == mail.Human:
		code, detail := codeNotHuman, "only the person at an attached client queues as human"
		if by != byShell {
			code, detail = proto.CodeForbidden, "a pane cannot write as human; it queues as itself"
		}
		return nil, proto.Errorf(code, "from human needs a live human nonce").WithHint(proto.Hint{Param: "from", Detail: detail})
	case by != byShell:
		// A pane is its own window whatever it says; naming another is
		// refused rather than ignored.
		if p.From != "" && p.From != by {
			other, found := q.h.Find(p.From)
			if own, ok := q.h.Find(by); !found && ok {
				other, found = q.h.Resolve(c, own.Session, p.From) // a name, not a target
			}
			if found && other.ID != by {
				return nil, proto.Errorf(proto.CodeForbidden, "a pane queues as itself: from may not name another window").
					WithHint(proto.Hint{Param: "from", Detail: "leave from out"})
			}
			from = p.From
		}
	default:
		from = p.From
	}
	w, err := q.h.Window(c, p.Session, p.Window)
	if err != nil {
		return nil, err
	}
	name := w.DisplayName
	arb := q.arbiter()
	if b := arb.Brief(w.ID); b.State == agentstate.None && b.Harness == "" {
		return nil, proto.Errorf(proto.CodeInvalidParams, "%s runs no agent tuios knows: nothing would say when it is at rest", name).
			WithHint(proto.Hint{Param: "window", Command: "tuios list-agents", Detail: "queue for a pane listed there; for a plain shell use send-text"})
	}
	// LINKS AND GRANTS: a pane origin needs the write grant on the target
	// (and send-text's typing rules), a link origin the write policy;
	// both are checked here when queued and again right before typing
	// (queue.go, deliver). Neither exists yet.
	snap := arb.Get(w.ID)
	who := q.h.Hold(q.ctx, c, "queue-prompt") // the caller as admitted, to type as at delivery
	q.mu.Lock()
	pq := q.panes[w.ID]
	if pq == nil {
		pq = &paneQueue{window: w.ID, session: w.Session, win: w.Pane}
		if q.resting(snap.Harness, snap.State) {
			pq.restAt = snap.StateAt
		}
		q.panes[w.ID] = pq
	}
	if len(pq.entries) >= q.max {
		n := len(pq.entries)
		q.stepLocked(pq, snap) // forgets a record made only for this refusal
		q.mu.Unlock()
		return nil, proto.Errorf(codeQueueFull, "%s already has %d queued messages, the most a pane holds", name, n).
			WithHint(proto.Hint{Command: "tuios queue ls -w " + w.ID[:8], Detail: "wait for one to be typed, or drop one with tuios queue rm ID; [agents.queue] max sets the cap (at most 64)"})
	}
	q.next++
	e := &queuedPrompt{id: "q" + strconv.FormatUint(q.next, 10), at: q.h.Clock().Now(), by: by, from: from, text: p.Text, state: queueWaiting,
		who: who}
	pq.entries = append(pq.entries, e)
	q.railLocked() // queue_rail.go: the rail's "1 queued"
	position, queued := len(pq.entries), len(pq.entries)
	q.stepLocked(pq, snap)
	delivering := pq.entries[0].state == queueDelivering
	q.mu.Unlock()
	return &proto.PromptQueued{Type: "prompt_queued", ID: e.id, Session: w.Session, Window: w.ID, Name: name,
		Position: position, Queued: queued, Delivering: delivering}, nil
}

func (q *Queue) list(c core.Call, p *proto.ListQueuedParams) (any, *proto.Error) {
	ss, err := q.h.Session(c, p.Session)
	if err != nil {
		return nil, err
	}
	type seat struct{ id, name string }
	var seats []seat
	if p.Window != "" {
		w, werr := q.h.Window(c, ss.Name, p.Window)
		if werr != nil {
			return nil, werr
		}
		seats = append(seats, seat{w.ID, w.DisplayName})
	} else {
		for _, w := range ss.Windows {
			seats = append(seats, seat{w.ID, w.DisplayName})
		}
	}
	whole := q.h.IsPerson(c, p.HumanNonce) // x then u on the rail queues the same message again
	rows := []QueuedRow{}
	q.mu.Lock()
	for _, st := range seats {
		pq := q.panes[st.id]
		if pq == nil {
			continue
		}
		for _, e := range pq.entries {
			row := QueuedRow{ID: e.id, Session: ss.Name, Window: st.id, Name: st.name, At: e.at.UnixNano(),
				By: e.by, From: e.from, Preview: preview(e.text), State: e.state}
			if whole {
				row.Text = e.text
			}
			rows = append(rows, row)
		}
	}
	q.mu.Unlock()
	return map[string]any{"type": "queued_prompts", "session": ss.Name, "entries": rows, "total": len(rows), "untrusted": true}, nil
}

// mayDrop says whether who may drop an entry: the person any, a pane only
// its own, a shell all but the person's. LINKS: a link only its own (an
// unnamed link: only on the same connection), once links exist.
func mayDrop(who string, e *queuedPrompt) bool {
	switch who {
	case byHuman:
		return true
	case byShell:
		return e.by != byHuman
	}
	return e.by == who
}

func (q *Queue) cancel(c core.Call, p *proto.CancelQueuedParams) (any, *proto.Error) {
	switch {
	case p.ID != "" && p.All:
		return nil, proto.Errorf(proto.CodeInvalidParams, "give an id or all, not both").WithHint(proto.Hint{Param: "id"})
	case p.ID == "" && !p.All:
		return nil, proto.Errorf(proto.CodeInvalidParams, "name the entry to drop (id) or pass all").
			WithHint(proto.Hint{Param: "id", Command: "tuios queue ls"})
	case p.All && p.Window == "":
		return nil, proto.Errorf(proto.CodeInvalidParams, "all needs the pane (window)").WithHint(proto.Hint{Param: "window"})
	}
	who, err := q.origin(c, p.HumanNonce)
	if err != nil {
		return nil, err
	}
	var window string
	if p.Window != "" || p.Session != "" && p.ID == "" {
		w, terr := q.h.Window(c, p.Session, p.Window)
		if terr != nil {
			return nil, terr
		}
		window = w.ID
	}
	q.mu.Lock()
	var pq *paneQueue
	var targets []*queuedPrompt
	if p.ID != "" {
		for _, x := range q.panes {
			for _, e := range x.entries {
				if e.id == p.ID && (window == "" || x.window == window) {
					pq, targets = x, []*queuedPrompt{e}
				}
			}
		}
		if pq == nil {
			q.mu.Unlock()
			return nil, proto.Errorf(proto.CodeInvalidParams, "no queued message %q", p.ID).
				WithHint(proto.Hint{Param: "id", Command: "tuios queue ls", Detail: "it may have been typed already, or dropped"})
		}
		e := targets[0]
		switch {
		case e.state == queueDelivering:
			q.mu.Unlock()
			return nil, proto.Errorf(proto.CodeForbidden, "%s is being typed now; it cannot be dropped", e.id).
				WithHint(proto.Hint{Detail: "if the agent does not take it, it turns stalled, and a stalled entry can be dropped"})
		case !mayDrop(who, e):
			q.mu.Unlock()
			return nil, proto.Errorf(proto.CodeForbidden, "%s was queued by %s; you (%s) may not drop it", e.id, e.by, who).
				WithHint(proto.Hint{Detail: "the person may drop any entry; a pane only its own; a shell all but the person's"})
		}
	} else {
		pq = q.panes[window]
		if pq != nil {
			for _, e := range pq.entries {
				if e.state != queueDelivering && mayDrop(who, e) {
					targets = append(targets, e)
				}
			}
			if len(targets) == 0 && len(pq.entries) > 0 {
				q.mu.Unlock()
				return nil, proto.Errorf(proto.CodeForbidden, "none of the %d queued messages on this pane is yours (%s) to drop", len(pq.entries), who).
					WithHint(proto.Hint{Detail: "the person may drop any entry; a pane only its own; a shell all but the person's; one being typed cannot be dropped"})
			}
		}
	}
	cancelled := []string{}
	var notices []string
	queued := 0
	if pq != nil {
		drop := map[*queuedPrompt]bool{}
		for _, e := range targets {
			drop[e] = true
			cancelled = append(cancelled, e.id)
			if e.state == queueStalled {
				notices = append(notices, e.notice)
			}
		}
		kept := pq.entries[:0]
		for _, e := range pq.entries {
			if !drop[e] {
				kept = append(kept, e)
			}
		}
		clear(pq.entries[len(kept):])
		pq.entries = kept
		q.railLocked()
		queued = len(kept)
		window = pq.window
		q.stepLocked(pq, q.arbiter().Get(pq.window))
	}
	q.mu.Unlock()
	for _, n := range notices { // the question a stall opened ends with it
		q.closeNotice(window, n)
	}
	return map[string]any{"type": "queue_cancelled", "window": window, "cancelled": cancelled, "queued": queued}, nil
}
