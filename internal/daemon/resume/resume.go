package resume

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
)

const (
	// CodeNotResumable is resume-agent's error for a pane with no
	// conversation to resume, or none that can be typed safely.
	CodeNotResumable = "not_resumable"
	// codeNotReady is the core's not_ready: the pane's shell is not at
	// its prompt.
	codeNotReady = "not_ready"

	promptWait = 10 * time.Second       // auto: longest wait for the new shell's prompt
	quietFor   = 300 * time.Millisecond // auto: quiet after the prompt before typing
	paneGap    = 100 * time.Millisecond // auto: between two panes
	maxID      = 256                    // bytes of a conversation id
)

// Feature is resume after restart, as the daemon composes it.
type Feature struct {
	h        core.Host
	quit     chan struct{} // closed by Shutdown: auto typing stops
	quitOnce sync.Once
	wg       sync.WaitGroup
}

var _ core.Feature = (*Feature)(nil)

// New makes the feature; Init adds it to a daemon.
func New() *Feature { return &Feature{quit: make(chan struct{})} }

// Name is "resume".
func (f *Feature) Name() string { return "resume" }

// Init serves resume-agent and makes the offers once the sessions came
// back.
func (f *Feature) Init(h core.Host) error {
	f.h = h
	h.OnRestored(f.offer)
	f.addVerb(h) // verb.go
	return nil
}

