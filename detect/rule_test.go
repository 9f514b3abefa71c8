package detect

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// blocks decodes TOML holding [screen], [title] and [notify] blocks.
type blocks struct {
	Screen RuleSet `toml:"screen"`
	Title  RuleSet `toml:"title"`
	Notify RuleSet `toml:"notify"`
}

// compileBlock decodes src and compiles the block of the given kind.
func compileBlock(t testing.TB, kind RuleKind, src string) (*RuleSet, error) {
	t.Helper()
	var b blocks
	if _, err := toml.Decode(src, &b); err != nil {
		t.Fatalf("decode: %v\n%s", err, src)
	}
	rs := map[RuleKind]*RuleSet{RuleScreen: &b.Screen, RuleTitle: &b.Title, RuleNotify: &b.Notify}[kind]
	return rs, rs.Compile(kind)
}

func mustBlock(t testing.TB, kind RuleKind, src string) *RuleSet {
	t.Helper()
	rs, err := compileBlock(t, kind, src)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	return rs
}

func TestCompileErrorsNameTheRule(t *testing.T) {
	long := strings.Repeat("a", MaxPatternBytes+1)
	cases := []struct {
		name string
		kind RuleKind
		src  string
		want []string // substrings of the error
	}{
		{"unknown state", RuleScreen, `[screen]
[[screen.rule]]
state = "needs_input"
all = ["x"]
[[screen.rule]]
state = "foo"
all = ["x"]`, []string{"screen.rule[1]", "unknown state", `"foo"`}},
		{"done on a screen rule", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"done\"\nall = [\"x\"]", []string{"screen.rule[0]", "unknown state"}},
		{"done on a title rule", RuleTitle, "[title]\n[[title.rule]]\nstate = \"done\"\nall = [\"x\"]", []string{"title.rule[0]", "unknown state"}},
		{"bad regex", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[[screen.rule]]\nstate = \"needs_input\"\nregex = ['a(']", []string{"screen.rule[1]", "regex[0]"}},
		{"regex too long", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregex = ['" + long + "']", []string{"screen.rule[0]", "regex[0]", "513 bytes", "512"}},
		{"not_regex too long", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nnot_regex = ['" + long + "']", []string{"not_regex[0]"}},
		{"unknown kind", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nkind = \"auth\"\nall = [\"x\"]", []string{"unknown kind"}},
		{"unknown region", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"top\"\nall = [\"x\"]", []string{"unknown region"}},
		{"region leading zero", RuleScreen, "[screen]\nlines = 8\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"bottom_non_empty_lines(03)\"\nall = [\"x\"]", []string{"plain decimal"}},
		{"region plus", RuleScreen, "[screen]\nlines = 8\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"bottom_non_empty_lines(+3)\"\nall = [\"x\"]", []string{"plain decimal"}},
		{"region beyond lines", RuleScreen, "[screen]\nlines = 8\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"bottom_non_empty_lines(9)\"\nall = [\"x\"]", []string{"lines = 8"}},
		{"region beyond default lines", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"bottom_non_empty_lines(7)\"\nall = [\"x\"]", []string{"lines = 6"}},
		{"lines too many", RuleScreen, "[screen]\nlines = 201", []string{"screen.lines"}},
		{"title region on screen", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"osc_title\"\nall = [\"x\"]", []string{"unknown region"}},
		{"screen region on title", RuleTitle, "[title]\n[[title.rule]]\nstate = \"needs_input\"\nregion = \"prompt_box\"\nall = [\"x\"]", []string{"title.rule[0]", "unknown region"}},
		{"notify takes no region", RuleNotify, "[notify]\n[[notify.rule]]\nstate = \"done\"\nregion = \"title\"\nall = [\"x\"]", []string{"notify.rule[0]", "no region"}},
		{"idle without proof", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nall = [\"? for shortcuts\"]", []string{"idle rule", "prompt_box"}},
		{"idle with an any_of path unpinned", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nany_of = [{ regex = ['^❯'] }, { all = [\"x\"] }]", []string{"idle rule"}},
		{"dialog on working", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"working\"\nshow = \"dialog\"\nall = [\"x\"]", []string{"needs_input screen rule"}},
		{"dialog on title", RuleTitle, "[title]\n[[title.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\nall = [\"x\"]", []string{"needs_input screen rule"}},
		{"dialog without all", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\nany = [\"x\"]", []string{"needs all"}},
		{"tool_field without dialog", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\ntool_field = \"tool\"\nall = [\"x\"]", []string{"show = \"dialog\""}},
		{"tool_field two words", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\ntool_field = \"the tool\"\nall = [\"x\"]", []string{"one word"}},
		{"too many what_fields", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\nall = [\"x\"]\nwhat_fields = [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"]", []string{"what_fields", "at most 8"}},
		{"unknown show", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"box\"\nall = [\"x\"]", []string{"unknown show"}},
		{"answers on working", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"working\"\nall = [\"x\"]\n[screen.rule.answers]\ndeny = { keys = [\"esc\"] }", []string{"answers"}},
		{"answers bad key", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[screen.rule.answers]\ndeny = { keys = [\"escape\"] }", []string{"answers.deny.keys[0]"}},
		{"answers too many keys", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[screen.rule.answers]\ndeny = { keys = [\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\"] }", []string{"at most 8"}},
		{"answers option on title", RuleTitle, "[title]\n[[title.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[title.rule.answers]\napprove = { option = \"yes\" }", []string{"title rule"}},
		{"answers choose", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[screen.rule.answers]\nchoose = \"letter\"", []string{"choose"}},
		{"answers on notify", RuleNotify, "[notify]\n[[notify.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n[notify.rule.answers]\ndeny = { keys = [\"esc\"] }", []string{"answers"}},
		{"empty string", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"\"]", []string{"all[0] is empty"}},
		{"all_of group with only not", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nall_of = [{ not = [\"y\"] }]", []string{"all_of[0]", "nothing positive"}},
		{"empty none_of group", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nnone_of = [{}]", []string{"none_of[0] is empty"}},
		{"nested bad regex", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nany_of = [{ regex = ['('] }]", []string{"any_of[0].regex[0]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, err := compileBlock(t, c.kind, c.src)
			if err == nil {
				t.Fatalf("compiled, want an error with %q", c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if rs.Compiled() {
				t.Error("a failed set reports compiled")
			}
			if v := rs.Classify([]string{"x"}); v.Matched {
				t.Error("a failed set matched")
			}
		})
	}
}

func TestCompileAccepts(t *testing.T) {
	cases := []struct {
		name string
		kind RuleKind
		src  string
	}{
		{"none alias of not", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nnone = [\"y\"]"},
		{"idle reading prompt_box", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nregion = \"prompt_box_body\"\nall = [\"❯\"]"},
		{"idle pinned by regex", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nregex = ['^❯ *$']"},
		{"idle pinned in all_of", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nall = [\"? for shortcuts\"]\nall_of = [{ regex = ['^❯'] }]"},
		{"idle pinned on every any_of path", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"idle\"\nany_of = [{ regex = ['^❯'] }, { regex = ['^>'] }]"},
		{"idle title needs no proof", RuleTitle, "[title]\n[[title.rule]]\nstate = \"idle\"\nall = [\"✳\"]"},
		{"done on notify", RuleNotify, "[notify]\n[[notify.rule]]\nstate = \"done\"\nregex = ['\\S']"},
		{"rule with only not compiles as empty", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nnot = [\"y\"]"},
		{"none_of veto-only group", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\nnone_of = [{ not = [\"y\"] }]"},
		{"aliases of tail", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"whole_recent\"\nall = [\"x\"]"},
		{"bottom lines at max", RuleScreen, "[screen]\nlines = 200\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"bottom_non_empty_lines(200)\"\nall = [\"x\"]"},
		{"osc_progress title rule", RuleTitle, "[title]\n[[title.rule]]\nstate = \"needs_input\"\nregion = \"osc_progress\"\nall = [\"x\"]"},
		{"dialog with answers", RuleScreen, "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\nall = [\"x\"]\ntool_field = \"tool\"\nwhat_fields = [\"file\", \"body\"]\nhint_fields = [\"desc\"]\n[screen.rule.answers]\napprove = { keys = [\"a\"] }\ndeny = { keys = [\"esc\", \"d\"] }\nchoose = \"digit\"\ntext = true"},
		{"empty block", RuleScreen, "[screen]\nenabled = false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := mustBlock(t, c.kind, c.src)
			if !rs.Compiled() || rs.Kind() != c.kind {
				t.Errorf("compiled %v kind %v", rs.Compiled(), rs.Kind())
			}
		})
	}
}

func TestCompileDepthAndBudgets(t *testing.T) {
	// nine levels of all_of nesting fail; eight pass.
	nest := func(n int) string {
		g := "{ all = [\"x\"] }"
		for i := 0; i < n; i++ {
			g = "{ all = [\"x\"], all_of = [" + g + "] }"
		}
		return "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall_of = [" + g + "]"
	}
	if _, err := compileBlock(t, RuleScreen, nest(7)); err != nil {
		t.Errorf("8 deep: %v", err)
	}
	if _, err := compileBlock(t, RuleScreen, nest(8)); err == nil || !strings.Contains(err.Error(), "deeper than 8") {
		t.Errorf("9 deep: %v", err)
	}

	var b strings.Builder
	b.WriteString("[screen]\n")
	for i := 0; i < 520; i++ {
		b.WriteString("[[screen.rule]]\nstate = \"needs_input\"\nall = [\"x\"]\n")
	}
	if _, err := compileBlock(t, RuleScreen, b.String()); err == nil || !strings.Contains(err.Error(), "groups") {
		t.Errorf("520 rules: %v", err)
	}
	b.Reset()
	b.WriteString("[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [")
	for i := 0; i < 1025; i++ {
		b.WriteString("\"x\",")
	}
	b.WriteString("]\n")
	if _, err := compileBlock(t, RuleScreen, b.String()); err == nil || !strings.Contains(err.Error(), "strings and patterns") {
		t.Errorf("1025 strings: %v", err)
	}
	// The per-file budget sums the blocks.
	half := "[[screen.rule]]\nstate = \"needs_input\"\nall = [" + strings.Repeat("\"x\",", 600) + "]\n"
	s := mustBlock(t, RuleScreen, "[screen]\n"+half)
	n := mustBlock(t, RuleNotify, "[notify]\n"+strings.ReplaceAll(half, "screen", "notify"))
	if err := checkBudgets(s, n); err == nil {
		t.Error("1200 strings over two blocks passed the per-file budget")
	}
}

func TestReadLines(t *testing.T) {
	if n := mustBlock(t, RuleScreen, "[screen]").ReadLines(); n != DefaultScreenLines {
		t.Errorf("default lines %d", n)
	}
	if n := mustBlock(t, RuleScreen, "[screen]\nlines = 14").ReadLines(); n != 14 {
		t.Errorf("lines %d", n)
	}
	var zero RuleSet
	if zero.ReadLines() != DefaultScreenLines || zero.Compiled() {
		t.Error("zero RuleSet")
	}
	if v := zero.Classify([]string{"x"}); v.Matched || v.Rule != -1 {
		t.Errorf("uncompiled set classified: %+v", v)
	}
	var nilSet *RuleSet
	if v := nilSet.Classify([]string{"x"}); v.Matched {
		t.Error("nil set matched")
	}
}

// FuzzCompileRuleSet: any TOML-ish rule input compiles or fails cleanly,
// and a compiled set classifies without panicking.
func FuzzCompileRuleSet(f *testing.F) {
	seeds := []string{
		"[screen]\nenabled = true\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"Do you want\"]\nany = [\"1. Yes\"]",
		"[screen]\nlines = 3\n[[screen.rule]]\nstate = \"idle\"\nregion = \"bottom_non_empty_lines(2)\"\nregex = ['^❯']",
		"[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nshow = \"dialog\"\nall = [\"x\"]\ntool_field = \"tool\"\nwhat_fields = [\"body\"]",
		"[title]\n[[title.rule]]\nstate = \"working\"\nregex = ['^[\\x{2800}-\\x{28FF}]']",
		"[notify]\n[[notify.rule]]\nstate = \"done\"\nregex = ['\\S']",
		"[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nany_of = [{ all = [\"a\"], none_of = [{ not = [\"b\"] }] }]",
		"[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \"prompt_box\"\nall = [\"x\"]\n[screen.rule.answers]\napprove = { option = \"yes\", keys = [\"enter\"] }",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var b blocks
		if _, err := toml.Decode(src, &b); err != nil {
			return
		}
		tail := []string{"╭───╮", "│ x │", "╰───╯", "────", "❯ 1. Yes", "Do you want", "────", "a b"}
		for _, x := range []struct {
			rs   *RuleSet
			kind RuleKind
		}{{&b.Screen, RuleScreen}, {&b.Title, RuleTitle}, {&b.Notify, RuleNotify}} {
			if err := x.rs.Compile(x.kind); err != nil {
				if err.Error() == "" {
					t.Fatal("empty error")
				}
				continue
			}
			x.rs.Enabled = true
			x.rs.Classify(tail)
			x.rs.ClassifyTitle("⠋ a b")
			x.rs.ClassifyProgress("x")
			x.rs.ClassifyNotify("t", "b")
			ExplainRules(x.rs, tail)
		}
	})
}
