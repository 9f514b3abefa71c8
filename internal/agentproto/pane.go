package agentproto

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/tuios/tuios/internal/agentproto/acp"
	"github.com/tuios/tuios/internal/agentproto/codex"
	"github.com/tuios/tuios/internal/agentproto/conv"
	"github.com/tuios/tuios/internal/agentproto/jsonrpc"
	"github.com/tuios/tuios/internal/client"
)

// Protocols.
const (
	ProtocolACP   = "acp"
	ProtocolCodex = "codex"
)

// Harness is the harness id a protocol pane reports with: "acp" for the
// Agent Client Protocol, "codex-app-server" for Codex's app-server. These
// ids have no manifest, so no screen rule reads a protocol pane (its
// transcript may quote any prompt), and every state comes from the pane.
func Harness(protocol string) string {
	if protocol == ProtocolCodex {
		return "codex-app-server"
	}
	return "acp"
}

// IsHarness reports whether id is a protocol pane's harness: one that
// shows idle, working, needs_input, done and errored exactly.
func IsHarness(id string) bool { return id == "acp" || id == "codex-app-server" }

// Bounds on what an agent may do before the pane calls it broken.
const (
	// maxPerms bounds the permission requests waiting at once.
	maxPerms = 32
	// floodLimit bounds the messages floodWindow may bring: ten times a
	// fast model's token stream, well under what the pane keeps up with.
	floodLimit  = 20000
	floodWindow = 5 * time.Second
	// maxNoise bounds the lines that are not JSON-RPC.
	maxNoise = 64
	// defaultInitTimeout bounds the handshake.
	defaultInitTimeout = 60 * time.Second
	// frameGap is the least time between two frames.
	frameGap = 16 * time.Millisecond
)

// Options configure Run.
type Options struct {
	// Protocol is ProtocolACP or ProtocolCodex.
	Protocol string
	// Argv is the agent's command (argv[0] looked up in PATH).
	Argv []string
	// Cwd is the agent's folder (default: this process's).
	Cwd string
	// InitTimeout bounds the handshake (0: 60 s).
	InitTimeout time.Duration
	// MaxMessage bounds one protocol message (0: 8 MiB).
	MaxMessage int
	// In and Out are the pane's terminal (default: stdin and stdout).
	In  *os.File
	Out *os.File
	// Version is tuios's version, sent to the agent.
	Version string
	// Getenv reads the pane's environment (default: os.Getenv).
	Getenv func(string) string
}

// Run is `tuios agent-proto`: it starts the agent, speaks its protocol,
// draws the conversation in the terminal and reports the pane's state
// until the person quits (Ctrl+D on an empty line). It returns nil then;
// an error only when it could not start at all.
func Run(opt Options) error {
	if opt.Protocol != ProtocolACP && opt.Protocol != ProtocolCodex {
		return fmt.Errorf("unknown protocol %q: acp or codex", opt.Protocol)
	}
	if len(opt.Argv) == 0 || opt.Argv[0] == "" {
		return errors.New("no agent command")
	}
	if opt.In == nil {
		opt.In = os.Stdin
	}
	if opt.Out == nil {
		opt.Out = os.Stdout
	}
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	if opt.InitTimeout <= 0 {
		opt.InitTimeout = defaultInitTimeout
	}
	if opt.Cwd == "" {
		opt.Cwd, _ = os.Getwd()
	}
	p := &pane{opt: opt, m: newModel(opt.Protocol, agentName(opt.Argv)),
		events: make(chan conv.Event, 256), keys: make(chan []byte, 16), holds: make(chan holdResult, 64),
		noise: make(chan string, 8)}
	p.trace = openTracer(opt.Getenv("TUIOS_AGENT_PROTO_TRACE"))
	defer p.trace.close()
	p.rep = newReporter(opt.Getenv("TUIOS_SESSION"), opt.Getenv("TUIOS_PANE_ID"), Harness(opt.Protocol),
		func() (*client.Client, error) { return client.Dial(client.Options{}) }, p.trace)
	if p.rep.enabled() {
		go p.rep.run()
		defer p.rep.close()
	}
	return p.run()
}

