package daemon

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
	"github.com/tuios/tuios/internal/proto"
)

// Resume after restart (docs/agents.md, Resume conversations after a restart). A restart ends every
// program; the restore brings each window back with a new shell. For a
// window whose saved state had a live agent, and whose harness manifest
// says how to resume a conversation ([resume] argv with {session_id}),
// [daemon] resume_agents decides: ask (default) opens one resume Inbox
// item whose summary is the exact command; auto types it once the new
// shell is at its prompt and has been quiet for 300 ms (waiting at most
// 10 s, panes 100 ms apart), falling back to the ask item; off does
// nothing. The conversation id stays on the window either way, so
// resume-agent can type it later.
//
// The offer is made once: a restored window has no agent state, so the
// next save writes agent_live false and a later restart offers nothing,
// unless the agent ran again.

const (
	codeNotResumable = "not_resumable" // not_ready is verbs_mail.go's

	resumePromptWait = 10 * time.Second       // auto: longest wait for the new shell's prompt
	resumeQuiet      = 300 * time.Millisecond // auto: quiet after the prompt before typing
	resumeGap        = 100 * time.Millisecond // auto: between two panes
	maxResumeID      = 256                    // bytes of a conversation id
)

// resumer holds the windows a restore brought back with a live agent,
// until the Inbox is loaded and they can be offered.
type resumer struct {
	s       *Server
	mu      sync.Mutex
	pending []*Window
}

func newResumer(s *Server) *resumer { return &resumer{s: s} }

// restored notes a window the restore brought back; live says its saved
// state had an agent running.
func (r *resumer) restored(w *Window, id, harness string, live bool) {
	r.s.mu.Lock()
	w.resumeID, w.resumeHarness = id, harness
	r.s.mu.Unlock()
	if !live || id == "" {
		return
	}
	r.mu.Lock()
	r.pending = append(r.pending, w)
	r.mu.Unlock()
}

// offer makes the offers for the windows restored, once, after the
// Inbox's items were loaded (so a loaded item does not shadow a new one).
func (r *resumer) offer() {
	r.mu.Lock()
	ws := r.pending
	r.pending = nil
	r.mu.Unlock()
	mode := r.s.opt.Config.ResumeMode()
	if mode == "off" || len(ws) == 0 {
		return
	}
	var auto []*Window
	for _, w := range ws {
		if _, _, perr := r.s.resumeCommand(w); perr != nil {
			continue // no [resume] for its harness, or an id that cannot be typed
		}
		if mode == "auto" {
			auto = append(auto, w)
		} else {
			r.s.openResumeItem(w)
		}
	}
	if len(auto) > 0 {
		go r.autoType(auto)
	}
}

// autoType types each pane's command once its shell is at its prompt,
// one pane after another, resumeGap apart; a pane that does not get
// there gets the ask item.
func (r *resumer) autoType(ws []*Window) {
	for i, w := range ws {
		if i > 0 {
			r.sleep(resumeGap)
		}
		if !r.waitPrompt(w) {
			r.s.openResumeItem(w)
			continue
		}
		if _, perr := r.s.typeResume(context.Background(), w, nil); perr != nil {
			r.s.about(w.ID, "").warnf("resume: %s: %s", w.ID, perr.Message)
			r.s.openResumeItem(w)
		}
	}
}

// sleep waits d on the daemon's clock (a one-shot timer), or until the
// daemon stops.
func (r *resumer) sleep(d time.Duration) bool {
	ch := make(chan struct{})
	t := r.s.clock.AfterFunc(d, func() { close(ch) })
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-r.s.done:
		return false
	}
}

// waitPrompt waits, at most resumePromptWait, for the new shell to have
// drawn something, then resumeQuiet without output, with the shell
// holding the terminal's foreground. Event driven: it wakes on output
// and on its two one-shot timers only.
func (r *resumer) waitPrompt(w *Window) bool {
	deadline := make(chan struct{})
	dt := r.s.clock.AfterFunc(resumePromptWait, func() { close(deadline) })
	defer dt.Stop()
	w.mu.Lock()
	gen, printed := w.outputGen, w.outBytes > 0
	w.mu.Unlock()
	for {
		var quiet chan struct{}
		var qt agentstate.Timer
		if printed {
			quiet = make(chan struct{})
			q := quiet
			qt = r.s.clock.AfterFunc(resumeQuiet, func() { close(q) })
		}
		select {
		case <-gen:
			printed = true
			w.mu.Lock()
			gen = w.outputGen
			w.mu.Unlock()
		case <-quiet:
			if shellInFront(w) {
				return true
			}
			printed = false // a program runs: wait for the shell's next output
		case <-deadline:
			stopTimer(qt)
			return false
		case <-w.exitCh:
			stopTimer(qt)
			return false
		case <-r.s.done:
			stopTimer(qt)
			return false
		}
		stopTimer(qt)
	}
}

