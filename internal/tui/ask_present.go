package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tuios/tuios/internal/proto"
)

// The ask-human presentation (docs/inbox.md, The Inbox in the attached
// client): a question from the pane on screen opens the Inbox on it at
// once, where a digit picks the answer, and keys are dropped for askDrop so
// a keystroke meant for the pane does not answer it. A person typing into
// that pane (the one who just ran ask-human there, say) is not interrupted
// mid-word: the Inbox opens once they have not typed into it for askDwell,
// never later than that. Each question is shown once, by its request id, so
// a new question from the same pane opens the Inbox again, and one the
// person closed does not come back. With another overlay open (review,
// scrollback, a rename) the question waits in the Inbox like any other, and
// the pane's title bar and rail row draw ▲ while it is open.

// askDwell and askDrop are the presentation's times.
const (
	askDwell = 600 * time.Millisecond
	askDrop  = 400 * time.Millisecond
)

// askDueMsg wakes the model when a question waits for the person to stop
// typing into the pane that asked.
type askDueMsg struct{}

// presentAsk opens the Inbox on a question that a pane on screen has
// just asked, and says when to look again for one the person's typing
// put off.
func (m *Model) presentAsk(l proto.AttachLayout) tea.Cmd {
	now := m.clock.Now()
	shown := map[string]string{}
	var wait time.Duration
	for _, w := range l.Windows {
		if !w.Asking || w.Minimized {
			continue
		}
		q := w.AskID
		if q == "" {
			q = "?" // a daemon that names no question: one per asking spell
		}
		if m.asking[w.ID] == q {
			shown[w.ID] = q
			continue
		}
		if w.ID == m.typedWin && now.Sub(m.typedAt) < askDwell {
			wait = max(wait, m.typedAt.Add(askDwell).Sub(now))
			continue
		}
		shown[w.ID] = q
		if m.inbox != nil || m.review != nil || m.scroll != nil || m.rename != nil || m.confirmClose != "" {
			continue
		}
		m.openInbox()
		m.inbox.want = w.ID
		m.dropUntil = now.Add(askDrop)
	}
	m.asking = shown
	if wait <= 0 {
		return nil
	}
	return tea.Tick(wait, func(time.Time) tea.Msg { return askDueMsg{} })
}
