package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/detect/transcript"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/daemon/agentlog"
	"github.com/tuios/tuios/internal/daemon/agents"
	attn "github.com/tuios/tuios/internal/daemon/attention"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/fan"
	"github.com/tuios/tuios/internal/daemon/herdr"
	"github.com/tuios/tuios/internal/daemon/links"
	"github.com/tuios/tuios/internal/daemon/mailbox"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/daemon/notify"
	"github.com/tuios/tuios/internal/daemon/resume"
	"github.com/tuios/tuios/internal/daemon/transfers"
	"github.com/tuios/tuios/internal/daemon/waitfor"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/sock"
)

// Limits that keep one client from exhausting the daemon.
const (
	// lineBudget caps the bytes of request lines held at once across
	// every connection (each line is also capped at proto.MaxLine).
	lineBudget = 64 << 20
	// maxPipeline is how many requests one connection may send ahead of
	// its answers before the daemon stops reading it.
	maxPipeline = 64
	// hangupProbe is how often a half-closed connection whose request is
	// still running is checked for a full hang-up.
	hangupProbe = 500 * time.Millisecond
)

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
	// Logger receives the daemon's log lines, with levels and pane and
	// session attributes (log.go). Nil is Logf's lines, or nothing.
	Logger *slog.Logger
	// Logf receives the daemon's log lines as text; nil is the Logger's
	// info lines.
	Logf func(format string, args ...any)
	// StateDir is where the daemon keeps what outlives it (the Inbox's
	// attention/items.json). Empty is $XDG_STATE_HOME/tuios, else
	// ~/.local/state/tuios; "-" keeps nothing.
	StateDir string
	// Getenv reads the daemon's own environment (HOME and SSH_AUTH_SOCK
	// for host links, the config path for apply-config); nil is os.Getenv.
	Getenv func(string) string
	// Config is the user's config file; nil reads config.Path's file
	// (a file that does not parse is logged and every default used).
	Config *config.File
}

