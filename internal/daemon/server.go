package daemon

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/sock"
	"github.com/tuios/tuios/mail"
)

// Version is the daemon's version string.
const Version = "0.1.0"

// Options configure a Server.
type Options struct {
	// Socket is the path to listen on. Empty is sock.Path(os.Getenv).
	Socket string
	// Shell is the program a new window runs when no argv is given.
	// Empty is $SHELL, else /bin/sh.
	Shell string
	// Executable is the tuios binary panes are told about; empty is
	// os.Executable.
	Executable string
	// Env is the environment panes start from; nil is os.Environ().
	Env []string
	// Tracker configures agent tracking; its Clock is the daemon's clock.
	Tracker detect.TrackerOptions
	// Logf receives the daemon's log lines; nil discards them.
	Logf func(format string, args ...any)
}

// Server is a running daemon.
type Server struct {
	opt     Options
	tracker *detect.Tracker
	clock   agentstate.Clock
	host    string
	verbs   map[string]*verb
	started time.Time

	mu       sync.Mutex
	sessions map[string]*Session
	windows  map[string]*Window // by id, across sessions
	order    []*Session         // creation order
	hub      *hub
	mail     *mailer // agent mail: the daemon-wide id counter (verbs_mail.go)
	ln       net.Listener
	closed   bool
	done     chan struct{}
	conns    map[net.Conn]struct{}
	wg       sync.WaitGroup
}

// New prepares a server; Serve starts it.
func New(opt Options) (*Server, error) {
	if opt.Socket == "" {
		opt.Socket = sock.Path(os.Getenv)
	}
	if opt.Shell == "" {
		opt.Shell = os.Getenv("SHELL")
		if opt.Shell == "" {
			opt.Shell = "/bin/sh"
		}
	}
	if opt.Executable == "" {
		opt.Executable, _ = os.Executable()
	}
	if opt.Env == nil {
		opt.Env = os.Environ()
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	trackerFromEnv(&opt.Tracker, os.Getenv)
	if opt.Tracker.Watcher == nil {
		if w, err := transcript.NewWatcher(transcript.WatcherOptions{Clock: opt.Tracker.Clock}); err == nil {
			opt.Tracker.Watcher = w
		}
	}
	s := &Server{
		opt:      opt,
		sessions: map[string]*Session{},
		windows:  map[string]*Window{},
		done:     make(chan struct{}),
		conns:    map[net.Conn]struct{}{},
	}
	s.tracker = detect.NewTracker(opt.Tracker)
	s.clock = opt.Tracker.Clock
	if s.clock == nil {
		s.clock = agentstate.RealClock{}
	}
	s.host, _ = os.Hostname()
	s.hub = newHub()
	s.verbs = s.verbTable()
	s.started = time.Now()
	go s.forwardAgentEvents()
	return s, nil
}

// trackerFromEnv fills what the daemon's environment configures and the
// options leave unset: TUIOS_AGENT_STALL_SECONDS (0 or negative: no stall
// timer), TUIOS_AGENT_DETECT_SECONDS (0 or negative: no detection),
// TUIOS_AGENT_AUTODETECT (0, false, no, off: no detection) and
// TUIOS_AGENT_BINARIES (comma-separated extra agent names).
func trackerFromEnv(t *detect.TrackerOptions, getenv func(string) string) {
	if t.StallAfter == 0 {
		t.StallAfter = agentstate.StallFromEnv(getenv("TUIOS_AGENT_STALL_SECONDS"))
	}
	if t.DetectInterval == 0 {
		switch strings.ToLower(strings.TrimSpace(getenv("TUIOS_AGENT_AUTODETECT"))) {
		case "0", "false", "no", "off":
			t.DetectInterval = -1
		}
	}
	if t.DetectInterval == 0 {
		if v := strings.TrimSpace(getenv("TUIOS_AGENT_DETECT_SECONDS")); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				if n <= 0 {
					t.DetectInterval = -1
				} else {
					t.DetectInterval = time.Duration(n) * time.Second
				}
			}
		}
	}
	if t.Detector == nil {
		if extra := detect.ParseNameList(getenv("TUIOS_AGENT_BINARIES")); len(extra) > 0 {
			reg := t.Registry
			if reg == nil {
				reg, _ = detect.Load(detect.LoadOptions{})
			}
			t.Detector = detect.NewDetector(detect.DetectorOptions{Registry: reg, ExtraNames: extra})
		}
	}
}

