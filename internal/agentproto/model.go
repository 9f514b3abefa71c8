package agentproto

import (
	"strconv"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/agentproto/conv"
)

// Pane states, as set-agent-state names them.
const (
	stateIdle    = "idle"
	stateWorking = "working"
	stateNeeds   = "needs_input"
	stateDone    = "done"
	stateErrored = "errored"
)

// dwell is how long a permission request must have been on screen before
// a digit answers it.
const dwell = 500 * time.Millisecond

// perm is a permission request the pane shows or has queued.
type perm struct {
	conv.Permission
	shownAt time.Time // when a frame with it was written; zero until then
	hold    *hold
	held    bool   // the daemon holds it for the Inbox now
	summary string // the held line, "" when it cannot be held
}

// model is everything the pane draws and reports. Only the pane's loop
// touches it.
type model struct {
	protocol string
	agent    string // the agent's name, for the header
	tr       *transcript
	ed       editor

	started bool // the handshake is over
	turn    bool // a turn runs
	turnAt  time.Time
	dead    bool // the agent is gone or was stopped; nothing more is sent
	state   string
	message string
	now     string
	flash   string // a one-time hint on the status line
	// broken is why the turn was stopped for the agent's misbehaviour:
	// until the next prompt the pane stays errored, and every further
	// permission request of that turn is answered cancelled.
	broken string

	perms []*perm
}

func newModel(protocol, agent string) *model {
	return &model{protocol: protocol, agent: agent, tr: newTranscript()}
}

func (m *model) front() *perm {
	if len(m.perms) == 0 {
		return nil
	}
	return m.perms[0]
}

func (m *model) title() string {
	glyph := map[string]string{stateIdle: "○", stateWorking: "●", stateNeeds: "▲", stateDone: "■", stateErrored: "×"}[m.state]
	if glyph == "" {
		glyph = "□"
	}
	st := m.state
	if st == "" {
		st = "starting"
	}
	return oneLine(m.agent, 80) + " over " + m.protocol + " · " + glyph + " " + st
}

// what is the request's tool and target, on one line.
func (p *perm) what() string {
	what := p.Target
	if what == "" {
		what = p.Title
	}
	return p.Tool + ": " + oneLine(what, 300)
}

// permLine is what the request asks, on one line.
func (m *model) permLine(p *perm) string {
	what := p.Target
	if what == "" {
		what = p.Title
	}
	line := p.Tool + ": " + oneLine(what, 300)
	if p.Target != "" && p.Title != "" && oneLine(p.Title, 300) != oneLine(p.Target, 300) {
		line += "  (" + oneLine(p.Title, 120) + ")"
	}
	if n := len(m.perms) - 1; n > 0 {
		line += "  [+" + strconv.Itoa(n) + " more]"
	}
	return "the agent asks to run " + line
}

// permKeys is the keys line under a request.
func (m *model) permKeys(p *perm) string {
	var keys []string
	if p.Once {
		keys = append(keys, "1 allow once")
	}
	if p.Deny {
		keys = append(keys, "3 deny")
	}
	keys = append(keys, "Ctrl+C cancel the turn")
	s := "  " + strings.Join(keys, "   ")
	if p.held {
		s += "   · held in the Inbox"
	}
	return s
}

func (m *model) dwellOver(p *perm) bool {
	return !p.shownAt.IsZero() && time.Since(p.shownAt) >= dwell
}

func (m *model) statusLine() string {
	if m.flash != "" {
		return " " + m.flash
	}
	switch {
	case m.dead:
		return " the agent is not running · Ctrl+D quits"
	case !m.started:
		return " starting the agent…"
	case m.turn && len(m.perms) > 0:
		return " waiting for your answer · Ctrl+C cancels the turn"
	case m.turn:
		s := " working " + elapsed(time.Since(m.turnAt))
		if m.now != "" {
			s += ": " + m.now
		}
		return s + " · Ctrl+C cancels"
	}
	return " Enter sends · Ctrl+C clears the line · Ctrl+D on an empty line quits"
}

// nowOf is what a tool call does, on one line, for the state's now.
func nowOf(b *block) string {
	what := b.target
	if what == "" {
		what = b.title
	}
	kind := b.toolKind
	if kind == "execute" {
		kind = "shell"
	}
	if kind == "" {
		return oneLine(what, 200)
	}
	return oneLine(kind+": "+what, 200)
}

// elapsed is a turn's time as m:ss.
func elapsed(d time.Duration) string {
	sec := int(d / time.Second)
	return strconv.Itoa(sec/60) + ":" + strconv.Itoa(sec%60/10) + strconv.Itoa(sec%10)
}
