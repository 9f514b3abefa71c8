package detect

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/tuios/tuios/agentstate"
)

// shippedIDs are the 24 harnesses the docs name.
var shippedIDs = [...]string{"aider", "amp", "antigravity", "claude-code", "cline", "codex", "copilot", "crush",
	"cursor-agent", "devin", "droid", "gemini-cli", "goose", "grok", "hermes", "kilo", "kimi", "kiro", "maki",
	"oh-my-pi", "opencode", "pi", "qoder", "qwen"}

// ruleFile is the part of a manifest this file's tests read, decoded on its
// own so the tests do not depend on the loader.
type ruleFile struct {
	SchemaVersion int     `toml:"schema_version"`
	ID            string  `toml:"id"`
	Screen        RuleSet `toml:"screen"`
	Title         RuleSet `toml:"title"`
	Notify        RuleSet `toml:"notify"`
	Input         struct {
		Submit            string `toml:"submit"`
		BracketedPaste    *bool  `toml:"bracketed_paste"`
		FocusBeforeSubmit bool   `toml:"focus_before_submit"`
		SubmitDelayMS     int    `toml:"submit_delay_ms"`
		Source            string `toml:"source"`
		Images            string `toml:"images"`
		ImagesSource      string `toml:"images_source"`
	} `toml:"input"`
	raw string
}

