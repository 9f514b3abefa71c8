// Package client is the CLI's side of the control protocol: it finds the
// daemon's socket, starts a daemon when none answers (as tmux does), and
// makes calls.
package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/rawio"
	"github.com/tuios/tuios/internal/sock"
)

// Options configure Dial.
type Options struct {
	// Socket is the daemon's socket; empty is sock.Path(os.Getenv).
	Socket string
	// Autostart starts a daemon (Executable daemon) when none answers.
	Autostart bool
	// Executable is the tuios binary to start; empty is os.Executable.
	Executable string
	// StartTimeout bounds waiting for a started daemon; zero is 10 s.
	StartTimeout time.Duration
	// PaneToken goes with every request (proto.Request.PaneToken); empty
	// is $TUIOS_PANE_TOKEN, which a pane's environment holds.
	PaneToken string
	// Typing marks a connection that writes a request per key (the
	// attach client's): its socket leaves the runtime's poller for a
	// rawio.Conn, so the daemon reading each key does not wake this
	// process for room to write. It costs two descriptors more.
	Typing bool
	// TakesFDs (with Typing, Linux) makes the connection keep the
	// descriptors the daemon passes with an answer (attach-input), for
	// TakeFDs; without it the kernel closes them unread.
	TakesFDs bool
}

// Client is one connection. Calls on it are answered in order; it is not
// safe for concurrent use.
type Client struct {
	c     net.Conn
	r     *bufio.Reader
	next  int
	token string

	// Quiet requests (TrySendQuiet) take ids -1, -2, …; their verbs are
	// kept for the failures the daemon answers, in a ring: a failure
	// comes back long before quietRing more quiet requests are sent.
	qmu       sync.Mutex
	quietNext int
	quietVerb [quietRing]string
}

const quietRing = 256

// QuietError is a quiet request's failure (TrySendQuiet), which Receive
// returns in its place in the order: it answers no request that waits.
type QuietError struct {
	Verb string
	Err  *proto.Error
}

func (e *QuietError) Error() string { return e.Verb + ": " + e.Err.Error() }
func (e *QuietError) Unwrap() error { return e.Err }

// NoDaemonError says no daemon answers and none could be started.
type NoDaemonError struct {
	Socket string
	Err    error
}

func (e *NoDaemonError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("no tuios daemon answers on %s: %v", e.Socket, e.Err)
	}
	return "no tuios daemon answers on " + e.Socket
}

// Hint says what to do.
func (e *NoDaemonError) Hint() string {
	return "start one with `tuios daemon` (or any verb starts it); check TUIOS_SOCKET and XDG_RUNTIME_DIR"
}

