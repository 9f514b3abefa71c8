package daemon

import (
	"strings"
	"time"

	"github.com/tuios/tuios/detect"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// pasteDraw and pasteDrawAgent bound how long typePrompt waits for a
// pane to draw a paste before the submit key: a program that may never
// draw it, and an agent's harness, which does.
const (
	pasteDraw      = 300 * time.Millisecond
	pasteDrawAgent = 2 * time.Second
)

// typePrompt types text into w as one prompt, the way ask-agent and the
// reply queue (queue.go) both do: one paste (bracketed when the pane has
// DECSET 2004 on and the harness's manifest allows it, else one line, since
// a newline would submit early), trailing newlines dropped, paste
// delimiters stripped, up to pasteDraw (pasteDrawAgent for an agent's
// bracketed paste) for the pane to draw the paste (less
// once it drew and went quiet, at least the manifest's submit_delay_ms),
// then the harness's submit key. It returns
// the harness it typed for, the output generation read just before the
// submit (closed by the first chunk after it) and when the submit went
// out, by the daemon's clock. cn's context ends the waits.
func (s *Server) typePrompt(cn *conn, w *mux.Window, screen *vt.Screen, text string) (harness string, gen <-chan struct{}, submitAt time.Time, err *proto.Error) {
	ctx := cn.ctx
	harness = s.tracker.Arbiter().Brief(w.ID).Harness
	input := detect.InputSpec{BracketedPaste: true, Submit: "cr"}
	if reg := s.tracker.Detector().Registry(); reg != nil && harness != "" {
		if man, ok := reg.Lookup(harness); ok {
			input = man.Input
		}
	}
	text = strings.NewReplacer("\x1b[200~", "", "\x1b[201~", "").Replace(text)
	text = strings.TrimRight(text, "\r\n")
	var paste string
	if input.BracketedPaste && screen.Mode(vt.ModeBracketedPaste) {
		paste = "\x1b[200~" + text + "\x1b[201~"
	} else { // no paste mode: newlines would submit early, so one line
		paste = strings.Join(strings.Fields(strings.ReplaceAll(text, "\r", "\n")), " ")
	}
	_, gen = w.Term().LastOutput()
	if err := s.typeInto(cn, w, []byte(paste), 0); err != nil {
		return harness, gen, time.Time{}, err
	}
	// Up to pasteDraw for the pane to draw the paste (an agent's own
	// harness draws a bracketed paste, but a busy machine can take more
	// than 300 ms to: an Enter before the draw is taken into the paste by
	// some, and the prompt stays unsent); less once it drew and went
	// quiet, but never under the harness's submit_delay_ms.
	pastedAt := time.Now()
	drawWait := pasteDraw
	if harness != "" && strings.HasPrefix(paste, "\x1b[200~") {
		drawWait = pasteDrawAgent
	}
	drawDeadline := time.NewTimer(drawWait)
	func() {
		defer drawDeadline.Stop()
		select {
		case <-gen:
		case <-drawDeadline.C:
			return
		case <-ctx.Done():
			return
		}
		for {
			_, gen = w.Term().LastOutput()
			select {
			case <-gen:
			case <-time.After(50 * time.Millisecond):
				return
			case <-drawDeadline.C:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	if gap := time.Duration(input.SubmitDelayMS)*time.Millisecond - time.Since(pastedAt); gap > 0 {
		select {
		case <-time.After(gap):
		case <-ctx.Done():
		}
	}
	if input.FocusBeforeSubmit && screen.Mode(vt.ModeFocusReporting) {
		s.focusIn(cn, w)
	}
	_, gen = w.Term().LastOutput()
	submitAt = s.clock.Now()
	if err := s.typeInto(cn, w, []byte(input.SubmitKey()), 0); err != nil {
		return harness, gen, submitAt, err
	}
	w.Tracked().Typed()
	return harness, gen, submitAt, nil
}
