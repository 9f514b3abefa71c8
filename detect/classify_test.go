package detect

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
)

func screenSet(t testing.TB, body string) *RuleSet {
	t.Helper()
	return mustBlock(t, RuleScreen, "[screen]\nenabled = true\n"+body)
}

func TestClassifyPredicates(t *testing.T) {
	cases := []struct {
		name  string
		rules string
		tail  []string
		want  int // rule index, -1 for no match
	}{
		{"no rule matched", `[[screen.rule]]
state = "needs_input"
all = ["Do you want"]`, []string{"$ ls"}, -1},
		{"all needs every string", `[[screen.rule]]
state = "needs_input"
all = ["Do you want", "1. Yes"]`, []string{"Do you want to proceed?"}, -1},
		{"all across lines", `[[screen.rule]]
state = "needs_input"
all = ["Do you want", "1. Yes"]`, []string{"Do you want to proceed?", "❯ 1. Yes"}, 0},
		{"any needs one", `[[screen.rule]]
state = "needs_input"
all = ["Do you want"]
any = ["1. Yes", "❯ 1."]`, []string{"Do you want to proceed?"}, -1},
		{"not vetoes", `[[screen.rule]]
state = "needs_input"
all = ["esc to cancel"]
not = ["esc to cancel this search"]`, []string{"esc to cancel this search"}, -1},
		{"none is not", `[[screen.rule]]
state = "needs_input"
all = ["esc to cancel"]
none = ["search"]`, []string{"esc to cancel this search"}, -1},
		{"rule with only not matches nothing", `[[screen.rule]]
state = "needs_input"
not = ["zzz"]`, []string{"anything"}, -1},
		{"regex alone is positive", `[[screen.rule]]
state = "needs_input"
regex = ['^\s*❯ \d\. ']`, []string{"Pick one", " ❯ 1. Yes"}, 0},
		{"regex anchors per line", `[[screen.rule]]
state = "needs_input"
regex = ['^Allow\?$']`, []string{"x", "Allow?", "y"}, 0},
		{"regex anchored line absent", `[[screen.rule]]
state = "needs_input"
regex = ['^Allow\?$']`, []string{"x Allow?", "y"}, -1},
		{"not_regex vetoes", `[[screen.rule]]
state = "needs_input"
all = ["Allow"]
not_regex = ['^❯\s*$']`, []string{"Allow edits", "❯ "}, -1},
		{"fold_case folds substrings", `fold_case = true
[[screen.rule]]
state = "needs_input"
all = ["DO YOU WANT"]`, []string{"do you want to proceed?"}, 0},
		{"fold_case leaves regexes alone", `fold_case = true
[[screen.rule]]
state = "needs_input"
regex = ['DO YOU WANT']`, []string{"do you want to proceed?"}, -1},
		{"no fold_case is exact", `[[screen.rule]]
state = "needs_input"
all = ["Do You Want"]`, []string{"Do you want"}, -1},
		{"all_of group", `[[screen.rule]]
state = "needs_input"
all = ["enter to select"]
all_of = [{ any = ["> yes, allow", "> no, cancel"] }]`, []string{"> no, cancel", "enter to select"}, 0},
		{"all_of group refuses", `[[screen.rule]]
state = "needs_input"
all = ["enter to select"]
all_of = [{ any = ["> yes, allow", "> no, cancel"] }]`, []string{"enter to select"}, -1},
		{"any_of one alternative", `[[screen.rule]]
state = "needs_input"
any_of = [{ all = ["a", "b"] }, { all = ["c"] }]`, []string{"c"}, 0},
		{"any_of none holds", `[[screen.rule]]
state = "needs_input"
any_of = [{ all = ["a", "b"] }, { all = ["c"] }]`, []string{"a"}, -1},
		{"none_of vetoes", `[[screen.rule]]
state = "needs_input"
all = ["a"]
none_of = [{ all = ["b", "c"] }]`, []string{"a b c"}, -1},
		{"none_of partial does not veto", `[[screen.rule]]
state = "needs_input"
all = ["a"]
none_of = [{ all = ["b", "c"] }]`, []string{"a b"}, 0},
		{"priority first", `[[screen.rule]]
state = "needs_input"
priority = 1
all = ["x"]
[[screen.rule]]
state = "needs_input"
priority = 5
all = ["x"]`, []string{"x"}, 1},
		{"ties in file order", `[[screen.rule]]
state = "needs_input"
priority = 5
all = ["x"]
[[screen.rule]]
state = "needs_input"
priority = 5
all = ["x"]`, []string{"x"}, 0},
		{"first match wins over a later lower rule", `[[screen.rule]]
state = "working"
priority = 1
all = ["x"]
[[screen.rule]]
state = "needs_input"
priority = 2
all = ["y"]`, []string{"x"}, 0},
		{"empty tail", `[[screen.rule]]
state = "needs_input"
regex = ['^$']`, nil, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := screenSet(t, c.rules)
			v := rs.Classify(c.tail)
			if v.Rule != c.want || v.Matched != (c.want >= 0) {
				t.Errorf("got rule %d matched %v, want %d\n%s", v.Rule, v.Matched, c.want,
					ExplainScreen(&Manifest{ID: "t", Screen: *rs}, c.tail, ""))
			}
		})
	}
}