// Shutdown stops auto typing and waits for it to end.
func (f *Feature) Shutdown(ctx context.Context) error {
	f.quitOnce.Do(func() { close(f.quit) })
	done := make(chan struct{})
	go func() { f.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// offer makes the offers for the windows restored with a live agent,
// once, after the Inbox's items were loaded (so a loaded item does not
// shadow a new one).
func (f *Feature) offer(back []core.Restored) {
	mode := f.h.Options().Config.ResumeMode()
	if mode == "off" {
		return
	}
	var auto []core.WindowView
	for _, r := range back {
		if !r.Live || r.AgentSessionID == "" {
			continue
		}
		w, ok := f.h.Find(r.Window)
		if !ok {
			continue
		}
		if _, _, perr := f.command(w); perr != nil {
			continue // no [resume] for its harness, or an id that cannot be typed
		}
		if mode == "auto" {
			auto = append(auto, w)
		} else {
			f.openItem(w.ID)
		}
	}
	if len(auto) > 0 {
		f.wg.Add(1)
		go f.autoType(auto)
	}
}

// autoType types each pane's command once its shell is at its prompt,
// one pane after another, paneGap apart; a pane that does not get there
// gets the ask item (so does each one left when the daemon stops).
func (f *Feature) autoType(ws []core.WindowView) {
	defer f.wg.Done()
	for i, w := range ws {
		if i > 0 {
			f.sleep(paneGap)
		}
		if !f.waitPrompt(w) { // the daemon stopping is one reason: the item is kept for the next
			f.openItem(w.ID)
			continue
		}
		if _, perr := f.typeCommand(f.h.Own("resume"), w); perr != nil { // resume_agents = auto: the daemon's own act
			f.h.Log().About(w.ID, "").Warnf("resume: %s: %s", w.ID, perr.Message)
			f.openItem(w.ID)
		}
	}
}

// sleep waits d on the daemon's clock (a one-shot timer); false when the
// daemon or the feature stops first.
func (f *Feature) sleep(d time.Duration) bool {
	ch := make(chan struct{})
	t := f.h.Clock().AfterFunc(d, func() { close(ch) })
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-f.h.Done():
		return false
	case <-f.quit:
		return false
	}
}

// waitPrompt waits, at most promptWait, for the new shell to have drawn
// something, then quietFor without output, with the shell holding the
// terminal's foreground. Event driven: it wakes on output and on its two
// one-shot timers only.
func (f *Feature) waitPrompt(w core.WindowView) bool {
	clock := f.h.Clock()
	deadline := make(chan struct{})
	dt := clock.AfterFunc(promptWait, func() { close(deadline) })
	defer dt.Stop()
	gen := w.Pane.Output() // before the count: output between the two wakes it
	n, _ := w.Pane.Revision()
	printed := n > 0
	for {
		var quiet chan struct{}
		var qt agentstate.Timer
		if printed {
			quiet = make(chan struct{})
			q := quiet
			qt = clock.AfterFunc(quietFor, func() { close(q) })
		}
		select {
		case <-gen:
			printed = true
			gen = w.Pane.Output()
		case <-quiet:
			if shellInFront(w) {
				return true
			}
			printed = false // a program runs: wait for the shell's next output
		case <-deadline:
			stopTimer(qt)
			return false
		case <-w.Pane.Exited():
			stopTimer(qt)
			return false
		case <-f.h.Done():
			stopTimer(qt)
			return false
		case <-f.quit:
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
func shellInFront(w core.WindowView) bool {
	if w.Program {
		return false
	}
	pgrp, err := w.Pane.ForegroundPgrp()
	return err == nil && pgrp == w.Pane.Pid()
}

// command is the argv that resumes the window's conversation, and the
// harness it belongs to; not_resumable when there is none or its id
// cannot be typed safely.
func (f *Feature) command(w core.WindowView) ([]string, string, *proto.Error) {
	snap := f.h.Tracker().Arbiter().Get(w.ID)
	id, harness := snap.SessionID, snap.ConversationHarness()
	if id == "" {
		id, harness = w.ResumeID, w.ResumeHarness
	}
	if id == "" {
		return nil, harness, proto.Errorf(CodeNotResumable, "the pane holds no agent conversation id").
			WithHint(proto.Hint{Detail: "the harness's hook reports it (tuios integration install), or set-agent-session"})
	}
	if why := badID(id); why != "" {
		return nil, harness, proto.Errorf(CodeNotResumable, "the conversation id %s, so it is never typed", why).
			WithHint(proto.Hint{Detail: "ids are 1-256 bytes of letters, digits and _ . / : - and do not start with -"})
	}
	var argv []string
	if reg := f.h.Tracker().Detector().Registry(); reg != nil && harness != "" {
		if m, ok := reg.Lookup(harness); ok {
			argv = m.Resume.Argv
		}
	}
	if len(argv) == 0 {
		name := harness
		if name == "" {
			name = "an unknown harness"
		}
		return nil, harness, proto.Errorf(CodeNotResumable, "%s has no [resume] command", name).
			WithHint(proto.Hint{Detail: "add a [resume] argv with {session_id} to its manifest"})
	}
	out := make([]string, len(argv))
	for i, tok := range argv {
		out[i] = strings.ReplaceAll(tok, "{session_id}", id)
	}
	return out, harness, nil
}

// badID says what makes an id unsafe to type, "" when nothing: it
// becomes one shell word, so only letters, digits and _ . / : - are
// allowed, and a leading - would read as an option.
func badID(id string) string {
	switch {
	case id == "":
		return "is empty"
	case len(id) > maxID:
		return "is " + strconv.Itoa(len(id)) + " bytes, over " + strconv.Itoa(maxID)
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

// openItem opens the window's resume Inbox item, when its conversation
// can be resumed.
func (f *Feature) openItem(window string) {
	w, ok := f.h.Find(window)
	if !ok {
		return
	}
	argv, harness, perr := f.command(w)
	if perr != nil {
		return
	}
	f.h.OpenResumeItem(w.ID, harness, strings.Join(argv, " "))
}

// typeCommand types the resume command at the pane's shell prompt as the
// call c, and closes its resume item.
func (f *Feature) typeCommand(c core.Call, w core.WindowView) ([]string, *proto.Error) {
	argv, _, perr := f.command(w)
	if perr != nil {
		return nil, perr
	}
	if !shellInFront(w) {
		return argv, proto.Errorf(codeNotReady, "a program is running in the pane's foreground").
			WithHint(proto.Hint{Command: "tuios capture-pane -w " + w.ID[:8], Detail: "resume when the pane's shell is at its prompt"})
	}
	if perr := f.h.Type(c, w.ID, strings.Join(argv, " ")+"\r"); perr != nil {
		return argv, perr
	}
	f.h.CloseResumeItem(w.ID)
	return argv, nil
}
