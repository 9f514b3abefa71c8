package detect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseManifestDefaults(t *testing.T) {
	m, err := ParseManifest([]byte(`schema_version = 1
id = "  brandnew "
[detect]
argv0 = [" BrandNew ", ""]
`), "brandnew.toml")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "brandnew" || m.DisplayName != "brandnew" || m.Priority != 0 {
		t.Errorf("id/display/priority: %q %q %d", m.ID, m.DisplayName, m.Priority)
	}
	if len(m.Detect.Argv0) != 1 || m.Detect.Argv0[0] != "brandnew" {
		t.Errorf("argv0 not normalised: %q", m.Detect.Argv0)
	}
	in := m.Input
	if in.Submit != "cr" || !in.BracketedPaste || in.FocusBeforeSubmit || in.Images != "path_text" || in.SubmitKey() != "\r" {
		t.Errorf("input defaults: %+v", in)
	}
	if m.Transcript.Enabled() {
		t.Error("transcript enabled without a block")
	}
}

func TestParseManifestFull(t *testing.T) {
	m, err := ParseManifest([]byte(`schema_version = 1
id = "x-agent"
display_name = "X Agent"
priority = 70
[detect]
comm = ["xa"]
exe_glob = ["**/.xa/bin/xa"]
[detect.require]
exe_base = ["node"]
exe_glob = ["**/.xa/**"]
[screen]
enabled = true
fold_case = true
lines = 8
[[screen.rule]]
state = "needs_input"
priority = 10
all = ["allow?"]
[transcript]
reader = "claude-code-jsonl"
dir = "{home}/.xa/projects/{cwd:dashes}"
glob = "*.jsonl"
verify = ["cwd", "version"]
session_file = "{home}/.xa/sessions/{pid}.json"
[input]
submit = "lf"
bracketed_paste = false
focus_before_submit = true
images = "path_paste"
source = "measured"
images_source = "measured 1.0"
[resume]
argv = ["xa", "--resume", "{session_id}"]
source = "docs"
`), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	if m.DisplayName != "X Agent" || m.Priority != 70 || !m.Screen.Compiled() || len(m.Screen.Rules) != 1 {
		t.Errorf("manifest: %+v", m)
	}
	if m.Input.SubmitKey() != "\n" || m.Input.BracketedPaste || !m.Input.FocusBeforeSubmit || m.Input.Images != "path_paste" {
		t.Errorf("input: %+v", m.Input)
	}
	if got := m.Transcript.ExpandTranscriptDir("/home/u", "/home/u/src/x.y"); got != "/home/u/.xa/projects/-home-u-src-x-y" {
		t.Errorf("transcript dir %q", got)
	}
	if m.Transcript.SessionFile != "{home}/.xa/sessions/{pid}.json" {
		t.Errorf("session_file %q", m.Transcript.SessionFile)
	}
}

func TestParseManifestErrors(t *testing.T) {
	base := "schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\"xagent\"]\n"
	tb := base + "[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}/p/{cwd:dashes}\"\nglob = \"*.jsonl\"\n"
	for _, c := range []struct {
		name, src string
		code      Code
		reason    string
		line      int
	}{
		{"schema", "schema_version = 2\nid = \"x\"\n[detect]\ncomm = [\"xagent\"]\n", CodeSchemaVersion, "schema_version 2, this build understands 1", 1},
		{"schema missing", "id = \"x\"\n[detect]\ncomm = [\"xagent\"]\n", CodeSchemaVersion, "schema_version 0, this build understands 1", 0},
		{"toml", "schema_version = 1\nid = \"x\n", CodeParse, "", 2},
		{"type", "schema_version = 1\nid = 5\n", CodeParse, "id: incompatible types", 2},
		{"type in detect", "schema_version = 1\nid = \"x\"\n[detect]\ncomm = \"xagent\"\n", CodeParse, "detect.comm: incompatible types", 4},
		{"id", "schema_version = 1\nid = \"  \"\n[detect]\ncomm = [\"xagent\"]\n", CodeMissingID, "id is required", 2},
		{"unknown in detect", base + "colour = 1\n", CodeUnknownKey, `unknown key "detect.colour"`, 5},
		{"unknown top", "schema_version = 1\nid = \"x\"\ncolour = 1\n[detect]\ncomm = [\"xagent\"]\n", CodeUnknownKey, `unknown key "colour"`, 3},
		{"unknown detect", "schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\"xagent\"]\nargv = [\"x\"]\n", CodeUnknownKey, `unknown key "detect.argv"`, 5},
		{"unknown rule key", base + "[screen]\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"a\"]\nwhen = 1\n", CodeUnknownKey, `unknown key "screen.rule.when"`, 9},
		{"generic comm", "schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\"amp\"]\n", CodeGenericName, `comm "amp" matches on the generic name "amp" alone; add a [detect.require] block`, 4},
		{"generic argv0 beside glob", "schema_version = 1\nid = \"x\"\n[detect]\nexe_glob = [\"**/x\"]\nargv0 = [\"pi\"]\n", CodeGenericName, "generic name", 5},
		{"nothing", "schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\" \"]\n", CodeMatchesNothing, "matches nothing", 3},
		{"no detect", "schema_version = 1\nid = \"x\"\n", CodeMatchesNothing, "matches nothing", 0},
		{"bad glob", "schema_version = 1\nid = \"x\"\n[detect]\nexe_glob = [\"[x\"]\n", CodeInvalidValue, "not a valid glob", 4},
		{"unknown state", base + "[screen]\nenabled = true\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"a\"]\n[[screen.rule]]\nstate = \"foo\"\nall = [\"a\"]\n", CodeInvalidRule, `screen.rule[1]: unknown state "foo"`, 10},
		{"transcript half", base + "[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}\"\n", CodeInvalidValue, "needs both dir and glob", 5},
		{"transcript reader", base + "[transcript]\nreader = \"jsonl\"\ndir = \"{home}\"\nglob = \"*\"\n", CodeInvalidValue, `unknown reader "jsonl"`, 6},
		{"transcript placeholder", base + "[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}/{cwd}\"\nglob = \"*\"\n", CodeInvalidValue, `placeholder "{cwd}"`, 7},
		{"transcript verify", base + "[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}\"\nglob = \"*.jsonl\"\nverify = [\"pid\"]\n", CodeInvalidValue, `unknown verify field "pid"`, 9},
		{"transcript glob", base + "[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}\"\nglob = \"[\"\n", CodeInvalidValue, "not a valid file glob", 8},
		{"session_file alone", base + "[transcript]\nsession_file = \"{home}/s/{pid}.json\"\n", CodeInvalidValue, `unknown reader ""`, 0},
		{"session_file placeholder", tb + "session_file = \"{home}/s/{cwd:dashes}-{pid}.json\"\n", CodeInvalidValue, `session_file "{home}/s/{cwd:dashes}-{pid}.json" uses unknown placeholder "{cwd:dashes}"`, 9},
		{"session_file unclosed", tb + "session_file = \"{home}/s/{pid.json\"\n", CodeInvalidValue, "unknown placeholder", 9},
		{"session_file no pid", tb + "session_file = \"{home}/s/current.json\"\n", CodeInvalidValue, "must hold {pid} exactly once", 9},
		{"session_file two pids", tb + "session_file = \"{home}/s/{pid}-{pid}.json\"\n", CodeInvalidValue, "must hold {pid} exactly once", 9},
		{"session_file pid dir", tb + "session_file = \"{home}/s/{pid}/session.json\"\n", CodeInvalidValue, "in its file name, not in a directory", 9},
		{"session_file relative", tb + "session_file = \".claude/sessions/{pid}.json\"\n", CodeInvalidValue, "must be absolute", 9},
		{"session_file home glued", tb + "session_file = \"{home}sessions/{pid}.json\"\n", CodeInvalidValue, "must be absolute", 9},
		{"session_file dotdot", tb + "session_file = \"{home}/../x/{pid}.json\"\n", CodeInvalidValue, "must not hold a . or .. element", 9},
		{"session_file backslash", tb + "session_file = '{home}/s\\x/{pid}.json'\n", CodeInvalidValue, "backslash", 9},
		{"session_file type", tb + "session_file = 7\n", CodeParse, "incompatible types", 9},
		{"submit", base + "[input]\nsubmit = \"crlf\"\n", CodeInvalidValue, `submit "crlf" is not cr or lf`, 6},
		{"images", base + "[input]\nimages = \"inline\"\n", CodeInvalidValue, `images "inline"`, 6},
		{"resume", base + "[resume]\nargv = [\"x\", \"$(rm -rf ~)\"]\n", CodeInvalidValue, "may hold only", 6},
		{"resume program", base + "[resume]\nargv = [\"{session_id}\"]\n", CodeInvalidValue, "must start with the program", 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := ParseManifest([]byte(c.src), "bad.toml")
			if err == nil {
				t.Fatalf("loaded %+v", m)
			}
			le, ok := err.(*LoadError)
			if !ok {
				t.Fatalf("error type %T", err)
			}
			if le.Code() != c.code || !strings.Contains(le.Reason, c.reason) || le.Source != "bad.toml" {
				t.Errorf("got %+v; want code %s reason containing %q", le, c.code, c.reason)
			}
			if c.line != 0 && le.Line != c.line {
				t.Errorf("line %d, want %d (%v)", le.Line, c.line, le)
			}
			if !strings.HasPrefix(le.Error(), "harness manifest bad.toml") || le.Hint() == "" {
				t.Errorf("Error() = %q", le.Error())
			}
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A manifest that breaks a rule is reported with its file, line and code;
// the other files still load.
func TestBadManifestIsReportedNotSkipped(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a-schema.toml":  "schema_version = 3\nid = \"a\"\n[detect]\ncomm = [\"aaaaa\"]\n",
		"b-generic.toml": "schema_version = 1\nid = \"b\"\n[detect]\ncomm = [\"bb\"]\n",
		"c-nothing.toml": "schema_version = 1\nid = \"c\"\n[detect]\n",
		"d-state.toml":   "schema_version = 1\nid = \"d\"\n[detect]\ncomm = [\"ddddd\"]\n[screen]\nenabled = true\n[[screen.rule]]\nstate = \"sleeping\"\nall = [\"x\"]\n",
		"e-good.toml":    "schema_version = 1\nid = \"e\"\n[detect]\ncomm = [\"eeeee\"]\n",
		"notes.txt":      "not a manifest",
	})
	reg, errs := Load(LoadOptions{UserDir: dir})
	if len(errs) != 4 {
		t.Fatalf("%d errors: %v", len(errs), errs)
	}
	for i, want := range []string{"schema_version", "generic name", "matches nothing", "unknown state"} {
		if !strings.Contains(errs[i].Error(), want) {
			t.Errorf("error %d = %q, want it to mention %q", i, errs[i].Error(), want)
		}
		if !strings.HasPrefix(errs[i].Source, dir) {
			t.Errorf("error %d source %q", i, errs[i].Source)
		}
	}
	if _, ok := reg.Lookup("e"); !ok {
		t.Error("the good user manifest did not load")
	}
	if _, ok := reg.Lookup("claude-code"); !ok {
		t.Error("the bundled manifests did not load")
	}
}

// A user manifest adds a harness, or replaces a bundled one whole.
func TestUserManifestAddsAndReplaces(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"brandnew.toml": "schema_version = 1\nid = \"brandnew\"\n[detect]\nargv0 = [\"brandnew\"]\n",
		"claude.toml":   "schema_version = 1\nid = \"claude-code\"\npriority = 50\n[detect]\nargv0 = [\"mysteryclaude\"]\n",
	})
	env := map[string]string{"TUIOS_HARNESS_DIR": dir}
	reg, errs := Load(LoadOptions{Env: func(k string) string { return env[k] }})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	d := NewDetector(DetectorOptions{Registry: reg})
	if m := d.MatchProcess(ProcInfo{Comm: "brandnew", Argv: []string{"brandnew"}, Exe: "/opt/brandnew"}); m.HarnessID != "brandnew" || m.Rule != "argv0=brandnew" {
		t.Errorf("brandnew: %+v", m)
	}
	cc, _ := reg.Lookup("claude-code")
	if cc.Source != filepath.Join(dir, "claude.toml") || !cc.ReplacesBundled || cc.Screen.Enabled || cc.DisplayName != "claude-code" {
		t.Errorf("replacement: source %q replaces %v screen %v", cc.Source, cc.ReplacesBundled, cc.Screen.Enabled)
	}
	bn, _ := reg.Lookup("brandnew")
	if bn.ReplacesBundled {
		t.Error("brandnew replaces nothing")
	}
	// The replacement is whole: comm=claude is gone, but the name list
	// still knows claude (identity list, no harness).
	m := d.MatchProcess(ProcInfo{Comm: "claude", Argv: []string{"claude"}, Exe: "/home/u/.local/share/claude/versions/2.1.0"})
	if m.HarnessID == "claude-code" {
		t.Errorf("claude still matches the replaced manifest: %+v", m)
	}
	if m := d.MatchProcess(ProcInfo{Comm: "node", Argv: []string{"mysteryclaude"}, Exe: "/usr/bin/node"}); m.HarnessID != "claude-code" {
		t.Errorf("mysteryclaude: %+v", m)
	}
}