// Server is a running daemon.
//
// Locking: the table's lock guards the session and window tables and every window's
// placement (name, workspace, minimized, focus). It is never held across
// I/O and never held while taking a pane's lock (detect.Pane, the screen,
// the arbiter's waits): a handler copies what it needs under the table's lock, lets
// go, and then reads the panes.
type Server struct {
	opt     Options
	tracker *detect.Tracker
	tscript *agentlog.Transcripts // agent-transcript and the transcript event (internal/daemon/agentlog)
	clock   agentstate.Clock
	host    string
	verbs   *registry
	started time.Time
	uid     int
	budget  *proto.Budget

	// self and sid are the daemon's pid and terminal session, panes its
	// pane shells and tokens: what placing a caller reads (boundary.go).
	self    int
	sid     int
	panes   *paneIndex
	escaped *escapeeList // what the last daemon on this socket left inside (escapees.go)
	// ownChildrenOutside: processes this process started itself (with
	// os/exec, in its session) are judged as any other caller, not put
	// inside. Only this package's tests set it: there the test binary is
	// the daemon and also starts the person's programs and sshd. The
	// daemon proper starts only panes and its own helpers (git, and any
	// hook git runs), none of them the person.
	ownChildrenOutside bool

	// limits are the control socket's connection caps, counts what they
	// count, admitting the accepted connections not yet placed
	// (conn_caps.go).
	limits    connLimits
	counts    connCount
	admitting chan struct{}

	// loadErrs are the harness manifests that did not load; written
	// only while New runs.
	loadErrs []detect.LoadError
	// agentsOff is [agents] enabled = false: only the multiplexer.
	agentsOff bool

	// tab is the table of sessions and windows (internal/daemon/mux),
	// which alone takes its lock; set in New, never changed.
	tab      *mux.Table
	hub      *hub
	mail     *mailbox.Mail // agent mail: each session's ring and stash (internal/daemon/mailbox); set in New, never changed
	att      inboxStore    // the Inbox (attention.go, attn.Store); set in New, never changed
	cameBack sync.Once     // restore and the Inbox's load, once the socket is ours
	attach   *attachHub    // attach streams (attach_stream.go); set in New, never changed
	holds    *attn.Holds   // held approvals (internal/daemon/attention); set in New, never changed
	alog     *agentlog.Log // the agent log (internal/daemon/agentlog); set in New, never changed
	ln       net.Listener
	done     chan struct{} // closed when Close starts
	stopped  chan struct{} // closed when Close has finished
	stopOnce sync.Once
	// connMu guards conns, the connections being served, and
	// connsClosed, set once shutdown has taken its list of them: a
	// connection accepted after that is refused, so none outlives the
	// daemon. Nothing is taken under it.
	connMu      sync.Mutex
	conns       map[*conn]struct{}
	connsClosed bool
	wg          sync.WaitGroup

	queue  replyQueue   // the reply queue (internal/daemon/attention); set in New, never changed
	review *attn.Review // review notes (internal/daemon/attention); set in New, never changed
	herdr  *herdr.Sock  // the herdr socket (internal/daemon/herdr); set in New, never changed
	// features are the daemon's features in the order New inits them;
	// shutdown stops them in reverse (host_feature.go).
	features []core.Feature
	// What the features registered in their Init (core.Registrar),
	// read-only once sealed: the variables they add to a new pane's
	// environment and the rules on a caller's (host.go), and what they
	// do once the socket is ours and once the sessions came back
	// (comeBack).
	paneStartHooks []func(core.PaneStart, map[string]string)
	environRules   []environRule
	listenHooks    []func()
	restoredHooks  []func([]core.Restored)
	sealed         atomic.Bool
	// featureVerbs are the verbs features added (host.go); set in New,
	// read-only after.
	featureVerbs []core.Verb
	links        *links.Links  // links to other hosts (links/links.go); set in New, never changed
	outbox       *links.Outbox // mail waiting for other hosts (links/outbox.go); set in New, never changed
	follow       *links.Follow // the Inbox's mirror of linked hosts (links/follow.go); set in New, never changed
	asks         *attn.Asks    // ask-human questions (internal/daemon/attention); set in New, never changed
	fans         core.Fans     // the worktrees and fans tuios made (internal/daemon/fan), asked for fan tags; set in New, never changed
	// editMu makes one edit of the config file at a time (set-config):
	// each reads the file, edits it and renames the result over it.
	editMu sync.Mutex

	linkPol links.Policy                    // what other machines may do here (links/policy.go); zero is the default
	perm    atomic.Pointer[mux.Permissions] // [agents.permissions] in force (caller.go, config_wait.go); never nil after New
	cfg     *cfgFollow                      // follows config.toml for removals and narrowing (config_follow.go); set in New

	// Push notifications and the copies (internal/daemon/notify,
	// internal/daemon/transfers): the person's keys reach the features
	// through typedHooks (person_typed.go); the config appliers reach
	// [notify] through push. Set in New, never changed.
	typedHooks []func(window string)
	push       notifyConfig

	// The person's nonces (human_nonce.go), which attach hands out and
	// the person check reads, and respond_from_shell as read at start;
	// respond and peek-prompt (internal/daemon/attention's Prompts). Set
	// in New, never changed.
	nonces    *humanNonces
	fromShell bool
	prompts   *attn.Prompts

	// wait-for (internal/daemon/waitfor): what its exit log does as a
	// program window's program exits (core.Registrar.OnProgramExit,
	// host_waitfor.go); read-only once sealed.
	programExitHooks []func(core.ProgramExit)
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
	setupLog(&opt) // log.go
	s := &Server{
		opt:     opt,
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
		conns:   map[*conn]struct{}{},
		uid:     os.Getuid(),
		budget:  proto.NewBudget(lineBudget),
		self:    os.Getpid(),
		sid:     sessionOfSelf(),
		panes:   newPaneIndex(),
		limits:  defaultConnLimits,
		counts:  connCount{byPane: map[string]int{}},
	}
	// Before any pane starts: its orphans must come here, not to init.
	if err := becomeSubreaper(); err != nil && subreaperHolds {
		return nil, fmt.Errorf("becoming the reaper of the panes' orphans: %w", err)
	}
	// A manifest that does not load is logged and kept: explain-agent-detect
	// shows it, so a person who wrote one learns why it matches nothing.
	told := opt.Tracker.OnLoadError
	opt.Tracker.OnLoadError = func(e detect.LoadError) {
		s.loadErrs = append(s.loadErrs, e) // only during New: read-only after
		if told != nil {
			told(e)
		} else {
			opt.Logger.Warn(fmt.Sprintf("%v (%s)", e, e.Hint()))
		}
	}
	if opt.Config == nil {
		path := config.Path(os.Getenv)
		f, err := config.Load(path)
		if err != nil {
			opt.Logger.Warn(fmt.Sprintf("%v: the daemon starts with every default", err))
		}
		// No file yet is still the file to follow (config_follow.go).
		f.Path = path
		for _, k := range f.Unknown() {
			opt.Logger.Warn(fmt.Sprintf("config %s: unknown key %s (ignored)", f.Path, k))
		}
		opt.Config = f
	}
	s.agentsOff = !opt.Config.AgentsEnabled()
	s.applyLinkPolicy(opt.Config)              // link_policy.go: [hosts."*"], [hosts.NAME] allow and hold_mail
	s.applyPermissions(opt.Config, "at start") // config_wait.go: [agents.permissions]
	trackerFromConfig(&opt.Tracker, opt.Config, os.Getenv)
	if opt.Tracker.Watcher == nil {
		if w, err := transcript.NewWatcher(transcript.WatcherOptions{Clock: opt.Tracker.Clock}); err == nil {
			opt.Tracker.Watcher = w
		}
	}
	s.opt = opt
	s.tracker = detect.NewTracker(opt.Tracker)
	s.clock = opt.Tracker.Clock
	if s.clock == nil {
		s.clock = agentstate.RealClock{}
	}
	s.host, _ = os.Hostname()
	s.hub = newHub()
	s.cfg = newCfgFollow(s, opt.Config)
	switch opt.StateDir {
	case "":
		opt.StateDir = stateDir(os.Getenv)
	case "-":
		opt.StateDir = ""
	}
	s.opt.StateDir = opt.StateDir
	s.escaped = newEscapees(opt.Socket, opt.StateDir)
	s.escaped.load(s)
	inboxFeature := newAttention(s, opt.StateDir)
	s.att = inboxFeature
	s.links = newServerLinks(s) // host_links.go: after the state dir (its outbox) and the Inbox (its rows)
	s.outbox = s.links.Outbox()
	s.follow = s.links.Follow() // links/follow.go: the links made it with the Inbox it stamps
	// Every subsystem a verb uses is built here, before the verb table:
	// registering a verb builds nothing.
	s.attach = newAttachHub(s)
	s.hub.Observe(s.attach.observe)
	s.mail = mailbox.New() // agent mail (internal/daemon/mailbox)
	s.queue = replyQueue{attn.NewQueue(attn.QueueOptions{Max: s.opt.Config.QueueMax(), Inbox: inboxFeature})}
	s.review = attn.NewReview(s.queue.Queue)
	wts := fan.New() // the worktrees and fans tuios made (internal/daemon/fan): a feature the core asks for fan tags
	s.fans = wts
	s.tab = mux.New(mux.Options{Shell: s.opt.Shell, Env: s.opt.Env, Socket: s.opt.Socket, Host: s.host, UID: s.uid,
		StateDir: opt.StateDir, Config: s.opt.Config, Logf: s.opt.Logf, Log: host{s}.Log(), Done: s.done,
		Tracker: s.tracker, Clock: s.clock, Hub: s.hub, Screens: s.attach, Panes: s.panes, Reaper: orphans,
		Daemon: tableSide{s}})
	// The person's nonces; the risk rules the holds and respond judge with.
	s.nonces = newHumanNonces(s.done) // human_nonce.go
	s.fromShell = respondFromShell(s.opt.Config, os.Getenv)
	risk := s.riskChecker() // attention.go
	s.holds = attn.NewHolds(attn.HoldsOptions{Inbox: inboxFeature, Risk: risk, Home: s.opt.Tracker.Home,
		RefuseRequest: s.follow.RefuseRequest})
	// respond and peek-prompt (internal/daemon/attention's Prompts).
	s.prompts = attn.NewPrompts(attn.PromptsOptions{Inbox: inboxFeature, Holds: s.holds, Risk: risk, Home: s.opt.Tracker.Home})
	inboxFeature.Serve(attn.VerbOptions{Hosts: followInbox{s.follow}, AfterDismiss: s.afterDismiss}) // verbs_attention.go
	s.asks = attn.NewAsks(attn.AskOptions{Inbox: inboxFeature, RefuseRequest: s.follow.RefuseRequest})
	// The features, in the order they are inited and the reverse of the
	// one they stop in.
	s.herdr = herdr.New()
	s.alog = agentlog.NewLog(s.clock)
	s.tscript = agentlog.NewTranscripts()
	s.features = []core.Feature{inboxFeature, // the Inbox: first, so the attention set may use it and it hears a window close first
		s.mail, // agent mail (internal/daemon/mailbox): its rings close last but the Inbox's
		s.herdr, s.alog, s.tscript, resume.New(),
		wts,                                      // the worktrees and fans (internal/daemon/fan): its records load once the socket is ours
		s.queue.Queue, s.review, s.asks, s.holds, // the attention set (internal/daemon/attention)
		// respond and peek-prompt, of the attention set: after the holds they read first
		s.prompts,
		s.links, // links to other machines (internal/daemon/links): dialled once the sessions are back
	}
	// Push notifications (after resume and the links: they follow the
	// Inbox from once the restored items are in) and the copies of tuios
	// cp (internal/daemon/notify, internal/daemon/transfers).
	pushes := notify.New(notify.Options{Inbox: inboxFeature, Getenv: s.getenv})
	s.push = pushes
	s.features = append(s.features, pushes, transfers.New())
	// wait-for (internal/daemon/waitfor): its agent-message condition is
	// the mail feature's wait, handed over here.
	s.features = append(s.features, waitfor.New(waitfor.Options{Mail: s.waitMail}))
	// The agent verbs (internal/daemon/agents): they keep nothing and
	// hook nothing, so their place in the list does not matter.
	s.features = append(s.features, agents.New())
	h := host{s}
	if err := initFeatures(h, s.features); err != nil {
		close(s.done) // what New started so far stops
		s.tracker.Close()
		return nil, err
	}
	s.sealed.Store(true)
	s.verbs = s.verbTable()
	s.started = time.Now()
	// Subscribed here, not in the goroutine: a change made before the
	// goroutine first ran would otherwise never reach the Inbox.
	go s.forwardAgentEvents(s.tracker.Arbiter().Subscribe(agentstate.SubscribeOptions{Buffer: 1024}))
	exits := make(chan os.Signal, 1)
	signal.Notify(exits, syscall.SIGCHLD) // before any pane starts, for the same reason
	go s.tab.WatchExits(exits)
	return s, nil
}