func agentName(argv []string) string {
	name := argv[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// pane is one run of the program.
type pane struct {
	opt   Options
	m     *model
	rep   *reporter
	trace *tracer
	agent conv.Agent
	conn  *jsonrpc.Conn
	cmd   *exec.Cmd
	stdin io.Closer
	// stdout is the read end of the agent's output, closed when the
	// pane's loop ends (the reader stops then, whatever the agent does).
	stdout *os.File
	errs   *tailBuffer

	events chan conv.Event
	keys   chan []byte
	holds  chan holdResult
	noise  chan string

	noiseN   atomic.Int64
	floodN   [floodWindow / time.Second]int
	floodSec int64

	width, height int
	lastFrame     []byte
	lastDraw      time.Time
	drawTimer     *time.Timer
	dwellTimer    *time.Timer
	kr            keyReader
	quitting      bool
	ending        bool          // endProcess ran
	exited        chan struct{} // closed when the agent's process was reaped
}

func (p *pane) emit(e conv.Event) {
	if p.trace != nil {
		p.trace.note("recv", fmt.Sprintf("%T", e))
	}
	p.events <- e
}

// start starts the agent's process and its protocol client.
func (p *pane) start() error {
	cmd := exec.Command(p.opt.Argv[0], p.opt.Argv[1:]...)
	cmd.Dir = p.opt.Cwd
	cmd.SysProcAttr = agentProcAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	// A pipe of our own, not StdoutPipe: Wait closes StdoutPipe's read end
	// as soon as the agent exits, so the reader, racing Wait, would fail
	// on "file already closed" instead of reading to the end, and the
	// pane would say the connection broke rather than why the agent died.
	stdout, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return err
	}
	cmd.Stdout = w
	p.errs = newTailBuffer(32, 512)
	cmd.Stderr = p.errs
	err = cmd.Start()
	w.Close() // the agent holds the write end now
	if err != nil {
		stdin.Close()
		stdout.Close()
		return err
	}
	p.cmd, p.stdin, p.stdout = cmd, stdin, stdout
	onNoise := func(line []byte, err error) {
		n := p.noiseN.Add(1)
		if n <= 3 {
			select {
			case p.noise <- oneLine(string(line), 200):
			default:
			}
		} else if n == maxNoise {
			select {
			case p.noise <- "":
			default:
			}
		}
	}
	copt := conv.ClientOptions{Emit: p.emit, Cwd: p.opt.Cwd, MaxMessage: p.opt.MaxMessage, OnNoise: onNoise, Version: p.opt.Version}
	switch p.opt.Protocol {
	case ProtocolCodex:
		c := codex.New(stdout, stdin, copt)
		p.agent, p.conn = c, c.Conn()
		go c.Run()
	default:
		c := acp.New(stdout, stdin, copt)
		p.agent, p.conn = c, c.Conn()
		go c.Run()
	}
	return nil
}

func (p *pane) run() error {
	fd := p.opt.In.Fd()
	if term.IsTerminal(fd) {
		st, err := term.MakeRaw(fd)
		if err == nil {
			defer term.Restore(fd, st)
		}
	}
	// The alternate screen, bracketed paste: a paste is text, never keys.
	p.opt.Out.WriteString("\x1b[?1049h\x1b[?2004h\x1b[H\x1b[2J")
	defer p.opt.Out.WriteString("\x1b[?2004l\x1b[?1049l")
	p.resize()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	go p.readKeys()

	if err := p.start(); err != nil {
		p.fail("could not start " + strings.Join(p.opt.Argv, " ") + ": " + err.Error())
		p.m.dead = true
	}
	if p.stdout != nil {
		defer p.stdout.Close()
	}
	exited := make(chan error, 1)
	p.exited = make(chan struct{})
	started := make(chan error, 1)
	var connDone <-chan struct{}
	if p.cmd != nil {
		go func() {
			err := p.cmd.Wait()
			close(p.exited)
			exited <- err
		}()
		connDone = p.conn.Done()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), p.opt.InitTimeout)
			defer cancel()
			err := p.agent.Start(ctx)
			if errors.Is(err, context.DeadlineExceeded) {
				err = fmt.Errorf("the agent did not answer the handshake within %s", p.opt.InitTimeout)
			}
			started <- err
		}()
	}
	p.draw()
	var ticker *time.Ticker // only while a turn runs: an idle pane costs nothing
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	for !p.quitting {
		var drawC, dwellC <-chan time.Time
		if p.drawTimer != nil {
			drawC = p.drawTimer.C
		}
		if p.dwellTimer != nil {
			dwellC = p.dwellTimer.C
		}
		var tickC <-chan time.Time
		if p.m.turn && !p.m.dead {
			if ticker == nil {
				ticker = time.NewTicker(time.Second)
			}
			tickC = ticker.C
		} else if ticker != nil {
			ticker.Stop()
			ticker = nil
		}
		select {
		case e := <-p.events:
			p.onEvent(e)
		case b, ok := <-p.keys:
			if !ok {
				p.quit() // the terminal is gone
				break
			}
			p.onKeys(b)
		case r := <-p.holds:
			p.onHold(r)
		case s := <-p.noise:
			p.onNoise(s)
		case err := <-started:
			if err != nil && !p.m.dead {
				p.fail(err.Error())
				p.stopAgent()
			}
		case <-connDone:
			connDone = nil
			p.onConnEnd(p.conn.Err())
		case err := <-exited:
			exited = nil
			p.onExit(err)
		case <-winch:
			p.resize()
			p.lastFrame = nil
		case <-drawC:
			p.drawTimer = nil
		case <-dwellC:
			p.dwellTimer = nil
		case <-tickC:
			// The elapsed time on the status line: a turn that waits on
			// the model still draws, so the daemon's stall timer (for
			// agents read from their screen) never demotes what the
			// protocol says.
		}
		p.drawSoon()
	}
	p.stopAgent()
	p.waitGone()
	p.rep.finalReport(report{state: "none", message: "quit"})
	return nil
}