func TestUserDirResolution(t *testing.T) {
	for _, c := range []struct {
		opts LoadOptions
		env  map[string]string
		want string
	}{
		{LoadOptions{UserDir: "/x"}, map[string]string{"TUIOS_HARNESS_DIR": "/y"}, "/x"},
		{LoadOptions{}, map[string]string{"TUIOS_HARNESS_DIR": "/y", "XDG_CONFIG_HOME": "/c"}, "/y"},
		{LoadOptions{}, map[string]string{"XDG_CONFIG_HOME": "/c", "HOME": "/h"}, "/c/tuios/harnesses"},
		{LoadOptions{}, map[string]string{"HOME": "/h"}, "/h/.config/tuios/harnesses"},
	} {
		env := c.env
		c.opts.Env = func(k string) string { return env[k] }
		if got := UserDir(c.opts); got != c.want {
			t.Errorf("UserDir(%v) = %q, want %q", env, got, c.want)
		}
	}
}

func TestLookupOrder(t *testing.T) {
	mk := func(id string, prio int) *Manifest {
		m, err := ParseManifest([]byte("schema_version = 1\nid = \""+id+"\"\npriority = "+itoaTest(prio)+"\n[detect]\ncomm = [\""+id+"xxxxx\"]\n"), id)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	reg := NewRegistry(mk("b", 50), mk("a", 50), mk("z", 90), mk("c", 10))
	var ids []string
	for _, m := range reg.Manifests() {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "z,a,b,c" {
		t.Errorf("lookup order %v", ids)
	}
}

func itoaTest(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func TestBundledManifestsLoad(t *testing.T) {
	reg, errs := Load(LoadOptions{NoUser: true})
	for _, e := range errs {
		t.Errorf("bundled: %v", e)
	}
	if reg.Len() == 0 {
		t.Fatal("no bundled manifests")
	}
	for _, m := range reg.Manifests() {
		if m.Source != "bundled" || m.ReplacesBundled {
			t.Errorf("%s: source %q", m.ID, m.Source)
		}
	}
}

func TestLoadNeverFailsAsAWhole(t *testing.T) {
	reg, errs := Load(LoadOptions{UserDir: filepath.Join(t.TempDir(), "missing"), NoBundled: true})
	if reg == nil || reg.Len() != 0 || len(errs) != 0 {
		t.Errorf("missing dir: %v %v", reg, errs)
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	reg, errs = Load(LoadOptions{UserDir: f, NoBundled: true})
	if reg == nil || len(errs) != 1 || errs[0].Code() != CodeRead {
		t.Errorf("dir is a file: %v", errs)
	}
}

// A [resume] without {session_id} would start a new conversation: refused.
func TestResumeNeedsSessionID(t *testing.T) {
	src := "schema_version = 1\nid = \"xagent\"\n[detect]\ncomm = [\"xagent\"]\n[resume]\nargv = [\"xagent\", \"--continue\"]\n"
	if _, err := ParseManifest([]byte(src), "x.toml"); err == nil || !strings.Contains(err.Error(), "{session_id}") {
		t.Fatalf("err %v", err)
	}
}
