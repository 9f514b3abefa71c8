package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/pace"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/safetext"
	"github.com/tuios/tuios/vt"
)

// The attach stream (proto/attach.go has the wire contract).
//
// Frames are pulled, never queued. Producers (a pane's reader, a verb that
// changed the layout, the event hub, a bell) only mark what is dirty and
// do a non-blocking send on the stream's wake channel; the stream's own
// goroutine wakes, waits one tick so a burst of output becomes one frame,
// then builds every message from the current state and writes it. A slow
// client therefore costs fewer frames, not a growing queue, and no pane
// ever waits for a client. Nothing a pane or a verb can wait on is held
// across the socket write.

const (
	// attachTick is the frame interval of a flood (60 a second), and so
	// the most a change waits before it is drawn.
	attachTick = 16 * time.Millisecond
	// attachBurst frames go at once after a quiet spell: enough for a
	// prompt redrawn, too few to let a flood through.
	attachBurst = 4
	// attachEcho: output of a pane typed into this recently is its echo,
	// drawn at once.
	attachEcho = 50 * time.Millisecond
	// attachWriteTimeout drops a client that has not read for this long.
	attachWriteTimeout = 10 * time.Second
	// attachMaxBells bounds the bells held for one frame; more within a
	// tick are one beep anyway.
	attachMaxBells = 64
	// attachStopWait bounds how long a stopping daemon waits for its
	// streams' last lines.
	attachStopWait = time.Second
)

// errStreamEnded stops a stream after its last line.
var errStreamEnded = errors.New("attach stream ended")

// attachHub is every open attach stream. Its hooks are called from pane
// readers, verbs and the event hub: with no stream open they are one
// atomic load.
type attachHub struct {
	s    *Server
	n    atomic.Int32
	seen atomic.Bool // some pane has had an agent state since start
	// configSeq counts config-changed events (set-config): the layout
	// carries it so attached clients re-read what they take from the file.
	configSeq atomic.Uint64
	// writeWait is how long a client may go without reading before it
	// is dropped: attachWriteTimeout, longer only in tests that stop
	// reading on purpose on a loaded machine (nanoseconds).
	writeWait atomic.Int64

	mu      sync.Mutex // taken after the table's lock and the event hub's lock, never before
	streams map[*attachStream]struct{}
	sizer   map[*mux.Session]*attachStream // whose client sets each session's size (attach_size.go)
	// inputs are the pane inputs passed to clients (attach_input.go);
	// ninputs counts them, so a hook with none is one atomic load.
	inputs  map[*mux.Window][]*inputGrant
	ninputs atomic.Int32
	// railWake redraws the rails when a finished subagent's row is due
	// to leave them (attach_rail_wake.go).
	railWake railWake
}

func newAttachHub(s *Server) *attachHub {
	return &attachHub{s: s, streams: map[*attachStream]struct{}{}, sizer: map[*mux.Session]*attachStream{}, inputs: map[*mux.Window][]*inputGrant{}}
}

// writeTimeout is the write deadline of one line to a client.
func (h *attachHub) writeTimeout() time.Duration {
	if d := time.Duration(h.writeWait.Load()); d > 0 {
		return d
	}
	return attachWriteTimeout
}

func (h *attachHub) add(st *attachStream) {
	h.mu.Lock()
	h.streams[st] = struct{}{}
	h.n.Store(int32(len(h.streams)))
	h.mu.Unlock()
}

func (h *attachHub) remove(st *attachStream) {
	h.mu.Lock()
	delete(h.streams, st)
	if h.sizer[st.ss] == st {
		delete(h.sizer, st.ss)
	}
	h.n.Store(int32(len(h.streams)))
	h.mu.Unlock()
}

// each calls fn for every stream under h.mu; fn only marks and pokes.
func (h *attachHub) each(fn func(st *attachStream)) {
	if h == nil || h.n.Load() == 0 {
		return
	}
	h.mu.Lock()
	for st := range h.streams {
		fn(st)
	}
	h.mu.Unlock()
}

