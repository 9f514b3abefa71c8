package mux

import (
	"strings"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
)

// A window's name is the one a person (or a script) gave it, or, for a
// window nobody named, its automatic name: what runs in its foreground,
// the way tmux's automatic-rename names a window after
// #{pane_current_command}. It is never the window's title: a program
// rewrites its title as it works (an agent spins a glyph in it many
// times a second), and an address a script took a moment ago must still
// work. The title stays its own field (list-windows title, the attach
// layout) and is drawn in the title bar beside the name.
//
// tmux reads argv[0] of the terminal's foreground process group leader
// (/proc/<tpgid>/cmdline up to the first NUL), drops a leading '-' (a
// login shell) and takes the first word's base name. That is kept here,
// with three changes a person notices:
//
//   - An agent CLI a manifest recognises is named by the command a person
//     types for it (the manifest's first argv0, else comm, else its id):
//     codex, gemini, qwen and kilo run as node (tmux shows "node"), codex
//     behind a node wrapper, claude through npx; they read codex, gemini,
//     qwen, kilo, claude.
//   - A name that is a version string (a self-updating CLI installed as
//     .../versions/2.1.3, which tmux shows as "2.1.3") falls back to the
//     kernel's process name, then to the first directory of its
//     executable's path that is not a version or "versions"/"bin".
//   - The base name is taken of any path, not only an absolute one.
//
// A hint (TUIOS_AGENT) names a harness without the process being it, so
// it does not rename: `tuios pretend-agent` reads "tuios".
//
// The automatic name follows the program: it is read from /proc after
// the pane prints, at most once per nameInterval (tmux checks every
// 500 ms too) with one trailing read after the last output, never by a
// ticker and never under the server's lock. A window whose process
// exited keeps the last name read.

// nameInterval bounds how often a printing pane's foreground is read for
// its automatic name.
const nameInterval = 500 * time.Millisecond

// autoName is the window's automatic name ("" before the first read and
// for a window whose program could not be named).
func (w *Window) autoName() string {
	if n := w.auto.Load(); n != nil {
		return *n
	}
	return ""
}

// nameDue is called by the reader after each chunk: it reads the
// foreground now when the last read is nameInterval old, else arms the
// one trailing read for the end of the interval. It reports whether the
// automatic name changed.
func (w *Window) nameDue() bool {
	now := time.Now()
	w.nameMu.Lock()
	if w.nameClosed {
		w.nameMu.Unlock()
		return false
	}
	if wait := nameInterval - now.Sub(w.nameAt); wait > 0 {
		if !w.nameArmed {
			w.nameArmed = true
			if w.nameTimer == nil {
				w.nameTimer = time.AfterFunc(wait, w.nameTrailing)
			} else {
				w.nameTimer.Reset(wait)
			}
		}
		w.nameMu.Unlock()
		return false
	}
	w.nameAt = now
	w.nameMu.Unlock()
	return w.readName()
}

// nameTrailing is the trailing read: the program that started after the
// last chunk (a command that prints nothing) is named too.
func (w *Window) nameTrailing() {
	w.nameMu.Lock()
	w.nameArmed = false
	if w.nameClosed {
		w.nameMu.Unlock()
		return
	}
	w.nameAt = time.Now()
	w.nameMu.Unlock()
	if w.readName() {
		w.srv.windowRenamed(w)
	}
}

// stopNaming ends the trailing read; called when the window closes.
func (w *Window) stopNaming() {
	w.nameMu.Lock()
	w.nameClosed = true
	if w.nameTimer != nil {
		w.nameTimer.Stop()
	}
	w.nameMu.Unlock()
}

// readName reads the pane's foreground from /proc and stores the name it
// gives; it reports a change. A foreground that cannot be read (the shell
// exited) keeps the last name.
func (w *Window) readName() bool {
	if w.term.Exiting() {
		return false
	}
	fg, err := detect.ReadForeground(w.proc.Pid())
	if err != nil || !fg.Running {
		return false
	}
	var reg *detect.Registry
	if w.srv != nil && w.srv.tracker != nil {
		reg = w.srv.tracker.Detector().Registry()
	}
	name := automaticName(fg, w.pane.Foreground(), reg)
	if name == "" || name == w.autoName() {
		return false
	}
	w.auto.Store(&name)
	return true
}

// windowRenamed tells listeners that a window's automatic name changed:
// the attach layouts (its title bar, the rail), the Inbox rows naming it
// and the event stream (window-retitled, as for a rename).
func (s *Table) windowRenamed(w *Window) {
	s.attach.Output(w, true)
	s.hub.Publish(core.Event{Type: "window-retitled", Session: w.session.Name, Window: w.ID})
	s.d.InboxUpdate(w.ID)
}

// automaticName names a foreground: fg is what /proc says now, m the
// tracker's last match for the pane (it may be a read older, so it only
// counts while it describes the same process group).
func automaticName(fg detect.Foreground, m detect.Match, reg *detect.Registry) string {
	leader := fg.Leader
	if m.Agent && m.Identity == agentstate.IdentityManifest && m.HarnessID != "" && !fg.AtShell &&
		(m.Process.PID == leader.PID || m.Process.PGID == leader.PID) {
		if n := commandOf(reg, m.HarnessID); n != "" {
			return n
		}
	}
	return programName(leader)
}

// commandOf is the command a person types to start a harness: its
// manifest's first argv0 name, else its first comm name, else its id.
func commandOf(reg *detect.Registry, harness string) string {
	if reg != nil {
		if man, ok := reg.Lookup(harness); ok {
			if len(man.Detect.Argv0) > 0 {
				return man.Detect.Argv0[0]
			}
			if len(man.Detect.Comm) > 0 {
				return man.Detect.Comm[0]
			}
		}
	}
	return harness
}

// programName is tmux's pane_current_command for one process: the base
// name of argv[0]'s first word, a login shell's '-' dropped; a version
// string falls back to the process name, then to the executable's path.
func programName(p detect.ProcInfo) string {
	name := ""
	if len(p.Argv) > 0 {
		name = commandWord(p.Argv[0])
	}
	if name == "" || versionLike(name) {
		if c := commandWord(p.Comm); c != "" && (name == "" || !versionLike(c)) {
			name = c
		}
	}
	if versionLike(name) {
		if e := exeName(p.Exe); e != "" {
			name = e
		}
	}
	return name
}

// argvName is the name a window starting argv gets before its foreground
// has been read.
func argvName(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return commandWord(argv[0])
}

// commandWord is the base name of the first word of s, a leading '-'
// dropped.
func commandWord(s string) string {
	s = strings.TrimRight(s, "\x00")
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return core.Clip(s, 64)
}

// versionLike says whether a name reads as a version: a digit first, a
// dot in it, and nothing but letters, digits, dots, dashes and pluses.
func versionLike(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' || !strings.Contains(s, ".") {
		return false
	}
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '.', c == '-', c == '+':
		default:
			return false
		}
	}
	return true
}

// exeName is the last directory of an executable's path that names it:
// not a version and not one of the directories a versioned install puts
// it under.
func exeName(exe string) string {
	parts := strings.Split(strings.Trim(exe, "/"), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		p := parts[i]
		switch {
		case p == "" || versionLike(p):
		case p == "versions" || p == "version" || p == "bin" || p == "current" || p == "libexec":
		default:
			return core.Clip(p, 64)
		}
	}
	return ""
}
