package mux

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// session resolves a session name; empty is the caller's own session when
// it runs inside a pane, else the most recently active one. The session
// passes the target check (target.go) on the way out. Called with s.mu
// held.
func (s *Table) session(cn Call, name string) (*Session, *proto.Error) {
	ss, err := s.findSession(cn, name)
	if err != nil {
		return nil, err
	}
	if err := s.gateTargetLocked(cn, ss, nil); err != nil {
		return nil, err
	}
	return ss, nil
}

func (s *Table) findSession(cn Call, name string) (*Session, *proto.Error) {
	if name != "" {
		if ss := s.sessions[name]; ss != nil {
			return ss, nil
		}
		return nil, proto.Errorf(proto.CodeSessionNotFound, "no session named %q", name).
			WithHint(proto.Hint{Available: s.sessionNames(), Command: "tuios ls"})
	}
	if w := s.callerWindow(cn); w != nil {
		return w.session, nil
	}
	var best *Session
	for _, ss := range s.sessions {
		if best == nil || ss.active.After(best.active) {
			best = ss
		}
	}
	if best == nil {
		return nil, proto.Errorf(proto.CodeSessionNotFound, "there are no sessions").
			WithHint(proto.Hint{Command: "tuios new --detach NAME"})
	}
	return best, nil
}

// window resolves a window address in a session, in the skill's order:
// the full id, the index list-windows prints (an all-digit target is an
// index and nothing else), a unique id prefix, then a name given to it,
// then an automatic name (what runs in its foreground: bash, vim,
// claude; window_name.go), and last its exact title, which only a window
// no name matched is found by. Ids and prefixes match in any case (a
// uuid printed in upper case is the same uuid). A name made only of hex
// digits can therefore be taken by an id prefix: give windows names with
// a letter past f, or address them by id. Ambiguity is an error listing
// the candidates, never a guess.
//
// What stays put while programs run: the id always; the index until a
// window before it closes; a given name until someone renames it. An
// automatic name follows the program (a window running claude answers
// to claude, and to bash again once claude exits), and a title changes
// whenever its program redraws it, so a spinner glyph never breaks a
// name. An empty address is the caller's own pane when it runs in
// one, else the focused window (the CLI refuses an explicitly empty -w
// before it gets here). The window passes the target check (target.go) on
// the way out. Called with s.mu held.
func (s *Table) window(cn Call, ss *Session, addr string) (*Window, *proto.Error) {
	w, err := s.findWindow(cn, ss, addr)
	if err != nil {
		return nil, err
	}
	if err := s.gateTargetLocked(cn, ss, w); err != nil {
		return nil, err
	}
	return w, nil
}

func (s *Table) findWindow(cn Call, ss *Session, addr string) (*Window, *proto.Error) {
	if addr == "" {
		if w := s.callerWindow(cn); w != nil && w.session == ss {
			return w, nil
		}
		if ss.focused != nil {
			return ss.focused, nil
		}
		return nil, proto.Errorf(proto.CodeNoWindows, "session %q has no windows", ss.Name).
			WithHint(proto.Hint{Command: "tuios new-window -s " + ss.Name})
	}
	id := strings.ToLower(addr)
	for _, w := range ss.windows {
		if w.ID == id {
			return w, nil
		}
	}
	if isDigits(addr) {
		if i, err := strconv.Atoi(addr); err == nil && i < len(ss.windows) {
			return ss.windows[i], nil
		}
		// A script that holds an index past the end (indexes shift when
		// a window closes) must fail, not hit the window whose id happens
		// to start with those digits. Eight digits or more are no index a
		// session reaches: they are the id column list-windows prints (1
		// id in 40 starts with eight digits), read as an id prefix.
		if len(addr) < idPrefixDigits {
			return nil, s.noIndex(ss, addr)
		}
	}
	match := func(pred func(w *Window) bool) []*Window {
		var out []*Window
		for _, w := range ss.windows {
			if pred(w) {
				out = append(out, w)
			}
		}
		return out
	}
	for _, cands := range [][]*Window{
		match(func(w *Window) bool { return strings.HasPrefix(w.ID, id) }),
		match(func(w *Window) bool { return w.name == addr }),
		match(func(w *Window) bool { return w.name == "" && w.autoName() == addr }),
		match(func(w *Window) bool { return w.Title() == addr }),
	} {
		switch len(cands) {
		case 0:
			continue
		case 1:
			return cands[0], nil
		default:
			return nil, ambiguous(ss, addr, cands)
		}
	}
	return nil, proto.Errorf(proto.CodeWindowNotFound, "no window %q in session %q", addr, ss.Name).
		WithHint(proto.Hint{Available: windowChoices(ss, ss.windows), Command: "tuios list-windows -s " + ss.Name})
}