// Output marks a pane that printed (or was resized); a new title changes
// its name in every layout.
func (h *attachHub) Output(w *mux.Window, titled bool) {
	h.each(func(st *attachStream) {
		if st.ss != w.Session() && !titled {
			return
		}
		st.mu.Lock()
		shown := st.shown[w.ID]
		if shown {
			st.dirty[w.ID] = true
		}
		st.layoutDirty = st.layoutDirty || titled
		st.mu.Unlock()
		if shown || titled { // a busy pane off screen wakes nobody
			st.poke()
		}
	})
}

// bell passes a pane's BEL or notification to the streams of its
// session, whether or not the pane is on screen: the client decides.
func (h *attachHub) bell(w *mux.Window, text string) {
	h.each(func(st *attachStream) {
		if st.ss != w.Session() {
			return
		}
		st.mu.Lock()
		if len(st.bells) < attachMaxBells {
			st.bells = append(st.bells, proto.AttachBell{Type: "bell", Window: w.ID, Text: text})
		}
		st.mu.Unlock()
		st.poke()
	})
}

// LayoutChanged marks every stream's layout: the rail shows every
// session, so a change anywhere may show everywhere.
func (h *attachHub) LayoutChanged() {
	h.each(func(st *attachStream) {
		st.mu.Lock()
		st.layoutDirty = true
		st.mu.Unlock()
		st.poke()
	})
}

// observe is the event hub's hook: windows, sessions, focus, workspaces
// and agent states all reach the layout this way. Called with the hub's
// lock held (and sometimes the table's lock): it only marks.
func (h *attachHub) observe(ev event) {
	if ev.Type == "output" {
		return
	}
	if ev.Type == "agent-state" && ev.State != "" && ev.State != "none" {
		h.seen.Store(true)
	}
	if ev.Type == "attention" && ev.Item != nil && ev.Item.Kind == inbox.KindAsk {
		// A question for the person is the agent features in use: the
		// asking pane draws ▲ (and the rail its row) from now on, even
		// in a daemon that has not seen an agent state yet.
		h.seen.Store(true)
	}
	if ev.Type == "config-changed" {
		h.configSeq.Add(1)
	}
	switch ev.Type {
	case "window-focused", "workspace-switched", "window-closed", "window-moved", "window-minimized", "session-closed":
		h.revokeSession(ev.Session) // attach_input.go: the focus may have moved
	}
	h.LayoutChanged()
}

// stopAll gives every stream its last line before the daemon closes the
// connections.
func (h *attachHub) stopAll() {
	if h == nil {
		return
	}
	h.stopRailWake()
	h.mu.Lock()
	all := make([]*attachStream, 0, len(h.streams))
	for st := range h.streams {
		all = append(all, st)
	}
	h.mu.Unlock()
	for _, st := range all {
		st.end("server-stopped")
	}
	deadline := time.NewTimer(attachStopWait)
	defer deadline.Stop()
	for _, st := range all {
		select {
		case <-st.finished:
		case <-deadline.C:
			return
		}
	}
}

// screenEvent is the pane's screen event hook (detect.PaneOptions.OnEvent):
// called with the pane's lock held, so it only marks.
func (s *Server) screenEvent(w *mux.Window, ev vt.Event) {
	switch ev.Kind {
	case vt.EventBell:
		s.attach.bell(w, "")
	case vt.EventNotification:
		text := ev.Notification.Body
		if t := ev.Notification.Title; t != "" {
			if text != "" {
				text = t + ": " + text
			} else {
				text = t
			}
		}
		s.attach.bell(w, text)
	case vt.EventPromptMark:
		s.alog.Mark(w.ID, ev.Mark) // internal/daemon/agentlog: shell commands
	}
}

