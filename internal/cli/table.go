package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// writeTable draws rows in a box, the way tuios lists things. Cells are
// escaped: names and titles come from panes.
func writeTable(w io.Writer, head []string, rows [][]string) {
	widths := make([]int, len(head))
	for i, h := range head {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i := range r {
			r[i] = escapeControls(r[i])
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	line := func(l, m, r string) {
		var b strings.Builder
		b.WriteString(l)
		for i, wd := range widths {
			if i > 0 {
				b.WriteString(m)
			}
			b.WriteString(strings.Repeat("─", wd+2))
		}
		b.WriteString(r)
		fmt.Fprintln(w, b.String())
	}
	row := func(cells []string) {
		var b strings.Builder
		b.WriteString("│")
		for i, wd := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" " + c + strings.Repeat(" ", wd-utf8.RuneCountInString(c)) + " │")
		}
		fmt.Fprintln(w, b.String())
	}
	line("╭", "┬", "╮")
	row(head)
	line("├", "┼", "┤")
	for _, r := range rows {
		row(r)
	}
	line("╰", "┴", "╯")
}
