package hosts

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tuios/tuios/internal/testsshd"
)

// farScript is a far side that speaks just enough of the protocol:
// link-peer and hello, then {"pong":N} for each other request (its id
// echoed), N counting per channel. Each channel runs its own copy, as stdio-proxy does.
const farScript = `#!/bin/sh
n=0
while IFS= read -r l; do
  case "$l" in
  *'"link-peer"'*) echo '{"id":0,"result":{"type":"link_peer"}}' ;;
  *'"hello"'*) echo '{"id":1,"result":{"type":"hello","protocol":1,"min_protocol":1,"pid":42}}' ;;
  *) n=$((n+1)); id=$(printf '%s' "$l" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"id\":$id,\"result\":{\"pong\":$n}}" ;;
  esac
done
`

func dialFar(t *testing.T, s *testsshd.Server, extra ...string) *Link {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "far.sh")
	if err := os.WriteFile(script, []byte(farScript), 0o755); err != nil {
		t.Fatal(err)
	}
	home := s.ClientHome(t.TempDir())
	d := &Dialer{Home: home, Getenv: func(k string) string { return map[string]string{"USER": "root"}[k] }, Peer: "near"}
	l, err := d.Dial(context.Background(), Host{Name: "far", Addr: s.Addr(), Command: script, SSHOptions: append(s.SSHOptions(), extra...), ConnectTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, s.Log())
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// Many channels on one link, at once, each its own far process; the
// link ends when sshd goes away, and Done and Err say so.
func TestLinkOpenManyChannelsAndDone(t *testing.T) {
	s := testsshd.Start(t, testsshd.Options{})
	l := dialFar(t, s)
	if l.Hello.PID != 42 || !l.Hello.LinkPeer {
		t.Fatalf("hello: %+v", l.Hello)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rw, err := l.Open(context.Background())
			if err != nil {
				errs <- err
				return
			}
			defer rw.Close()
			r := bufio.NewReader(rw)
			for n := 1; n <= 3; n++ {
				fmt.Fprintf(rw, `{"id":%d,"verb":"ping"}`+"\n", n)
				line, err := r.ReadString('\n')
				if err != nil || !strings.Contains(line, fmt.Sprintf(`"pong":%d`, n)) {
					errs <- fmt.Errorf("ping %d: %q %v", n, line, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := l.Call("ping", nil, nil); err != nil {
		t.Fatalf("the first channel after the others: %v", err)
	}
	select {
	case <-l.Done():
		t.Fatal("done while up")
	default:
	}
	if l.Err() != nil {
		t.Fatalf("Err while up: %v", l.Err())
	}
	s.Stop()
	select {
	case <-l.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the link did not notice sshd going away")
	}
	if l.Err() == nil {
		t.Fatal("no Err after Done")
	}
	_, err := l.Open(context.Background())
	var he *Error
	if !errors.As(err, &he) || he.Reason != ReasonDropped || he.Code() != CodeHostUnreachable {
		t.Fatalf("Open after the end: %v", err)
	}
}

// A peer that hangs with its TCP connection open is noticed by the
// keepalives of ServerAliveInterval × ServerAliveCountMax.
func TestLinkKeepalivesEndAHungLink(t *testing.T) {
	s := testsshd.Start(t, testsshd.Options{})
	l := dialFar(t, s, "-o ServerAliveInterval=1", "-o ServerAliveCountMax=2")
	s.Freeze()
	defer s.Thaw()
	select {
	case <-l.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("a frozen peer was not noticed")
	}
	if err := l.Err(); err == nil || !strings.Contains(err.Error(), "2 keepalives 1s apart") {
		t.Fatalf("Err: %v", err)
	}
}

// Open gives up when its context ends (a hung peer), and the link's own
// end is what ends the far processes.
func TestLinkOpenHonoursItsContext(t *testing.T) {
	s := testsshd.Start(t, testsshd.Options{})
	l := dialFar(t, s)
	s.Freeze()
	defer s.Thaw()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := l.Open(ctx)
	if err == nil || time.Since(start) > 20*time.Second {
		t.Fatalf("Open on a frozen peer: %v after %v", err, time.Since(start))
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Close() error                { return nil }

// Whatever the far side answers a call with, the call returns a result, a
// far error with its code, or an error that says the far side did not
// speak the protocol; it never panics or reads past its line.
func FuzzStreamCall(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{"type":"hello","protocol":1}}` + "\n"))
	f.Add([]byte(`{"id":1,"error":{"code":"forbidden","message":"no"}}` + "\n"))
	f.Add([]byte(`{"id":2,"result":{}}` + "\n"))
	f.Add([]byte("\x1b]0;x\x07garbage\n"))
	f.Add([]byte(`{"id":1,"result":{"protocol":"one"}}`))
	f.Fuzz(func(t *testing.T, far []byte) {
		st := &stream{in: discard{}, out: bufio.NewReader(strings.NewReader(string(far)))}
		var hello Hello
		err := st.call(1, "hello", nil, &hello)
		var pe *callError
		var np *notProtocol
		if err != nil && !errors.As(err, &pe) && !errors.As(err, &np) && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "over") {
			t.Fatalf("unexpected error kind %T: %v", err, err)
		}
	})
}
