package mux

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/daemon/core"
	drpc "github.com/tuios/tuios/internal/daemon/rpc"
	"github.com/tuios/tuios/internal/proto"
)

// The labels a person gives a session and its workspaces: a display name
// and an accent colour for the session, a name for each workspace slot,
// and the order of the slots. None of them is an address: a session is
// always addressed by its name and a workspace by its number.

// accents are the colours a session's accent may take: the ANSI colour
// names a terminal theme maps, so the rail draws them in the person's own
// palette. "" clears the accent.
var accents = [...]string{"red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// validAccent reports whether a is an accent or "" (none).
func validAccent(a string) bool {
	if a == "" {
		return true
	}
	for _, x := range accents {
		if a == x {
			return true
		}
	}
	return false
}

// checkLabel says what is wrong with a display name or a workspace name,
// or nil: at most core.MaxLabel bytes and no control characters (C0, DEL, C1),
// because it is drawn in the rail, tab bars and listings. The same rule
// reads the sessions file back, so what a verb refuses never comes back
// from disk either.
func checkLabel(s string) error {
	if len(s) > core.MaxLabel {
		return fmt.Errorf("is %d bytes, over the cap of %d", len(s), core.MaxLabel)
	}
	for i, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return fmt.Errorf("holds the control character %U at byte %d", r, i)
		}
	}
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8")
	}
	return nil
}

// shownNameLocked is the session's display name, else its name. Called with
// s.mu held.
func (ss *Session) shownNameLocked() string {
	if ss.displayName != "" {
		return ss.displayName
	}
	return ss.Name
}

// labelParam cleans and checks a label a caller sent: surrounding white
// space goes (a name from $(…) ends in a newline), the rest must pass
// checkLabel.
func labelParam(what, s string) (string, *proto.Error) {
	s = strings.TrimSpace(s)
	if err := checkLabel(s); err != nil {
		return "", proto.Errorf(proto.CodeInvalidParams, "the %s %v", what, err).
			WithHint(proto.Hint{Detail: "give plain text up to " + strconv.Itoa(core.MaxLabel) + " bytes, or \"\" to clear it"})
	}
	return s, nil
}

// checkOrder checks a workspace order: a permutation of 1..len(order).
func checkOrder(order []int) *proto.Error {
	bad := func(format string, a ...any) *proto.Error {
		return proto.Errorf(proto.CodeInvalidParams, "the workspace order "+format, a...).
			WithHint(proto.Hint{Detail: "list each of the workspaces 1 to N once, in their new order: 2,1 swaps the first two"})
	}
	if len(order) == 0 {
		return bad("is empty")
	}
	if len(order) > Workspaces {
		return bad("lists %d workspaces; a session has %d", len(order), Workspaces)
	}
	seen := make([]bool, len(order)+1)
	for _, n := range order {
		if n < 1 || n > len(order) {
			return bad("lists %d, which is not one of 1 to %d", n, len(order))
		}
		if seen[n] {
			return bad("lists %d twice", n)
		}
		seen[n] = true
	}
	return nil
}

