package inbox

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
)

var selectorTestOpts = SelectorOptions{Home: "/home/ada", Dir: "/srv/work"}

func selectorMustParse(t testing.TB, text string) *Selector {
	t.Helper()
	sel, err := ParseSelector(text, selectorTestOpts)
	if err != nil {
		t.Fatalf("ParseSelector(%q): %v", text, err)
	}
	return sel
}

// TestSelectorParseForms: every form the docs write (every key, globs,
// comma alternatives), and the canonical text String gives back.
func TestSelectorParseForms(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		// The examples the Inbox docs give.
		{"harness:codex state:idle,done session:api-fan-*", "harness:codex state:idle,done session:api-fan-*"},
		{"harness:codex needs:you", "harness:codex needs:you"},
		{"session:api-fan-*", "session:api-fan-*"},
		{"harness:codex group:fan/add-retry", "harness:codex group:fan/add-retry"},
		{"session:api-fan-* needs:you", "session:api-fan-* needs:you"},
		{"harness:claude", "harness:claude"},
		// Every key.
		{"harness:claude-code", "harness:claude-code"},
		{"harness:Claude", "harness:claude"},
		{"harness:gemini,codex", "harness:gemini,codex"},
		{"state:needs_input", "state:needs_input"},
		{"state:none,working,needs_input,idle,done,errored,unknown", "state:none,working,needs_input,idle,done,errored,unknown"},
		{"needs:you", "needs:you"},
		{"session:api", "session:api"},
		{"group:fan/*", "group:fan/*"},
		{"host:local", "host:local"},
		{"host:build*,local", "host:build*,local"},
		{"name:worker", "name:worker"},
		{"cwd:/src/api", "cwd:/src/api"},
		{"cwd:~", "cwd:~"},
		{"cwd:~/src", "cwd:~/src"},
		{"cwd:src", "cwd:src"},
		// Globs.
		{"name:w?rker", "name:w?rker"},
		{"name:worker-[0-9]", "name:worker-[0-9]"},
		{"name:worker-[!0-9]", "name:worker-[!0-9]"},
		{"name:worker-[^0-9]", "name:worker-[!0-9]"},
		{"name:[]x]", `name:[\]x]`},
		{"name:[!]]", `name:[!\]]`},
		{"name:[a-]", `name:[a\-]`},
		{"name:[-a]", `name:[\-a]`},
		{"name:***", "name:*"},
		{"name:a**b", "name:a*b"},
		{"name:]", `name:\]`},
		{"session:a*/b", "session:a*/b"},
		// Quotes and escapes.
		{`name:"api tests"`, `name:api\ tests`},
		{`name:api\ tests`, `name:api\ tests`},
		{`name:"a,b",c`, `name:a\,b,c`},
		{`name:\*`, `name:\*`},
		{`name:"*"x*`, `name:\*x*`},
		{`name:say\"hi\"`, `name:say\"hi\"`},
		{`name:back\\slash`, `name:back\\slash`},
		{`name:a:b`, `name:a:b`},
		{`cwd:"/My Projects/x"`, `cwd:/My\ Projects/x`},
		{`cwd:\~`, `cwd:\~`},
		{`cwd:"~/x"`, `cwd:\~/x`},
		{`harness:\*`, `harness:\*`},
		{`name:[\-\]]`, `name:[\-\]]`},
		// Separators.
		{"  harness:codex \t\t needs:you  ", "harness:codex needs:you"},
		{"name:é*", "name:é*"},
	}
	for _, tt := range tests {
		sel := selectorMustParse(t, tt.in)
		if got := sel.String(); got != tt.want {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		again := selectorMustParse(t, sel.String())
		if !reflect.DeepEqual(sel, again) {
			t.Errorf("%q: String() %q re-parses to a different selector", tt.in, sel.String())
		}
	}
}

type selectorCase struct {
	sel  string
	f    SelectorFields
	want bool
}

func selectorRun(t *testing.T, cases []selectorCase) {
	t.Helper()
	for _, c := range cases {
		sel := selectorMustParse(t, c.sel)
		if got := sel.Match(&c.f); got != c.want {
			t.Errorf("%q.Match(%+v) = %v, want %v", c.sel, c.f, got, c.want)
		}
	}
}