// waitGone waits for the agent's process to end (endProcess signals it),
// killing its session when it lingers: the pane's program never leaves
// its agent behind.
func (p *pane) waitGone() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	select {
	case <-p.exited:
		return
	case <-time.After(3 * time.Second):
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
}

// readKeys passes the terminal's bytes to the loop; a closed terminal
// closes the channel.
func (p *pane) readKeys() {
	buf := make([]byte, 4096)
	for {
		n, err := p.opt.In.Read(buf)
		if n > 0 {
			p.keys <- append([]byte(nil), buf[:n]...)
		}
		if err != nil {
			close(p.keys)
			return
		}
	}
}

func (p *pane) resize() {
	w, h, err := term.GetSize(p.opt.Out.Fd())
	if err != nil || w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	p.width, p.height = w, h
}

// setState reports the pane's state (the daemon reads it at once).
func (p *pane) setState(state, message, now, kind string) uint64 {
	m := p.m
	m.state, m.message, m.now = state, oneLine(message, 400), oneLine(now, 200)
	if state != stateWorking {
		// What the pane shows when it says it is at rest or asks is on
		// the screen before the report goes: ask-agent reads the answer
		// from the screen when the state settles.
		p.draw()
	}
	return p.rep.set(report{state: state, message: m.message, now: m.now, kind: kind})
}

// fail shows what went wrong and reports errored with it.
func (p *pane) fail(reason string) {
	reason = oneLine(reason, 400)
	p.m.tr.say(blockError, reason)
	p.setState(stateErrored, reason, "", "")
}

