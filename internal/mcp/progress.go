package mcp

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/tuios/tuios/internal/proto"
)

// DefaultProgressEvery spaces the progress notifications of a long call:
// well inside the 60 s a client's request timeout is by default, which
// a client resets on progress.
const DefaultProgressEvery = 5 * time.Second

// waits are the tools that can outlast a client's timeout, with the
// params that bound them (their sum is the total reported).
var waits = map[string][]string{
	"tuios_wait_for":  {"timeout"},
	"tuios_ask_agent": {"ready_timeout", "timeout"},
	"tuios_events":    {"wait_ms"},
}

// startProgress sends notifications/progress for a call that asked for
// them (_meta.progressToken) and can wait long: one at once, then one
// every Options.ProgressEvery, each with the milliseconds waited, the
// most it can wait, and a line saying so. stop ends them; none is sent
// after it returns, so none follows the call's answer or its cancel.
func (s *Server) startProgress(token json.RawMessage, t tool, args arguments, verbs map[string]proto.VerbInfo) (stop func()) {
	bounds, long := waits[t.name]
	if token == nil || !long {
		return func() {}
	}
	var total int64
	for _, name := range bounds {
		total += boundOf(name, t, args, verbs)
	}
	what := t.title
	switch t.name {
	case "tuios_wait_for":
		if c := args.str("condition"); c != "" {
			what = "waiting for " + c
		}
	case "tuios_ask_agent":
		what = "waiting for the agent's answer"
	case "tuios_events":
		what = "waiting for events"
	}
	done, ended := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(ended)
		tick := time.NewTicker(s.opt.ProgressEvery)
		defer tick.Stop()
		last := int64(-1)
		for {
			// The progress must grow with every notification.
			waited := max(time.Since(start).Milliseconds(), last+1)
			last = waited
			so := (time.Duration(waited) * time.Millisecond).Truncate(time.Second)
			p := progressParams{ProgressToken: token, Progress: waited, Message: fmt.Sprintf("%s: %s so far", what, so)}
			if total > 0 {
				p.Total = total
				p.Message = fmt.Sprintf("%s: %s so far, at most %s", what, so, time.Duration(total)*time.Millisecond)
			}
			s.write(notify("notifications/progress", p))
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-ended
	}
}

// boundOf is a waiting param's value in milliseconds: the call's
// argument, else the verb's default (list-verbs), else tuios_events' own.
func boundOf(name string, t tool, args arguments, verbs map[string]proto.VerbInfo) int64 {
	if n, ok := args.number(name); ok {
		if v, err := n.Int64(); err == nil && v > 0 {
			return v
		}
	}
	if t.name == "tuios_events" {
		return defaultWaitMS
	}
	for _, p := range verbs[t.verb].Params {
		if p.Name != name || p.Default == nil {
			continue
		}
		switch d := p.Default.(type) {
		case float64: // as JSON decodes it
			return int64(d)
		case int:
			return int64(d)
		}
	}
	return 0
}