func TestSelectorMatchHarness(t *testing.T) {
	claude := SelectorFields{Harness: "claude-code", Program: "claude"}
	gemini := SelectorFields{Harness: "gemini-cli"}
	selectorRun(t, []selectorCase{
		{"harness:claude-code", claude, true},
		{"harness:claude", claude, true},                                 // claude = claude-code
		{"harness:claude", SelectorFields{Harness: "claude-code"}, true}, // by the id's first word
		{"harness:claude", SelectorFields{Program: "claude"}, true},      // by the program name
		{"harness:CLAUDE", claude, true},                                 // case does not matter
		{"harness:gemini", gemini, true},                                 // a bare word matches the id it starts
		{"harness:gemini-cli", gemini, true},                             //
		{"harness:gem", gemini, false},                                   // not a whole word of the id
		{"harness:cli", gemini, false},                                   // a later word is not a start
		{"harness:pi", SelectorFields{Harness: "oh-my-pi"}, false},       //
		{"harness:pi", SelectorFields{Harness: "pi"}, true},              //
		{"harness:oh-my", SelectorFields{Harness: "oh-my-pi"}, true},     // first words
		{"harness:codex", claude, false},                                 //
		{"harness:codex,claude", claude, true},                           // alternatives
		{"harness:claude", SelectorFields{}, false},                      // no harness: cannot answer
		{"harness:claude", SelectorFields{Harness: "claudette"}, false},  // not a word boundary
		{"harness:node", SelectorFields{Harness: "kilo", Program: "node"}, true},
	})
}

func TestSelectorMatchStateAndNeeds(t *testing.T) {
	st := func(s agentstate.State) SelectorFields { return SelectorFields{State: s} }
	selectorRun(t, []selectorCase{
		{"state:idle", st(agentstate.Idle), true},
		{"state:idle", st(agentstate.Done), false},
		{"state:idle,done", st(agentstate.Done), true},
		{"state:none", st(agentstate.None), true},
		{"state:none", SelectorFields{NoState: true}, false},
		{"state:needs_input", st(agentstate.NeedsInput), true},
		{"needs:you", st(agentstate.NeedsInput), true},
		{"needs:you", st(agentstate.Errored), true},
		{"needs:you", st(agentstate.Idle), false},
		{"needs:you", st(agentstate.Working), false},
		{"needs:you", st(agentstate.Unknown), false},
		{"needs:you", SelectorFields{State: agentstate.NeedsInput, NoState: true}, false},
	})
}

func TestSelectorMatchGlobs(t *testing.T) {
	s := func(v string) SelectorFields { return SelectorFields{Session: v} }
	selectorRun(t, []selectorCase{
		{"session:api", s("api"), true},
		{"session:api", s("api2"), false},
		{"session:api", s("API"), false}, // names are exact
		{"session:api-fan-*", s("api-fan-1"), true},
		{"session:api-fan-*", s("api-fan-"), true},
		{"session:api-fan-*", s("api"), false},
		{"session:*", s("x"), true},
		{"session:*", s(""), false}, // cannot answer: does not match, even *
		{"session:*", s("a/b"), false},
		{"session:*/*", s("a/b"), true},
		{"session:a*/b", s("ax/b"), true},
		{"session:a*/b", s("a/x/b"), false},
		{"session:a*", s("a/b"), false}, // * does not cross /
		{"session:a?c", s("abc"), true},
		{"session:a?c", s("a/c"), false},
		{"session:a?c", s("aéc"), true}, // ? is one character, not one byte
		{"session:a?c", s("ac"), false},
		{"session:a[bc]d", s("acd"), true},
		{"session:a[bc]d", s("aed"), false},
		{"session:a[!bc]d", s("aed"), true},
		{"session:a[!bc]d", s("abd"), false},
		{"session:a[!bc]d", s("a/d"), false}, // sets never match /
		{"session:a[^bc]d", s("aed"), true},
		{"session:w-[0-9]", s("w-7"), true},
		{"session:w-[0-9]", s("w-x"), false},
		{"session:[]x]", s("]"), true},
		{"session:[a-]", s("-"), true},
		{`session:\*`, s("*"), true},
		{`session:\*`, s("x"), false},
		{`session:"a*"`, s("ab"), false},
		{`session:"a*"`, s("a*"), true},
		{"session:*a*b*c*", s("xxaxxbxxcxx"), true},
		{"session:*a*b*c*", s("xxaxxcxxbxx"), false},
		{"session:*ab", s("aab"), true},
		{"session:a*b*", s("acbab"), true},
		{"session:api-fan-?,docs", s("docs"), true},
		{`name:"api tests"`, SelectorFields{Name: "api tests"}, true},
		{`name:api\ t*`, SelectorFields{Name: "api tests"}, true},
		{"name:api", SelectorFields{Name: "api tests"}, false},
		{"group:fan/*", SelectorFields{Group: "fan/add-retry"}, true},
		{"group:fan/add-*", SelectorFields{Group: "fan/add-retry"}, true},
		{"group:fan*", SelectorFields{Group: "fan/add-retry"}, false},
		{"group:fan/add-retry", SelectorFields{Group: "fan/add-retry"}, true},
		{"group:*", SelectorFields{}, false},
		{"host:local", SelectorFields{}, true}, // "" is this machine
		{"host:local", SelectorFields{Host: "local"}, true},
		{"host:*", SelectorFields{}, true},
		{"host:build", SelectorFields{}, false},
		{"host:build", SelectorFields{Host: "build"}, true},
		{"host:b*", SelectorFields{Host: "build"}, true},
		{"host:local", SelectorFields{Host: "build"}, false},
	})
}