func stopTimer(t agentstate.Timer) {
	if t != nil {
		t.Stop()
	}
}

// shellInFront reports whether the pane's shell holds the terminal's
// foreground: nothing it started is running in front of it.
func shellInFront(w *Window) bool {
	if w.program {
		return false
	}
	pgrp, err := w.proc.ForegroundPgrp()
	return err == nil && pgrp == w.proc.Pid()
}

// resumeCommand is the argv that resumes the window's conversation, and
// the harness it belongs to; not_resumable when there is none or its id
// cannot be typed safely.
func (s *Server) resumeCommand(w *Window) ([]string, string, *proto.Error) {
	snap := s.tracker.Arbiter().Get(w.ID)
	id, harness := snap.SessionID, snap.Harness
	s.mu.Lock()
	if id == "" {
		id, harness = w.resumeID, w.resumeHarness
	}
	s.mu.Unlock()
	if id == "" {
		return nil, harness, proto.Errorf(codeNotResumable, "the pane holds no agent conversation id").
			WithHint(proto.Hint{Detail: "the harness's hook reports it (tuios integration install), or set-agent-session"})
	}
	if why := badResumeID(id); why != "" {
		return nil, harness, proto.Errorf(codeNotResumable, "the conversation id %s, so it is never typed", why).
			WithHint(proto.Hint{Detail: "ids are 1-256 bytes of letters, digits and _ . / : - and do not start with -"})
	}
	var argv []string
	if reg := s.tracker.Detector().Registry(); reg != nil && harness != "" {
		if m, ok := reg.Lookup(harness); ok {
			argv = m.Resume.Argv
		}
	}
	if len(argv) == 0 {
		name := harness
		if name == "" {
			name = "an unknown harness"
		}
		return nil, harness, proto.Errorf(codeNotResumable, "%s has no [resume] command", name).
			WithHint(proto.Hint{Detail: "add a [resume] argv with {session_id} to its manifest"})
	}
	out := make([]string, len(argv))
	for i, tok := range argv {
		out[i] = strings.ReplaceAll(tok, "{session_id}", id)
	}
	return out, harness, nil
}

// badResumeID says what makes an id unsafe to type, "" when nothing: it
// becomes one shell word, so only letters, digits and _ . / : - are
// allowed, and a leading - would read as an option.
func badResumeID(id string) string {
	switch {
	case id == "":
		return "is empty"
	case len(id) > maxResumeID:
		return "is " + strconv.Itoa(len(id)) + " bytes, over " + strconv.Itoa(maxResumeID)
	case id[0] == '-':
		return "starts with -"
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_./:-", r):
		default:
			return "holds " + strconv.QuoteRune(r)
		}
	}
	return ""
}

// openResumeItem opens the window's resume Inbox item.
func (s *Server) openResumeItem(w *Window) {
	argv, harness, perr := s.resumeCommand(w)
	if perr != nil {
		return
	}
	s.mu.Lock()
	if s.windows[w.ID] != w {
		s.mu.Unlock()
		return
	}
	p := inbox.Pane{ID: w.ID, Session: w.session.Name, Workspace: strconv.Itoa(w.workspace), Name: w.DisplayName(), Harness: harness}
	s.mu.Unlock()
	s.att.do(func() []inbox.Event { return s.att.q.Resume(p, strings.Join(argv, " ")) })
}

// typeResume types the resume command at the pane's shell prompt, and
// closes its resume item. A nil cn types on the daemon's behalf (auto).
func (s *Server) typeResume(ctx context.Context, w *Window, cn *conn) ([]string, *proto.Error) {
	argv, _, perr := s.resumeCommand(w)
	if perr != nil {
		return nil, perr
	}
	if !shellInFront(w) {
		return argv, proto.Errorf(codeNotReady, "a program is running in the pane's foreground").
			WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "resume when the pane's shell is at its prompt"})
	}
	line := []byte(strings.Join(argv, " ") + "\r")
	if cn != nil {
		if perr := s.typeInto(cn, w, line, 0); perr != nil {
			return argv, perr
		}
	} else if perr := s.typeAs(ctx, "resume", types, caller{own: true}, w, line, 0, true); perr != nil { // resume_agents = auto: the daemon's own act
		return argv, perr
	}
	s.att.do(func() []inbox.Event {
		evs, _ := s.att.q.Close(inbox.PaneKey(inbox.KindResume, w.ID), inbox.ReasonResolved)
		return evs
	})
	return argv, nil
}
