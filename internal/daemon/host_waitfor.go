package daemon

import (
	"context"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/daemon/mailbox"
	"github.com/tuios/tuios/internal/daemon/mux"
	"github.com/tuios/tuios/internal/daemon/waitfor"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/pty"
)

// What wait-for (internal/daemon/waitfor) reads of the core: a program
// window's exit, before the window leaves the table; when a pane last
// printed and its exit code; and, handed over here, the mail feature's
// wait for a message.

// OnProgramExit adds a hook programExited runs.
func (h host) OnProgramExit(fn func(core.ProgramExit)) {
	h.registering()
	h.s.programExitHooks = append(h.s.programExitHooks, fn)
}

// programExited tells the features that w's program exited with status,
// before the window is closed: a wait-for window-exit that starts after
// the close still finds the exit. The hooks run with no core lock held.
func (s *Server) programExited(w *mux.Window, status pty.ExitStatus) {
	ex := s.tab.ProgramExit(w, status.Code) // table.go
	for _, fn := range s.programExitHooks {
		fn(ex)
	}
}

// waitMail is wait-for's agent-message condition: the mail feature's
// wait (internal/daemon/mailbox), which answers with the message it got.
func (s *Server) waitMail(ctx context.Context, c core.Call, w waitfor.MailWait, timedOut func(string) *proto.Error) (any, *proto.Error) {
	return s.mail.Wait(ctx, c, mailbox.WaitFor{Session: w.Session, Inbox: w.Inbox, Thread: w.Thread}, timedOut)
}