func TestSelectorMatchCwd(t *testing.T) {
	c := func(v string) SelectorFields { return SelectorFields{Cwd: v} }
	selectorRun(t, []selectorCase{
		{"cwd:/src/api", c("/src/api"), true},
		{"cwd:/src/api", c("/src/api/pkg/x"), true},
		{"cwd:/src/api", c("/src/api2"), false}, // a sibling sharing a prefix is not under it
		{"cwd:/src/api", c("/src"), false},
		{"cwd:/src/api/", c("/src/api"), true},
		{"cwd:/src/./api/../api", c("/src/api"), true},
		{"cwd:/src/api", c("/src/api/"), true},
		{"cwd:/src/api", c("/src/x/../api/y"), true},
		{"cwd:/", c("/anything"), true},
		{"cwd:~", c("/home/ada"), true},
		{"cwd:~", c("/home/ada/src"), true},
		{"cwd:~", c("/home/adam"), false},
		{"cwd:~/src", c("/home/ada/src/api"), true},
		{"cwd:~/src", c("/home/ada"), false},
		{`cwd:\~`, c("/srv/work/~"), true}, // a quoted ~ is a directory named ~
		{"cwd:src", c("/srv/work/src/x"), true},
		{"cwd:..", c("/srv/other"), true},
		{"cwd:/src/api", c(""), false}, // unknown: does not match
		{"cwd:/src/api", c("src/api"), false},
		{"cwd:/a,/b", c("/b/c"), true},
		{`cwd:"/My Projects"`, c("/My Projects/x"), true},
	})
}

func TestSelectorMatchAllTermsMustMatch(t *testing.T) {
	pane := SelectorFields{Session: "api-fan-2", Name: "worker", Harness: "codex", State: agentstate.Done, Group: "fan/add-retry", Cwd: "/home/ada/api"}
	selectorRun(t, []selectorCase{
		{"harness:codex state:idle,done session:api-fan-*", pane, true},
		{"harness:codex state:idle session:api-fan-*", pane, false},
		{"harness:codex state:idle,done session:docs-*", pane, false},
		{"harness:codex group:fan/add-retry", pane, true},
		{"harness:codex group:fan/add-retry host:local name:w* cwd:~", pane, true},
		{"harness:codex group:fan/add-retry host:local name:w* cwd:~/docs", pane, false},
		{"harness:codex needs:you", pane, false},
	})
}

