package review

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func fuzzSeeds(f *testing.F) {
	for _, row := range corpus() {
		f.Add(row.line)
	}
	for _, s := range []string{
		"", `'`, `"`, "`", `$(`, `$((`, `${`, `$'`, `<(`, `\`, `)`, `((`, "))", `$($($(`,
		`sh -c 'sh -c "sh -c \"sh -c \\\"sh -c x\\\"\""'`, `env -S`, `sudo --user`,
		"echo `a \\`b \\\\\\`c\\\\\\`\\``", `echo $'\x`, `cat <<<`, `a 2>&`, `a >(`,
	} {
		f.Add(s)
	}
}

// FuzzCheck: any input up to 64 KiB (and past it) returns quickly, never
// panics, and gives hits in rule order, each once, clipped.
func FuzzCheck(f *testing.F) {
	fuzzSeeds(f)
	// The 64 KiB worst cases of the benchmarks, so that plain go test runs
	// them under the time bound too.
	for _, s := range worstCases() {
		f.Add(s)
	}
	c, err := NewChecker(RiskConfig{Rules: []RiskRule{{Name: "custom", Pattern: `(?i)deploy`}}})
	if err != nil {
		f.Fatal(err)
	}
	order := append(c.Rules(), RuleCutShort)
	f.Fuzz(func(t *testing.T, line string) {
		for _, tool := range []string{"Bash", "Write", "WebFetch"} {
			start := time.Now()
			hits := c.Check(Request{Tool: tool, Command: line, Worktree: "/src/api", Home: "/home/me"})
			if d := time.Since(start); d > time.Duration(checkBound) {
				t.Fatalf("%s: Check took %v on %d bytes", tool, d, len(line))
			}
			last := -1
			for _, h := range hits {
				k := slices.Index(order, h.Rule)
				if k <= last {
					t.Fatalf("%s: hits out of order or repeated: %v", tool, hits)
				}
				last = k
				if utf8.RuneCountInString(h.Text) > ClipRunes {
					t.Fatalf("%s: text not clipped: %d runes", tool, utf8.RuneCountInString(h.Text))
				}
				if h.Text != strings.TrimSpace(h.Text) {
					t.Fatalf("%s: text not trimmed: %q", tool, h.Text)
				}
			}
			if len(line) > MaxReadBytes && (len(hits) == 0 || hits[len(hits)-1].Rule != RuleCutShort) {
				t.Fatalf("%s: %d bytes and no cut short", tool, len(line))
			}
		}
	})
}

// FuzzReader: the shell-line reader never panics and every command's span
// lies in its line.
func FuzzReader(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > MaxReadBytes {
			line = line[:MaxReadBytes]
		}
		var r reader
		r.read(line)
		for _, c := range r.cmds {
			if c.start < 0 || c.start > c.end || c.end > len(c.line) {
				t.Fatalf("span %d..%d out of a %d-byte line", c.start, c.end, len(c.line))
			}
			if len(c.args) > 0 && c.prog == "" && c.args[0] != "" && !strings.HasSuffix(c.args[0], "/") {
				t.Fatalf("no program for %q", c.args)
			}
			if c.feeder != nil && c.feeder == c {
				t.Fatal("command feeds itself")
			}
		}
		if len(r.buf) != 0 {
			t.Fatalf("word buffer not emptied: %q", r.buf)
		}
	})
}
