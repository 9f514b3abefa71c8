package waitfor

import (
	"strings"

	"github.com/tuios/tuios/internal/daemon/core"
	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/internal/shquote"
)

// waitWhere is the pane a wait watched, named the way the caller can name
// it again: their own -s/-w when they gave them, else the session and the
// short id the wait resolved, so the hint's command looks at the same
// pane even after the focus moved.
type waitWhere struct {
	session, window string
}

// fill names what the wait resolved where the caller gave nothing.
func (wh *waitWhere) fill(w core.WindowView) {
	if wh.session == "" {
		wh.session = w.Session
	}
	if wh.window == "" {
		wh.window = w.ID[:min(8, len(w.ID))]
	}
}

// flags is " -s S -w W" for what is known, each word quoted for a POSIX
// shell.
func (wh waitWhere) flags(window bool) string {
	var b strings.Builder
	if wh.session != "" {
		b.WriteString(" -s " + shquote.Word("sh", wh.session))
	}
	if window && wh.window != "" {
		b.WriteString(" -w " + shquote.Word("sh", wh.window))
	}
	return b.String()
}

// waitTimeoutHint is what a wait-for timeout suggests next: capture the
// pane it watched (with the same -s/-w), or, when no one pane was
// watched, the listing that shows what there is.
func waitTimeoutHint(condition string, wh waitWhere) proto.Hint {
	switch {
	case condition == "session-exists":
		return proto.Hint{Command: "tuios ls", Detail: "list the sessions that do exist"}
	case condition == "agent-state" && wh.window == "", condition == "agent-message" && wh.window == "":
		return proto.Hint{Command: "tuios list-agents" + wh.flags(false), Detail: "list the agent panes and their states"}
	}
	return proto.Hint{Command: "tuios capture-pane" + wh.flags(true) + " --scrollback --lines 40", Detail: "capture the pane to see what it actually printed"}
}
