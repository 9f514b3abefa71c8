package agentlog

import (
	"context"
	"time"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

var (
	_ core.Feature = (*Log)(nil)
	_ core.Feature = (*Transcripts)(nil)
)

// Name is "agent-log".
func (l *Log) Name() string { return "agent-log" }

// Init adds agent-activity and agent-log to h's verbs and forgets a
// pane's ring when the hub says its window closed.
func (l *Log) Init(h core.Host) error {
	params, run := core.Handle(func(c core.Call, p *proto.AgentActivityParams) (any, *proto.Error) { return l.answer(h, c, p) })
	h.AddVerb(core.Verb{Name: "agent-activity", Class: core.Reads, Returns: "agent_activity", Params: params, Run: run,
		Desc:    "Read what the agent in a pane did: its newest activity entries (prompts, tools, turns, shell commands, states), and a recap",
		Example: `{"verb":"agent-activity","params":{"window":"api","since":1767225600000000000,"recap":true}}`})
	h.AddVerb(core.Verb{Name: "agent-log", Class: core.Reads, Returns: "agent_activity", Params: params, Run: run,
		Desc:    "agent-activity under the CLI's name",
		Example: `{"verb":"agent-log","params":{"window":"api","limit":20}}`})
	sub := h.Subscribe(core.Filter{Types: map[string]bool{"window-closed": true}}, 256)
	l.sub = sub
	l.done = make(chan struct{})
	go func() { defer close(l.done); l.forget(h, sub) }()
	return nil
}

// Shutdown ends the subscription and waits for its goroutine.
func (l *Log) Shutdown(ctx context.Context) error {
	if l.sub == nil {
		return nil
	}
	l.sub.Close()
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// forget drops the ring of each window that closes, until the
// subscription ends (Shutdown, or the hub closing as the daemon stops). Having missed closes (a full
// queue), it keeps only the rings of windows that are still there.
func (l *Log) forget(h core.Host, sub core.Subscription) {
	var lost uint64
	for ev := range sub.C() {
		l.Drop(ev.Window)
		if n := sub.Lost(); n != lost {
			lost = n
			live := map[string]bool{}
			for _, ss := range h.View(nil).Sessions {
				for _, w := range ss.Windows {
					live[w.ID] = true
				}
			}
			l.keepOnly(live)
		}
	}
}

// keepOnly drops every ring whose pane is not in live.
func (l *Log) keepOnly(live map[string]bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id := range l.panes {
		if !live[id] {
			delete(l.panes, id)
		}
	}
}

type activityResult struct {
	Type      string  `json:"type"`
	Session   string  `json:"session"`
	Window    string  `json:"window"`
	Name      string  `json:"name"`
	LastSeq   uint64  `json:"last_seq"`
	Untrusted bool    `json:"untrusted"` // the text is the agent's: data, never instructions
	Entries   []Entry `json:"entries"`
	Recap     *Recap  `json:"recap,omitempty"`
}

// answer is agent-activity: the pane's newest entries and, asked, a recap.
func (l *Log) answer(h core.Host, c core.Call, p *proto.AgentActivityParams) (any, *proto.Error) {
	w, perr := h.Window(c, p.Session, p.Window)
	if perr != nil {
		return nil, perr
	}
	limit := p.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	last, entries := l.Read(w.ID, p.Since, uint64(p.SinceSeq), limit)
	res := activityResult{Type: "agent_activity", Session: w.Session, Window: w.ID, Name: w.DisplayName,
		LastSeq: last, Untrusted: true, Entries: entries}
	if p.Recap {
		now := h.Clock().Now()
		since := time.Unix(0, p.Since)
		_, all := l.Read(w.ID, p.Since, 0, 0)
		if p.Since == 0 && len(all) > 0 {
			since = time.Unix(0, all[0].At)
		}
		state := h.Tracker().Arbiter().Get(w.ID).State.String()
		var patterns []string
		if cfg := h.Options().Config; cfg != nil {
			patterns = cfg.Agents.Recap.TestPatterns
		}
		r := MakeRecap(all, since, now, w.DisplayName, state, patterns)
		res.Recap = &r
	}
	return res, nil
}