// trackerFromConfig fills what the config file and the daemon's
// environment configure and the options leave unset, in the order the
// agents page gives: [daemon] agent_autodetect = false is off, unset defers
// to TUIOS_AGENT_AUTODETECT (0, false, no, off: no detection); then
// agent_detect_seconds above 0 wins, below 0 is off, 0 defers to
// TUIOS_AGENT_DETECT_SECONDS (0 or negative: off); agent_binaries and
// TUIOS_AGENT_BINARIES add names; TUIOS_AGENT_STALL_SECONDS sets the stall
// window (0 or negative: no stall timer). [agents] enabled = false turns
// detection and the stall timer off.
func trackerFromConfig(t *detect.TrackerOptions, f *config.File, getenv func(string) string) {
	if !f.AgentsEnabled() {
		t.DetectInterval, t.StallAfter = -1, -1
	}
	if t.StallAfter == 0 {
		t.StallAfter = stallFromEnv(getenv("TUIOS_AGENT_STALL_SECONDS")) // stall_env.go
	}
	if t.DetectInterval == 0 {
		if on := f.Daemon.AgentAutodetect; on != nil && !*on {
			t.DetectInterval = -1
		}
	}
	if t.DetectInterval == 0 && f.Daemon.AgentAutodetect == nil {
		switch strings.ToLower(strings.TrimSpace(getenv("TUIOS_AGENT_AUTODETECT"))) {
		case "0", "false", "no", "off":
			t.DetectInterval = -1
		}
	}
	if n := f.Daemon.AgentDetectSeconds; t.DetectInterval == 0 && n != nil && *n != 0 {
		if *n < 0 {
			t.DetectInterval = -1
		} else {
			t.DetectInterval = time.Duration(min(*n, 3600)) * time.Second
		}
	}
	if t.DetectInterval == 0 {
		if v := strings.TrimSpace(getenv("TUIOS_AGENT_DETECT_SECONDS")); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				if n <= 0 {
					t.DetectInterval = -1
				} else {
					t.DetectInterval = time.Duration(min(n, 3600)) * time.Second
				}
			}
		}
	}
	names := append(detect.ParseNameList(strings.Join(f.Daemon.AgentBinaries, ",")), detect.ParseNameList(getenv("TUIOS_AGENT_BINARIES"))...)
	if t.Detector == nil {
		if extra := names; len(extra) > 0 {
			reg := t.Registry
			if reg == nil {
				var errs []detect.LoadError
				reg, errs = detect.Load(detect.LoadOptions{})
				for _, e := range errs {
					if t.OnLoadError != nil {
						t.OnLoadError(e)
					}
				}
				t.Registry = reg
			}
			t.Detector = detect.NewDetector(detect.DetectorOptions{Registry: reg, ExtraNames: extra})
		}
	}
}