func TestClassifyRegions(t *testing.T) {
	box := []string{
		"● Done.",
		"Do you want it?",
		"",
		"────────────────",
		"❯ hello",
		"────────────────",
		"  ? for shortcuts",
	}
	cases := []struct {
		region string
		all    string
		tail   []string
		want   bool
	}{
		{"tail", "? for shortcuts", box, true},
		{"bottom_non_empty_lines(1)", "? for shortcuts", box, true},
		{"bottom_non_empty_lines(1)", "❯ hello", box, false},
		{"bottom_non_empty_lines(3)", "❯ hello", box, true},
		{"prompt_box", "❯ hello", box, true},
		{"prompt_box", "? for shortcuts", box, false},
		{"prompt_box", "Done", box, false},
		{"prompt_box_body", "hello", box, true},
		{"above_prompt_box", "Do you want", box, true},
		{"above_prompt_box", "hello", box, false},
		{"last_non_empty_above_prompt_box", "Do you want", box, true},
		{"last_non_empty_above_prompt_box", "Done", box, false},
		{"after_last_horizontal_rule", "? for shortcuts", box, true},
		{"after_last_horizontal_rule", "hello", box, false},
		// No border: the whole tail is after the last rule; box regions
		// are absent and match nothing.
		{"after_last_horizontal_rule", "hello", []string{"hello"}, true},
		{"prompt_box", "hello", []string{"hello"}, false},
		{"above_prompt_box", "hello", []string{"hello", "────"}, false},
		// corners count as a border start
		{"prompt_box", "x", []string{"╭──────╮", "│ x    │", "╰──────╯"}, true},
	}
	for _, c := range cases {
		rs := screenSet(t, "lines = 8\n[[screen.rule]]\nstate = \"needs_input\"\nregion = \""+c.region+"\"\nall = [\""+c.all+"\"]")
		if v := rs.Classify(c.tail); v.Matched != c.want {
			t.Errorf("%s %q: matched %v, want %v", c.region, c.all, v.Matched, c.want)
		}
	}
}

func TestScreenMessage(t *testing.T) {
	rs := screenSet(t, `fold_case = true
[[screen.rule]]
state = "needs_input"
message = "Waits for approval of a tool call."
all = ["Do you want"]
any = ["1. Yes", "❯ 1."]
[[screen.rule]]
state = "needs_input"
priority = -1
message = "Pattern only."
regex = ['^PATTERN$']`)
	v := rs.Classify([]string{"│ Bash command", "│ \x1b Do you want   to\tproceed? │", "│ ❯ 1. Yes"})
	if v.Message != "approval: Do you want to proceed?" || v.Kind != agentstate.KindApproval || v.State != agentstate.NeedsInput {
		t.Errorf("got %+v", v)
	}
	// The all string absent from every line would fall to any.
	v = rs.Classify([]string{"PATTERN"})
	if v.Message != "Pattern only." || v.Kind != agentstate.KindQuestion {
		t.Errorf("pattern-only match: %+v", v)
	}
	long := "Do you want " + strings.Repeat("é", 300)
	v = rs.Classify([]string{long, "1. Yes"})
	if n := utf8.RuneCountInString(v.Message); n != MaxMessageRunes {
		t.Errorf("message of %d runes", n)
	}

	// kind guessed from the message and strings: "proceed" is approval,
	// other words a question.
	q := screenSet(t, "[[screen.rule]]\nstate = \"needs_input\"\nall = [\"Which file?\"]")
	if v := q.Classify([]string{"Which file?"}); v.Kind != agentstate.KindQuestion || v.Message != "question: Which file?" {
		t.Errorf("question: %+v", v)
	}
	// A working rule carries no kind and reports its message.
	w := screenSet(t, "[[screen.rule]]\nstate = \"working\"\nmessage = \"Thinking.\"\nkind = \"approval\"\nall = [\"esc to interrupt\"]")
	if v := w.Classify([]string{"✻ Thinking… (esc to interrupt)"}); v.Kind != agentstate.KindNone || v.Message != "Thinking." || v.State != agentstate.Working {
		t.Errorf("working: %+v", v)
	}
}

