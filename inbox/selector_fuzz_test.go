package inbox

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
)

// FuzzSelectorParse: ParseSelector never panics; a refusal is always a
// well-formed *SelectorError; an accepted selector prints a String that
// re-parses to an equal selector and prints the same again.
func FuzzSelectorParse(f *testing.F) {
	seeds := []string{
		"harness:codex state:idle,done session:api-fan-*",
		"harness:codex needs:you",
		"session:api-fan-* needs:you",
		"harness:codex group:fan/add-retry",
		"colour:red",
		`name:"api tests" cwd:~/src host:b*,local`,
		`name:[!]a-z\-]x*?/y cwd:\~ cwd:..`,
		`name:[a-`,
		`state:idle,,done`,
		"name:a\\",
		"name:\"a",
		"\t name:é*[é-ê] ",
		"name:***/**",
		"cwd:~bob",
		strings.Repeat("0", 200) + ":", // a long unknown key: the message stays short
	}
	for _, s := range seeds {
		f.Add(s)
	}
	opts := SelectorOptions{Home: "/home/ada", Dir: "/srv/work"}
	fields := []SelectorFields{
		{},
		{Session: "api-fan-1", Name: "worker", Harness: "codex", State: agentstate.Errored, Group: "fan/x", Cwd: "/home/ada/src"},
		{Host: "build", Session: "a/b", Name: "*", Program: "claude", NoState: true, Cwd: "/"},
	}
	f.Fuzz(func(t *testing.T, text string) {
		sel, err := ParseSelector(text, opts)
		if err != nil {
			var se *SelectorError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSelector(%q) = %T %v, want a *SelectorError", text, err, err)
			}
			if sel != nil {
				t.Fatalf("ParseSelector(%q) returned a selector with its error", text)
			}
			selectorCheckError(t, text, se)
			if se.Term != "" && !strings.Contains(text, se.Term) {
				t.Fatalf("ParseSelector(%q): term %q is not in the input", text, se.Term)
			}
			return
		}
		if len(sel.terms) == 0 || len(sel.terms) > len(SelectorKeys()) {
			t.Fatalf("ParseSelector(%q): %d terms", text, len(sel.terms))
		}
		out := sel.String()
		again, err := ParseSelector(out, opts)
		if err != nil {
			t.Fatalf("ParseSelector(%q).String() = %q does not re-parse: %v", text, out, err)
		}
		if !reflect.DeepEqual(sel, again) {
			t.Fatalf("ParseSelector(%q).String() = %q re-parses to a different selector", text, out)
		}
		if again.String() != out {
			t.Fatalf("String is not stable: %q then %q", out, again.String())
		}
		for i := range fields {
			if sel.Match(&fields[i]) != again.Match(&fields[i]) {
				t.Fatalf("%q and %q disagree on %+v", text, out, fields[i])
			}
		}
		sel.Match(nil)
	})
}

// FuzzSelectorGlob checks the glob matcher against two oracles: a regular
// expression built from the compiled pattern, and path.Match for patterns
// whose syntax the two share (no sets, quotes or escapes).
func FuzzSelectorGlob(f *testing.F) {
	for _, s := range []struct{ pat, name string }{
		{"api-fan-*", "api-fan-1"},
		{"fan/*", "fan/add-retry"},
		{"*a*b*c*", "xxaxxcxxbxx"},
		{"a?c", "aéc"},
		{"[!a-c]x", "/x"},
		{"a*", "a/b"},
		{`\*[\]]`, "*]"},
		{"*", ""},
		{"é*", "\xff"},
	} {
		f.Add(s.pat, s.name)
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		sel, err := ParseSelector("name:"+pat, SelectorOptions{})
		if err != nil || len(sel.terms) != 1 || sel.terms[0].key != SelectorName {
			return
		}
		got := sel.Match(&SelectorFields{Name: name})
		want := false
		if name != "" {
			for _, a := range sel.terms[0].alts {
				re := regexp.MustCompile(selectorOracleRegexp(a.glob))
				if re.MatchString(name) {
					want = true
				}
			}
		}
		if got != want {
			t.Fatalf("name:%s on %q = %v, regexp oracle says %v", pat, name, got, want)
		}
		if name != "" && !strings.ContainsAny(pat, "[]\\\", \t") {
			pm, perr := path.Match(pat, name)
			if perr == nil && pm != got {
				t.Fatalf("name:%s on %q = %v, path.Match says %v", pat, name, got, pm)
			}
		}
	})
}

func selectorOracleRegexp(segs [][]selectorAtom) string {
	var b strings.Builder
	b.WriteString(`^`)
	for i, seg := range segs {
		if i > 0 {
			b.WriteString(`/`)
		}
		for _, a := range seg {
			switch a.op {
			case selectorLit:
				b.WriteString(regexp.QuoteMeta(string(a.r)))
			case selectorOne:
				b.WriteString(`[^/]`)
			case selectorStar:
				b.WriteString(`[^/]*`)
			case selectorClass:
				b.WriteString(`[`)
				if a.neg {
					b.WriteString(`^/`)
				}
				for _, rg := range a.ranges {
					fmt.Fprintf(&b, `\x{%x}-\x{%x}`, rg.lo, rg.hi)
				}
				b.WriteString(`]`)
			}
		}
	}
	b.WriteString(`$`)
	return b.String()
}