// Listen takes the socket: a live daemon's socket is never stolen; a
// stale one from a dead daemon is replaced. Only a refused connection
// proves the socket stale: a busy daemon whose backlog is full (EAGAIN)
// or that is slow to accept is still alive.
func (s *Server) Listen() error {
	if err := sock.EnsureDir(s.opt.Socket); err != nil {
		return err
	}
	c, err := net.DialTimeout("unix", s.opt.Socket, time.Second)
	if err == nil {
		c.Close()
		return &AlreadyRunning{Socket: s.opt.Socket}
	}
	if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ENOENT) {
		return &AlreadyRunning{Socket: s.opt.Socket}
	}
	os.Remove(s.opt.Socket)
	ln, err := net.Listen("unix", s.opt.Socket)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", s.opt.Socket, err)
	}
	os.Chmod(s.opt.Socket, 0o600)
	s.ln = ln
	s.cameBack.Do(s.comeBack)
	return nil
}

// comeBack brings back what the last daemon on this socket left: its
// sessions first, then the Inbox items of panes that came back. Only
// once the socket is ours, so a daemon that finds another running starts
// no shells and no feature's socket.
func (s *Server) comeBack() {
	for _, fn := range s.listenHooks { // the features' own sockets (herdr's): before the first pane starts
		fn()
	}
	back := s.tab.Restorer().Restore()
	s.tab.Restorer().FollowLayout()
	s.att.Load(func(session, window string) bool { return s.tab.WindowIn(window, session) }) // only panes that came back (table.go)
	for _, fn := range s.restoredHooks {                                                     // resume's offers: after the load, so a loaded item does not shadow one
		fn(back)
	}
	s.cfg.compareWithLastRun() // config_wait.go: wider grants than the last run are reported
	s.cfg.start()              // config_follow.go: removals and narrowing apply at once
}

