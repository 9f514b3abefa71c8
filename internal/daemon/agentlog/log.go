package agentlog

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// Locking: l.mu guards every ring and is taken alone; Mark runs under the
// pane's lock (the screen event hook) and so must take nothing else.

const (
	agentLogCap = 256 // entries kept per pane
	// DefaultLimit is how many entries a read returns when the caller
	// gives no limit.
	DefaultLimit  = 64
	logTextMax    = 160 // bytes of a one-line string
	logPathMax    = 256 // bytes of a file path
	logToolMax    = 64  // bytes of a tool name
	recapFilesMax = 20  // files listed by a recap
)

// Entry is one entry as agent-activity returns it.
type Entry struct {
	Seq    uint64   `json:"seq"`
	At     int64    `json:"at"` // unix ns
	Kind   string   `json:"kind"`
	Tool   string   `json:"tool,omitempty"`
	Target string   `json:"target,omitempty"`
	Files  []string `json:"files,omitempty"`
	OK     *bool    `json:"ok,omitempty"`
	Text   string   `json:"text,omitempty"`
	Exit   *int     `json:"exit,omitempty"`
}

// paneLog is one pane's ring and what is needed to fill it.
type paneLog struct {
	ring  [agentLogCap]Entry
	head  int // index of the oldest entry
	n     int
	seq   uint64
	state string // the last state entered, for the turn rule
	// hookTurns: the hooks report turn_end, so state changes do not.
	hookTurns bool
	// cmdline of the shell command started by the last C mark, until D.
	cmdline string
	running bool
	// subStarts: when each running subagent started (unix ns), for its
	// end's "done after 3m" (agentlog_subagent.go).
	subStarts map[string]int64
}

func (pl *paneLog) add(e Entry) {
	pl.seq++
	e.Seq = pl.seq
	i := (pl.head + pl.n) % agentLogCap
	if pl.n == agentLogCap {
		pl.head = (pl.head + 1) % agentLogCap
	} else {
		pl.n++
	}
	pl.ring[i] = e
}

// entries copies the ring, oldest first.
func (pl *paneLog) entries() []Entry {
	out := make([]Entry, pl.n)
	for i := range pl.n {
		out[i] = pl.ring[(pl.head+i)%agentLogCap]
	}
	return out
}

// Log is every pane's ring.
type Log struct {
	clock agentstate.Clock
	mu    sync.Mutex
	panes map[string]*paneLog
	// sub and done are the feature's subscription to window closes and
	// the end of its goroutine (feature.go); set in Init.
	sub  core.Subscription
	done chan struct{}
}

// NewLog makes an empty log on clock; Init adds it to a daemon as a
// feature.
func NewLog(clock agentstate.Clock) *Log {
	return &Log{clock: clock, panes: map[string]*paneLog{}}
}

// Activity is one activity report from a pane's hooks.
type Activity struct {
	Kind   string // prompt, tool, tool_done, tool_failed, turn_end, session_start, subagent_start, subagent_stop
	Tool   string // "Bash: go test ./..." or just the tool's name
	Text   string
	Files  []string
	Failed bool
}

// shellTools are tool names whose target is a shell command line: they
// count as commands, and a test run among them is a recap's tests.
var shellTools = [...]string{"bash", "shell", "exec_command", "local_shell", "run_shell_command", "run_terminal_cmd", "terminal", "command"}

// fileTools are tool names whose target is the file they write.
var fileTools = [...]string{"edit", "write", "multiedit", "notebookedit", "apply_patch", "edit_file", "write_file", "replace", "create_file", "str_replace"}

func toolIn(list []string, tool string) bool {
	t := strings.ToLower(tool)
	for _, n := range list {
		if t == n {
			return true
		}
	}
	return false
}

