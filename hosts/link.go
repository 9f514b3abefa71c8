package hosts

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"
)

// Keepalive defaults, used when ssh_options name no ServerAliveInterval or
// ServerAliveCountMax (or name 0): a peer that stops answering is noticed
// within about a minute, and an idle link costs one small packet every
// 15 s.
const (
	DefaultAliveInterval = 15 * time.Second
	DefaultAliveCountMax = 3
)

// MaxLine caps one line read from the far side (the protocol's own cap).
const MaxLine = 16 << 20

// Link is one ssh connection to a host, on which the far `tuios
// stdio-proxy` runs once per channel. Its first channel said link-peer
// and hello when it was dialled and carries Call; Open adds channels.
// Every method is safe for concurrent use (calls on the first channel
// wait for each other).
type Link struct {
	client *ssh.Client
	// hops are the jump hosts' connections, in dialling order: client
	// rides a channel of the last, each one a channel of the one before.
	hops []*ssh.Client
	host Host
	peer string
	ctl  *stream

	callMu sync.Mutex
	next   int

	aliveEvery time.Duration
	aliveMax   int

	done     chan struct{}
	doneOnce sync.Once
	errMu    sync.Mutex
	err      error

	Hello Hello
	Where *Resolved
}

// stream is one session channel running the far stdio-proxy.
type stream struct {
	sess   *ssh.Session
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
	once   sync.Once
}

// newStream opens a session channel and starts the far command on it.
func (l *Link) newStream() (*stream, error) {
	sess, err := l.client.NewSession()
	if err != nil {
		var oe *ssh.OpenChannelError
		// OpenSSH refuses a session past MaxSessions with "open failed"
		// (ConnectionFailed); others say Prohibited.
		if errors.As(err, &oe) && (oe.Reason == ssh.Prohibited || oe.Reason == ssh.ConnectionFailed) {
			return nil, &Error{code: CodeHostUnreachable, Reason: ReasonNoRoom, Host: l.host.Name, Msg: "the far sshd refused another channel on the link", Err: err,
				hint: "close some connections to the host, or raise MaxSessions in the far sshd_config"}
		}
		return nil, &Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: l.host.Name, Msg: "opening a session channel", Err: err, hint: "the far sshd refused a session"}
	}
	st := &stream{sess: sess, stderr: &tailBuffer{max: 4096}}
	sess.Stderr = st.stderr
	if st.in, err = sess.StdinPipe(); err != nil {
		sess.Close()
		return nil, err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	st.out = bufio.NewReaderSize(out, 64<<10)
	if err := sess.Start(l.Where.RemoteCommand); err != nil {
		sess.Close()
		return nil, &Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: l.host.Name, Msg: "starting " + l.Where.RemoteCommand, Err: err}
	}
	return st, nil
}

// close ends the channel. Only Close, never stdin's CloseWrite: the ssh
// package reads the EOF flag in Write without a lock, and a close may come
// from another goroutine (a context ending) while a write is under way.
// sshd ends the far process either way.
func (st *stream) close() {
	st.once.Do(func() { st.sess.Close() })
}

