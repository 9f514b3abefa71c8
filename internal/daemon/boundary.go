package daemon

import (
	"crypto/subtle"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/procstat"
)

// The person boundary (doc.go, "The person boundary", says what it
// promises and what it leaves open). Some acts are the person's alone;
// the daemon refuses them to a caller on its own side: a process that
// started in a pane (or from one), or one the daemon started itself. It
// finds the side from what the kernel says, never from what the caller
// says or controls:
//
//   - The daemon is a child subreaper, so a process that leaves its pane
//     by setsid, a double fork, a terminal of its own or outliving its
//     shell is re-parented to the daemon: its ancestry still leads here.
//   - Its pid comes from the socket (SO_PEERCRED), and the walk up its
//     ancestry checks each parent started no later than its child, so a
//     pid that was reused during the walk is caught and the walk redone.
//   - A walk that cannot finish (a process gone mid-walk, again and
//     again; a tree deeper than any real one) counts as inside.
//
// The environment is read as well (TUIOS_* and HERDR_* naming this
// daemon's panes, TUIOS_PANE_TOKEN), but only ever to put a caller
// inside: nothing a caller has or lacks makes it the person.

// maxAncestry bounds the walk up a caller's ancestry: deeper than any
// real tree, and a walk that reaches it counts as inside.
const maxAncestry = 4096

// placement is where the kernel puts a caller.
type placement struct {
	pane   string // the window it runs in; "" when none can be named
	how    string // how pane was found: ancestry, session or token
	inside bool   // on the daemon's side: never the person
	// unsure: the walk met a session leader the daemon started that is
	// no pane's shell (locate looks again once pane starts are done).
	unsure bool
}

// paneIndex maps pane shells' pids and pane tokens to windows, for the
// placement of callers, without the server lock (a flood of connections
// places each one). Its lock is a leaf: nothing else is taken under it.
type paneIndex struct {
	mu     sync.RWMutex
	shells map[int]string    // pid → window id, until the shell is reaped
	tokens map[string]string // token → window id, while the window lives
	// placed remembers where processes were placed, by pid and start
	// time: a process never moves in or out of the daemon's subtree (an
	// orphan is re-parented to an ancestor, and the daemon is the
	// subreaper of its panes), so a flood of connections from a few
	// processes walks /proc once per process. A window that closes
	// drops its entries; past maxPlaced the table starts over.
	placed map[procKey]placement
	// starting has a channel for each window being started, from before
	// its shell forks until the window is listed (or its start failed),
	// closed then: a process of the pane may call in between, and is
	// placed once its window is there to place it in.
	starting map[string]chan struct{}
}

// paneStartWait bounds how long a caller waits for a window being
// started before it is placed without it (inside, in no pane).
const paneStartWait = 10 * time.Second

type procKey struct {
	pid   int
	start uint64
}

// maxPlaced bounds the placement table.
const maxPlaced = 4096

func newPaneIndex() *paneIndex {
	return &paneIndex{shells: map[int]string{}, tokens: map[string]string{}, placed: map[procKey]placement{}, starting: map[string]chan struct{}{}}
}

// StartsWindow notes that window id is about to start; the returned func
// says it is listed, or failed.
func (ix *paneIndex) StartsWindow(id string) (done func()) {
	ch := make(chan struct{})
	ix.mu.Lock()
	ix.starting[id] = ch
	ix.mu.Unlock()
	return func() {
		ix.mu.Lock()
		if ix.starting[id] == ch {
			delete(ix.starting, id)
		}
		ix.mu.Unlock()
		close(ch)
	}
}