// Activity records a hook's report; the first one makes the pane's ring.
// It returns the entry's seq.
func (l *Log) Activity(pane string, a Activity) uint64 {
	e := Entry{At: l.clock.Now().UnixNano(), Kind: a.Kind}
	switch a.Kind {
	case "prompt", "turn_end":
		e.Text = logLine(firstLine(a.Text), logTextMax)
	case "tool", "tool_done", "tool_failed":
		name, target, _ := strings.Cut(a.Tool, ":")
		e.Tool = logLine(name, logToolMax)
		e.Target = logLine(target, logTextMax)
		for _, f := range a.Files {
			if f = logLine(f, logPathMax); f != "" {
				e.Files = append(e.Files, f)
			}
		}
		if len(e.Files) == 0 && e.Target != "" && toolIn(fileTools[:], e.Tool) {
			e.Files = []string{logLine(strings.TrimSpace(target), logPathMax)}
		}
		if a.Kind != "tool" {
			ok := a.Kind == "tool_done" && !a.Failed
			if !ok {
				e.Kind = "tool_failed"
			}
			e.OK = &ok
		}
		if a.Kind == "tool_failed" || a.Failed {
			e.Text = logLine(firstLine(a.Text), logTextMax)
		}
	default:
		e.Text = logLine(firstLine(a.Text), logTextMax)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil {
		pl = &paneLog{}
		l.panes[pane] = pl
	}
	if a.Kind == "turn_end" {
		pl.hookTurns = true
	}
	pl.add(e)
	return pl.seq
}

// State records a state change of a pane that has a ring.
func (l *Log) State(pane string, to agentstate.State, message string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil {
		return
	}
	from := pl.state
	pl.state = to.String()
	now := l.clock.Now().UnixNano()
	switch to {
	case agentstate.Done:
		if from == agentstate.Working.String() && !pl.hookTurns {
			pl.add(Entry{At: now, Kind: "turn_end", Text: logLine(firstLine(message), logTextMax)})
		}
	case agentstate.NeedsInput, agentstate.Errored, agentstate.None:
		pl.add(Entry{At: now, Kind: "state", Text: to.String()})
	}
}

// Mark records the pane's shell commands (OSC 133). Called under the
// pane's lock: it takes only l.mu.
func (l *Log) Mark(pane string, m vt.PromptMark) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil {
		return
	}
	switch m.Kind {
	case vt.MarkOutputStart:
		pl.cmdline, pl.running = m.Cmdline, true
	case vt.MarkCommandEnd:
		if !pl.running {
			return // an empty line, or a prompt redrawn: no command ran
		}
		e := Entry{At: l.clock.Now().UnixNano(), Kind: "command", Target: logLine(pl.cmdline, logTextMax)}
		if m.HasExit {
			code := m.Exit
			e.Exit = &code
		}
		pl.add(e)
		pl.cmdline, pl.running = "", false
	case vt.MarkPromptStart:
		pl.running = false
	}
}

// Drop forgets a closed pane's ring.
func (l *Log) Drop(pane string) {
	l.mu.Lock()
	delete(l.panes, pane)
	l.mu.Unlock()
}

