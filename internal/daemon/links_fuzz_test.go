package daemon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// farBytes is a far daemon that writes fixed bytes and then hangs up.
type farBytes struct{ r *bytes.Reader }

func (f *farBytes) Read(p []byte) (int, error)  { return f.r.Read(p) }
func (f *farBytes) Write(p []byte) (int, error) { return len(p), nil }
func (f *farBytes) Close() error                { return nil }

// Whatever the far side writes on a host connection, the client gets only
// JSON lines, every request it sent is answered (by the far daemon or,
// when the stream ends, host_unreachable), and nothing hangs or panics.
func FuzzHostConnPump(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{"type":"session_list"}}`+"\n"), 2)
	f.Add([]byte(`{"seq":3,"type":"agent-state"}`+"\n"+`{"id":1,"error":{"code":"timeout","message":"x"}}`+"\n"), 1)
	f.Add([]byte("HTTP/1.1 400 \x1b[31mnope\n"), 1)
	f.Add([]byte(`{"id":1,"result":{}}`), 3)
	f.Add([]byte("\n\n\r\n[1,2]\n\"x\"\nnull\n"), 2)
	f.Fuzz(func(t *testing.T, far []byte, nreq int) {
		nreq = max(0, min(nreq, 8))
		s := &Server{opt: Options{Logf: func(string, ...any) {}}}
		s.links = &links{s: s, hosts: map[string]*hostLink{}, refused: map[string]refusedHost{}, conns: map[*hostConn]string{}}
		near, client := net.Pipe()
		defer client.Close()
		cn := newConn(s, near)
		h := &hostLink{ls: s.links, name: "far"}
		fc := newFarChan(h, nil, &farBytes{r: bytes.NewReader(far)})
		hc := &hostConn{host: "far", fc: fc, cn: cn, popped: make(chan struct{}, 1), over: make(chan struct{})}
		fc.attach(hc)
		for i := 1; i <= nreq; i++ {
			hc.forward(cn, request{line: []byte(fmt.Sprintf(`{"id":%d,"verb":"hello"}`, i))})
		}
		go fc.pump()
		r := bufio.NewReader(client)
		answers := 0
		for {
			line, err := proto.ReadLine(r, proto.MaxLine)
			if err == io.EOF || err != nil {
				break
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("the client got a line that is not a JSON object: %q", line)
			}
			if m["result"] != nil || m["error"] != nil {
				answers++
			}
		}
		<-fc.done
		<-hc.over
		if answers < nreq {
			t.Fatalf("%d requests, %d answers", nreq, answers)
		}
	})
}