// waitStarted waits (bounded) until window id, if it is being started,
// is listed or failed.
func (ix *paneIndex) waitStarted(id string) {
	ix.mu.RLock()
	ch := ix.starting[id]
	ix.mu.RUnlock()
	if ch == nil {
		return
	}
	t := time.NewTimer(paneStartWait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// waitStarts waits (bounded) for every window being started now, and
// says whether there was any.
func (ix *paneIndex) waitStarts() bool {
	ix.mu.RLock()
	chs := make([]chan struct{}, 0, len(ix.starting))
	for _, ch := range ix.starting {
		chs = append(chs, ch)
	}
	ix.mu.RUnlock()
	if len(chs) == 0 {
		return false
	}
	t := time.NewTimer(paneStartWait)
	defer t.Stop()
	for _, ch := range chs {
		select {
		case <-ch:
		case <-t.C:
			return true
		}
	}
	return true
}

func (ix *paneIndex) placedAs(k procKey) (placement, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	pl, ok := ix.placed[k]
	return pl, ok
}

func (ix *paneIndex) remember(k procKey, pl placement) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if len(ix.placed) >= maxPlaced {
		clear(ix.placed)
	}
	ix.placed[k] = pl
}

func (ix *paneIndex) AddShell(pid int, id string) {
	ix.mu.Lock()
	ix.shells[pid] = id
	ix.mu.Unlock()
}

// DropShell forgets a shell once its exit status was taken: its pid may
// name another process from then on.
func (ix *paneIndex) DropShell(pid int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	id := ix.shells[pid]
	delete(ix.shells, pid)
	for k, pl := range ix.placed {
		if pl.pane == id {
			delete(ix.placed, k) // its processes are still inside, in no pane now
		}
	}
}

func (ix *paneIndex) shell(pid int) (string, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	id, ok := ix.shells[pid]
	return id, ok
}

func (ix *paneIndex) AddToken(tok, id string) {
	ix.mu.Lock()
	ix.tokens[tok] = id
	ix.mu.Unlock()
}

func (ix *paneIndex) DropToken(tok string) {
	ix.mu.Lock()
	delete(ix.tokens, tok)
	ix.mu.Unlock()
}

// token is the window a token names, compared in constant time.
func (ix *paneIndex) token(tok string) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for t, id := range ix.tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
			return id
		}
	}
	return ""
}

// locate places the process pid. The walk is redone when the tree changed
// under it; a tree that keeps changing counts as inside.
func (s *Server) locate(pid int) placement {
	if pid <= 0 {
		return placement{inside: true} // the kernel did not say: not the person
	}
	for range 8 {
		st, err := procstat.Read(pid)
		if err != nil {
			return placement{inside: true} // gone already: fail closed
		}
		k := procKey{pid, st.Start}
		if pl, ok := s.panes.placedAs(k); ok {
			return pl
		}
		pl, ok := s.walk(st)
		if ok && pl.unsure {
			// A session leader the daemon started that is no pane's
			// shell yet: perhaps one whose start has not registered
			// it. Look again once the starts in flight are done.
			pl.unsure = false
			if s.panes.waitStarts() {
				continue
			}
		}
		if ok {
			// Kept only if pid is still the process walked from, and
			// not when inside a pane it could not name: that pane may
			// be one whose shell is not registered yet.
			if now, err := procstat.Read(pid); err == nil && now.Start == st.Start && (pl.pane != "" || !pl.inside) {
				s.panes.remember(k, pl)
			}
			return pl
		}
	}
	return placement{inside: true}
}

// walk climbs pid's ancestry once. ok is false when a parent vanished or
// was replaced while it climbed (look again: the orphan has been
// re-parented by then).
func (s *Server) walk(first procstat.Stat) (pl placement, ok bool) {
	if first.PID == s.self {
		return placement{}, true // the daemon's own process (an embedder's calls)
	}
	st := first
	for range maxAncestry {
		if id, ok := s.panes.shell(st.PID); ok {
			return placement{pane: id, how: "ancestry", inside: true}, true
		}
		if s.escaped.has(procKey{st.PID, st.Start}) {
			return placement{inside: true}, true // left inside by the last daemon (escapees.go)
		}
		switch st.Parent {
		case s.self:
			// A child of the daemon that is no pane's shell: an orphan
			// re-parented here, or a process the daemon started (git,
			// and whatever hook git runs). Neither is the person.
			pl = placement{inside: st.Session != s.sid || !s.ownChildrenOutside}
			if id, ok := s.panes.shell(first.Session); ok {
				pl.pane, pl.how, pl.inside = id, "session", true
			} else if st.Session == st.PID {
				pl.unsure = true // pane shells lead their sessions
			}
			return pl, true
		case 0:
			// The top of the tree (or of this pid namespace) without
			// meeting the daemon. A process that kept its pane's
			// session but not its ancestry (where no subreaper holds
			// it) is still placed by the session.
			if id, ok := s.panes.shell(first.Session); ok {
				return placement{pane: id, how: "session", inside: true}, true
			}
			return placement{}, true
		}
		up, err := procstat.Read(st.Parent)
		if err != nil || up.Start > st.Start {
			return placement{}, false // the parent went, or its pid names a younger process now
		}
		st = up
	}
	return placement{inside: true}, true
}