// Read returns the newest limit entries after since (unix ns) and
// sinceSeq, oldest first, and the ring's last seq; all of them (for a
// recap) when limit is 0.
func (l *Log) Read(pane string, since int64, sinceSeq uint64, limit int) (uint64, []Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	pl := l.panes[pane]
	if pl == nil {
		return 0, []Entry{}
	}
	all := pl.entries()
	out := all[:0:0]
	for _, e := range all {
		if e.At >= since && e.Seq > sinceSeq {
			out = append(out, e)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return pl.seq, out
}

// Recap sums up a pane's entries since a time (the wire type).
type Recap = proto.Recap

// defaultTestPatterns are the commands a recap counts as test runs when
// [agents.recap] test_patterns is not set.
var defaultTestPatterns = [...]string{"go test", "npm test", "npm run test", "pnpm test", "yarn test", "pytest", "cargo test", "make test", "bun test", "vitest", "jest"}

// MakeRecap sums up entries for a pane named name, since `since`, now;
// patterns are the commands that count as test runs (nil: the defaults).
func MakeRecap(entries []Entry, since, now time.Time, name, state string, patterns []string) Recap {
	r := Recap{Since: since.UnixNano(), Files: []string{}, State: state}
	label := "" // the pattern the newest test run matched, for the one-liner
	seen := map[string]bool{}
	pending := map[string]int{} // shell tool calls started and not yet ended, by target
	var testsAt = -1
	for i, e := range entries {
		for _, f := range e.Files {
			if !seen[f] {
				seen[f] = true
				r.FilesTotal++
				if len(r.Files) < recapFilesMax {
					r.Files = append(r.Files, f)
				}
			}
		}
		switch e.Kind {
		case "turn_end":
			r.Turns++
			if e.Text != "" {
				r.LastSaid = e.Text
			}
		case "command":
			r.Commands++
			if p := testPattern(e.Target, patterns); p != "" {
				ok := e.Exit != nil && *e.Exit == 0
				okp := &ok
				if e.Exit == nil {
					okp = nil
				}
				r.Tests, testsAt, label = &proto.RecapTests{Cmdline: e.Target, At: e.At, OK: okp}, i, p
			}
		case "tool", "tool_done", "tool_failed":
			if !toolIn(shellTools[:], e.Tool) {
				continue
			}
			if e.Kind == "tool" {
				r.Commands++
				pending[e.Target]++
				if p := testPattern(e.Target, patterns); p != "" {
					r.Tests, testsAt, label = &proto.RecapTests{Cmdline: e.Target, At: e.At}, i, p
				}
				continue
			}
			if pending[e.Target] > 0 {
				pending[e.Target]--
			} else {
				r.Commands++ // only its end was reported
			}
			if p := testPattern(e.Target, patterns); p != "" {
				if r.Tests == nil || testsAt < 0 || r.Tests.Cmdline != e.Target || r.Tests.OK != nil {
					r.Tests, label = &proto.RecapTests{Cmdline: e.Target, At: e.At}, p
				}
				ok := e.Kind == "tool_done" && (e.OK == nil || *e.OK)
				r.Tests.OK, testsAt = &ok, i
			}
		}
	}
	r.Line = recapLine(r, label, name, now.Sub(since))
	return r
}

// testPattern is the pattern a command line matches, "" for none: the
// pattern as whole words anywhere in the line (after "cd x &&").
func testPattern(cmdline string, patterns []string) string {
	if len(patterns) == 0 {
		patterns = defaultTestPatterns[:]
	}
	line := " " + strings.Join(strings.Fields(cmdline), " ") + " "
	for _, p := range patterns {
		p = strings.Join(strings.Fields(p), " ")
		if p != "" && strings.Contains(line, " "+p+" ") {
			return p
		}
	}
	return ""
}

// recapLine is the one-liner: "api while you were away (42m): 3 turns, 6
// files, 11 commands, go test passed, at prompt".
func recapLine(r Recap, label, name string, away time.Duration) string {
	parts := []string{plural(r.Turns, "turn"), plural(r.FilesTotal, "file"), plural(r.Commands, "command")}
	if t := r.Tests; t != nil {
		parts = append(parts, label+" "+t.Verdict())
	}
	parts = append(parts, stateWords(r.State))
	return fmt.Sprintf("%s while you were away (%s): %s", name, shortDuration(away), strings.Join(parts, ", "))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// stateWords says where the agent is now, as a person reads it.
func stateWords(state string) string {
	switch state {
	case "done", "idle":
		return "at prompt"
	case "needs_input":
		return "waiting for you"
	case "none":
		return "exited"
	}
	return state
}

// shortDuration prints 42m, 1h05m, 30s.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, " \t\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// logLine is agent text as the log keeps it: one line, control characters
// removed, likely secrets masked (the Inbox's rules), cut to max bytes on
// a rune boundary. It is still the agent's text: readers fence it.
func logLine(s string, max int) string {
	if max <= logTextMax {
		s = inbox.CleanSummary(s) // masks secrets and cuts to 160 bytes
	} else {
		// A file path: the Inbox's cut is too short for it, and a path
		// holds no key=value to mask.
		s = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
				return -1
			}
			return r
		}, s)
	}
	s = strings.TrimSpace(s)
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Len is how many panes have a ring.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.panes)
}