func (p *pane) onEvent(e conv.Event) {
	m := p.m
	if m.dead {
		return
	}
	if p.flooded() {
		return
	}
	switch e := e.(type) {
	case conv.Ready:
		m.started = true
		if e.Agent != "" {
			m.agent = e.Agent
		}
		m.tr.say(blockNotice, "connected to "+m.agent+" over "+p.opt.Protocol+"; type a prompt and press Enter")
		p.setState(stateIdle, "ready", "", "")
	case conv.TurnStarted:
		m.turn = true
		m.turnAt = time.Now()
	case conv.Text:
		m.tr.text(e)
		if len(m.perms) == 0 && m.turn && m.now != "" {
			// The agent talks again: the last tool is behind it.
			p.setState(stateWorking, m.message, "", "")
		}
	case conv.Tool:
		b := m.tr.tool(e)
		if len(m.perms) > 0 || !m.turn {
			break
		}
		switch b.status {
		case "pending", "in_progress":
			now := nowOf(b)
			p.setState(stateWorking, now, now, "")
		default:
			if m.now == nowOf(b) {
				p.setState(stateWorking, m.message, "", "")
			}
		}
	case conv.Plan:
		m.tr.setPlan(e)
	case conv.Notice:
		m.tr.say(blockNotice, e.Text)
	case conv.Permission:
		p.onPermission(e)
	case conv.PermissionGone:
		p.dropPerm(e.ID)
	case conv.TurnEnded:
		m.turn = false
		for _, pr := range m.perms {
			if pr.hold != nil {
				pr.hold.cancel()
			}
		}
		m.perms = nil
		switch {
		case m.broken != "":
			m.tr.say(blockNotice, "the turn ended ("+oneLine(e.Reason, 80)+"); the pane stays errored until your next prompt")
			return
		}
		if e.Outcome == conv.EndFailed && p.connEnded() {
			return // the agent is going: its exit says why
		}
		switch e.Outcome {
		case conv.EndDone:
			msg := m.tr.lastAgentLine()
			if msg == "" {
				msg = "finished its turn"
			}
			p.setState(stateDone, msg, "", "")
		case conv.EndCancelled:
			m.tr.say(blockNotice, "cancelled")
			p.setState(stateIdle, "cancelled", "", "")
		default:
			p.fail(e.Reason)
		}
	}
}

// flooded counts messages in one-second buckets; past floodLimit within
// floodWindow the agent is stopped.
func (p *pane) flooded() bool {
	now := time.Now()
	sec := now.Unix()
	if sec != p.floodSec {
		// Buckets of the seconds that passed start empty.
		for s := p.floodSec + 1; s <= sec && s <= p.floodSec+int64(len(p.floodN)); s++ {
			p.floodN[s%int64(len(p.floodN))] = 0
		}
		p.floodSec = sec
	}
	p.floodN[sec%int64(len(p.floodN))]++
	total := 0
	for _, n := range p.floodN {
		total += n
	}
	if total > floodLimit {
		p.fail(fmt.Sprintf("the agent sent more than %d messages in %s; tuios stopped it", floodLimit, floodWindow))
		p.stopAgent()
		return true
	}
	return false
}

func (p *pane) onNoise(line string) {
	if p.m.dead {
		return
	}
	if line == "" || p.noiseN.Load() >= maxNoise {
		p.fail(fmt.Sprintf("the agent wrote %d lines that are not JSON-RPC: it does not speak %s; tuios stopped it", maxNoise, p.opt.Protocol))
		p.stopAgent()
		return
	}
	p.m.tr.say(blockNotice, "the agent wrote a line that is not JSON-RPC: "+line)
}

func (p *pane) onPermission(e conv.Permission) {
	m := p.m
	if m.broken != "" {
		p.agent.Answer(e.ID, conv.Cancelled)
		return
	}
	if len(m.perms) >= maxPerms {
		m.broken = fmt.Sprintf("the agent asked more than %d permissions at once; tuios cancelled its turn", maxPerms)
		p.fail(m.broken)
		for _, pr := range m.perms {
			if pr.hold != nil {
				pr.hold.cancel()
			}
		}
		m.perms = nil
		p.agent.Answer(e.ID, conv.Cancelled)
		p.agent.Cancel()
		return
	}
	if e.ToolID != "" {
		// The tool call as the request names it (some agents send no
		// tool_call before asking).
		m.tr.tool(conv.Tool{ID: e.ToolID, Title: e.Title, Kind: e.Kind, Target: e.Target})
	}
	pr := &perm{Permission: e}
	m.perms = append(m.perms, pr)
	if len(m.perms) == 1 {
		p.ask()
	}
}

