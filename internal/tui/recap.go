package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tuios/tuios/internal/atomicfile"
	"github.com/tuios/tuios/internal/config"
	"github.com/tuios/tuios/internal/integration"
	"github.com/tuios/tuios/internal/proto"
)

// The away recap ([agents.recap]): when the person comes back to an agent
// pane that finished a turn while they were away from it for at least
// away (default 10m), the dock says what the agent did in one line, and
// the pane's finished row in the Inbox shows the recap under the list.
// Away is this client's: the time it stopped showing a pane (it focused
// another, or detached), kept in the client's state dir (away.json) so a
// detach counts. The daemon writes the recap (agent-activity); the text
// in it is the agent's and is cleaned before it is drawn.

// Recap modes: where the away recap shows.
const (
	RecapToast = "toast" // the dock and the Inbox
	RecapInbox = "inbox" // the Inbox only
	RecapOff   = "off"   // nowhere: tuios agent-log --recap only
)

// DefaultRecapAway is how long away counts when [agents.recap] away is
// not set.
const DefaultRecapAway = 10 * time.Minute

// awayFile keeps, per window, when this client last stopped showing it.
const awayFile = "away.json"

// maxAwayWindows bounds the file: the oldest entries go first.
const maxAwayWindows = 512

type recapState struct {
	loaded bool
	shown  string           // the window this client shows
	left   map[string]int64 // window -> unix ns it stopped being shown
	inbox  map[string]recapLines
}

// recapLines is the recap a finished row shows, for the time the person
// left its pane; nil lines while it is asked for.
type recapLines struct {
	since int64
	lines []string
}

// configureRecap takes [agents.recap] mode and away; a value it cannot
// read is the default.
func (o *Options) configureRecap(f *config.File) {
	switch f.Agents.Recap.Mode {
	case RecapInbox, RecapOff:
		o.RecapMode = f.Agents.Recap.Mode
	default:
		o.RecapMode = RecapToast
	}
	o.RecapAway = DefaultRecapAway
	if d, err := time.ParseDuration(f.Agents.Recap.Away); err == nil && d > 0 {
		o.RecapAway = d
	}
}

// recapMode is [agents.recap] mode; Options that never read the file
// take the default.
func (m *Model) recapMode() string {
	if m.opt.RecapMode == "" {
		return RecapToast
	}
	return m.opt.RecapMode
}

func (m *Model) recapAway() time.Duration {
	if m.opt.RecapAway > 0 {
		return m.opt.RecapAway
	}
	return DefaultRecapAway
}

// recapLayout follows which window the client shows: the one it leaves
// is stamped, and coming back to one left long enough ago asks for its
// recap for the dock.
func (m *Model) recapLayout(l proto.AttachLayout) {
	r := &m.recap
	if !r.loaded {
		r.loaded, r.left = true, map[string]int64{}
		if m.opt.keepAway {
			r.left = loadAway(m.intEnv())
		}
	}
	if l.Focused == r.shown || m.opt.AgentsOff {
		return
	}
	now := m.clock.Now().UnixNano()
	if r.shown != "" {
		r.left[r.shown] = now
	}
	r.shown = l.Focused
	left, ok := r.left[l.Focused]
	delete(r.left, l.Focused)
	if m.opt.keepAway {
		saveAway(m.intEnv(), r.left)
	}
	if !ok || m.recapMode() != RecapToast || time.Duration(now-left) < m.recapAway() {
		return
	}
	m.call("agent-activity", proto.AgentActivityParams{Session: m.session, Window: l.Focused, Since: left, Recap: true, Limit: 1}, "recap:dock")
}

// recapInbox asks for the recap of the selected finished row's pane, once
// per time the person left it.
func (m *Model) recapInbox() {
	in := m.inbox
	if in == nil || m.recapMode() == RecapOff || m.opt.AgentsOff {
		return
	}
	it, ok := in.selected()
	if !ok || it.Kind != "finished" || it.Host != "" || it.Window == "" {
		return
	}
	left, ok := m.recap.left[it.Window]
	if !ok || time.Duration(m.clock.Now().UnixNano()-left) < m.recapAway() {
		return
	}
	if have, ok := m.recap.inbox[it.Window]; ok && have.since == left {
		return
	}
	if m.recap.inbox == nil {
		m.recap.inbox = map[string]recapLines{}
	}
	m.recap.inbox[it.Window] = recapLines{since: left}
	m.call("agent-activity", proto.AgentActivityParams{Session: it.Session, Window: it.Window, Since: left, Recap: true, Limit: 1}, "recap:inbox:"+it.Window)
}

// recapDetail is the recap under a finished row, if there is one.
func (m *Model) recapDetail(it item) []string {
	if it.Kind != "finished" || m.recapMode() == RecapOff {
		return nil
	}
	have, ok := m.recap.inbox[it.Window]
	if !ok || have.since != m.recap.left[it.Window] {
		return nil
	}
	return have.lines
}

type recapReply struct {
	Recap *proto.Recap `json:"recap"`
}

func (m *Model) recapReply(r replyMsg) {
	var res recapReply
	if r.err != nil || json.Unmarshal(r.raw, &res) != nil || res.Recap == nil || res.Recap.Turns < 1 {
		return
	}
	c := res.Recap
	if r.tag == "recap:dock" {
		m.say("%s", c.Line)
		return
	}
	window := strings.TrimPrefix(r.tag, "recap:inbox:")
	have, ok := m.recap.inbox[window]
	if !ok {
		return
	}
	have.lines = []string{" " + clean(c.Line)}
	files := make([]string, 0, 3)
	for _, f := range c.Files[:min(len(c.Files), 3)] {
		files = append(files, clean(f))
	}
	if more := c.FilesTotal - len(files); len(files) > 0 && more > 0 {
		files = append(files, fmt.Sprintf("%d more", more))
	}
	if len(files) > 0 {
		have.lines = append(have.lines, "   files: "+strings.Join(files, ", "))
	}
	if t := c.Tests; t != nil {
		have.lines = append(have.lines, "   tests: "+clean(t.Cmdline)+" "+t.Verdict())
	}
	if c.LastSaid != "" {
		have.lines = append(have.lines, "   last said: "+clean(c.LastSaid))
	}
	m.recap.inbox[window] = have
}

// saveAwayOnExit stamps the window shown as left now: a detach is away.
func (m *Model) saveAwayOnExit() {
	r := &m.recap
	if !r.loaded || r.shown == "" || !m.opt.keepAway {
		return
	}
	r.left[r.shown] = m.clock.Now().UnixNano()
	saveAway(m.intEnv(), r.left)
}

func loadAway(env integration.Env) map[string]int64 {
	out := map[string]int64{}
	if b, err := os.ReadFile(filepath.Join(clientStateDir(env), awayFile)); err == nil {
		json.Unmarshal(b, &out) // a file that does not read is no one away
	}
	return out
}

// saveAway writes the file, the newest maxAwayWindows entries; a write
// that fails loses only the recap.
func saveAway(env integration.Env, left map[string]int64) {
	for len(left) > maxAwayWindows {
		oldest, at := "", int64(0)
		for w, t := range left {
			if oldest == "" || t < at {
				oldest, at = w, t
			}
		}
		delete(left, oldest)
	}
	if b, err := json.Marshal(left); err == nil {
		atomicfile.WriteFile(filepath.Join(clientStateDir(env), awayFile), b, atomicfile.Options{Perm: 0o600, MkdirPerm: 0o700})
	}
}