func TestCleanLine(t *testing.T) {
	cases := map[string]string{
		"│ ❯ 1. Yes              │": "1. Yes",
		"> Do you want to proceed?": "Do you want to proceed?",
		"  ▶ run   this\t\tnow  ":   "run this now",
		"› 2. No":                   "2. No",
		"a\x1b[31mb\x07c":           "a[31mbc",
		"╭────╮":                    "",
		"\u202eevil\u200b":          "evil",
	}
	for in, want := range cases {
		if got := cleanLine(in); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassifyTitleTokens(t *testing.T) {
	rs := mustBlock(t, RuleTitle, `[title]
enabled = true
fold_case = true
[[title.rule]]
state = "needs_input"
priority = 10
kind = "approval"
message = "Codex says an action is required"
all = ["action required"]
[[title.rule]]
state = "needs_input"
message = "grok"
all = ["grok"]
[[title.rule]]
state = "needs_input"
message = "colon"
all = ["waiting:"]
[[title.rule]]
state = "working"
message = "spinner"
regex = ['^[\x{2800}-\x{28FF}] ']
[[title.rule]]
state = "needs_input"
region = "osc_progress"
message = "progress"
all = ["paused"]`)
	cases := []struct {
		title string
		want  string // message, "" for no match
	}{
		{"Codex: Action Required", "Codex says an action is required"},
		{"action required!", "Codex says an action is required"},
		{"reaction required", ""},
		{"action required-ish", ""},
		{"grok", "grok"},
		{"session - grok", "grok"},
		{"groking", ""},
		{"grok.sh", ""},
		{"waiting:x", "colon"},
		{"awaiting:x", ""},
		{"⠋ Working", "spinner"},
		{"paused", ""}, // osc_progress rules do not read the title
	}
	for _, c := range cases {
		v := rs.ClassifyTitle(c.title)
		if got := map[bool]string{true: v.Message, false: ""}[v.Matched]; got != c.want {
			t.Errorf("title %q: got %q, want %q", c.title, got, c.want)
		}
	}
	if v := rs.ClassifyProgress("paused at 40%"); !v.Matched || v.Message != "progress" {
		t.Errorf("progress: %+v", v)
	}
	if v := rs.Classify([]string{"action required"}); v.Matched {
		t.Error("a title block classified a screen")
	}
}

func TestClassifyNotify(t *testing.T) {
	rs := mustBlock(t, RuleNotify, `[notify]
enabled = true
fold_case = true
[[notify.rule]]
state = "needs_input"
priority = 10
kind = "approval"
any = ["needs your permission", "permission to use"]
[[notify.rule]]
state = "done"
priority = 0
message = "Finished."
regex = ['\S']`)
	v := rs.ClassifyNotify("Claude Code", "Claude needs your permission to use Bash")
	if !v.Matched || v.State != agentstate.NeedsInput || v.Message != "approval: Claude Code: Claude needs your permission to use Bash" {
		t.Errorf("permission: %+v", v)
	}
	// title and body read as one text, title first
	if v := rs.ClassifyNotify("Needs your", "permission"); v.State != agentstate.Done {
		t.Errorf("words split over title and body are not one string: %+v", v)
	}
	if v := rs.ClassifyNotify("", "Task complete"); v.State != agentstate.Done || v.Message != "Task complete" {
		t.Errorf("done: %+v", v)
	}
	if v := rs.ClassifyNotify(" ", "  "); v.Matched {
		t.Errorf("blank notification: %+v", v)
	}
	rs.Enabled = false
	if v := rs.ClassifyNotify("x", "needs your permission"); v.Matched {
		t.Error("disabled block matched")
	}
}

const crushRule = `fold_case = true
lines = 30
[[screen.rule]]
state = "needs_input"
kind = "approval"
message = "Crush asks permission."
all = ["permission required", "allow for session", "deny"]
show = "dialog"
tool_field = "tool"
what_fields = ["file", "url", "directory", "body"]
hint_fields = ["desc"]`

func TestDialogRule(t *testing.T) {
	rs := screenSet(t, crushRule)
	box := func(w int, rows ...string) []string {
		out := []string{"╭" + strings.Repeat("─", w) + "╮"}
		for _, r := range rows {
			pad := w - utf8.RuneCountInString(r)
			if pad < 0 {
				pad = 0
			}
			out = append(out, "│"+r+strings.Repeat(" ", pad)+"│")
		}
		return append(out, "╰"+strings.Repeat("─", w)+"╯")
	}
	buttons := []string{"", " Allow (a)  Allow for Session (s)  Deny (d)", "", " ←→ choose · enter confirm"}
	cases := []struct {
		name    string
		tail    []string
		matched bool
		message string
		dialog  bool
	}{
		{"body", append([]string{"transcript"}, box(60, append([]string{" Permission Required", "", " Tool  bash", " Path  ~/src", "", " touch hello.txt"}, buttons...)...)...),
			true, "approve bash: touch hello.txt", true},
		{"file field wins over body", box(60, append([]string{" Permission Required", "", " Tool  edit", " File  /home/u/src/", "       main.go", "", " diff body"}, buttons...)...),
			true, "approve edit: /home/u/src/main.go", true},
		{"continued prose joins with spaces", box(60, append([]string{" Permission Required", "", " Tool  fetch", " URL   fetch the", "       release notes"}, buttons...)...),
			true, "approve fetch: fetch the release notes", true},
		{"hint only is partial", box(60, append([]string{" Permission Required", "", " Tool  mcp", " Desc  calls a server"}, buttons...)...),
			true, "approve mcp: calls a server (not all shown)", true},
		{"no what", box(60, append([]string{" Permission Required", "", " Tool  bash"}, buttons...)...),
			true, "approve bash", true},
		{"scrollbar in body is partial", box(60, append([]string{" Permission Required", "", " Tool  bash", "", " rm -rf build ┃"}, buttons...)...),
			true, "approve bash: rm -rf build (not all shown)", true},
		{"tool with spaces is refused", box(60, append([]string{" Permission Required", "", " Tool  two words"}, buttons...)...),
			true, "approval: Permission Required", true},
		{"long body is cut", box(200, append([]string{" Permission Required", "", " Tool  bash", "", " echo " + strings.Repeat("x", 190)}, buttons...)...),
			true, "", true},
		{"same words outside a box", []string{"Permission Required", "Tool bash", "Allow for Session  Deny"}, false, "", false},
		{"words split over two boxes", append(box(30, " Permission Required"), box(30, " Allow for Session  Deny")...), false, "", false},
	}
	// two boxes side by side each holding the words
	l := box(40, " Permission Required", " Tool bash", " Allow for Session  Deny")
	r := box(40, " Permission Required", " Tool edit", " Allow for Session  Deny")
	var two []string
	for i := range l {
		two = append(two, l[i]+" "+r[i])
	}
	cases = append(cases, struct {
		name    string
		tail    []string
		matched bool
		message string
		dialog  bool
	}{"two boxes: no dialog message", two, true, "Crush asks permission.", false})
	// nested: the outer box holds the inner one's words; the inner counts.
	inner := box(50, append([]string{" Permission Required", "", " Tool  bash", "", " ls"}, buttons...)...)
	outerRows := []string{" Crush"}
	for _, x := range inner {
		outerRows = append(outerRows, " "+x)
	}
	cases = append(cases, struct {
		name    string
		tail    []string
		matched bool
		message string
		dialog  bool
	}{"innermost box", box(56, outerRows...), true, "approve bash: ls", true})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := rs.Classify(c.tail)
			if v.Matched != c.matched || (c.message != "" && v.Message != c.message) || (v.Dialog != nil) != c.dialog {
				t.Errorf("got matched %v message %q dialog %v\n%s", v.Matched, v.Message, v.Dialog != nil, strings.Join(c.tail, "\n"))
			}
			if n := utf8.RuneCountInString(v.Message); n > MaxMessageRunes {
				t.Errorf("message of %d runes", n)
			}
			if c.name == "long body is cut" && !strings.HasSuffix(v.Message, " (not all shown)") {
				t.Errorf("cut message lacks the suffix: %q", v.Message)
			}
			if v.Dialog != nil && len(v.Dialog.Lines) == 0 {
				t.Error("dialog without its box lines")
			}
		})
	}
}

