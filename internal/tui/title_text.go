package tui

import (
	"strings"

	"github.com/tuios/tuios/internal/proto"
)

// titleAfterName is what a title bar shows after a window's name and
// state: the title its program set, when it says more than the name.
// The name is the window's address (given, or what runs in it) and stays
// put; the title is the program's own words (a spinner, a directory) and
// changes as it works, so it comes last, where a narrow tile cuts it
// first.
func titleAfterName(t proto.AttachWindow, ascii bool) string {
	title := strings.TrimSpace(clean(t.Title))
	if title == "" || title == t.Name {
		return ""
	}
	if ascii {
		return "  - " + title
	}
	return "  — " + title
}