// idPrefixDigits is the shortest all-digit address read as an id prefix
// when it is no index: the width of list-windows' ID column.
const idPrefixDigits = 8

// ambiguous is the error for an address several windows answer to.
func ambiguous(ss *Session, addr string, cands []*Window) *proto.Error {
	return proto.Errorf(proto.CodeAmbiguousWindow, "%q matches %d windows in session %q", addr, len(cands), ss.Name).
		WithHint(proto.Hint{Available: windowChoices(ss, cands),
			Detail: "address one by its full id or a longer id prefix, or give it a name of its own: tuios set-window -s " + ss.Name + " -w ID --name NEW"})
}

// noIndex is the error for an all-digit address past the last window. A
// window whose id starts with those digits is named in the hint: the
// address reads as an index only, so it needs more of the id.
func (s *Table) noIndex(ss *Session, addr string) *proto.Error {
	msg := fmt.Sprintf("no window at index %s in session %q: it has no windows", addr, ss.Name)
	if n := len(ss.windows); n > 0 {
		msg = fmt.Sprintf("no window at index %s in session %q (its indexes are 0 to %d)", addr, ss.Name, n-1)
	}
	h := proto.Hint{Available: windowChoices(ss, ss.windows), Command: "tuios list-windows -s " + ss.Name}
	for _, w := range ss.windows {
		if strings.HasPrefix(w.ID, addr) {
			h.Detail = "an address of fewer than 8 digits is an index only; for window " + w.ID[:8] + " give 8 characters or more of its id, or its full id " + w.ID
			break
		}
	}
	return proto.Errorf(proto.CodeWindowNotFound, "%s", msg).WithHint(h)
}

// windowChoices lists windows as "INDEX ID8 NAME", the way list-windows
// shows them.
func windowChoices(ss *Session, ws []*Window) []string {
	var out []string
	for _, w := range ws {
		idx := slices.Index(ss.windows, w)
		out = append(out, strconv.Itoa(idx)+" "+w.ID[:8]+" "+w.DisplayName())
	}
	return out
}

// nameTakenLocked refuses a window name another window of the session holds: a
// second window named alike would make the name address neither ("Naming
// it means you never have to hold on to the uuid"). A name of digits only
// is refused too, since such an address reads as an index. self is the
// window being renamed (nil for a new one). Called with s.mu held.
func nameTakenLocked(ss *Session, name string, self *Window) *proto.Error {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	if isDigits(name) {
		return proto.Errorf(proto.CodeInvalidParams, "the window name %q is all digits, which -w reads as an index", name).
			WithHint(proto.Hint{Param: "name", Detail: "give a name with a letter in it, such as w" + name})
	}
	for _, w := range ss.windows {
		if w != self && w.name == name {
			return proto.Errorf(proto.CodeInvalidParams, "the name %q is taken by window %s in session %q", name, w.ID[:8], ss.Name).
				WithHint(proto.Hint{Param: "name", Detail: "two windows with one name could not be told apart by it: pick another name, or rename the other first: tuios set-window -s " + ss.Name + " -w " + w.ID[:8] + " --name NEW"})
		}
	}
	return nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// callerWindow is the window the caller runs in (placed before the verb
// ran), or nil. Called with s.mu held.
func (s *Table) callerWindow(cn Call) *Window {
	id := placedWindow(cn)
	if id == "" {
		return nil
	}
	return s.windows[id]
}
