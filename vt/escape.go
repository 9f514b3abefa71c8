package vt

import "github.com/tuios/tuios/internal/safetext"

// Escape makes text that came from a pane safe to print on a terminal:
// control characters (C0, DEL, C1), line and paragraph separators and
// bidirectional overrides become escapes, and invalid UTF-8 bytes \xNN, so
// the text cannot move the cursor, change colours or reorder what follows
// it. Text with nothing to escape is returned as it is, without allocating.
func Escape(s string) string { return safetext.Escape(s, false) }
