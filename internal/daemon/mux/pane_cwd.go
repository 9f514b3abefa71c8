package mux

import (
	"github.com/tuios/tuios/internal/procstat"
)

// cwdNow is the pane's current directory as get-window, get-agent-state
// and the selector's cwd: term read it: the foreground job's, as the
// kernel has it, while the shell runs one (a shell says OSC 7 at its
// prompt, so it lags behind `cd repo && claude`); else what the shell
// last said (OSC 7, which also names a directory at the far end of an
// ssh); else the shell's own. "" when none can be read. It takes no lock:
// a TIOCGPGRP and a readlink or two, cheap enough under s.mu.
func (w *Window) cwdNow() string {
	if w.proc == nil {
		return w.DirNow()
	}
	pid := w.proc.Pid()
	if pg, err := w.proc.ForegroundPgrp(); err == nil && pg > 0 && pg != pid {
		if d := procstat.Cwd(pg); d != "" {
			return d
		}
	}
	if d := w.DirNow(); d != "" {
		return d
	}
	return procstat.Cwd(pid)
}

// PaneDirs reads every local pane's current directory, for a selector's
// cwd: term over Inbox items, which do not carry one. The /proc reads run
// without s.mu.
func (s *Table) PaneDirs() map[string]string {
	ws := s.WindowList() // table.go
	out := make(map[string]string, len(ws))
	for _, w := range ws {
		out[w.ID] = w.cwdNow()
	}
	return out
}
