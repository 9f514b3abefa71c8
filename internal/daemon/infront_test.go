package daemon

import (
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// A finished turn is seen when an attached client shows its pane focused:
// its Inbox item closes (seen) and the layout says so; a pane out of sight
// keeps its item until the person focuses it; the pane in front of the
// person cannot be marked unread.
func TestAFinishedTurnIsSeenWhenThePersonLooksAtIt(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	front := catPane(t, r, "api")
	back := str(r.must("new-window", map[string]any{"session": "api", "argv": []string{"/bin/cat"}, "no_focus": true})["window_id"])
	for _, w := range []string{front, back} {
		report(t, r, w, "working", "", "")
		report(t, r, w, "done", "", "all green")
	}
	waitList(t, r, nil, "two finished items", func(l attList) bool { return l.Counts["finished"] == 2 })

	st, att := attachStreamT(t, sock, map[string]any{"session": "api", "cols": 100, "rows": 30})
	nonce := str(att["human_nonce"])
	if info := r.must("session-info", map[string]any{"session": "api"}); info["attached"] != true {
		t.Fatalf("session-info while attached: %v", info)
	}
	st.until("a layout with the focused pane seen", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay := layoutOf(t, l)
		for _, w := range lay.Windows {
			if w.ID == front && w.Seen && lay.Focused == front {
				return true
			}
		}
		return false
	})
	l := waitList(t, r, nil, "the focused pane's item closed", func(l attList) bool { return l.Counts["finished"] == 1 })
	if l.Items[0].Window != back {
		t.Fatalf("the item left is %+v, want the pane out of sight", l.Items[0])
	}
	if _, err := r.call("mark-attention", map[string]any{"action": "unread", "session": "api", "window": front, "human_nonce": nonce}); err == nil || err.Code != proto.CodeInvalidParams {
		t.Fatalf("marking the pane in front of the person unread: %v", err)
	}

	r.must("focus-window", map[string]any{"session": "api", "window": back})
	waitList(t, r, nil, "focusing the other pane marks it seen", func(l attList) bool { return l.Counts["finished"] == 0 })
	if s := r.must("get-agent-state", map[string]any{"window": back}); s["finished_unread"] != false {
		t.Fatalf("the focused pane's turn is still unread: %v", s)
	}
	var lay proto.AttachLayout
	st.until("the agents rail marking both seen", func(l line) bool {
		if l.typ != "layout" {
			return false
		}
		lay = layoutOf(t, l)
		n := 0
		for _, a := range lay.Agents {
			if a.Seen {
				n++
			}
		}
		return n == 2
	})
}

// A small client that leaves gives the session back to the size of the
// latest client still attached.
func TestASessionTakesBackTheRemainingClientsSize(t *testing.T) {
	t.Parallel()
	_, sock := server(t)
	r := dialRPC(t, sock)
	catPane(t, r, "api")
	big, _ := attachStreamT(t, sock, map[string]any{"session": "api", "cols": 120, "rows": 30})
	big.until("a layout", func(l line) bool { return l.typ == "layout" })
	small, _ := attachStreamT(t, sock, map[string]any{"session": "api", "cols": 20, "rows": 5})
	small.until("a layout", func(l line) bool { return l.typ == "layout" })
	size := func() string {
		info := r.must("session-info", map[string]any{"session": "api"})
		return str(info["width"]) + "x" + str(info["height"])
	}
	if got := size(); got != "20x5" {
		t.Fatalf("with the small client: %s", got)
	}
	// The big client must have drawn the small size before the small one
	// leaves: a stream sends a layout only when it differs from the last
	// one it sent, so a writer that slept through both changes sends none.
	big.until("a layout of the small size", func(l line) bool {
		return l.typ == "layout" && layoutOf(t, l).Cols == 20 && layoutOf(t, l).Rows == 5
	})
	small.c.Close()
	eventually(t, "the session back at the big client's size", func() bool { return size() == "120x30" })
	big.until("a layout of the big size", func(l line) bool {
		return l.typ == "layout" && layoutOf(t, l).Cols == 120 && layoutOf(t, l).Rows == 30
	})
}