// place finds the caller's window once per connection, from its pid as
// the kernel gives it, never from anything the caller says.
func (s *Server) place(cn *conn) {
	if cn == nil || cn.placed {
		return
	}
	cn.placed = true
	pl := s.locate(cn.peer)
	if pl.pane != "" {
		s.panes.waitStarted(pl.pane) // a process of a window not listed yet
	}
	cn.placedID, cn.placedBy, cn.inside = pl.pane, pl.how, pl.inside
}

// paneOf finds the window a process runs in and how (ancestry, session).
func (s *Server) paneOf(pid int) (id, how string) {
	pl := s.locate(pid)
	return pl.pane, pl.how
}

// showToken applies the pane token a request carried: the caller is
// inside, and a caller the kernel placed in no pane is placed in the
// token's pane. A link is never a pane: its token is ignored, and a
// connection that showed one cannot become a link.
func (s *Server) showToken(cn *conn, tok string) {
	if cn.link != nil {
		return
	}
	s.place(cn)
	cn.inside = true
	if cn.placedID != "" || len(tok) > 256 {
		return
	}
	if id := s.panes.token(tok); id != "" {
		cn.placedID, cn.placedBy = id, "token"
	}
}

// outsidePanes reports whether the caller may be the person: the kernel
// places it outside every pane and every process the daemon started, and
// its environment names none of this daemon's panes. An unreadable
// record counts as inside a pane.
func (s *Server) outsidePanes(cn *conn) bool {
	s.place(cn)
	if cn.peer <= 0 || cn.inside || cn.placedID != "" || cn.link != nil { // a link is never the person (link_policy.go)
		return false
	}
	if cn.peer == s.self {
		return true // the daemon's own process: an embedder calling itself
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(cn.peer) + "/environ")
	if err != nil {
		return false
	}
	return !s.paneEnviron(string(b))
}

// paneEnviron says whether an environment (NUL-separated, as
// /proc/PID/environ) is one this daemon gave a pane: it names a live
// window, a pane token, or the daemon's socket beside TUIOS_ENV=1 (a
// socket named alone is what a person exports to reach a daemon on
// another path), or a feature's rule finds its own variables there (the
// herdr socket's, herdr.Sock.namesPane). Called without the table's lock: a rule
// reads the core's view.
func (s *Server) paneEnviron(environ string) bool {
	var ourSocket, paneEnv bool
	vars := make([]map[string]string, len(s.environRules))
	for kv := range strings.SplitSeq(environ, "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "TUIOS_PANE_ID", "TUIOS_WINDOW_ID":
			if s.tab.WindowByID(v) != nil { // table.go
				return true
			}
		case mux.PaneTokenEnv:
			if v != "" {
				return true // a token shown is a pane's, whoever's it is
			}
		case "TUIOS_SOCKET":
			ourSocket = v == s.opt.Socket
		case "TUIOS_ENV":
			paneEnv = v == "1"
		}
		for i, r := range s.environRules {
			if strings.HasPrefix(k, r.prefix) {
				if vars[i] == nil {
					vars[i] = map[string]string{}
				}
				vars[i][k] = v
			}
		}
	}
	if paneEnv && ourSocket {
		return true
	}
	for i, r := range s.environRules {
		if vars[i] != nil && r.rule(vars[i]) {
			return true
		}
	}
	return false
}