// TestSelectorI11: list-attention --select over items in api-fan-1 and
// api-fan-2 (item state from kind), then a refused key.
func TestSelectorI11(t *testing.T) {
	items := []struct {
		id string
		f  SelectorFields
	}{
		{"approval in api-fan-1", SelectorFields{Session: "api-fan-1", Name: "claude", Harness: "claude-code", State: agentstate.NeedsInput}},
		{"errored in api-fan-2", SelectorFields{Session: "api-fan-2", Name: "codex", Harness: "codex", State: agentstate.Errored}},
		{"finished in api-fan-2", SelectorFields{Session: "api-fan-2", Name: "claude", Harness: "claude-code", State: agentstate.Done}},
		{"question in api", SelectorFields{Session: "api", Name: "lead", Harness: "claude-code", State: agentstate.NeedsInput}},
		{"mail in api-fan-1", SelectorFields{Session: "api-fan-1", Name: "worker", NoState: true}},
	}
	sel := selectorMustParse(t, "session:api-fan-* needs:you")
	var got []string
	for _, it := range items {
		if sel.Match(&it.f) {
			got = append(got, it.id)
		}
	}
	want := []string{"approval in api-fan-1", "errored in api-fan-2"}
	if !slices.Equal(got, want) {
		t.Errorf("matched %q, want %q", got, want)
	}

	_, err := ParseSelector("colour:red", SelectorOptions{})
	var se *SelectorError
	if !errors.As(err, &se) {
		t.Fatalf("colour:red: err = %v, want a *SelectorError", err)
	}
	if se.Code() != "invalid_params" || se.Param != "select" || se.Term != "colour:red" {
		t.Errorf("colour:red: code %q param %q term %q", se.Code(), se.Param, se.Term)
	}
	if !slices.Equal(se.Accepted(), []string{"harness", "state", "needs", "session", "group", "host", "name", "cwd"}) {
		t.Errorf("accepted = %q", se.Accepted())
	}
}

// TestSelectorM17: harness:claude reaches the three Claude panes across two
// sessions and nothing else.
func TestSelectorM17(t *testing.T) {
	panes := []SelectorFields{
		{Session: "api", Name: "lead", Harness: "claude-code", Program: "claude", State: agentstate.Idle},
		{Session: "api", Name: "worker", Harness: "codex", State: agentstate.Idle},
		{Session: "api", Name: "shell", State: agentstate.None},
		{Session: "docs", Name: "writer", Harness: "claude-code", State: agentstate.Working},
		{Session: "docs", Name: "old", Program: "claude", State: agentstate.Unknown},
	}
	sel := selectorMustParse(t, "harness:claude")
	n := 0
	for i := range panes {
		if sel.Match(&panes[i]) {
			n++
		}
	}
	if n != 3 {
		t.Errorf("harness:claude matched %d panes, want 3", n)
	}
}