// The Crush fixture gives the docs' message.
func TestCrushFixtureMessage(t *testing.T) {
	f := loadRuleFile(t, filepath.Join("harnesses", "crush.toml"))
	for _, fx := range loadFixtures(t, []string{"crush"}) {
		if fx.name != "crush-permission.txt" {
			continue
		}
		v := f.Screen.Classify(tailOf(fx.screen, f.Screen.ReadLines()))
		if v.Message != "approve bash: touch hello.txt" || v.Dialog == nil || v.Dialog.Tool != "bash" {
			t.Errorf("got %+v", v)
		}
		return
	}
	t.Fatal("no crush-permission.txt fixture")
}

// Prose quoting "Do you want to proceed?" without the
// numbered list does not match Claude Code's rules; the prompt does.
func TestClaudeCodeProseVersusPrompt(t *testing.T) {
	f := loadRuleFile(t, filepath.Join("harnesses", "claude-code.toml"))
	prose := []string{"The agent asked: Do you want to proceed?", "I said yes and it went on.", "$"}
	if v := f.Screen.Classify(prose); v.Matched {
		t.Errorf("prose matched rule %d", v.Rule)
	}
	prompt := []string{"Do you want to proceed?", "❯ 1. Yes", "  2. No"}
	v := f.Screen.Classify(prompt)
	if !v.Matched || v.Rule != 0 || v.Message != "approval: Do you want to proceed?" {
		t.Errorf("prompt: %+v", v)
	}
}