// attachStream is one attached client's stream of one session.
type attachStream struct {
	s        *Server
	cn       *conn
	ss       *mux.Session
	wake     chan struct{} // capacity 1: producers never block
	endCh    chan struct{} // closed by end
	finished chan struct{} // closed when run returns

	mu          sync.Mutex
	layoutDirty bool
	dirty       map[string]bool // windows that printed since the last frame
	shown       map[string]bool // the windows of the last layout
	bells       []proto.AttachBell
	keys        []proto.AttachKeys // leader chords handed over by send-keys (leader_keys.go)
	prefix      string             // the client's leader key as it named it; "" when it named none
	endReason   string
	size        streamSize // what this client last asked its session to be (attach_size.go)
	who         string     // the client, named for the others (attach_size.go)

	// fmu is held while a frame is built and written: by run, or by a
	// pane's reader sending an echo (attach_echo.go). What follows is
	// owned by whoever holds it.
	fmu      sync.Mutex
	pacer    *pace.Limiter
	stopped  bool   // run has returned
	owed     bool   // an echo's frame is not all written: the end of it is in cn.w, or all of it in rest
	rest     []byte // whole lines an echo left for run to write first
	started  bool
	spare    map[string]bool
	visible  []*mux.Window
	sent     map[string]*paneSent
	lines    []proto.AttachLine
	out      bytes.Buffer
	enc      *json.Encoder
	layBuf   bytes.Buffer
	layEnc   *json.Encoder
	lastLay  []byte
	endOnce  sync.Once
	bellsOut []proto.AttachBell
}

// paneSent is what this client last got of one pane, and the frame it
// was read into (vt renders again only the rows that changed in it).
type paneSent struct {
	frame      vt.Frame
	cols, rows int
	lines      [][]byte
	cursor     proto.AttachCursor
	modes      proto.AttachModes
	title      string
}

func newAttachStream(s *Server, cn *conn, ss *mux.Session) *attachStream {
	st := &attachStream{
		s: s, cn: cn, ss: ss,
		wake: make(chan struct{}, 1), endCh: make(chan struct{}), finished: make(chan struct{}),
		lines: make([]proto.AttachLine, 0, 64), layoutDirty: true, dirty: map[string]bool{}, shown: map[string]bool{}, spare: map[string]bool{}, sent: map[string]*paneSent{},
	}
	st.enc = json.NewEncoder(&st.out)
	st.enc.SetEscapeHTML(false)
	st.layEnc = json.NewEncoder(&st.layBuf)
	st.layEnc.SetEscapeHTML(false)
	return st
}

