package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/procstat"
)

// Escapees: the processes still on the daemon's side when it stops. Closing
// the panes ends every process of their sessions, but one that left its
// session (setsid) lives on, and with the daemon gone nothing leads its
// ancestry here any more. Such a process could stop the daemon (or wait
// for it to be restarted) and start the next one itself, outside that
// daemon's subtree: it would be the person to it. So a daemon that stops
// writes them down (pid and start time, escaped/HASH.json in the state
// dir, 0600), and the next daemon on the same socket reads the list and
// keeps them, and every process they start, inside. A daemon killed
// outright (SIGKILL, a crash, the machine going down) writes nothing:
// doc.go says so among what stays outside the boundary.

// maxEscapees bounds the list (and what is read of it).
const maxEscapees = 4096

type escapeeList struct {
	path string
	mu   sync.RWMutex
	set  map[procKey]bool
}

func newEscapees(socket, stateDir string) *escapeeList {
	e := &escapeeList{set: map[procKey]bool{}}
	if stateDir != "" {
		sum := sha256.Sum256([]byte(socket))
		e.path = filepath.Join(stateDir, "escaped", hex.EncodeToString(sum[:6])+".json")
	}
	return e
}

type escapeeRecord struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// load reads the last daemon's list, keeping the processes that still
// run (the same pid and start time).
func (e *escapeeList) load(s *Server) {
	if e.path == "" {
		return
	}
	b, why := mux.ReadStateFile(e.path, s.uid, maxEscapees*64)
	if why != "" {
		mux.SetAside(host{s}.Log(), s.clock, "escapees", e.path, why, "processes that outlived the last daemon's panes are not known")
		return
	}
	var recs []escapeeRecord
	if len(b) > 0 && json.Unmarshal(b, &recs) != nil {
		mux.SetAside(host{s}.Log(), s.clock, "escapees", e.path, "it is not a list of processes", "processes that outlived the last daemon's panes are not known")
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range recs[:min(len(recs), maxEscapees)] {
		if st, err := procstat.Read(r.PID); err == nil && st.Start == r.Start {
			e.set[procKey{r.PID, r.Start}] = true
		}
	}
}

// has says whether a process is one the last daemon left inside.
func (e *escapeeList) has(k procKey) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.set[k]
}

// save writes the processes inside that are still alive, once the panes
// have closed: every descendant of the daemon that is inside (an orphan
// of a pane, or what the daemon started, boundary.go) and every process
// still alive from the list it read, with their descendants.
func (e *escapeeList) save(s *Server) {
	if e.path == "" {
		return
	}
	procs := map[int]procstat.Stat{}
	children := map[int][]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if st, err := procstat.Read(pid); err == nil && !st.Zombie() {
			procs[pid] = st
			children[st.Parent] = append(children[st.Parent], pid)
		}
	}
	var roots []int
	for _, pid := range children[s.self] {
		if st := procs[pid]; st.Session != s.sid || !s.ownChildrenOutside {
			roots = append(roots, pid)
		}
	}
	e.mu.RLock()
	for k := range e.set {
		if st, ok := procs[k.pid]; ok && st.Start == k.start {
			roots = append(roots, k.pid)
		}
	}
	e.mu.RUnlock()
	seen := map[int]bool{}
	var recs []escapeeRecord
	for len(roots) > 0 && len(recs) < maxEscapees {
		pid := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[pid] || pid == s.self {
			continue
		}
		seen[pid] = true
		recs = append(recs, escapeeRecord{PID: pid, Start: procs[pid].Start})
		roots = append(roots, children[pid]...)
	}
	if len(recs) == 0 {
		os.Remove(e.path)
		return
	}
	b, _ := json.Marshal(recs)
	if err := writeFileAtomic(e.path, b); err != nil {
		s.opt.Logf("escapees: saving %s: %v", e.path, err)
	}
}
