package waitfor

import (
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
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
	id   string
	name string // the name a person gave, "" when none
	auto string // its automatic name when it exited
	code int
}

// exitLog is a session's recent exits, oldest first. Guarded by
// Feature.mu.
type exitLog struct {
	session string // the session's name
	exits   []exitRecord
}

// note adds an exit, dropping the oldest past exitLogMax.
func (l *exitLog) note(r exitRecord) {
	l.exits = append(l.exits, r)
	if over := len(l.exits) - exitLogMax; over > 0 {
		l.exits = append(l.exits[:0], l.exits[over:]...)
	}
}

// find looks an address up the way a live window is addressed, minus the
// index (an exited window has none): the full id, then the given name,
// then the automatic name (each the most recent exit that had it), then a
// unique id prefix.
func (l *exitLog) find(addr string) (exitRecord, bool) {
	if addr == "" {
		return exitRecord{}, false
	}
	x := l.exits
	for i := len(x) - 1; i >= 0; i-- {
		if x[i].id == addr {
			return x[i], true
		}
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i].name == addr {
			return x[i], true
		}
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i].name == "" && x[i].auto == addr {
			return x[i], true
		}
	}
	if isDigits(addr) && len(addr) < 8 {
		// A short number is an index, and an exited window has none: it
		// must not fall through to whichever id starts with those digits.
		return exitRecord{}, false
	}
	var found exitRecord
	n := 0
	for _, r := range x {
		if strings.HasPrefix(r.id, addr) {
			found = r
			n++
		}
	}
	return found, n == 1
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// programExited notes a program window's exit in its session's log; the
// core calls it before the window closes. A program that a session's
// close ended may exit after that session's close was heard: the session
// is looked up once the exit is noted (it leaves the table before its
// close is heard), so such a log goes and none outlives its session.
func (f *Feature) programExited(ex core.ProgramExit) {
	f.mu.Lock()
	l := f.exits[ex.SessionID]
	if l == nil {
		l = &exitLog{session: ex.Session}
		f.exits[ex.SessionID] = l
	}
	l.note(exitRecord{id: ex.Window, name: ex.Name, auto: ex.Auto, code: ex.Code})
	f.mu.Unlock()
	if live, ok := f.h.FindSession(ex.Session); !ok || live.ID != ex.SessionID {
		f.mu.Lock()
		delete(f.exits, ex.SessionID)
		f.mu.Unlock()
	}
}

// sessionClosed forgets the exits of a session that closed (a session
// made again under its name since keeps its own).
func (f *Feature) sessionClosed(ev core.Event) {
	live, ok := f.h.FindSession(ev.Session)
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, l := range f.exits {
		if l.session == ev.Session && (!ok || live.ID != id) {
			delete(f.exits, id)
		}
	}
}

// logOf is a copy of the exits of the session whose id is id.
func (f *Feature) logOf(id string) *exitLog {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.exits[id]
	if l == nil {
		return &exitLog{}
	}
	return &exitLog{session: l.session, exits: append([]exitRecord(nil), l.exits...)}
}

// recentExit finds the exit of a program window that has already closed,
// for a wait-for window-exit that found no live window at addr. A live
// window the address could still mean (a name, a title, an id prefix)
// keeps the original answer: the record never shadows a live window.
func (f *Feature) recentExit(c core.Call, session, addr string) (exitRecord, bool) {
	if addr == "" {
		return exitRecord{}, false
	}
	if session == "" { // a full id names its session, as for a live window
		type hit struct {
			session, sessionID string
			r                  exitRecord
		}
		var hits []hit
		f.mu.Lock()
		for id, l := range f.exits {
			for _, r := range l.exits {
				if r.id == addr {
					hits = append(hits, hit{l.session, id, r})
				}
			}
		}
		f.mu.Unlock()
		for _, h := range hits { // checked with no lock of the feature's held
			if live, ok := f.h.FindSession(h.session); ok && live.ID == h.sessionID && f.h.Target(c, h.session, "") == nil {
				return h.r, true
			}
		}
	}
	sv, err := f.h.Session(c, session)
	if err != nil {
		return exitRecord{}, false
	}
	for _, w := range sv.Windows {
		if w.Name == addr || w.AutoName == addr || w.Title == addr || strings.HasPrefix(w.ID, addr) {
			return exitRecord{}, false
		}
	}
	return f.logOf(sv.ID).find(addr)
}
