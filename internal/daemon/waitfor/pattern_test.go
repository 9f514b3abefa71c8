package waitfor

import (
	"regexp"
	"strings"
	"testing"
)

// A pane's text is many lines: ^ and $ anchor to a line, a pattern's own
// (?-m) anchors to the whole text again, and (?m) written out still works.
func TestWaitPatternAnchorsToLines(t *testing.T) {
	t.Parallel()
	text := "$ printf 'ANCH_%s\\n' x\nANCH_x\n$ echo tail\ntail\n$"
	for _, c := range []struct {
		pattern, line string
		match         bool
	}{
		{`^ANCH_x$`, "ANCH_x", true},
		{`ANCH_x$`, "ANCH_x", true},
		{`(?m)^ANCH_x$`, "ANCH_x", true},
		{`(?i)^anch_X$`, "ANCH_x", true},
		{`^tail$`, "tail", true},
		{`^ANCH_%s`, "", false},      // the echo's line does not start with it
		{`(?-m)^ANCH_x$`, "", false}, // the whole text: neither end is there
		{`\AANCH_x`, "", false},
		{`(?-m)\A\$ printf`, "$ printf 'ANCH_%s\\n' x", true},
	} {
		re, err := compileWaitPattern(c.pattern)
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		line, ok := matchedLine(text, re)
		if ok != c.match || line != c.line {
			t.Errorf("%q: matched %v line %q, want %v %q", c.pattern, ok, line, c.match, c.line)
		}
	}
}

// A bad pattern's error quotes what the caller wrote, not the (?m) put
// before it.
func TestWaitPatternErrorQuotesThePattern(t *testing.T) {
	t.Parallel()
	_, err := compileWaitPattern(`(ANCH`)
	if err == nil || strings.Contains(err.Error(), "(?m)") || !strings.Contains(err.Error(), "(ANCH") {
		t.Fatalf("error: %v", err)
	}
}

// Any pattern Go compiles compiles here too, and matching any text never
// panics.
func FuzzWaitPattern(f *testing.F) {
	f.Add(`^ok$`, "a\nok\nb")
	f.Add(`(?-m)^x`, "x\ny")
	f.Add(`(?s).*`, "")
	f.Add(`(?P<n>a)|$`, "\n\n")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := compileWaitPattern(pattern)
		if _, plain := regexp.Compile(pattern); (plain == nil) != (err == nil) {
			t.Fatalf("%q: plain compile %v, wait compile %v", pattern, plain, err)
		}
		if err != nil {
			return
		}
		if line, ok := matchedLine(text, re); ok && len(line) > maxWaitLine {
			t.Fatalf("line of %d bytes", len(line))
		}
	})
}