func (st *attachStream) poke() {
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// end asks the stream to send its last line with reason and stop; the
// first reason wins.
func (st *attachStream) end(reason string) {
	st.endOnce.Do(func() {
		st.mu.Lock()
		st.endReason = reason
		st.mu.Unlock()
		close(st.endCh)
	})
}

// run is the stream's goroutine. Between frames it holds no timer.
// Frames are paced by a token bucket (internal/pace): a change after a
// quiet spell, and a short burst of them, go out at once (a typed key
// echoes without waiting for a tick); a flooding pane costs one frame per
// tick at most.
func (st *attachStream) run() {
	defer close(st.finished)
	defer st.s.left(st)
	defer st.s.attach.remove(st)
	tick := time.NewTimer(time.Hour)
	tick.Stop()
	defer tick.Stop()
	st.fmu.Lock()
	st.pacer = pace.New(attachTick, attachBurst)
	st.pacer.Wait(time.Now()) // the first frame
	st.fmu.Unlock()
	defer func() {
		st.fmu.Lock()
		st.stopped = true
		st.fmu.Unlock()
	}()
	for {
		st.fmu.Lock()
		err := st.flush()
		st.fmu.Unlock()
		if err != nil {
			if !errors.Is(err, errStreamEnded) {
				st.cn.stop() // a client that does not read is dropped
			}
			return
		}
		select {
		case <-st.wake:
		case <-st.endCh:
			continue
		case <-st.cn.closed:
			return
		}
		for {
			st.fmu.Lock()
			wait := st.pacer.Wait(time.Now())
			echo := wait > 0 && st.echoing()
			st.fmu.Unlock()
			if wait <= 0 || echo {
				break
			}
			tick.Reset(wait)
			select {
			case <-tick.C:
				continue
			case <-st.wake:
				// More came while the frame waits: an echo among it
				// goes at once, not a tick later.
				tick.Stop()
				continue
			case <-st.endCh:
				tick.Stop()
			case <-st.cn.closed:
				return
			}
			break
		}
	}
}

// echoing reports whether a visible pane that printed was typed into
// within attachEcho and has printed little since (Window.echoing): what
// a person types is drawn at once, whatever the pacer says (typing
// cannot flood; what a key starts, a cat, can). Called with st.fmu held.
func (st *attachStream) echoing() bool {
	since := time.Now().Add(-attachEcho).UnixNano()
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, w := range st.visible {
		if st.dirty[w.ID] && echoing(w, since) {
			return true
		}
	}
	return false
}

// flush builds and writes what changed since the last frame. Called
// with st.fmu held.
func (st *attachStream) flush() error { return st.frame(false) }

// frame is flush. With echo (a pane's reader sending an echo,
// attach_echo.go) it takes nothing and says errNotEcho unless only
// screens changed, and it never waits on the client (writeNow).
func (st *attachStream) frame(echo bool) error {
	st.mu.Lock()
	if echo && (st.endReason != "" || st.layoutDirty || len(st.bells) > 0 || len(st.keys) > 0) {
		st.mu.Unlock()
		return errNotEcho
	}
	layoutDirty, dirty, end := st.layoutDirty, st.dirty, st.endReason
	st.layoutDirty = false
	st.dirty = st.spare
	st.bellsOut = append(st.bellsOut[:0], st.bells...)
	st.bells = st.bells[:0]
	keys := st.keys
	st.keys = nil
	st.mu.Unlock()
	defer func() { clear(dirty); st.spare = dirty }()

	if end != "" {
		return st.finish(end)
	}
	st.out.Reset()
	if layoutDirty || !st.started {
		lay, wins, alive := st.buildLayout()
		if !alive {
			return st.finish("session-closed")
		}
		st.setVisible(wins)
		st.layBuf.Reset()
		st.layEnc.Encode(lay)
		if !bytes.Equal(st.layBuf.Bytes(), st.lastLay) {
			st.lastLay = append(st.lastLay[:0], st.layBuf.Bytes()...)
			st.out.Write(st.layBuf.Bytes())
		}
	}
	for _, w := range st.visible {
		if !st.started || dirty[w.ID] || st.sent[w.ID] == nil {
			if msg, ok := st.screen(w); ok {
				st.out.Write(proto.AppendAttachScreen(st.out.AvailableBuffer(), &msg)) // encoding/json's bytes, without reflection
			}
		}
	}
	for _, b := range st.bellsOut {
		st.enc.Encode(b)
	}
	for _, k := range keys { // after the layout they may act on
		st.enc.Encode(k)
	}
	st.started = true
	switch {
	case echo:
		return st.writeNow(st.out.Bytes())
	case st.out.Len() == 0 && !st.owed:
		return nil
	}
	return st.write(st.out.Bytes()) // and what an echo left, before it
}

// finish writes the last line.
func (st *attachStream) finish(reason string) error {
	st.out.Reset()
	st.enc.Encode(proto.AttachEnd{Type: "detached", Reason: reason})
	st.write(st.out.Bytes())
	return errStreamEnded
}

// write writes whole lines with the client's deadline, holding only the
// connection's write lock.
func (st *attachStream) write(b []byte) error {
	cn := st.cn
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	cn.c.SetWriteDeadline(time.Now().Add(st.s.attach.writeTimeout()))
	defer cn.c.SetWriteDeadline(time.Time{})
	st.owed = false
	if len(st.rest) > 0 { // an echo's frame the socket did not take (attach_echo.go)
		rest := st.rest
		st.rest = st.rest[:0]
		if _, err := cn.w.Write(rest); err != nil {
			return err
		}
	}
	if _, err := cn.w.Write(b); err != nil {
		return err
	}
	return cn.w.Flush()
}

// setVisible records the windows on screen: one that left forgets what
// was sent, so it is drawn in full when it comes back.
func (st *attachStream) setVisible(wins []*mux.Window) {
	st.visible = wins
	st.mu.Lock()
	clear(st.shown)
	for _, w := range wins {
		st.shown[w.ID] = true
	}
	st.mu.Unlock()
	for id := range st.sent {
		keep := false
		for _, w := range wins {
			if w.ID == id {
				keep = true
				break
			}
		}
		if !keep {
			delete(st.sent, id)
		}
	}
}

// buildLayout copies the session tables under the table's lock, then reads the agent
// states without it. alive is false once the session is gone.
func (st *attachStream) buildLayout() (lay proto.AttachLayout, wins []*mux.Window, alive bool) {
	s, ss := st.s, st.ss
	lay, wins, refs, alive := s.tab.LayoutSnapshot(ss) // layout.go
	if !alive {
		return lay, nil, false
	}
	// What this client shows in front of the person is seen before it is
	// drawn, so its glyph reads ○ in this very layout.
	s.seenByPerson(lay.Focused)

	asking := map[string]bool{}
	askID := map[string]string{}
	for _, it := range s.att.List(inbox.ListOptions{Kinds: []inbox.Kind{inbox.KindAsk}}).Items {
		asking[it.Window] = it.Window != ""
		askID[it.Window] = it.RequestID
	}
	risky := s.riskyPanes() // attention.go (attention.Store.Risky): the rail's word is risky
	for i := range lay.Windows {
		lay.Windows[i].Asking = asking[lay.Windows[i].ID]
		if lay.Windows[i].Asking {
			lay.Windows[i].AskID = askID[lay.Windows[i].ID]
		}
	}

	arb := s.tracker.Arbiter()
	sessLoud := make([]int, len(lay.Sessions))
	wsLoud := make([]int, mux.Workspaces)
	type agent struct {
		a    proto.AttachAgent
		need int
	}
	var agents []agent
	var changeAt time.Time // the soonest a subagent row leaves a rail by the clock alone
	for _, r := range refs {
		b := arb.Brief(r.ID)
		if b.State == agentstate.None && b.Harness == "" {
			if r.TileAt >= 0 {
				lay.Windows[r.TileAt].State = b.State.String()
			}
			continue
		}
		if b.State != agentstate.None {
			st.s.attach.seen.Store(true)
		}
		snap := arb.Get(r.ID)
		msg := safetext.Escape(snap.Message, false)
		var since int64
		if !snap.StateAt.IsZero() {
			since = snap.StateAt.UnixMilli()
		}
		seen := snap.Seen()
		agents = append(agents, agent{proto.AttachAgent{Session: r.Session, Window: r.ID, Name: r.Name, State: snap.State.String(),
			Harness: snap.Harness, Message: msg, SinceMS: since, Seen: seen, Asking: asking[r.ID], Queued: s.queue.Count(r.ID), Risk: risky[r.ID],
			Now: safetext.Escape(snap.Now, false), Subagents: attachSubagents(snap.SubagentList)}, core.NeedOrder(snap)})
		if at := snap.SubagentsChangeAt; !at.IsZero() && (changeAt.IsZero() || at.Before(changeAt)) {
			changeAt = at
		}
		if r.TileAt >= 0 {
			aw := &lay.Windows[r.TileAt]
			aw.State, aw.Harness, aw.Message, aw.Seen = snap.State.String(), snap.Harness, msg, seen
		}
		if snap.State == agentstate.None {
			continue
		}
		l := core.Loudness(snap) // 0 stays "no agent state"
		if l > sessLoud[r.SI] {
			sessLoud[r.SI] = l
			lay.Sessions[r.SI].State = snap.State.String()
		}
		if r.Mine && r.Workspace >= 1 && r.Workspace <= mux.Workspaces && l > wsLoud[r.Workspace-1] {
			wsLoud[r.Workspace-1] = l
			lay.Workspaces[r.Workspace-1].State = snap.State.String()
		}
	}
	st.s.attach.wakeRailAt(changeAt) // attach_rail_wake.go
	sort.SliceStable(agents, func(i, j int) bool { return agents[i].need < agents[j].need })
	for _, a := range agents {
		lay.Agents = append(lay.Agents, a.a)
	}
	lay.AgentsSeen = st.s.attach.seen.Load()
	lay.AgentsOff = st.s.agentsOff
	lay.AttentionSeq = st.s.att.Seq()
	lay.ConfigSeq = st.s.attach.configSeq.Load()
	lay.Hosts = withQueued(st.s.follow.AttachHosts(), st.s.outbox) // links/follow.go, attach_queued.go: the rail's header per linked host
	lay.SizedBy = st.s.attach.sizedBy(st)                          // attach_size.go
	return lay, wins, true
}

// attachSubagents is the rail's rows for a pane's subagents.
func attachSubagents(list []agentstate.Subagent) []proto.AttachSubagent {
	if len(list) == 0 {
		return nil
	}
	out := make([]proto.AttachSubagent, len(list))
	for i, x := range list {
		out[i] = proto.AttachSubagent{Type: safetext.Escape(x.Type, false), Description: safetext.Escape(x.Description, false),
			State: x.State, Now: safetext.Escape(x.Now, false), Result: safetext.Escape(x.Result, false)}
	}
	return out
}

// screen builds a pane's screen message: the rows that differ from what
// this client has, every row when it has none of this size. ok is false
// when nothing at all changed.
func (st *attachStream) screen(w *mux.Window) (proto.AttachScreen, bool) {
	ps := st.sent[w.ID]
	fresh := ps == nil
	if fresh {
		ps = &paneSent{}
		st.sent[w.ID] = ps
	}
	f := &ps.frame
	w.Tracked().Screen().FrameANSI(f)
	full := fresh || ps.cols != f.Cols || ps.rows != f.Rows
	if full {
		ps.cols, ps.rows = f.Cols, f.Rows
		if cap(ps.lines) >= f.Rows {
			ps.lines = ps.lines[:f.Rows]
		} else {
			ps.lines = make([][]byte, f.Rows)
		}
	}
	msg := proto.AttachScreen{Type: "screen", Window: w.ID, Cols: f.Cols, Rows: f.Rows,
		Cursor: proto.AttachCursor{X: f.CursorX, Y: f.CursorY, Visible: f.Modes.CursorVisible},
		Modes:  modesOf(f.Modes), Title: f.Title}
	st.lines = st.lines[:0]
	for y := 0; y < f.Rows; y++ {
		row := f.Row(y)
		if !full && bytes.Equal(row, ps.lines[y]) {
			continue
		}
		ps.lines[y] = append(ps.lines[y][:0], row...)
		st.lines = append(st.lines, proto.AttachLine{Y: y, Text: string(row)})
	}
	if !full && len(st.lines) == 0 && msg.Cursor == ps.cursor && msg.Modes == ps.modes && msg.Title == ps.title {
		return msg, false
	}
	ps.cursor, ps.modes, ps.title = msg.Cursor, msg.Modes, msg.Title
	msg.Full = full || len(st.lines) == f.Rows
	msg.Lines = st.lines
	return msg, true
}

func modesOf(m vt.Modes) proto.AttachModes {
	out := proto.AttachModes{AppCursor: m.AppCursor, AppKeypad: m.AppKeypad, BracketedPaste: m.BracketedPaste,
		AltScreen: m.AltScreen, MouseSGR: m.MouseSGR, FocusEvents: m.FocusEvents}
	switch m.Mouse {
	case 9:
		out.Mouse = "x10"
	case 1000:
		out.Mouse = "normal"
	case 1002:
		out.Mouse = "button"
	case 1003:
		out.Mouse = "any"
	}
	return out
}

// prepareAttach checks and applies the attach params beyond the nonce:
// the session, its size and the stream, which starts once the reply is
// sent, and says so in res. A plain attach (none of them) is what it
// always was.
func (s *Server) prepareAttach(cn *conn, p *proto.AttachParams, res *proto.Attached) *proto.Error {
	for _, d := range []struct {
		name string
		v    *int
	}{{"cols", p.Cols}, {"rows", p.Rows}} {
		if d.v != nil && (*d.v < 1 || *d.v > 1000) {
			return proto.Errorf(proto.CodeInvalidParams, "%s must be 1 to 1000, not %d", d.name, *d.v).WithHint(proto.Hint{Param: d.name})
		}
	}
	if !p.Stream && p.Session == "" && p.Cols == nil && p.Rows == nil {
		return nil
	}
	if p.Stream && (cn.sub != nil || cn.attaching != nil || cn.attached != nil) {
		return proto.Errorf(proto.CodeInvalidRequest, "this connection already streams").WithHint(proto.Hint{Detail: "attach with stream on a connection of its own"})
	}
	ss, cols, rows, err := s.tab.ShowSession(cn, p.Session, p.Cols, p.Rows, p.Stream) // layout.go
	if err != nil {
		return err
	}
	s.tab.Retile(ss) // the first client to show a session tiles it
	res.Session, res.Cols, res.Rows = ss.Name, &cols, &rows
	if p.Stream {
		st := newAttachStream(s, cn, ss)
		st.size = streamSize{cols, rows, time.Now()}
		st.prefix = p.Prefix
		st.who = clientLabel(cn.peer)
		s.attach.add(st)
		s.attach.setSizer(ss, st) // attach_size.go: the newest client sizes the session
		s.attach.LayoutChanged()  // and the others' layouts say so
		cn.attaching = st
		res.Stream = true
		// The client's call connection may type without an answer per
		// key (proto.Request.Quiet).
		res.QuietRequests = true
	}
	return nil
}

// refuseOnStream answers a request sent on a streaming attach connection:
// it takes none (calls go on a second connection), and says so with a
// bounded write, so a client that neither reads nor hangs up holds
// nothing.
func (cn *conn) refuseOnStream(rq request) {
	cn.s.budget.Release(len(rq.line))
	var id json.RawMessage
	if rq.err == nil {
		if req, perr := proto.ParseRequest(rq.line); perr == nil {
			id = req.ID
		}
	}
	b, _ := json.Marshal(proto.Response{ID: id, Error: proto.Errorf(proto.CodeInvalidRequest, "this connection streams an attached session and takes no requests").
		WithHint(proto.Hint{Detail: "send calls on a second connection; the attach nonce is good there"})})
	cn.wmu.Lock()
	defer cn.wmu.Unlock()
	cn.c.SetWriteDeadline(time.Now().Add(cn.s.attach.writeTimeout()))
	defer cn.c.SetWriteDeadline(time.Time{})
	cn.w.Write(append(b, '\n'))
	if cn.w.Flush() != nil {
		cn.stop()
	}
}

// endAttach ends the connection's stream when its requests end: a client
// that closed its writing half gets the last line ("detached"), one that
// hung up gets nothing. It returns once the stream has stopped writing.
func (cn *conn) endAttach() {
	st := cn.attached
	if st == nil {
		if cn.attaching != nil {
			cn.s.attach.remove(cn.attaching)
		}
		return
	}
	st.end("detached")
	<-st.finished
}
