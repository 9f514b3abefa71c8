package agentproto

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// tracer writes when each protocol message arrived and when each state
// report reached the daemon, one line each, to the file
// $TUIOS_AGENT_PROTO_TRACE names: how the latency from a protocol message
// to the state get-agent-state reads is measured. Nil traces nothing.
type tracer struct {
	mu sync.Mutex
	f  *os.File
}

func openTracer(path string) *tracer {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil
	}
	return &tracer{f: f}
}

// note writes "unix-nanoseconds what detail".
func (t *tracer) note(what, detail string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	fmt.Fprintf(t.f, "%d %s %s\n", time.Now().UnixNano(), what, detail)
	t.mu.Unlock()
}

func (t *tracer) close() {
	if t != nil {
		t.f.Close()
	}
}
