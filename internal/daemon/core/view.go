package core

import (
	"time"

	"github.com/tuios/tuios/detect"
)

// View is a copy of the session table at one moment. Nothing in it
// changes after it is made and nothing in it is shared with the core:
// reading it takes no lock.
type View struct {
	// Sessions in creation order.
	Sessions []SessionView
}

// SessionView is one session as it was.
type SessionView struct {
	Name string // its address
	ID   string
	// DisplayName and Accent are labels for people; "" for none.
	DisplayName string
	Accent      string
	// Active is when it was last used: the most recently active session
	// is the default one.
	Active time.Time
	// Workspace is the workspace on screen (1 to Workspaces).
	Workspace int
	// WorkspaceNames are the names given to workspaces, by number (index
	// 0 is unused); "" for none.
	WorkspaceNames [Workspaces + 1]string
	// Focused is the focused window's id; "" when it has none.
	Focused string
	Zoomed  bool
	// Floating is set-layout --tiling false.
	Floating bool
	// Windows in list order: a window's index is its place here.
	Windows []WindowView
}

// WindowView is one window as it was.
type WindowView struct {
	ID        string
	Session   string // its session's name
	SessionID string
	// Name is the name given to it ("" for none); DisplayName is that,
	// else its automatic name.
	Name        string
	DisplayName string
	Title       string
	// Dir is the directory its shell last reported (OSC 7), "" for none.
	Dir       string
	Workspace int
	Minimized bool
	// X, Y, Width and Height are its tile once placed, else its pane's
	// size at the origin.
	X, Y, Width, Height int
	// Program is true for a window opened with a program rather than the
	// shell: it has no shell prompt to type a command at.
	Program bool
	// ResumeID and ResumeHarness are the agent conversation the pane
	// held before a restart, kept until its agent reports another (""
	// for none).
	ResumeID, ResumeHarness string
	// Pane is a live handle on its pane: what it reads is not part of
	// the copy.
	Pane Pane
}

// Label is the session's display name, else its name.
func (s *SessionView) Label() string {
	if s.DisplayName != "" {
		return s.DisplayName
	}
	return s.Name
}

// Session is the session named name, or nil.
func (v *View) Session(name string) *SessionView {
	for i := range v.Sessions {
		if v.Sessions[i].Name == name {
			return &v.Sessions[i]
		}
	}
	return nil
}

// Window is the window id (a full id) and its session, or nil.
func (v *View) Window(id string) (*SessionView, *WindowView) {
	for i := range v.Sessions {
		ss := &v.Sessions[i]
		for j := range ss.Windows {
			if ss.Windows[j].ID == id {
				return ss, &ss.Windows[j]
			}
		}
	}
	return nil, nil
}

// Pane is a live handle on one window's pane. It stays valid after the
// window closes: its channels are closed then, and what it reads is
// what the pane last held.
type Pane interface {
	// ID is the window's id.
	ID() string
	// Tracked is the pane as the agent tracker has it: its screen, its
	// reports.
	Tracked() *detect.Pane
	// Pid is the pane's own process (its shell, or the program it was
	// opened with).
	Pid() int
	// ForegroundPgrp is the process group in the terminal's foreground.
	ForegroundPgrp() (int, error)
	// Output is closed by the next chunk of output the pane prints.
	Output() <-chan struct{}
	// Exited is closed once the pane's own process exited.
	Exited() <-chan struct{}
	// Revision is how many bytes the pane has printed, and whether its
	// own process exited.
	Revision() (bytes uint64, exited bool)
	// Dir is the directory its shell last reported (OSC 7).
	Dir() string

	// What ask-agent reads of a pane (internal/daemon/mailbox).

	// LastOutput is when the pane last printed (zero before it did).
	LastOutput() time.Time
	// Settle waits until the pane printed nothing for quiet (from now
	// at the earliest), at most max, or until its process exits: a
	// protocol pane (start-agent --protocol) draws a turn's last frame
	// just before it reports the turn's end over another channel.
	Settle(quiet, max time.Duration)
}