// Explain names the deciding rule and shows the tail it read.
func TestExplainScreenClaudeCode(t *testing.T) {
	f := loadRuleFile(t, filepath.Join("harnesses", "claude-code.toml"))
	m := &Manifest{ID: f.ID, Screen: f.Screen, Title: f.Title, Source: "bundled"}
	var fx screenFixture
	for _, x := range loadFixtures(t, []string{"claude-code"}) {
		if x.name == "claude-code-permission.txt" {
			fx = x
		}
	}
	tail := tailOf(fx.screen, m.Screen.ReadLines())
	ex := ExplainScreen(m, tail, "✳ Claude Code")
	if !ex.Matched || ex.RuleState != "needs_input" || ex.Rule != 0 || ex.HarnessID != "claude-code" {
		t.Fatalf("explanation: %+v", ex)
	}
	if !strings.Contains(strings.Join(ex.Tail, "\n"), "Do you want to proceed?") {
		t.Error("tail lacks the prompt")
	}
	if want := m.Screen.Classify(tail); want.Rule != ex.Rule || want.Message != ex.Message {
		t.Errorf("explanation %d %q disagrees with Classify %d %q", ex.Rule, ex.Message, want.Rule, want.Message)
	}
	if len(ex.Rules) != len(m.Screen.Rules) {
		t.Fatalf("%d reports for %d rules", len(ex.Rules), len(m.Screen.Rules))
	}
	for _, r := range ex.Rules {
		if r.Matched {
			continue
		}
		if len(r.Missing)+len(r.NoneOf)+len(r.Blocked)+len(r.MissingRegex)+len(r.BlockedRegex)+len(r.Groups) == 0 && !r.Empty && !r.NoRegion {
			t.Errorf("rule %d refused without a reason: %+v", r.Index, r)
		}
	}
	// with the screen block off, the rule that would fire is named and
	// nothing reads as fired
	off := *m
	off.Screen.Enabled = false
	if ox := ExplainScreen(&off, tail, "✳ Claude Code"); ox.Matched || ox.Rule != 0 || ox.RuleState != "needs_input" ||
		!strings.Contains(ox.String(), "Rule 0 would fire (the block is off): needs_input") {
		t.Errorf("screen block off: matched %v rule %d state %q\n%s", ox.Matched, ox.Rule, ox.RuleState, ox.String())
	}
	// title rules are explained even though the block is disabled: the
	// rule that would fire is named, and nothing reads as matched
	if ex.TitleEnabled || ex.TitleMatched || ex.TitleRule != 1 || ex.TitleRuleState != "idle" {
		t.Errorf("title: enabled %v matched %v rule %d state %q", ex.TitleEnabled, ex.TitleMatched, ex.TitleRule, ex.TitleRuleState)
	}
	data, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"harness_id":"claude-code"`, `"tail":[`, `"rules":[`, `"index":0`, `"matched":true`, `"rule":0`, `"rule_state":"needs_input"`,
		`"title":"✳ Claude Code"`, `"title_rules":[`, `"title_rule":1`, `"title_matched":false`, `"title_rule_state":"idle"`, `"manifest_source":"bundled"`, `"none_of":[`} {
		if !strings.Contains(string(data), k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	s := ex.String()
	for _, w := range []string{"Rule 0 fired: needs_input", "rule 1 would fire (the block is off): idle", "WOULD FIRE (the block is off)", "----- tail:", "|  Do you want to proceed?", "did not match:", "----- end of tail -----"} {
		if !strings.Contains(s, w) {
			t.Errorf("String() lacks %q:\n%s", w, s)
		}
	}
}

func TestExplainScreenReasons(t *testing.T) {
	rs := screenSet(t, `[[screen.rule]]
state = "needs_input"
all = ["a", "zz"]
[[screen.rule]]
state = "needs_input"
any = ["x", "y"]
[[screen.rule]]
state = "needs_input"
all = ["a"]
not = ["b"]
[[screen.rule]]
state = "needs_input"
regex = ['^q$']
[[screen.rule]]
state = "needs_input"
all = ["a"]
not_regex = ['b']
[[screen.rule]]
state = "needs_input"
not = ["a"]
[[screen.rule]]
state = "needs_input"
region = "prompt_box"
all = ["a"]
[[screen.rule]]
state = "needs_input"
all = ["a"]
all_of = [{ all = ["nope"] }]`)
	ex := ExplainScreen(&Manifest{ID: "t", Screen: *rs}, []string{"a b"}, "")
	r := ex.Rules
	if len(r[0].Missing) != 1 || r[0].Missing[0] != "zz" {
		t.Errorf("missing: %+v", r[0])
	}
	if len(r[1].NoneOf) != 2 {
		t.Errorf("none_of: %+v", r[1])
	}
	if len(r[2].Blocked) != 1 || r[2].Blocked[0] != "b" {
		t.Errorf("blocked: %+v", r[2])
	}
	if len(r[3].MissingRegex) != 1 {
		t.Errorf("missing_regex: %+v", r[3])
	}
	if len(r[4].BlockedRegex) != 1 {
		t.Errorf("blocked_regex: %+v", r[4])
	}
	if !r[5].Empty || r[5].Matched {
		t.Errorf("empty: %+v", r[5])
	}
	if !r[6].NoRegion {
		t.Errorf("no_region: %+v", r[6])
	}
	if len(r[7].Groups) != 1 || !strings.Contains(r[7].Groups[0], "all_of[0]") {
		t.Errorf("groups: %+v", r[7])
	}
	if ex.Matched || ex.Rule != -1 {
		t.Errorf("nothing should match: %+v", ex)
	}
	if !strings.Contains(ex.String(), "No rule fired") {
		t.Error(ex.String())
	}
}

func TestExplainScreenNoHarness(t *testing.T) {
	ex := ExplainScreen(nil, []string{"$ ls", "evil\x1b]0;x\x07 \u202e"}, "")
	if ex.HarnessID != "" || ex.Matched || ex.Rule != -1 || len(ex.Tail) != 2 {
		t.Errorf("%+v", ex)
	}
	s := ex.String()
	if strings.ContainsAny(s, "\x1b\x07\u202e") {
		t.Errorf("control characters printed raw: %q", s)
	}
	if !strings.Contains(s, `\x1b`) || !strings.Contains(s, "no harness") {
		t.Errorf("String(): %s", s)
	}
	data, _ := json.Marshal(ex)
	if !strings.Contains(string(data), `"harness_id":""`) || !strings.Contains(string(data), `"matched":false`) {
		t.Errorf("JSON: %s", data)
	}
}

// Classification of shipped manifests is safe for concurrent use.
func TestClassifyConcurrent(t *testing.T) {
	all := loadShipped(t)
	tail := []string{"Do you want to proceed?", "❯ 1. Yes", "esc to cancel"}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				for _, f := range all {
					f.Screen.Classify(tail)
					f.Title.ClassifyTitle("Action Required")
				}
			}
			done <- true
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// FuzzClassify: random tails against every shipped manifest never panic,
// and messages stay within 160 runes.
func FuzzClassify(f *testing.F) {
	all := loadShipped(f)
	f.Add("Do you want to proceed?\n❯ 1. Yes\n  2. No", "✋ Action Required")
	f.Add("╭──────╮\n│ Permission Required │\n│ Tool bash │\n╰──────╯", "⠋ x")
	f.Add("────\n❯ \n────\n? for shortcuts", "")
	f.Add("\x00\xff\xfe╭╮╰╯│\n┃ 1 ● x", "\xff")
	f.Fuzz(func(t *testing.T, screen, title string) {
		tail := strings.Split(screen, "\n")
		for _, m := range all {
			v := m.Screen.Classify(tail)
			if utf8.RuneCountInString(v.Message) > MaxMessageRunes {
				t.Fatalf("%s: message of %d runes", m.ID, utf8.RuneCountInString(v.Message))
			}
			m.Title.ClassifyTitle(title)
			m.Notify.ClassifyNotify(title, screen)
		}
	})
}

// BenchmarkClassifyEveryManifest: one rule scan of an 8-line tail against
// every shipped manifest's screen rules.
func BenchmarkClassifyEveryManifest(b *testing.B) {
	all := loadShipped(b)
	sets := make([]*RuleSet, 0, len(all))
	for _, f := range all {
		sets = append(sets, &f.Screen)
	}
	tail := []string{
		"● I'll run the tests.",
		"● Bash(go test ./...)",
		"────────────────────────────────────────",
		" Bash command",
		"   go test ./...",
		" Do you want to proceed?",
		" ❯ 1. Yes",
		" Esc to cancel · Tab to amend",
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, rs := range sets {
			rs.Classify(tail)
		}
	}
}

// BenchmarkClassifyMiss: the common case, a screen no rule claims.
func BenchmarkClassifyMiss(b *testing.B) {
	all := loadShipped(b)
	sets := make([]*RuleSet, 0, len(all))
	for _, f := range all {
		sets = append(sets, &f.Screen)
	}
	tail := []string{"$ go test ./...", "ok  example.com/a 0.1s", "ok  example.com/b 0.2s", "$ git status", "On branch main", "nothing to commit", "$ ls", "$"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, rs := range sets {
			rs.Classify(tail)
		}
	}
}

func TestExplainDialogReasons(t *testing.T) {
	rs := screenSet(t, crushRule)
	m := &Manifest{ID: "crush", Screen: *rs}
	ex := ExplainScreen(m, []string{"Permission Required", "Allow for Session  Deny"}, "")
	if r := ex.Rules[0]; r.Matched || !strings.Contains(r.Dialog, "no bordered box") || !strings.Contains(ex.String(), "no bordered box") {
		t.Errorf("no box: %+v", r)
	}
	ex = ExplainScreen(m, []string{"╭────────────────────╮", "│ Permission Required│", "╰────────────────────╯"}, "")
	if r := ex.Rules[0]; r.Matched || len(r.Missing) != 2 || !strings.Contains(r.Dialog, "none holds") {
		t.Errorf("box without the words: %+v", r)
	}
}
