package daemon

import (
	"strings"
	"time"

	"github.com/tuios/tuios/pty"
)

// A window opened to run one program closes when the program exits (the
// docs: "the pane closes when the program exits"), and the docs send a
// script to wait-for window-exit on exactly that kind of window. A short
// program can finish before the wait starts; the window is gone by then.
// So each session keeps the exit of its most recent program windows, by
// id and name, and a wait that finds no live window answers from it
// instead of window_not_found. The record is bounded by count, not age: a
// script that waits late still gets its answer, and the memory is fixed.

// exitLogMax bounds the exits a session remembers.
const exitLogMax = 64

// exitRecord is one program window's exit.
type exitRecord struct {
	id     string
	name   string // the name a person gave, "" when none
	auto   string // its automatic name when it exited (window_name.go)
	status pty.ExitStatus
	at     time.Time
}

// exitLog is a session's recent exits, oldest first. Guarded by the
// server's lock, as the rest of the session.
type exitLog []exitRecord

// note adds an exit, dropping the oldest past exitLogMax.
func (l *exitLog) note(r exitRecord) {
	*l = append(*l, r)
	if over := len(*l) - exitLogMax; over > 0 {
		*l = append((*l)[:0], (*l)[over:]...)
	}
}

// find looks an address up the way a live window is addressed, minus the
// index (an exited window has none): the full id, then the given name,
// then the automatic name (each the most recent exit that had it), then a
// unique id prefix.
func (l exitLog) find(addr string) (exitRecord, bool) {
	if addr == "" {
		return exitRecord{}, false
	}
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].id == addr {
			return l[i], true
		}
	}
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].name == addr {
			return l[i], true
		}
	}
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].name == "" && l[i].auto == addr {
			return l[i], true
		}
	}
	if isDigits(addr) && len(addr) < 8 {
		// A short number is an index, and an exited window has none: it
		// must not fall through to whichever id starts with those digits.
		return exitRecord{}, false
	}
	var found exitRecord
	n := 0
	for _, r := range l {
		if strings.HasPrefix(r.id, addr) {
			found = r
			n++
		}
	}
	return found, n == 1
}

// noteProgramExit records w's exit in its session before the window is
// closed.
func (s *Server) noteProgramExit(w *Window, status pty.ExitStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.session.exits.note(exitRecord{id: w.ID, name: w.name, auto: w.autoName(), status: status, at: time.Now()})
}

// recentExitLocked finds the exit of a program window that has already closed,
// for a wait-for window-exit that found no live window at addr. A live
// window the address could still mean (a name, a title, an id prefix)
// keeps the original answer: the record never shadows a live window.
// Called with s.mu held.
func (s *Server) recentExitLocked(cn *conn, session, addr string) (exitRecord, bool) {
	if addr == "" {
		return exitRecord{}, false
	}
	if session == "" { // a full id names its session, as for a live window
		for _, ss := range s.sessions {
			for _, r := range ss.exits {
				if r.id == addr && s.gateTargetLocked(cn, ss, nil) == nil {
					return r, true
				}
			}
		}
	}
	ss, err := s.session(cn, session)
	if err != nil {
		return exitRecord{}, false
	}
	for _, w := range ss.windows {
		if w.name == addr || w.autoName() == addr || w.Title() == addr || strings.HasPrefix(w.ID, addr) {
			return exitRecord{}, false
		}
	}
	return ss.exits.find(addr)
}
