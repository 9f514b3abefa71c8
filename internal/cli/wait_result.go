package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/mail"
)

// printWaitResult is wait-for's text view: one line saying what matched
// (a script that needs the ids reads --json). A message is named by its
// id, sender and thread, never its body; a matched pane line is pane
// text, so it is printed fenced.
func printWaitResult(out io.Writer, r proto.WaitResult) error {
	win := "window " + shortWindow(r.Window)
	switch r.Condition {
	case "agent-message":
		// Named as everywhere (mail.Sender): a window's name with its
		// short id, so two windows named alike differ.
		var m proto.WaitMessage
		if r.WaitMessage != nil {
			m = *r.WaitMessage
		}
		who := escapeControls(mail.Sender(&mail.Message{From: m.From, FromLabel: m.FromLabel}))
		if m.From == "" && m.FromLabel == "" {
			who = "a shell" // sent from outside every pane, with no --from label
		}
		_, err := fmt.Fprintf(out, "#%d from %s (thread %d)\n", m.MessageID, who, m.ThreadID)
		return err
	case "agent-state":
		_, err := fmt.Fprintf(out, "%s is %s\n", win, r.State)
		return err
	case "window-output":
		line := ""
		if r.Line != nil {
			line = *r.Line
		}
		_, err := fmt.Fprint(out, mail.Fence(win, line, false))
		return err
	case "window-idle":
		_, err := fmt.Fprintf(out, "%s went quiet\n", win)
		return err
	case "window-exit":
		code := "unknown"
		if r.ExitCode != nil {
			code = fmt.Sprint(*r.ExitCode)
		}
		closed := ""
		if r.Closed {
			closed = " and closed"
		}
		_, err := fmt.Fprintf(out, "%s exited with code %s%s\n", win, code, closed)
		return err
	case "session-exists":
		_, err := fmt.Fprintf(out, "session %s exists\n", escapeControls(r.Session))
		return err
	}
	return nil
}

// shortWindow is a window id's first 8 characters (what the tables show);
// any other name (human) whole.
func shortWindow(id string) string {
	if len(id) == 36 && strings.Count(id, "-") == 4 {
		return id[:8]
	}
	return escapeControls(id)
}
