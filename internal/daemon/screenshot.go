package daemon

import (
	"strings"

	"github.com/tuios/tuios/internal/proto"
	"github.com/tuios/tuios/vt"
)

// screenshotHistory is how much history --scrollback takes by default:
// enough to show what scrolled by, small enough for a PNG to stay a few
// megabytes.
const screenshotHistory = 500

func (s *Server) screenshotVerbs(add addFunc) {
	p, h := handler(func(cn *conn, p *proto.ScreenshotParams) (any, *proto.Error) {
		v, w, err := s.tab.TargetView(cn, p.Session, p.Window) // table.go
		if err != nil {
			return nil, err
		}
		limit := p.History
		if limit <= 0 {
			limit = screenshotHistory
		}
		cols, rows, hist, content := styledGrid(w.Tracked().Screen(), p.Scrollback, limit)
		return proto.PaneScreenshot{Type: "pane_screenshot", WindowID: w.ID, Session: v.Session, Name: v.Name,
			DisplayName: v.DisplayName, Cols: cols, Rows: rows, History: hist, Content: content}, nil
	})
	add("screenshot", reads, "Read a pane's styled cells for a picture: its size in cells and its rows (history first with scrollback) as text with SGR sequences, one line a row", "pane_screenshot",
		`{"verb":"screenshot","params":{"window":"build","scrollback":true}}`, p, h)
}

// styledGrid is the screen's rows as SGR-styled lines, exactly rows of
// them, after at most limit lines of history when scrollback is asked for
// (none on the alternate screen, which has no history). It returns the
// screen's size and how many history lines lead the content.
func styledGrid(sc *vt.Screen, scrollback bool, limit int) (cols, rows, hist int, content string) {
	cols, rows = sc.Size()
	n := 0
	var all string
	if scrollback && !sc.AltScreen() {
		// The history length and the capture are read under separate
		// locks; a line scrolling off in between is read again.
		for range 3 {
			n = sc.ScrollbackLen()
			all = sc.Capture(vt.CaptureOptions{Scrollback: true, ANSI: true})
			if sc.ScrollbackLen() == n {
				break
			}
		}
	} else {
		all = sc.Capture(vt.CaptureOptions{ANSI: true})
	}
	lines := strings.Split(all, "\n")
	if all == "" {
		lines = nil
	}
	for len(lines) < n+rows { // the capture drops trailing blank rows
		lines = append(lines, "")
	}
	lines = lines[len(lines)-(n+rows):]
	hist = min(n, limit)
	return cols, rows, hist, strings.Join(lines[n-hist:], "\n")
}