// freezeState writes the sessions and Inbox files one last time, before
// the panes close: a daemon stopping is not a person closing windows.
func (s *Server) freezeState() {
	s.tab.Restorer().Save(true)
	s.att.Save(true)
}

// AlreadyRunning is Listen's error when another daemon answers.
type AlreadyRunning struct{ Socket string }

func (e *AlreadyRunning) Error() string {
	return "a tuios daemon is already running on " + e.Socket
}

// Serve accepts connections until Close or ctx ends, and returns once the
// daemon has stopped: every pane's processes are gone by then.
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
	s.admitting = make(chan struct{}, max(1, s.limits.maxAdmitting))
	var delay time.Duration
	for {
		// A connection takes a slot here and gives it back once it is
		// placed and counted (serveConn): a flood waits in the kernel's
		// backlog, not in slots the person's share would pay for.
		select {
		case s.admitting <- struct{}{}:
		case <-s.done:
			<-s.stopped
			return nil
		}
		c, err := s.ln.Accept()
		if err != nil {
			<-s.admitting
			if s.isClosed() {
				<-s.stopped
				return nil
			}
			// Out of descriptors (EMFILE, ENFILE), memory or an aborted
			// handshake: back off and go on. A daemon that stops
			// accepting loses every pane it holds.
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			s.errorf("accept: %v; retrying in %v", err, delay)
			select {
			case <-time.After(delay):
			case <-s.done:
			}
			continue
		}
		delay = 0
		s.connMu.Lock()
		switch {
		case s.connsClosed:
			s.connMu.Unlock()
			<-s.admitting
			c.Close()
			continue
		case len(s.conns) >= s.limits.maxConns:
			s.connMu.Unlock()
			<-s.admitting
			refuse(c, proto.Errorf(proto.CodeRateLimited, "the daemon holds %d connections, its cap", s.limits.maxConns))
			continue
		}
		cn := newConn(s, c)
		s.conns[cn] = struct{}{}
		s.wg.Add(1)
		s.connMu.Unlock()
		go s.serveConn(cn)
	}
}

