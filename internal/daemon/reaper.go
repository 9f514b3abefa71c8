package daemon

import (
	"os"
	"sync"

	"github.com/tuios/tuios/internal/procstat"
)

// The orphan reaper. A child subreaper (subreaper_linux.go) is the parent
// of every orphan of its descendants, so it must wait() for them, or they
// stay zombies for as long as the daemon runs. It must also never wait for
// a child whose exit status another part of the process waits for: a pane
// shell's status is pty.Process.Wait's (a window's exit code), a git the
// daemon runs is exec.Cmd.Wait's. So it reaps only a zombie child that
//
//   - is not in the daemon's own terminal session: everything the process
//     starts with os/exec inherits that session, and a pane's processes
//     never can (a session is inherited or new), so it began in a pane;
//   - is not a pane shell: pane shells lead sessions of their own, so each
//     one's pid is registered from the moment pty.Start returns it until
//     its Wait has reaped it;
//   - and no pane start is in flight, whose pid is not known yet (the
//     zombie could be that shell, exited at once); such a zombie is
//     looked at again when the start has registered its pid.
//
// The subreaper bit is the process's, not a Server's, so the registry is
// too: every Server in a process (tests run several) shares this one.
var orphans = &reaper{waited: map[int]bool{}}

type reaper struct {
	mu       sync.Mutex
	waited   map[int]bool // pane shells: pty.Process.Wait reaps them
	starting int          // pane starts whose pid is not registered yet
	deferred bool         // a zombie was left while a start was in flight
}

// Starts notes a pane start about to fork; the returned func registers
// its pid (0: the start failed) and ends it.
func (r *reaper) Starts() func(pid int) {
	r.mu.Lock()
	r.starting++
	r.mu.Unlock()
	return func(pid int) {
		r.mu.Lock()
		if pid > 0 {
			r.waited[pid] = true
		}
		r.starting--
		again := r.starting == 0 && r.deferred
		if again {
			r.deferred = false
		}
		r.mu.Unlock()
		if again {
			go r.Reap()
		}
	}
}

// Reaped drops a pane shell's pid once its Wait has returned.
func (r *reaper) Reaped(pid int) {
	r.mu.Lock()
	delete(r.waited, pid)
	r.mu.Unlock()
}

// mayReap says whether a zombie child outside our session is an orphan
// nobody else waits for.
func (r *reaper) mayReap(pid int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waited[pid] {
		return false
	}
	if r.starting > 0 {
		r.deferred = true
		return false
	}
	return true
}

// Reap waits for every orphan that has exited. It is called on each
// SIGCHLD; a zombie's pid cannot be reused until it is reaped, so the
// pid read is the process waited for.
func (r *reaper) Reap() {
	self, sid := os.Getpid(), sessionOfSelf()
	for _, pid := range childPids() {
		st, err := procstat.Read(pid)
		if err != nil || !st.Zombie() || st.Parent != self || st.Session == sid {
			continue
		}
		if r.mayReap(pid) {
			reapPid(pid)
		}
	}
}