// ask reports the front request as needs_input and holds it for the
// Inbox when it fits one line.
func (p *pane) ask() {
	pr := p.m.front()
	if pr == nil {
		return
	}
	line := "approve " + pr.Tool + ": " + oneLine(pr.Target, 400)
	if pr.Target == "" {
		line = "approve " + pr.Tool + ": " + oneLine(pr.Title, 400)
	}
	seq := p.setState(stateNeeds, line, "", "approval")
	if holdable(pr) && p.rep.enabled() {
		pr.summary = line
		pr.hold = startHold(p.rep, seq, pr.ID, line, pr.Tool, pr.Target, p.holds)
		pr.held = true
	}
}

// holdable: a request the person can read whole on one line, so the
// Inbox can answer it as a held approval: a command, a read, a fetch or
// a search whose target needs no cleaning, that offers once and deny.
func holdable(pr *perm) bool {
	switch pr.Kind {
	case "execute", "read", "fetch", "search":
	default:
		return false
	}
	t := pr.Target
	return pr.Once && pr.Deny && t != "" && len(t) <= 140 && oneLine(t, 400) == t
}

func (p *pane) onHold(r holdResult) {
	var pr *perm
	for _, x := range p.m.perms {
		if x.ID == r.permID {
			pr = x
		}
	}
	if pr == nil {
		return // answered in the pane, or gone
	}
	pr.held, pr.hold = false, nil
	switch r.decision {
	case "once":
		p.m.tr.say(blockNotice, "allowed once from the Inbox: "+pr.summary)
		p.answer(pr, conv.AllowOnce)
	case "deny":
		p.m.tr.say(blockNotice, "denied from the Inbox: "+pr.summary)
		p.answer(pr, conv.Deny)
	}
	// No decision: the person answers here.
}

// answer answers the front request and moves to the next.
func (p *pane) answer(pr *perm, d conv.Decision) {
	if pr.hold != nil {
		pr.hold.cancel()
		pr.hold = nil
	}
	p.agent.Answer(pr.ID, d)
	p.dropPerm(pr.ID)
}

func (p *pane) dropPerm(id string) {
	m := p.m
	for i, x := range m.perms {
		if x.ID != id {
			continue
		}
		if x.hold != nil {
			x.hold.cancel()
		}
		m.perms = append(m.perms[:i], m.perms[i+1:]...)
		if i == 0 {
			if len(m.perms) > 0 {
				p.ask()
			} else if m.turn && !m.dead {
				p.setState(stateWorking, "working", "", "")
			}
		}
		return
	}
}

func (p *pane) onKeys(b []byte) {
	kr := &p.kr
	for _, k := range kr.feed(b) {
		p.onKey(k)
		if p.quitting {
			return
		}
	}
	kr.flush()
}

func (p *pane) onKey(k key) {
	m := p.m
	m.flash = ""
	if pr := m.front(); pr != nil && m.ed.empty() && k.kind == keyRune {
		switch k.r {
		case '1':
			if !pr.Once {
				m.flash = "the agent does not offer allowing this once"
				return
			}
			if !m.dwellOver(pr) {
				m.flash = "read the request first: 1 works half a second after it is shown"
				return
			}
			m.tr.say(blockNotice, "allowed once: "+pr.what())
			p.answer(pr, conv.AllowOnce)
			return
		case '3', 'n':
			if !pr.Deny {
				m.flash = "the agent does not offer denying this; Ctrl+C cancels the turn"
				return
			}
			if k.r == '3' && !m.dwellOver(pr) {
				m.flash = "read the request first: 3 works half a second after it is shown"
				return
			}
			m.tr.say(blockNotice, "denied: "+pr.what())
			p.answer(pr, conv.Deny)
			return
		}
	}
	switch k.kind {
	case keyInterrupt:
		switch {
		case m.turn && !m.dead:
			for _, pr := range m.perms {
				if pr.hold != nil {
					pr.hold.cancel()
				}
			}
			m.perms = nil
			p.agent.Cancel()
			m.tr.say(blockNotice, "cancelling the turn…")
		case !m.ed.empty():
			m.ed.clear()
		default:
			m.flash = "Ctrl+D on an empty line quits"
		}
		return
	case keyEOF:
		if m.ed.empty() {
			p.quit()
		}
		return
	case keySubmit:
		p.submit()
		return
	}
	m.ed.apply(k)
}

