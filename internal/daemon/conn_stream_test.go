package daemon

import (
	"bytes"
	"net"
	"testing"

	"github.com/tuios/tuios/internal/rawio"
)

// An attach stream's socket leaves the runtime's poller (no wakeup for
// room per frame the client reads) and the stream still carries the
// pane's output and ends with the client; a plain caller's socket
// stays as it was, so a flood of callers costs one descriptor each.
func TestStreamSocketMovedOutOfThePoller(t *testing.T) {
	t.Parallel()
	s, sock := server(t)
	r := dialRPC(t, sock)
	id := str(r.must("new-session", map[string]any{"name": "m"})["window_id"])
	st, _ := attachStreamT(t, sock, map[string]any{"session": "m", "cols": 80, "rows": 24})

	kinds := func() (moved, plain int) {
		s.connMu.Lock()
		defer s.connMu.Unlock()
		for cn := range s.conns {
			cn.cmu.Lock()
			switch cn.c.(type) {
			case *rawio.Conn:
				moved++
			case *net.UnixConn:
				plain++
			}
			cn.cmu.Unlock()
		}
		return moved, plain
	}
	if moved, plain := kinds(); moved != 1 || plain != 1 {
		t.Fatalf("stream sockets moved %d, plain %d; want 1 and 1", moved, plain)
	}
	r.must("send-text", map[string]any{"window": id, "text": "echo moved-$((40+2))\r"})
	st.until("the command's output in a frame", func(l line) bool {
		return l.typ == "screen" && bytes.Contains(l.raw, []byte("moved-42"))
	})
	st.c.Close()
	eventually(t, "the stream's connection gone", func() bool {
		moved, _ := kinds()
		return moved == 0
	})
}