// refuse answers a connection the daemon will not serve and closes it.
func refuse(c net.Conn, e *proto.Error) {
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	proto.Encode(c, proto.Response{Error: e})
	c.Close()
}

func (s *Server) isClosed() bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	return s.connsClosed
}

// Done is closed when the server starts to stop.
func (s *Server) Done() <-chan struct{} { return s.done }

// Stopped is closed when the server has stopped: every pane closed.
func (s *Server) Stopped() <-chan struct{} { return s.stopped }

// Socket is the path the server listens on.
func (s *Server) Socket() string { return s.opt.Socket }

// Close stops the server: it stops accepting, ends every connection's
// requests, ends every pane's processes, and returns when all of that is
// done (later calls wait for the first).
func (s *Server) Close() error {
	s.stopOnce.Do(func() { go s.shutdown() })
	<-s.stopped
	return nil
}

// closeAllWindows kills every pane's processes, in parallel, and returns
// when all are gone: a stopped daemon must not leave programs running,
// reparented to init.
func (s *Server) closeAllWindows() {
	var wg sync.WaitGroup
	for _, w := range s.tab.WindowList() { // table.go
		wg.Add(1)
		go func() { defer wg.Done(); w.Close() }()
	}
	wg.Wait()
}

// stopAccepting closes the socket and marks the daemon closed (no window
// starts from here on): kill-server's first step.
func (s *Server) stopAccepting() {
	s.tab.CloseTable() // table.go
	s.connMu.Lock()
	s.connsClosed = true
	s.connMu.Unlock()
	if ln := s.ln; ln != nil { // set once by Listen, before Serve
		ln.Close()
	}
}

func (s *Server) shutdown() {
	defer close(s.stopped)
	s.tab.CloseTable() // table.go
	s.connMu.Lock()
	s.connsClosed = true
	close(s.done)
	conns := make([]*conn, 0, len(s.conns))
	for cn := range s.conns {
		conns = append(conns, cn)
	}
	s.connMu.Unlock()
	if ln := s.ln; ln != nil { // set once by Listen, before Serve
		ln.Close()
	}
	shutdownFeatures(host{s}.Log(), s.features) // host_feature.go: in reverse order
	s.cfg.stop()
	s.attach.stopAll() // their last line says why, before their sockets close
	for _, cn := range conns {
		cn.stop()
	}
	s.freezeState() // the final saves, before closing the panes closes their items
	s.closeAllWindows()
	s.escaped.save(s) // what outlived its pane stays inside for the next daemon
	// The socket file went with ln.Close (a unix listener unlinks its
	// path). Removing the path again here, after the panes closed, could
	// remove the socket of the next daemon, started as soon as this one
	// stopped listening (tuios kill-server; tuios new …).
	s.tracker.Close()
	if s.opt.Tracker.Watcher != nil {
		s.opt.Tracker.Watcher.Close()
	}
	s.hub.Close()
	s.wg.Wait()
}