func (p *pane) submit() {
	m := p.m
	text := strings.TrimSpace(m.ed.text())
	switch {
	case text == "":
		return
	case m.dead:
		m.flash = "the agent is not running: Ctrl+D quits"
		return
	case !m.started:
		m.flash = "the agent is still starting: your prompt stays here"
		return
	case m.turn:
		m.flash = "the agent is working: your prompt stays here until it is done (Ctrl+C cancels the turn)"
		return
	}
	m.ed.clear()
	m.broken = ""
	m.tr.user(text)
	if err := p.agent.Prompt(text); err != nil {
		p.fail("could not send the prompt: " + err.Error())
		return
	}
	m.turn, m.turnAt = true, time.Now()
	p.setState(stateWorking, oneLine(text, 120), "", "")
}

func (p *pane) onConnEnd(err error) {
	var tl *jsonrpc.TooLongError
	switch {
	case p.m.dead:
	case errors.As(err, &tl):
		p.fail(tl.Error() + "; tuios stopped it")
		p.stopAgent()
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, jsonrpc.ErrClosed):
		p.fail("the connection to the agent broke: " + err.Error())
		p.stopAgent()
	}
	// A clean end of its output: its exit says the rest, soon (an agent
	// that closed its output but lives on is ended).
	p.endProcess()
}

func (p *pane) connEnded() bool {
	select {
	case <-p.conn.Done():
		return true
	default:
		return false
	}
}

func (p *pane) onExit(err error) {
	if p.quitting {
		return
	}
	wasDead := p.m.dead
	p.m.dead, p.m.turn = true, false
	p.m.perms = nil
	if wasDead {
		return
	}
	status := "status 0"
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ProcessState.String()
	}
	why := "the agent exited (" + status + ")"
	if last := p.errs.last(); last != "" {
		why += ": " + last
	}
	for _, l := range p.errs.lines() {
		p.m.tr.say(blockNotice, "agent stderr: "+l)
	}
	p.fail(why)
}

// stopAgent ends the agent: its stdin closed, then SIGTERM to its
// session after a moment, then SIGKILL.
func (p *pane) stopAgent() {
	p.m.dead = true
	p.m.turn = false
	for _, pr := range p.m.perms {
		if pr.hold != nil {
			pr.hold.cancel()
		}
	}
	p.m.perms = nil
	p.endProcess()
}

// endProcess ends the agent's process: stdin closed, SIGTERM to its
// session a second later, SIGKILL two seconds after that.
func (p *pane) endProcess() {
	if p.cmd == nil || p.cmd.Process == nil || p.ending {
		return
	}
	p.ending = true
	if p.conn != nil {
		p.conn.Close()
	}
	p.stdin.Close()
	pid := p.cmd.Process.Pid
	go func() {
		time.Sleep(time.Second)
		syscall.Kill(-pid, syscall.SIGTERM)
		time.Sleep(2 * time.Second)
		syscall.Kill(-pid, syscall.SIGKILL)
	}()
}

func (p *pane) quit() {
	p.quitting = true
	p.m.tr.say(blockNotice, "quitting")
	p.draw()
}

// drawSoon draws now when the last frame is old enough, else arms the
// timer for it; the permission dwell gets a frame of its own when it
// passes (its keys turn from dim to bold).
func (p *pane) drawSoon() {
	if p.quitting {
		return
	}
	if p.drawTimer == nil {
		since := time.Since(p.lastDraw)
		if since < frameGap {
			p.drawTimer = time.NewTimer(frameGap - since)
		} else {
			p.draw()
		}
	}
	if pr := p.m.front(); pr != nil && !pr.shownAt.IsZero() && !p.m.dwellOver(pr) && p.dwellTimer == nil {
		p.dwellTimer = time.NewTimer(time.Until(pr.shownAt.Add(dwell)) + time.Millisecond)
	}
}

func (p *pane) draw() {
	rows, cr, cc := p.m.frame(p.width, p.height)
	b := render(rows, cr, cc, true)
	p.lastDraw = time.Now()
	if string(b) == string(p.lastFrame) {
		return
	}
	p.opt.Out.Write(b)
	p.lastFrame = b
	if pr := p.m.front(); pr != nil && pr.shownAt.IsZero() {
		pr.shownAt = time.Now()
	}
}