// Dial connects to the daemon, starting one if asked and none answers.
// Before a byte is sent it checks what it connected to, as the daemon does
// for itself: the socket's directory must be private to this user (not a
// symlink, not another user's, not open to others) and the process
// serving it must run as this user (the kernel's peer credentials). A
// socket another user planted where ours belongs is refused, never spoken
// to.
func Dial(opt Options) (*Client, error) {
	if opt.Socket == "" {
		opt.Socket = sock.Path(os.Getenv)
	}
	if opt.PaneToken == "" {
		opt.PaneToken = os.Getenv(PaneTokenEnv)
	}
	wrap := func(c net.Conn) *Client {
		if opt.Typing {
			c = rawio.NewConn(c)
			if rc, ok := c.(*rawio.Conn); ok && opt.TakesFDs {
				rc.AcceptFDs()
			}
		}
		return wrapConn(c, opt.PaneToken)
	}
	dirErr := sock.CheckDir(filepath.Dir(opt.Socket))
	if dirErr != nil {
		var se *sock.Error
		if !errors.As(dirErr, &se) || se.Reason != "dir_create" {
			return nil, dirErr
		}
	}
	if dirErr == nil {
		if c, err := dialChecked(opt.Socket); err == nil {
			return wrap(c), nil
		} else if !isNoListener(err) {
			return nil, err
		}
	}
	if !opt.Autostart {
		return nil, &NoDaemonError{Socket: opt.Socket}
	}
	if err := start(opt); err != nil {
		return nil, &NoDaemonError{Socket: opt.Socket, Err: err}
	}
	timeout := opt.StartTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	deadline := time.Now().Add(timeout)
	for {
		c, err := dialChecked(opt.Socket)
		if err == nil {
			return wrap(c), nil
		}
		if !isNoListener(err) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, &NoDaemonError{Socket: opt.Socket, Err: errors.New("a started daemon did not answer in time")}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// dialChecked connects and checks the peer's uid before anything is sent.
func dialChecked(path string) (net.Conn, error) {
	c, err := net.Dial("unix", path)
	if err != nil {
		return nil, err
	}
	cred, err := sock.Peer(c)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("reading the peer credentials of %s: %w", path, err)
	}
	if cred.UID != os.Getuid() {
		c.Close()
		return nil, &sock.PeerError{Socket: path, UID: cred.UID}
	}
	return c, nil
}

// isNoListener reports whether a dial failed because nothing listens
// (no socket file, or a stale one).
func isNoListener(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

func wrapConn(c net.Conn, token string) *Client {
	// Read with raw calls (internal/rawio): the attach client reads a
	// line per echo, and the ordinary call wakes the runtime's monitor.
	return &Client{c: c, r: bufio.NewReaderSize(rawio.NewReader(c), 64<<10), token: token}
}

// PaneTokenEnv is the pane variable whose value the client sends as its
// pane token (daemon.PaneTokenEnv; the client does not import the daemon).
const PaneTokenEnv = "TUIOS_PANE_TOKEN"

// start runs `tuios daemon` detached: its own session, no terminal, its
// log next to the socket. The daemon owns daemon.log (--log-file: it
// rotates it); until it opens it, its stdout and stderr are appended to
// it here, so a daemon that fails at once still says why there.
func start(opt Options) error {
	exe := opt.Executable
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	if err := sock.EnsureDir(opt.Socket); err != nil {
		return err
	}
	logPath := filepath.Join(filepath.Dir(opt.Socket), "daemon.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(exe, "daemon", "--socket", opt.Socket, "--log-file", logPath)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it if it dies at once; it outlives us otherwise
	return nil
}

// Call sends one request and decodes its result into result (which may be
// nil). A daemon error is returned as *proto.Error.
func (c *Client) Call(verb string, params any, result any) error {
	if err := c.Send(verb, params); err != nil {
		// A daemon that refuses a connection (rate_limited: over a cap)
		// writes why and hangs up, maybe before the request went out:
		// its line is still there to read, and is the answer.
		var pe *proto.Error
		if rerr := c.Receive(nil); errors.As(rerr, &pe) {
			return pe
		}
		return err
	}
	return c.Receive(result)
}

// Send writes one request without waiting for its answer. The daemon
// answers a connection's requests in order, so a caller that pipelines
// (the attach client's typing) reads the answers with Receive in the order
// it sent them. One goroutine may Send while another Receives; neither may
// be called from two goroutines at once.
func (c *Client) Send(verb string, params any) error {
	b, err := c.request(verb, params, false)
	if err != nil {
		return err
	}
	_, err = c.c.Write(b)
	return err
}

// request is the next request's line, its id taken.
func (c *Client) request(verb string, params any, quiet bool) ([]byte, error) {
	req := struct {
		ID        int    `json:"id"`
		Verb      string `json:"verb"`
		Params    any    `json:"params,omitempty"`
		PaneToken string `json:"pane_token,omitempty"`
		Quiet     bool   `json:"quiet,omitempty"`
	}{c.next + 1, verb, params, c.token, quiet}
	if quiet {
		c.qmu.Lock()
		req.ID = -(c.quietNext + 1)
		c.qmu.Unlock()
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if quiet {
		c.qmu.Lock()
		c.quietNext++
		c.quietVerb[c.quietNext%quietRing] = verb
		c.qmu.Unlock()
	} else {
		c.next++
	}
	return append(b, '\n'), nil
}

// TrySend is Send that never waits: it writes what the socket takes at
// once and returns the rest, which the caller must write (WriteRest)
// before anything else. An attach client types through it from its UI
// goroutine, so a key leaves the process before the frame after it is
// drawn, and a daemon that stops reading still cannot stall the UI.
func (c *Client) TrySend(verb string, params any) (rest []byte, err error) {
	return c.trySend(verb, params, false)
}

// TrySendQuiet is TrySend for a request the daemon answers only if it
// fails (proto.Request.Quiet); Receive returns that failure as a
// *QuietError where it comes. Only for a daemon whose attach answer said
// quiet_requests: an older one refuses the field.
func (c *Client) TrySendQuiet(verb string, params any) (rest []byte, err error) {
	return c.trySend(verb, params, true)
}

// SendQuiet is Send for a quiet request (TrySendQuiet).
func (c *Client) SendQuiet(verb string, params any) error {
	b, err := c.request(verb, params, true)
	if err != nil {
		return err
	}
	_, err = c.c.Write(b)
	return err
}

func (c *Client) trySend(verb string, params any, quiet bool) (rest []byte, err error) {
	b, err := c.request(verb, params, quiet)
	if err != nil {
		return nil, err
	}
	sc, ok := c.c.(syscall.Conn)
	if !ok {
		return b, nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return b, nil
	}
	n := 0
	var werr syscall.Errno
	if err := raw.Write(func(fd uintptr) bool {
		n, werr = rawio.Write(fd, b)
		return true // one try, whatever it did
	}); err != nil {
		return nil, err
	}
	if werr == syscall.EAGAIN {
		n, werr = 0, 0
	}
	if werr != 0 {
		return nil, werr
	}
	if n >= len(b) {
		return nil, nil
	}
	return b[max(n, 0):], nil
}

// WriteRest writes what TrySend left, waiting as Send does.
func (c *Client) WriteRest(rest []byte) error {
	_, err := c.c.Write(rest)
	return err
}

// Receive reads the next answer and decodes its result into result (which
// may be nil). A daemon error is returned as *proto.Error.
//
// The failure of a quiet request (TrySendQuiet) is returned as a
// *QuietError: it is not the answer of the next request that waits.
func (c *Client) Receive(result any) error {
	var resp struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *proto.Error    `json:"error"`
	}
	for {
		line, err := proto.ReadLine(c.r, proto.MaxLine)
		if err != nil {
			return fmt.Errorf("the daemon hung up: %w", err)
		}
		resp.ID, resp.Result, resp.Error = nil, nil, nil
		if err := json.Unmarshal(line, &resp); err != nil {
			return fmt.Errorf("the daemon sent something that is not a response: %w", err)
		}
		id, quiet := quietID(resp.ID)
		if !quiet {
			break
		}
		if resp.Error == nil {
			continue // a success a daemon answered anyway: nothing waits for it
		}
		c.qmu.Lock()
		verb := c.quietVerb[id%quietRing]
		c.qmu.Unlock()
		return &QuietError{Verb: verb, Err: resp.Error}
	}
	if resp.Error != nil {
		return resp.Error
	}
	if result != nil {
		return json.Unmarshal(resp.Result, result)
	}
	return nil
}

// quietID reads a quiet request's id (-1, -2, …) as its number (1, 2, …).
func quietID(raw json.RawMessage) (int, bool) {
	if len(raw) < 2 || raw[0] != '-' {
		return 0, false
	}
	n, err := strconv.Atoi(string(raw[1:]))
	return n, err == nil && n > 0
}

// NextLine reads one event line after a subscribe or an attach stream,
// as it came (its own copy), for a reader that decodes it itself.
func (c *Client) NextLine() ([]byte, error) {
	return proto.ReadLine(c.r, proto.MaxLine)
}

// Next reads one event line after a subscribe.
func (c *Client) Next(v any) error {
	line, err := proto.ReadLine(c.r, proto.MaxLine)
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

// SetDeadline bounds every later read and write on the connection: a call
// past it fails instead of waiting on a daemon that does not answer.
func (c *Client) SetDeadline(t time.Time) error { return c.c.SetDeadline(t) }

// Conn is the connection itself, for a caller that relays bytes as they
// come (stdio-proxy). Use it before any Call: bytes already buffered for
// Receive would otherwise be missed.
func (c *Client) Conn() net.Conn { return c.c }

// TakeFDs hands over up to n descriptors the daemon passed on this
// connection (Options.TakesFDs), oldest first; the caller closes them.
func (c *Client) TakeFDs(n int) []int {
	if rc, ok := c.c.(*rawio.Conn); ok {
		return rc.TakeFDs(n)
	}
	return nil
}

// Close hangs up.
func (c *Client) Close() error { return c.c.Close() }
