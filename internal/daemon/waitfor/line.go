package waitfor

import (
	"regexp"
	"strings"
)

// maxWaitLine is the most of a matched line wait-for returns.
const maxWaitLine = 400

// matchedLine is the line of text the first match of re falls on (every
// line it spans, for a pattern that crosses a newline), trailing blanks
// cut, at most maxWaitLine bytes: wait-for window-output returns it so a
// script sees what matched (pane text: the CLI prints it fenced).
func matchedLine(text string, re *regexp.Regexp) (string, bool) {
	loc := re.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	start := strings.LastIndexByte(text[:loc[0]], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[loc[1]:], '\n'); i >= 0 {
		end = loc[1] + i
	}
	if loc[1] > loc[0] && text[loc[1]-1] == '\n' { // the match ends the line
		end = loc[1] - 1
	}
	line := strings.TrimRight(text[start:max(end, start)], " \t\r\n")
	if len(line) > maxWaitLine {
		line = cutBytes(line, maxWaitLine)
	}
	return line, true
}

// cutBytes cuts s to at most n bytes, never inside a UTF-8 sequence.
func cutBytes(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
