package vt

// LastLines returns up to n lines of text that end the pane's output,
// oldest first: the screen's rows and, when they are not enough, the
// history above them (the main screen's). Each soft-wrapped line comes
// whole and every line is right-trimmed, as Capture with Join and
// Scrollback gives them; trailing empty lines are dropped and do not
// count. It reads only the rows those lines take, so a long history costs
// nothing.
//
// It is how a reader finds something taller than the pane, such as a
// permission dialog whose top scrolled into the history of a short pane or
// whose rows a narrower window wrapped: Tail reads the screen's rows only.
func (s *Screen) LastLines(n int) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if n <= 0 {
		return nil
	}
	hist := 0
	if !s.altActive {
		hist = s.sb.len()
	}
	total := hist + s.rows
	// wrapped: row k goes on in row k+1. The screen's last row never
	// does (as Capture: nothing below it to join).
	wrapped := func(k int) bool {
		if k < hist {
			return s.sb.at(k).wrapped
		}
		y := k - hist
		return y < s.rows-1 && s.cur.rows[y].wrapped
	}
	var out []string
	var b []byte
	for end := total - 1; end >= 0 && len(out) < n; {
		start := end
		for start > 0 && wrapped(start-1) {
			start--
		}
		b = b[:0]
		for k := start; k < end; k++ { // the rows the line wrapped out of: written cells, blanks kept
			if k < hist {
				b = append(b, s.sbLineWritten(s.sb.at(k), false)...)
			} else {
				b = append(b, s.gridLineWritten(s.cur.rows[k-hist].cells, false)...)
			}
		}
		if end < hist {
			b = append(b, s.sbLineBytes(s.sb.at(end), false)...)
		} else {
			b = append(b, s.gridLineBytes(s.cur.rows[end-hist].cells, false)...)
		}
		b = trimRight(b, 0)
		if len(b) > 0 || len(out) > 0 {
			out = append(out, string(b))
		}
		end = start - 1
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