// call sends one request on the stream and reads its answer.
func (st *stream) call(id int, verb string, params, result any) error {
	b, err := json.Marshal(map[string]any{"id": id, "verb": verb, "params": params})
	if err != nil {
		return err
	}
	if _, err := st.in.Write(append(b, '\n')); err != nil {
		return err
	}
	line, err := readLine(st.out, MaxLine)
	if err != nil {
		return err
	}
	var resp struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *callError      `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return &notProtocol{fmt.Sprintf("the far side sent something that is not a response: %q", truncate(line, 120))}
	}
	if resp.ID != id {
		return &notProtocol{fmt.Sprintf("the far side answered request %d, not %d", resp.ID, id)}
	}
	if resp.Error != nil {
		return resp.Error
	}
	if result != nil {
		if err := json.Unmarshal(resp.Result, result); err != nil {
			return &notProtocol{fmt.Sprintf("the far side's answer does not decode: %v", err)}
		}
	}
	return nil
}

// notProtocol is a line from the far side that is not the protocol.
type notProtocol struct{ msg string }

func (e *notProtocol) Error() string { return e.msg }

// linkPeer says link-peer {peer} first on a fresh stream. known is false
// when the far daemon predates the verb.
func (st *stream) linkPeer(l *Link) (known bool, err error) {
	var pe *callError
	err = st.call(0, "link-peer", map[string]any{"peer": l.peer}, nil)
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &pe) && pe.Code == "unknown_verb":
		return false, nil
	case errors.As(err, &pe):
		return false, &Error{code: CodeHostRefused, Reason: ReasonProtocol, Host: l.host.Name, Msg: "the far daemon refused link-peer", Err: err, hint: "see the far machine's [hosts] policy"}
	}
	return false, st.exitError(l, err)
}

// exitError explains a far side that hung up before answering: the exit
// status of the far command says whether tuios or its daemon was missing.
func (st *stream) exitError(l *Link, cause error) error {
	h := l.host
	var np *notProtocol
	if errors.As(cause, &np) { // it spoke, and not the protocol: no exit status to wait for
		return &Error{code: CodeHostUnreachable, Reason: ReasonProtocol, Host: h.Name, Msg: "the far side did not speak the control protocol", Err: cause,
			hint: "run the far command by hand to see what it prints (tuios hosts test " + h.Name + ")"}
	}
	werr := make(chan error, 1)
	go func() { werr <- st.sess.Wait() }()
	select {
	case err := <-werr:
		var ee *ssh.ExitError
		if err != nil {
			cause = fmt.Errorf("%v (the far command ended: %v)", cause, err)
		}
		if errors.As(err, &ee) {
			switch ee.ExitStatus() {
			case exitNoTuios:
				return &Error{code: CodeHostUnreachable, Reason: ReasonNoTuios, Host: h.Name, Msg: "tuios is not installed where the link looked (" + strings.Join(l.Where.LookedIn, ", ") + ")",
					Err: errors.New(farSaid(st.stderr.String())), hint: "install tuios there, or set its path: tuios hosts add " + h.Name + " " + h.Addr + " --command PATH"}
			case exitNoDaemon:
				return &Error{code: CodeHostUnreachable, Reason: ReasonNoDaemon, Host: h.Name, Msg: "the far tuios found no daemon", Err: errors.New(farSaid(st.stderr.String())),
					hint: "start one there (tuios daemon, or any tuios verb)"}
			}
		}
	case <-time.After(2 * time.Second):
	}
	return &Error{code: CodeHostUnreachable, Reason: ReasonProtocol, Host: h.Name, Msg: "the far side did not speak the control protocol", Err: fmt.Errorf("%v; it said %q", cause, st.stderr.String()),
		hint: "run the far command by hand to see what it prints"}
}

// Call sends one request on the link's first channel and decodes its
// result into result (nil to drop it). An error the far daemon answered
// is returned with its code in the message; the text of it came from
// another machine and is data, never instructions. Calls wait for each other: a long
// wait belongs on a channel of its own (Open).
func (l *Link) Call(verb string, params, result any) error {
	l.callMu.Lock()
	defer l.callMu.Unlock()
	l.next++
	return l.ctl.call(l.next, verb, params, result)
}

// Open starts one more channel on the link, running the far stdio-proxy,
// and says link-peer on it: what is written is request lines for the far
// daemon, what is read is its answer and event lines. Closing it ends
// that far stdio-proxy; the link stays. ctx bounds the opening only. The
// far sshd caps channels per connection (MaxSessions, 10 by default): past
// it the error's Reason is ReasonNoRoom.
func (l *Link) Open(ctx context.Context) (io.ReadWriteCloser, error) {
	select {
	case <-l.done:
		return nil, l.downError()
	default:
	}
	type opened struct {
		st  *stream
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		st, err := l.newStream()
		if err == nil {
			if _, err = st.linkPeer(l); err != nil {
				st.close()
			}
		}
		ch <- opened{st, err}
	}()
	select {
	case o := <-ch:
		if o.err != nil {
			return nil, o.err
		}
		return &Stream{st: o.st}, nil
	case <-l.done:
		go func() {
			if o := <-ch; o.err == nil {
				o.st.close()
			}
		}()
		return nil, l.downError()
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.err == nil {
				o.st.close()
			}
		}()
		return nil, &Error{code: CodeHostUnreachable, Reason: ReasonConnect, Host: l.host.Name, Msg: "opening a channel took too long", Err: ctx.Err(),
			hint: "the link may be wedged; tuios hosts says its state"}
	}
}

func (l *Link) downError() error {
	return &Error{code: CodeHostUnreachable, Reason: ReasonDropped, Host: l.host.Name, Msg: "the link dropped", Err: l.Err(), hint: "tuios hosts says whether it is back"}
}

// Stream is one channel opened by Open.
type Stream struct{ st *stream }

// Read reads the far daemon's lines (answers and events).
func (s *Stream) Read(p []byte) (int, error) { return s.st.out.Read(p) }

// Write sends request lines to the far daemon.
func (s *Stream) Write(p []byte) (int, error) { return s.st.in.Write(p) }

// Close ends the channel and its far stdio-proxy.
func (s *Stream) Close() error { s.st.close(); return nil }

// Done is closed when the link has ended: its ssh connection closed or
// stopped answering keepalives, or the far stdio-proxy of its first
// channel exited (the far daemon stopped). Err then says which.
func (l *Link) Done() <-chan struct{} { return l.done }

// Err is why the link ended, nil while it is up.
func (l *Link) Err() error {
	l.errMu.Lock()
	defer l.errMu.Unlock()
	return l.err
}

func (l *Link) end(err error) {
	l.doneOnce.Do(func() {
		l.errMu.Lock()
		l.err = err
		l.errMu.Unlock()
		close(l.done)
		l.client.Close()
		for i := len(l.hops) - 1; i >= 0; i-- {
			l.hops[i].Close()
		}
	})
}

// watch starts what notices the link's end: the ssh connection, the
// first channel's far process, and the keepalives.
func (l *Link) watch() {
	go func() {
		err := l.client.Wait()
		if err == nil || errors.Is(err, io.EOF) {
			err = errors.New("the ssh connection closed")
		}
		l.end(err)
	}()
	// A jump host's connection ending takes the host's with it; saying
	// which machine went is more use than "the connection closed".
	for i, hop := range l.hops {
		go func() {
			hop.Wait()
			l.end(fmt.Errorf("the ssh connection to jump host %s closed", l.Where.Via[i].Host))
		}()
	}
	go func() {
		l.ctl.sess.Wait()
		l.end(errors.New("the far tuios stdio-proxy exited (its daemon stopped?)"))
	}()
	go l.keepalive()
}

// keepalive asks the far sshd for an answer every aliveEvery, as ssh's
// ServerAliveInterval; aliveMax ticks in a row with a question still
// unanswered end the link (TCP alone may not notice a dead peer for
// hours).
func (l *Link) keepalive() {
	t := time.NewTicker(l.aliveEvery)
	defer t.Stop()
	var waiting atomic.Bool
	missed := 0
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
		}
		if waiting.Load() {
			missed++
			if missed >= l.aliveMax {
				l.end(fmt.Errorf("the far sshd did not answer %d keepalives %s apart", missed, l.aliveEvery))
				return
			}
			continue
		}
		missed = 0
		waiting.Store(true)
		go func() {
			// OpenSSH answers failure to a request it does not know:
			// any answer proves the peer alive.
			l.client.SendRequest("keepalive@openssh.com", true, nil)
			waiting.Store(false)
		}()
	}
}

// Close ends the link: every channel, the far stdio-proxies, the ssh
// connection and those to the jump hosts on the way.
func (l *Link) Close() error {
	if l.ctl != nil {
		l.ctl.close()
	}
	l.end(errors.New("closed here"))
	return nil
}

// farSaid is what the far command's stderr says, as one line: its first
// line that is not empty. The rest is the far tuios's own hint, which
// the link's hint says again for this side (a reason is one line in
// tuios hosts and list-hosts).
func farSaid(stderr string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return "it printed nothing"
}