func loadRuleFile(t testing.TB, path string) *ruleFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f ruleFile
	if _, err := toml.Decode(string(data), &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	f.raw = string(data)
	for _, x := range []struct {
		rs   *RuleSet
		kind RuleKind
	}{{&f.Screen, RuleScreen}, {&f.Title, RuleTitle}, {&f.Notify, RuleNotify}} {
		if err := x.rs.Compile(x.kind); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if err := checkBudgets(&f.Screen, &f.Title, &f.Notify); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &f
}

func loadShipped(t testing.TB) map[string]*ruleFile {
	t.Helper()
	paths, err := filepath.Glob("harnesses/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ruleFile{}
	for _, p := range paths {
		f := loadRuleFile(t, p)
		if want := strings.TrimSuffix(filepath.Base(p), ".toml"); f.ID != want {
			t.Errorf("%s: id %q, want the file name %q", p, f.ID, want)
		}
		out[f.ID] = f
	}
	return out
}

// screenFixture is one file of fixtures/screens: a header of "# " lines
// (provenance, "# expect: <state>|none", optional "# harness: <id>",
// optional "# rule: <index>") ended by "---", then the screen as captured.
type screenFixture struct {
	name    string
	harness string
	expect  string
	rule    int
	screen  []string
	header  []string
}

func loadFixtures(t testing.TB, ids []string) []screenFixture {
	t.Helper()
	paths, err := filepath.Glob("fixtures/screens/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	// longest id first, so "oh-my-pi-x" is not read as "pi".
	sorted := append([]string(nil), ids...)
	sort.Slice(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	var out []screenFixture
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx := screenFixture{name: filepath.Base(p), rule: -1}
		head, body, ok := strings.Cut(string(data), "\n---\n")
		if !ok {
			t.Fatalf("%s: no header ended by ---", p)
		}
		for _, l := range strings.Split(head, "\n") {
			fx.header = append(fx.header, l)
			k, v, _ := strings.Cut(strings.TrimPrefix(l, "# "), ":")
			v = strings.TrimSpace(v)
			switch k {
			case "expect":
				fx.expect, _, _ = strings.Cut(v, " ")
			case "harness":
				fx.harness = v
			case "rule":
				fx.rule = atoiTest(t, v)
			}
		}
		if fx.harness == "" {
			for _, id := range sorted {
				if strings.HasPrefix(fx.name, id+"-") {
					fx.harness = id
					break
				}
			}
		}
		if fx.expect == "" {
			t.Fatalf("%s: no '# expect:' line", p)
		}
		fx.screen = strings.Split(strings.TrimRight(body, "\n"), "\n")
		out = append(out, fx)
	}
	return out
}

func atoiTest(t testing.TB, s string) int {
	t.Helper()
	n, ok := plainDecimal(s)
	if !ok && s != "0" {
		t.Fatalf("bad number %q", s)
	}
	return n
}

// tailOf does what vt.Screen.Tail(n) does to a captured screen: the bottom
// n non-empty rows, right-trimmed, top-down.
func tailOf(screen []string, n int) []string {
	var rev []string
	for i := len(screen) - 1; i >= 0 && len(rev) < n; i-- {
		l := strings.TrimRight(screen[i], " \t")
		if l == "" {
			continue
		}
		rev = append(rev, l)
	}
	out := make([]string, len(rev))
	for i := range rev {
		out[len(rev)-1-i] = rev[i]
	}
	return out
}

func TestShippedManifestsCompile(t *testing.T) {
	got := loadShipped(t)
	for _, id := range shippedIDs {
		if got[id] == nil {
			t.Errorf("manifest %s is not shipped", id)
		}
	}
	if len(got) != len(shippedIDs) {
		t.Errorf("%d manifests shipped, want %d", len(got), len(shippedIDs))
	}
}

// Only needs_input screen and title rules ship enabled.
func TestShippedPolicyNeedsInputOnly(t *testing.T) {
	for id, f := range loadShipped(t) {
		for _, b := range []struct {
			name string
			rs   *RuleSet
		}{{"screen", &f.Screen}, {"title", &f.Title}} {
			if !b.rs.Enabled {
				continue
			}
			for i, r := range b.rs.Rules {
				if r.c.state != agentstate.NeedsInput {
					t.Errorf("%s: %s.rule[%d] is %s in an enabled block", id, b.name, i, r.State)
				}
			}
		}
	}
}

func TestShippedAttribution(t *testing.T) {
	herdr := []string{"amp", "antigravity", "cline", "devin", "copilot", "grok", "hermes", "kilo", "kimi", "kiro", "maki", "qoder", "qwen",
		"claude-code", "codex", "opencode", "gemini-cli", "droid"}
	all := loadShipped(t)
	for _, id := range herdr {
		f := all[id]
		if f == nil {
			continue
		}
		if !strings.Contains(f.raw, "herdr") || !strings.Contains(f.raw, "Apache-2.0") || !strings.Contains(f.raw, "LICENSE-herdr") {
			t.Errorf("%s: herdr-derived rules without the attribution header", id)
		}
	}
	for _, p := range []string{"LICENSE-herdr", "NOTICE.md"} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("attribution file: %v", err)
		}
	}
}

// Every fixture gets the verdict its header expects from its harness's
// rules, read as the classifier reads a pane: the bottom ReadLines rows.
func TestFixturesAgainstTheirManifest(t *testing.T) {
	all := loadShipped(t)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	for _, fx := range loadFixtures(t, ids) {
		if fx.harness == "common" {
			continue
		}
		f := all[fx.harness]
		if f == nil {
			t.Errorf("%s: no manifest %q", fx.name, fx.harness)
			continue
		}
		tail := tailOf(fx.screen, f.Screen.ReadLines())
		v := f.Screen.Classify(tail)
		switch fx.expect {
		case "none":
			if v.Matched {
				t.Errorf("%s: rule %d (%s) fired on a non-blocker; message %q\n%s", fx.name, v.Rule, v.State, v.Message, ExplainScreen(&Manifest{ID: f.ID, Screen: f.Screen}, tail, ""))
			}
		default:
			want, err := agentstate.ParseState(fx.expect)
			if err != nil {
				t.Fatalf("%s: %v", fx.name, err)
			}
			if !v.Matched || v.State != want || (fx.rule >= 0 && v.Rule != fx.rule) {
				t.Errorf("%s: got matched=%v %s rule %d, want %s rule %d\n%s", fx.name, v.Matched, v.State, v.Rule, want, fx.rule,
					ExplainScreen(&Manifest{ID: f.ID, Screen: f.Screen}, tail, ""))
				continue
			}
			if v.Message == "" {
				t.Errorf("%s: matched with an empty message", fx.name)
			}
		}
	}
}

// Non-blocker fixtures shared by every harness (a shell prompt, prose that
// quotes prompts) fire no rule of any shipped manifest.
func TestCommonFixturesFireNothing(t *testing.T) {
	all := loadShipped(t)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	n := 0
	for _, fx := range loadFixtures(t, append(ids, "common")) {
		if fx.harness != "common" {
			continue
		}
		n++
		for id, f := range all {
			tail := tailOf(fx.screen, f.Screen.ReadLines())
			if v := f.Screen.Classify(tail); v.Matched {
				t.Errorf("%s: %s rule %d fired: %q", fx.name, id, v.Rule, v.Message)
			}
		}
	}
	if n == 0 {
		t.Fatal("no common fixtures")
	}
}

// Each enabled needs_input screen rule holds on at least one of its
// harness's blocker fixtures (it may be shadowed there by a rule ranked
// above it, which explain reports as matched).
func TestEveryNeedsInputRuleHasAFixture(t *testing.T) {
	all := loadShipped(t)
	var ids []string
	for id := range all {
		ids = append(ids, id)
	}
	fixtures := loadFixtures(t, ids)
	for id, f := range all {
		if !f.Screen.Enabled {
			continue
		}
		covered := make([]bool, len(f.Screen.Rules))
		for _, fx := range fixtures {
			if fx.harness != id || fx.expect == "none" {
				continue
			}
			ex := ExplainRules(&f.Screen, tailOf(fx.screen, f.Screen.ReadLines()))
			for _, r := range ex.Rules {
				if r.Matched {
					covered[r.Index] = true
				}
			}
		}
		for i, ok := range covered {
			if !ok && f.Screen.Rules[i].c.state == agentstate.NeedsInput {
				t.Errorf("%s: screen.rule[%d] (%s) fires on no fixture", id, i, f.Screen.Rules[i].Message)
			}
		}
	}
}

// Shipped title and notify rules read the titles and notifications the
// harnesses' docs describe; written from docs, not captured.
func TestShippedTitleAndNotifyRules(t *testing.T) {
	all := loadShipped(t)
	titles := []struct {
		id, title string
		want      agentstate.State // None: no match
	}{
		{"codex", "Action Required - codex", agentstate.NeedsInput},
		{"codex", "[ . ] Action Required | create hello.txt | codex-perm", agentstate.NeedsInput}, // measured on 0.171.0
		{"codex", "create hello.txt | codex-perm", agentstate.None},                               // measured after the answer
		{"codex", "⠋ codex", agentstate.None},                                                     // working title rules do not ship
		{"codex", "transaction required", agentstate.None},
		{"gemini-cli", "✋ Action Required (my-project)", agentstate.NeedsInput},
		{"gemini-cli", "◇ Ready (my-project)", agentstate.None},
		// measured on 0.61.0 (padded with spaces as Gemini CLI sets them)
		{"gemini-cli", "✋  Action Required (gemini-perm)                                                ", agentstate.NeedsInput},
		{"gemini-cli", "✦  Working… (gemini-perm)                                                       ", agentstate.None},
		{"gemini-cli", "◇  Ready (gemini-perm)                                                          ", agentstate.None},
		{"grok", "Action Required - grok", agentstate.NeedsInput},
		{"grok", "grok", agentstate.None},
		{"amp", "Plugin confirmation needed", agentstate.NeedsInput},
		{"amp", "T-123 - amp - ~/src", agentstate.None},
		{"hermes", "⚠ approve rm -rf build", agentstate.NeedsInput},
		{"hermes", "⏳ running", agentstate.None},
		{"qwen", "✳ Qwen Code", agentstate.NeedsInput},
		{"qwen", "◐ Qwen Code", agentstate.None},
		{"claude-code", "✳ Claude Code", agentstate.None}, // title block ships disabled: measured idle AND on a permission prompt
	}
	for _, c := range titles {
		v := all[c.id].Title.ClassifyTitle(c.title)
		if got := map[bool]agentstate.State{true: v.State, false: agentstate.None}[v.Matched]; got != c.want {
			t.Errorf("%s title %q: got %s, want %s", c.id, c.title, got, c.want)
		}
		if v.Matched && v.Message == "" {
			t.Errorf("%s title %q: empty message", c.id, c.title)
		}
	}
	notes := []struct {
		id, title, body string
		want            agentstate.State
		message         string
	}{
		{"claude-code", "Claude Code", "Claude needs your permission to use Bash", agentstate.NeedsInput, "approval: Claude Code: Claude needs your permission to use Bash"},
		{"claude-code", "Claude Code", "Claude is waiting for your input", agentstate.Idle, "Claude Code: Claude is waiting for your input"},
		{"claude-code", "Claude Code", "Build finished", agentstate.None, ""},
		{"codex", "Codex", "Approval requested: touch hello.txt", agentstate.NeedsInput, "approval: Codex: Approval requested: touch hello.txt"},
		{"codex", "Codex", "Codex wants to edit main.go", agentstate.NeedsInput, ""},
		{"codex", "", "Agent turn complete", agentstate.Done, "Agent turn complete"},
	}
	for _, c := range notes {
		v := all[c.id].Notify.ClassifyNotify(c.title, c.body)
		if got := map[bool]agentstate.State{true: v.State, false: agentstate.None}[v.Matched]; got != c.want {
			t.Errorf("%s notify %q/%q: got %s, want %s", c.id, c.title, c.body, got, c.want)
		}
		if c.message != "" && v.Message != c.message {
			t.Errorf("%s notify: message %q, want %q", c.id, v.Message, c.message)
		}
	}
}

// The [input] blocks say how a reply is typed, as the docs list them.
func TestShippedInputBlocks(t *testing.T) {
	all := loadShipped(t)
	for _, id := range []string{"claude-code", "codex", "opencode", "kilo", "crush"} {
		if got := all[id].Input.Images; got != "path_paste" {
			t.Errorf("%s images %q, want path_paste", id, got)
		}
	}
	if got := all["pi"].Input.Images; got != "path_text" {
		t.Errorf("pi images %q", got)
	}
	if !all["copilot"].Input.FocusBeforeSubmit {
		t.Error("copilot needs focus_before_submit")
	}
	for id, f := range all {
		if f.Input.Source == "" {
			t.Errorf("%s: [input] without a source note", id)
		}
		if f.Input.Submit != "cr" {
			t.Errorf("%s: submit %q", id, f.Input.Submit)
		}
	}
}

// The process shapes captured from real installs (fixtures/processes.md)
// are recognised by the shipped manifests, each member on its own.
func TestShippedManifestsMatchCapturedShapes(t *testing.T) {
	reg, errs := Load(LoadOptions{NoUser: true})
	if len(errs) > 0 {
		t.Fatalf("bundled manifests: %v", errs)
	}
	d := NewDetector(DetectorOptions{Registry: reg})
	const nm = "/tmp/agents/node_modules"
	cases := []struct {
		want string
		p    ProcInfo
	}{
		{"claude-code", ProcInfo{Comm: "claude", Argv: []string{"claude"}, Exe: nm + "/@anthropic-ai/claude-code/bin/claude.exe"}},
		{"codex", ProcInfo{Comm: "node", Argv: []string{"node", nm + "/.bin/codex"}, Exe: "/usr/bin/node"}},
		{"codex", ProcInfo{Comm: "codex", Argv: []string{nm + "/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"}, Exe: nm + "/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"}},
		{"gemini-cli", ProcInfo{Comm: "node", Argv: []string{"node", nm + "/.bin/gemini"}, Exe: "/usr/bin/node"}},
		{"gemini-cli", ProcInfo{Comm: "node", Argv: []string{"/usr/bin/node", "--max-old-space-size=12052", nm + "/.bin/gemini"}, Exe: "/usr/bin/node"}},
		{"qwen", ProcInfo{Comm: "node", Argv: []string{"/usr/bin/node", nm + "/.bin/qwen"}, Exe: "/usr/bin/node"}},
		{"copilot", ProcInfo{Comm: "node", Argv: []string{"node", nm + "/.bin/copilot"}, Exe: "/usr/bin/node"}},
		{"copilot", ProcInfo{Comm: "MainThread", Argv: []string{nm + "/@github/copilot-linux-x64/copilot"}, Exe: nm + "/@github/copilot-linux-x64/copilot"}},
		{"opencode", ProcInfo{Comm: "opencode", Argv: []string{"opencode"}, Exe: nm + "/opencode-ai/bin/opencode.exe"}},
		{"amp", ProcInfo{Comm: "amp", Argv: []string{"amp"}, Exe: nm + "/@ampcode/cli/bin/amp.exe"}},
		{"kilo", ProcInfo{Comm: "node", Argv: []string{"node", nm + "/.bin/kilo"}, Exe: "/usr/bin/node"}},
		{"kilo", ProcInfo{Comm: "kilo", Argv: []string{nm + "/@kilocode/cli-linux-x64/bin/kilo"}, Exe: nm + "/@kilocode/cli-linux-x64/bin/kilo"}},
		{"pi", ProcInfo{Comm: "pi", Argv: []string{"pi"}, Exe: "/usr/bin/node"}},
		// short names without their install are not enough
		{"", ProcInfo{Comm: "amp", Argv: []string{"amp"}, Exe: "/usr/local/bin/amp"}},
		{"", ProcInfo{Comm: "pi", Argv: []string{"pi"}, Exe: "/usr/bin/pi"}},
	}
	for _, c := range cases {
		m := d.MatchProcess(c.p)
		if m.HarnessID != c.want {
			t.Errorf("comm %q argv %q exe %q: matched %q (%s), want %q", c.p.Comm, c.p.Argv, c.p.Exe, m.HarnessID, m.Rule, c.want)
		}
	}
}
