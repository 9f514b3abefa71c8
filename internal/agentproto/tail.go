package agentproto

import (
	"strings"
	"sync"
)

// tailBuffer keeps the last lines an agent wrote to its stderr, each cut
// to a bound, so a dying agent's last words can be shown without keeping
// all it ever logged.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	width   int
	partial []byte
	kept    []string
}

func newTailBuffer(lines, width int) *tailBuffer { return &tailBuffer{max: lines, width: width} }

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range b {
		if c == '\n' {
			t.push()
			continue
		}
		if len(t.partial) < t.width {
			t.partial = append(t.partial, c)
		}
	}
	return len(b), nil
}

func (t *tailBuffer) push() {
	line := strings.TrimSpace(oneLine(string(t.partial), t.width))
	t.partial = t.partial[:0]
	if line == "" {
		return
	}
	if len(t.kept) >= t.max {
		t.kept = append(t.kept[:0], t.kept[1:]...)
	}
	t.kept = append(t.kept, line)
}

// lines are the kept lines, the unfinished one last.
func (t *tailBuffer) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.kept...)
	if l := strings.TrimSpace(oneLine(string(t.partial), t.width)); l != "" {
		out = append(out, l)
	}
	if len(out) > 8 {
		out = out[len(out)-8:]
	}
	return out
}

// last is the last line written.
func (t *tailBuffer) last() string {
	l := t.lines()
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}
