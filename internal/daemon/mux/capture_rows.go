package mux

import "strings"

// fullHeight gives a visible capture the pane's full height. The screen
// reader drops trailing blank rows (right for history and --lines, which
// count from the last line with content), but the docs describe the
// visible screen as "the pane's full height, so it ends in the blank rows
// below the cursor": a script that counts rows to find the cursor line
// must get every row. Lines stay joined with "\n" as in every capture, so
// a screen of rows lines has rows-1 separators; the CLI ends the last one.
func fullHeight(content string, rows int) string {
	have := 0
	if content != "" {
		have = strings.Count(content, "\n") + 1
	}
	if rows <= 1 || have >= rows {
		return content
	}
	sep := rows - have // one "\n" per missing row
	if have == 0 {
		sep-- // rows empty lines need rows-1 separators
	}
	return content + strings.Repeat("\n", sep)
}
