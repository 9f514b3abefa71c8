package mux

import (
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/core"
)

// settleOutput waits until the pane has printed nothing for quiet (from
// now at the earliest), at most max. A protocol pane draws a turn's last
// frame just before it reports the turn's end, over another channel:
// ask-agent reads the answer once that frame is on the screen.
func (w *Window) settleOutput(quiet, max time.Duration) {
	start := time.Now()
	end := start.Add(max)
	for time.Now().Before(end) {
		last, g := w.Term().LastOutput()
		if last.Before(start) {
			// The frame may still be on its way through the pty: the
			// silence counts from now.
			last = start
		}
		wait := quiet - time.Since(last)
		if wait <= 0 {
			return
		}
		select {
		case <-g:
		case <-time.After(wait):
			return
		case <-w.Term().Exited():
			return
		}
	}
}

// ScreenOnly is a window that is only a screen: no process, in no
// session or table. What reads a window's screen (an attach stream's
// frames) can be measured on it alone.
func ScreenOnly(id string, p *detect.Pane) *Window { return &Window{ID: id, pane: p} }

// Handle is a live handle on w's pane, as the features see it.
func (w *Window) Handle() core.Pane { return paneHandle{w} }

// paneHandle is a live handle on a window's pane (core.Pane).
type paneHandle struct{ w *Window }

func (p paneHandle) ID() string { return p.w.ID }

func (p paneHandle) Tracked() *detect.Pane { return p.w.Tracked() }

func (p paneHandle) Pid() int { return p.w.Proc().Pid() }

func (p paneHandle) ForegroundPgrp() (int, error) { return p.w.Proc().ForegroundPgrp() }

func (p paneHandle) Exited() <-chan struct{} { return p.w.Term().Exited() }

func (p paneHandle) Dir() string { return p.w.DirNow() }

func (p paneHandle) Output() <-chan struct{} {
	_, gen := p.w.Term().LastOutput()
	return gen
}

func (p paneHandle) Revision() (uint64, bool) { return p.w.Term().Printed() }

func (p paneHandle) LastOutput() time.Time {
	last, _ := p.w.Term().LastOutput()
	return last
}

func (p paneHandle) Settle(quiet, max time.Duration) { p.w.settleOutput(quiet, max) }

func (p paneHandle) Quiet() (time.Time, <-chan struct{}) { return p.w.Term().Quiet() }

func (p paneHandle) ExitCode() (int, bool) {
	st, ok := p.w.Term().ExitStatus()
	return st.Code, ok
}
