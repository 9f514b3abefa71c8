package daemon

import (
	"context"
	"fmt"
	"sync"

	"github.com/tuios/tuios/internal/proto"
)

// fakeFar is a far machine for the daemon's outbox: a link state and a
// daemon that answers send-agent-message as the test says. Only the
// machine is fake; the daemon, its outbox, its file and its Inbox rows
// are the real ones. (The outbox's own tests have theirs in
// internal/daemon/links.)
type fakeFar struct {
	mu        sync.Mutex
	status    string
	answer    func(params map[string]any) *proto.Error // nil: delivered
	delivered []string                                 // texts, in order
	tries     int
}

func (f *fakeFar) setStatus(s string) { f.mu.Lock(); f.status = s; f.mu.Unlock() }

func (f *fakeFar) setAnswer(a func(map[string]any) *proto.Error) {
	f.mu.Lock()
	f.answer = a
	f.mu.Unlock()
}

func (f *fakeFar) got() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.delivered...), f.tries
}

func (f *fakeFar) linkStatus(string) string { f.mu.Lock(); defer f.mu.Unlock(); return f.status }

func (f *fakeFar) deliver(ctx context.Context, host string, params map[string]any) (map[string]any, *proto.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tries++
	if f.status != "up" { // as hostCall answers for a link that is not up
		return nil, proto.Errorf(codeHostUnreachable, "host %s is %s: connection refused", host, f.status).
			WithHint(proto.Hint{Command: "tuios hosts", Detail: "tuios hosts says why the link is down"})
	}
	if f.answer != nil {
		if err := f.answer(params); err != nil {
			return nil, err
		}
	}
	f.delivered = append(f.delivered, fmt.Sprint(params["text"]))
	return map[string]any{"type": "agent_message_sent", "message_id": len(f.delivered)}, nil
}

// outboxWaiting is how many messages wait for host.
func (s *Server) outboxWaiting(host string) int {
	if s.outbox == nil {
		return 0
	}
	return s.outbox.Waiting(host)
}
