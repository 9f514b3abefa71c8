package waitfor

import "regexp"

// compileWaitPattern compiles wait-for window-output's --pattern. The
// text it is matched against is the pane's screen and scrollback joined
// by newlines, so ^ and $ anchor to a line, as a person reading the pane
// expects: the pattern runs with (?m) set. A pattern's own flags come
// after and win, so (?-m) anchors to the whole text again, and \A and \z
// always do.
func compileWaitPattern(pattern string) (*regexp.Regexp, error) {
	// Compile it as given first, so a bad pattern's error quotes what the
	// caller wrote, not the flag put before it.
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, err
	}
	return regexp.Compile("(?m)" + pattern)
}