// SessionMetaVerbs adds a session's labels to the verb table: its
// display name and accent, its workspaces' names and order.
func (s *Table) SessionMetaVerbs(add AddFunc) {
	p, h := handler(func(cn Call, p *proto.SetSessionNameParams) (any, *proto.Error) {
		name, err := labelParam("display name", *p.Name)
		if err != nil {
			return nil, err
		}
		return s.setSessionLabel(cn, p.Session, func(ss *Session) (any, bool) {
			changed := ss.displayName != name
			ss.displayName = name
			return proto.SessionNameSet{Type: "session_name_set", Session: ss.Name, DisplayName: ss.shownNameLocked(), Changed: changed}, changed
		})
	})
	add("set-session-name", drpc.Arranges, "Set a session's display name, a label for people; the session keeps its name, which is still how it is addressed", "session_name_set",
		`{"verb":"set-session-name","params":{"session":"work","name":"Payments API"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SetSessionAccentParams) (any, *proto.Error) {
		return s.setSessionLabel(cn, p.Session, func(ss *Session) (any, bool) {
			changed := ss.accent != *p.Accent
			ss.accent = *p.Accent
			return proto.SessionAccentSet{Type: "session_accent_set", Session: ss.Name, Accent: ss.accent, Changed: changed}, changed
		})
	})
	add("set-session-accent", drpc.Arranges, "Set a session's accent colour (red, green, yellow, blue, magenta, cyan, white; \"\" clears it), a label for people", "session_accent_set",
		`{"verb":"set-session-accent","params":{"session":"work","accent":"cyan"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SetWorkspaceNameParams) (any, *proto.Error) {
		name, err := labelParam("workspace name", *p.Name)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
		if ss.wsNames == nil {
			ss.wsNames = map[int]string{}
		}
		changed := ss.wsNames[p.Workspace] != name
		if name == "" {
			delete(ss.wsNames, p.Workspace)
		} else {
			ss.wsNames[p.Workspace] = name
		}
		res := proto.WorkspaceNameSet{Type: "workspace_name_set", Session: ss.Name, Workspace: p.Workspace, Name: name, Changed: changed}
		s.mu.Unlock()
		if changed {
			s.hub.Publish(core.Event{Type: core.EvWorkspaceRenamed, Session: ss.Name})
		}
		return res, nil
	})
	add("set-workspace-name", drpc.Arranges, "Name a workspace of a session (the name shows in list-workspaces, session-info and the tab bar; \"\" clears it)", "workspace_name_set",
		`{"verb":"set-workspace-name","params":{"session":"work","workspace":2,"name":"review"}}`, p, h)

	p, h = handler(func(cn Call, p *proto.SetWorkspaceOrderParams) (any, *proto.Error) {
		if err := checkOrder(p.Order); err != nil {
			return nil, err
		}
		s.mu.Lock()
		ss, err := s.session(cn, p.Session)
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
		moved, renamed, switched := ss.reorderWorkspacesLocked(p.Order)
		res := proto.WorkspaceOrderSet{Type: "workspace_order_set", Session: ss.Name, Order: p.Order,
			CurrentWorkspace: ss.workspace, WindowsMoved: len(moved)}
		name := ss.Name
		s.mu.Unlock()
		if len(moved) > 0 {
			s.Retile(ss)
		}
		// One mutation's events in the documented order: per-window
		// changes, then the workspace switch.
		for _, id := range moved {
			s.hub.Publish(core.Event{Type: "window-moved", Session: name, Window: id})
		}
		if renamed {
			s.hub.Publish(core.Event{Type: core.EvWorkspaceRenamed, Session: name})
		}
		if switched {
			s.hub.Publish(core.Event{Type: "workspace-switched", Session: name})
		}
		return res, nil
	})
	add("set-workspace-order", drpc.Arranges, "Reorder a session's workspaces: order lists them in their new order (2,1,3 swaps the first two); windows and names move with their workspace and the screen keeps showing the same one, under its new number", "workspace_order_set",
		`{"verb":"set-workspace-order","params":{"session":"work","order":[2,1,3]}}`, p, h)
}

// reorderWorkspacesLocked applies a checked order: old workspace order[i]
// becomes i+1. It returns the windows whose workspace changed, whether
// any name moved, and whether the current workspace's number changed (the
// session keeps showing the same one). Called with s.mu held.
func (ss *Session) reorderWorkspacesLocked(order []int) (moved []string, renamed, switched bool) {
	to := make([]int, Workspaces+1) // to[old] = new
	for n := range to {
		to[n] = n
	}
	for i, old := range order {
		to[old] = i + 1
	}
	for _, w := range ss.windows {
		if w.workspace >= 1 && w.workspace <= Workspaces && to[w.workspace] != w.workspace {
			w.workspace = to[w.workspace]
			moved = append(moved, w.ID)
		}
	}
	ss.moveLayoutsLocked(to) // layout.go: each workspace's splits go with it
	names := map[int]string{}
	for n, v := range ss.wsNames {
		if n >= 1 && n <= Workspaces {
			names[to[n]] = v
			renamed = renamed || to[n] != n
		}
	}
	ss.wsNames = names
	if ss.workspace >= 1 && ss.workspace <= Workspaces && to[ss.workspace] != ss.workspace {
		ss.workspace = to[ss.workspace]
		switched = true
	}
	return moved, renamed, switched
}

// setSessionLabel runs set on the session under s.mu; a change (set's
// second result) is published as session-renamed (display name and
// accent are both the session's labels).
func (s *Table) setSessionLabel(cn Call, session string, set func(ss *Session) (res any, changed bool)) (any, *proto.Error) {
	s.mu.Lock()
	ss, err := s.session(cn, session)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	res, changed := set(ss)
	s.mu.Unlock()
	if changed {
		s.hub.Publish(core.Event{Type: core.EvSessionRenamed, Session: ss.Name})
	}
	return res, nil
}