func TestSelectorRefusals(t *testing.T) {
	long := "name:" + strings.Repeat("a", MaxSelectorBytes)
	manyTerms := strings.TrimSpace(strings.Repeat("name:a ", MaxSelectorTerms+1))
	manyAlts := "name:" + strings.TrimSuffix(strings.Repeat("a,", MaxSelectorAlternatives+1), ",")
	tests := []struct {
		in, reason, term string
	}{
		{"", "empty", ""},
		{"   \t ", "empty", ""},
		{"colour:red", "unknown_key", "colour:red"},
		{"Harness:claude", "unknown_key", "Harness:claude"},
		{"harness:claude kind:approval", "unknown_key", "kind:approval"},
		{"claude", "not_key_value", "claude"},
		{`"name:x"`, "not_key_value", `"name:x"`},
		{`name\:x`, "not_key_value", `name\:x`},
		{":idle", "no_key", ":idle"},
		{`"name":x`, "quoted_key", `"name":x`},
		{`na\me:x`, "quoted_key", `na\me:x`},
		{"name:", "empty_value", "name:"},
		{`name:""`, "empty_value", `name:""`},
		{"state:idle,", "empty_alternative", "state:idle,"},
		{"state:,idle", "empty_alternative", "state:,idle"},
		{"state:idle,,done", "empty_alternative", "state:idle,,done"},
		{"state:idle state:done", "duplicate_key", "state:done"},
		{"needs:you name:x needs:you", "duplicate_key", "needs:you"},
		{"state:idel", "unknown_state", "state:idel"},
		{"state:needs-input", "unknown_state", "state:needs-input"},
		{"state:Idle", "unknown_state", "state:Idle"},
		{"state:", "empty_value", "state:"},
		{"state:idle*", "glob_not_allowed", "state:idle*"},
		{"needs:me", "bad_needs", "needs:me"},
		{"needs:You", "bad_needs", "needs:You"},
		{"needs:you,me", "bad_needs", "needs:you,me"},
		{"harness:cl*", "glob_not_allowed", "harness:cl*"},
		{"harness:[c]laude", "glob_not_allowed", "harness:[c]laude"},
		{"harness:claude?", "glob_not_allowed", "harness:claude?"},
		{"cwd:~/src/*", "glob_not_allowed", "cwd:~/src/*"},
		{"cwd:~bob/src", "bad_cwd", "cwd:~bob/src"},
		{"session:api-[", "bad_glob", "session:api-["},
		{"session:api-[abc", "bad_glob", "session:api-[abc"},
		{"session:[]", "bad_glob", "session:[]"},
		{"session:[!]", "bad_glob", "session:[!]"},
		{"session:[z-a]", "bad_glob", "session:[z-a]"},
		{"session:[/]", "bad_glob", "session:[/]"},
		{"session:[.-0]", "bad_glob", "session:[.-0]"},
		{"group:fan/[a", "bad_glob", "group:fan/[a"},
		{"host:[", "bad_glob", "host:["},
		{"name:[a,b]", "bad_glob", "name:[a,b]"}, // a bare comma separates alternatives, even in [...]
		{`name:"api tests`, "unclosed_quote", `name:"api tests`},
		{`name:api\`, "trailing_backslash", `name:api\`},
		{"name:a\x00b", "control", "name:a"},
		{"name:a\x1bb", "control", "name:a"},
		{"name:a\u202eb", "control", "name:a"},
		{"name:a\u00a0b", "control", "name:a"},
		{"name:\"a\tb\"", "control", "name:\"a"},
		{"name:a\\\tb", "control", "name:a\\"},
		{"name:a\nb", "control", "name:a"},
		{"name:\xff", "bad_utf8", ""},
		{long, "too_long", ""},
		{manyTerms, "too_many_terms", ""},
		{manyAlts, "too_many_alternatives", manyAlts},
	}
	for _, tt := range tests {
		_, err := ParseSelector(tt.in, SelectorOptions{Home: "/home/ada"})
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Errorf("ParseSelector(%q) = %v, want a *SelectorError", tt.in, err)
			continue
		}
		if se.Why != tt.reason || se.Term != tt.term {
			t.Errorf("ParseSelector(%q): reason %q term %q, want %q %q (%v)", tt.in, se.Why, se.Term, tt.reason, tt.term, err)
		}
		selectorCheckError(t, tt.in, se)
	}
}

// selectorCheckError checks the error contract every refusal keeps.
func selectorCheckError(t testing.TB, in string, se *SelectorError) {
	t.Helper()
	if se.Code() != CodeInvalidParams || se.Param != "select" {
		t.Errorf("%q: code %q param %q", in, se.Code(), se.Param)
	}
	if se.Hint() == "" || strings.ContainsAny(se.Hint(), "\n\r") {
		t.Errorf("%q: hint %q", in, se.Hint())
	}
	msg := se.Error()
	if !strings.HasPrefix(msg, "inbox: select: ") || strings.ContainsAny(msg, "\n\r\x00\x1b") || len(msg) > 300 {
		t.Errorf("%q: message %q", in, msg)
	}
	if len(se.Accepted()) != 8 {
		t.Errorf("%q: accepted %q", in, se.Accepted())
	}
}

func TestSelectorRefusalsNeedingOptions(t *testing.T) {
	for _, tt := range []struct {
		in   string
		opts SelectorOptions
	}{
		{"cwd:~", SelectorOptions{}},                  // home not known
		{"cwd:~/src", SelectorOptions{Home: "rel"}},   // home not absolute
		{"cwd:src", SelectorOptions{}},                // relative, no base
		{"cwd:.", SelectorOptions{Dir: "relative/x"}}, // base not absolute
	} {
		_, err := ParseSelector(tt.in, tt.opts)
		var se *SelectorError
		if !errors.As(err, &se) || se.Why != "bad_cwd" {
			t.Errorf("ParseSelector(%q, %+v) = %v, want bad_cwd", tt.in, tt.opts, err)
			continue
		}
		selectorCheckError(t, tt.in, se)
	}
	if _, err := ParseSelector("cwd:/abs", SelectorOptions{}); err != nil {
		t.Errorf("an absolute cwd needs no options: %v", err)
	}
}

func TestSelectorDidYouMean(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"harnes:claude", "harness"},
		{"Harness:claude", "harness"},
		{"sesion:api", "session"},
		{"status:idle", "state"},
		{"window:lead", "name"},
		{"dir:/src", "cwd"},
		{"agent:codex", "harness"},
		{"fan:x", "group"},
		{"colour:red", ""},
		{"state:idel", "idle"},
		{"state:needs-input", "needs_input"},
		{"needs:yuo", "you"},
	} {
		_, err := ParseSelector(tt.in, SelectorOptions{})
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Fatalf("%q: %v", tt.in, err)
		}
		if se.DidYouMean != tt.want {
			t.Errorf("%q: did you mean %q, want %q", tt.in, se.DidYouMean, tt.want)
		}
		if tt.want != "" && !strings.Contains(se.Hint(), tt.want) {
			t.Errorf("%q: hint %q does not name %q", tt.in, se.Hint(), tt.want)
		}
	}
}

func TestSelectorNilAndZeroMatchEverything(t *testing.T) {
	var nilSel *Selector
	var zero Selector
	f := &SelectorFields{Session: "api"}
	if !nilSel.Match(f) || !zero.Match(f) || !nilSel.Match(nil) {
		t.Error("a nil or zero selector must match everything")
	}
	if nilSel.String() != "" || zero.String() != "" || nilSel.Uses(SelectorCwd) {
		t.Error("a nil selector prints nothing and uses no key")
	}
	sel := selectorMustParse(t, "state:none")
	if sel.Match(nil) {
		t.Error("nil fields answer nothing")
	}
}

func TestSelectorUses(t *testing.T) {
	sel := selectorMustParse(t, "group:fan/* needs:you")
	for _, k := range []SelectorKey{SelectorHarness, SelectorState, SelectorNeeds, SelectorSession, SelectorGroup, SelectorHost, SelectorName, SelectorCwd} {
		want := k == SelectorGroup || k == SelectorNeeds
		if sel.Uses(k) != want {
			t.Errorf("Uses(%s) = %v", k, !want)
		}
	}
}

func TestSelectorKeysMatchConstants(t *testing.T) {
	keys := SelectorKeys()
	for i, k := range keys {
		if selectorKeyIndex(k) != i {
			t.Errorf("key %q at %d has index %d", k, i, selectorKeyIndex(k))
		}
		if _, err := ParseSelector(k+":you", SelectorOptions{Home: "/h", Dir: "/d"}); err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("key %q refused as unknown", k)
		}
	}
	keys[0] = "changed"
	if SelectorKeys()[0] != "harness" {
		t.Error("SelectorKeys shares its slice")
	}
}

func TestSelectorMatchDoesNotAllocate(t *testing.T) {
	sel := selectorMustParse(t, "harness:claude,codex state:idle,done session:api-* group:fan/* host:local name:w?rker-[0-9] cwd:~/src")
	f := &SelectorFields{Session: "api-fan-1", Group: "fan/x", Name: "worker-1", Harness: "codex", State: agentstate.Idle, Cwd: "/home/ada/src/api"}
	if !sel.Match(f) {
		t.Fatal("want a match")
	}
	if n := testing.AllocsPerRun(100, func() { sel.Match(f) }); n != 0 {
		t.Errorf("Match allocates %v times", n)
	}
}

// TestSelectorConcurrentMatch: a Selector is shared by the daemon's
// goroutines (wait-for watchers, list calls); run with -race.
func TestSelectorConcurrentMatch(t *testing.T) {
	sel := selectorMustParse(t, "session:api-* needs:you")
	done := make(chan bool)
	for i := range 4 {
		go func() {
			f := &SelectorFields{Session: "api-" + strings.Repeat("x", i), State: agentstate.Errored}
			ok := true
			for range 1000 {
				ok = ok && sel.Match(f) && sel.String() != ""
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("concurrent Match failed")
		}
	}
}

// TestSelectorGlobIsLinear: a pattern built to make naive backtracking
// explode still answers at once.
func TestSelectorGlobIsLinear(t *testing.T) {
	pat := "name:" + strings.Repeat("a*", 100) + "b"
	sel := selectorMustParse(t, pat)
	f := &SelectorFields{Name: strings.Repeat("a", 4000)}
	if sel.Match(f) {
		t.Error("want no match")
	}
}

func BenchmarkSelectorMatch(b *testing.B) {
	sel := selectorMustParse(b, "harness:claude,codex state:idle,done session:api-* name:w?rker-[0-9]")
	f := &SelectorFields{Session: "api-fan-1", Name: "worker-1", Harness: "codex", State: agentstate.Idle}
	b.ReportAllocs()
	for b.Loop() {
		sel.Match(f)
	}
}

func BenchmarkSelectorParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSelector("harness:codex state:idle,done session:api-fan-* group:fan/add-* cwd:~/src", selectorTestOpts); err != nil {
			b.Fatal(err)
		}
	}
}