// Listen takes the socket: a live daemon's socket is never stolen; a
// stale one from a dead daemon is replaced.
func (s *Server) Listen() error {
	if err := sock.EnsureDir(s.opt.Socket); err != nil {
		return err
	}
	if c, err := net.DialTimeout("unix", s.opt.Socket, time.Second); err == nil {
		c.Close()
		return &AlreadyRunning{Socket: s.opt.Socket}
	}
	os.Remove(s.opt.Socket)
	ln, err := net.Listen("unix", s.opt.Socket)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.opt.Socket, err)
	}
	os.Chmod(s.opt.Socket, 0o600)
	s.ln = ln
	return nil
}

// AlreadyRunning is Listen's error when another daemon answers.
type AlreadyRunning struct{ Socket string }

func (e *AlreadyRunning) Error() string {
	return "a tuios daemon is already running on " + e.Socket
}

// Serve accepts connections until Close or ctx ends.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.done:
		}
	}()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return err
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return nil
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(c)
	}
}

// Done is closed when the server stops.
func (s *Server) Done() <-chan struct{} { return s.done }

// Socket is the path the server listens on.
func (s *Server) Socket() string { return s.opt.Socket }

// Close stops the server and every pane.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	ln := s.ln
	var wins []*Window
	for _, w := range s.windows {
		wins = append(wins, w)
	}
	for c := range s.conns {
		c.Close()
	}
	var rings []*mail.Ring
	for _, ss := range s.sessions {
		if ss.mail != nil {
			rings = append(rings, ss.mail)
		}
	}
	s.mu.Unlock()
	for _, r := range rings { // mail dies with the daemon, and so does the stash
		r.Close()
	}
	os.Remove(filepath.Join(filepath.Dir(s.opt.Socket), "stash"))
	if ln != nil {
		ln.Close()
		os.Remove(s.opt.Socket)
	}
	for _, w := range wins {
		w.close()
	}
	s.tracker.Close()
	if s.opt.Tracker.Watcher != nil {
		s.opt.Tracker.Watcher.Close()
	}
	s.hub.close()
	s.wg.Wait()
	return nil
}

// conn is one client connection.
type conn struct {
	s         *Server
	c         net.Conn
	peer      int    // the caller's pid (SO_PEERCRED), 0 when unknown
	placed    bool   // the caller's pane was looked up
	placedID  string // that pane, "" for none
	w         *bufio.Writer
	wmu       sync.Mutex
	sub       *subscriber
	streaming bool
	closed    chan struct{}
}

func (s *Server) serveConn(c net.Conn) {
	defer s.wg.Done()
	cn := &conn{s: s, c: c, peer: peerPID(c), w: bufio.NewWriter(c), closed: make(chan struct{})}
	defer func() {
		close(cn.closed)
		if cn.sub != nil {
			s.hub.remove(cn.sub)
		}
		c.Close()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
	r := bufio.NewReaderSize(c, 64<<10)
	for {
		line, err := proto.ReadLine(r, proto.MaxLine)
		if errors.Is(err, proto.ErrLineTooLong) {
			cn.send(proto.Response{Error: proto.Errorf(proto.CodeInvalidRequest, "the request line is over the 16 MB cap")})
			continue
		}
		if err != nil {
			return
		}
		if len(line) == 0 {
			continue
		}
		req, perr := proto.ParseRequest(line)
		if perr != nil {
			cn.send(proto.Response{ID: req.ID, Error: perr})
			continue
		}
		res, herr := s.dispatch(cn, req)
		if herr != nil {
			cn.send(proto.Response{ID: req.ID, Error: herr})
			continue
		}
		cn.send(proto.Response{ID: req.ID, Result: res})
		if cn.sub != nil && !cn.streaming {
			cn.streaming = true
			go cn.stream(cn.sub)
		}
		if k, ok := res.(killResult); ok && k.Type == "server_killed" {
			go s.Close()
			return
		}
	}
}

func (cn *conn) send(resp proto.Response) error {
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	if err := proto.Encode(cn.w, resp); err != nil {
		return err
	}
	return cn.w.Flush()
}

// sendRaw writes one event line.
func (cn *conn) sendRaw(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	cn.w.Write(append(b, '\n'))
	return cn.w.Flush()
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// sessionsSorted lists sessions in creation order.
func (s *Server) sessionsSorted() []*Session {
	out := append([]*Session(nil), s.order...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].created.Before(out[j].created) })
	return out
}
