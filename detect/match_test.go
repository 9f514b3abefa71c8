package detect

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/agentstate"
)

// testManifests are [detect] blocks of the shipped harnesses' shape, written
// here so these tests do not depend on which shipped manifests exist yet.
var testManifests = map[string]string{
	"claude-code": `comm = ["claude"]
argv0 = ["claude", "claude-code"]
argv_path = ["@anthropic-ai/claude-code"]
exe_glob = ["**/share/claude/versions/*", "**/claude"]`,
	"codex": `comm = ["codex"]
argv0 = ["codex"]
argv_path = ["@openai/codex"]
exe_glob = ["**/vendor/*/bin/codex", "**/codex"]`,
	"aider":    `comm = ["aider"]` + "\n" + `argv0 = ["aider"]` + "\n" + `argv_path = ["/aider/"]`,
	"crush":    `comm = ["crush"]` + "\n" + `argv0 = ["crush"]` + "\n" + `argv_path = ["/crush/", "@charmland/crush"]`,
	"opencode": `comm = ["opencode"]` + "\n" + `argv0 = ["opencode"]` + "\n" + `argv_path = ["opencode-ai", "/opencode/"]`,
	"gemini-cli": `comm = ["gemini"]
argv0 = ["gemini"]
argv_path = ["@google/gemini-cli"]`,
	"amp": `comm = ["amp"]
argv0 = ["amp", "amp-local"]
argv_path = ["@sourcegraph/amp", "@ampcode/cli"]
[detect.require]
exe_glob = ["**/.amp/**", "**/@ampcode/**", "**/@sourcegraph/**"]`,
	"pi": `comm = ["pi"]
argv0 = ["pi"]
argv_path = ["@mariozechner/pi-coding-agent", "pi-coding-agent"]
[detect.require]
exe_base = ["node", "nodejs", "bun", "deno"]
exe_glob = ["**/pi-coding-agent/**"]`,
	"kilo": `comm = ["kilo"]
argv0 = ["kilo", "kilocode"]
argv_path = ["@kilocode/cli"]
[detect.require]
exe_base = ["node", "nodejs", "bun", "deno"]
exe_glob = ["**/@kilocode/**"]`,
	"qwen": `comm = ["qwen"]
argv0 = ["qwen"]
argv_path = ["@qwen-code/qwen-code", "qwen-code"]
[detect.require]
exe_base = ["node", "nodejs", "bun", "deno"]`,
	"cursor-agent": `comm = ["cursor-agent"]
argv0 = ["cursor-agent"]
exe_glob = ["**/.cursor/**/agent", "**/cursor-agent"]`,
	"droid":   `comm = ["droid"]` + "\n" + `argv0 = ["droid"]` + "\n" + `argv_path = ["@factory/cli"]`,
	"copilot": `comm = ["copilot"]` + "\n" + `argv0 = ["copilot", "github-copilot"]` + "\n" + `argv_path = ["@github/copilot"]`,
	"cline":   `comm = ["cline", ".cline"]` + "\n" + `argv0 = ["cline"]` + "\n" + `argv_path = ["cline/bin/cline", "@cline/cli"]`,
}

func testManifestTOML(id, detect string) string {
	return fmt.Sprintf("schema_version = 1\nid = %q\npriority = 50\n\n[detect]\n%s\n", id, detect)
}

func testRegistry(t testing.TB) *Registry {
	t.Helper()
	var ms []*Manifest
	for id, d := range testManifests {
		m, err := ParseManifest([]byte(testManifestTOML(id, d)), id+".toml")
		if err != nil {
			t.Fatalf("test manifest %s: %v", id, err)
		}
		ms = append(ms, m)
	}
	return NewRegistry(ms...)
}

func TestBaseName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"claude", "claude"},
		{"/usr/bin/Claude", "claude"},
		{"-bash", "bash"},
		{"-/bin/zsh", "zsh"},
		{`C:\tools\codex`, "codex"},
		{"cli.js", "cli"},
		{"main.py", "main"},
		{"run-crush.mjs", "run-crush"},
		{"x.cjs", "x"},
		{"index.ts", "index"},
		{"a.js.js", "a.js"},
		{".js", ".js"},
		{"  claude \x00\x00", "claude"},
		{"dir/", "dir"},
		{"", ""},
		{"/", ""},
		{"npm exec opencode", "npm exec opencode"},
	} {
		if got := baseName(c.in); got != c.want {
			t.Errorf("baseName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMatchExeGlob(t *testing.T) {
	for _, c := range []struct {
		pat, exe string
		want     bool
	}{
		// a pattern not starting with "/" matches a suffix of the path, and
		// "*" stays inside one component
		{"*/claude", "/usr/bin/claude", true},
		{"*/claude", "/home/u/.local/bin/claude", true},
		{"*/claude", "/usr/bin/claude-helper", false},
		{"claude", "/usr/bin/claude", true},
		{"claude", "/usr/bin/claude/inner", false},
		// "**" spans zero or more whole components
		{"/usr/**/claude", "/usr/local/lib/claude", true},
		{"/usr/**/claude", "/opt/local/lib/claude", false},
		{"**/.cursor/**/agent", "/home/u/.cursor/versions/1.2.3/agent", true},
		{"**/share/claude/versions/*", "/home/u/.local/share/claude/versions/2.1.222", true},
		{"**/share/claude/versions/*", "/home/u/.local/share/claude/versions", false},
		{"**/vendor/*/bin/codex", "/x/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/bin/codex", true},
		{"**/.amp/**", "/home/u/.amp/bin/amp", true},
		{"**/.amp/**", "/usr/local/bin/amp", false},
		{"/usr/bin/claude", "/usr/bin/claude", true},
		{"/bin/claude", "/usr/bin/claude", false},
		{"**", "/anything", true},
		{"CLAUDE", "/usr/bin/claude", true},
		{"c?aude", "/usr/bin/claude", true},
		{"[ab]mp", "/usr/bin/amp", true},
		{"[", "/usr/bin/[", false},
		{"", "/usr/bin/claude", false},
		{"claude", "", false},
	} {
		if got := matchExeGlob(c.pat, c.exe); got != c.want {
			t.Errorf("matchExeGlob(%q, %q) = %v, want %v", c.pat, c.exe, got, c.want)
		}
	}
}

func TestRunToken(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"python3", "-m", "aider"}, "aider"},
		{[]string{"python3", "-m", "pytest", "tests/aider/test_x.py"}, "pytest"},
		{[]string{"bun", "run", "/x/node_modules/opencode/index.ts"}, "/x/node_modules/opencode/index.ts"},
		{[]string{"npx", "-y", "opencode@latest"}, "opencode@latest"},
		{[]string{"node", "-e", "code", "cli.js"}, "code"},
		{[]string{"-bash"}, ""},
		{[]string{"uv", "tool", "run", "aider"}, "aider"},
		{[]string{"pnpm", "DLX", "x"}, ""},
		{[]string{"env", "--", "claude"}, "claude"},
		{[]string{"node", "", "--inspect", "cli.js"}, "cli.js"},
		{nil, ""},
	} {
		if got := runToken(c.argv); got != c.want {
			t.Errorf("runToken(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

func TestMatchArgvPath(t *testing.T) {
	for _, c := range []struct {
		pat, tok string
		want     bool
	}{
		{"@anthropic-ai/claude-code", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js", true},
		{"@anthropic-ai/claude-code", "/home/u/.bun/install/cache/@anthropic-ai/claude-code@2.1.0@@@1/cli.js", true},
		{"/crush/", "/home/u/dev/crush/scripts/build.sh", false},
		{"/crush/", "/x/node_modules/crush/bin/crush.js", true},
		{"@charmland/crush", "/x/node_modules/@charmland/crush/run-crush.js", true},
		{"opencode-ai", "/u/opencode-ai-fork/x", false},
		{"opencode-ai", "/x/node_modules/opencode-ai/bin/opencode", true},
		{"/opencode/", "/home/u/dev/opencode/main.go", false},
		{"/opencode/", "opencode@latest", true},
		{"opencode-ai", "opencode-ai@1.2.3", true},
		{"/aider/", "/usr/lib/python3/site-packages/aider/main.py", true},
		{"/aider/", "/usr/lib/python3/dist-packages/aider/main.py", true},
		{"/aider/", "tests/aider/test_x.py", false},
		{"cline/bin/cline", "/x/node_modules/cline/bin/cline", true},
		{"hermes-agent", "hermes-agent==1.2", true},
		{"@factory/cli", "/x/node_modules/@factory/cli-linux-x64/droid", false},
		{"pi-coding-agent", "/x/node_modules/@mariozechner/pi-coding-agent/dist/cli.js", true},
		{"", "x", false},
	} {
		if got := matchArgvPath(c.pat, c.tok); got != c.want {
			t.Errorf("matchArgvPath(%q, %q) = %v, want %v", c.pat, c.tok, got, c.want)
		}
	}
}

func TestInterpreterAndWraps(t *testing.T) {
	for _, c := range []struct {
		p            ProcInfo
		interp, wrap bool
	}{
		{ProcInfo{Comm: "node", Exe: "/usr/bin/node"}, true, true},
		{ProcInfo{Comm: "MainThread", Exe: "/usr/bin/node"}, true, true},
		{ProcInfo{Comm: "python3.13", Exe: "/usr/bin/python3.13"}, false, false},
		{ProcInfo{Comm: "vim", Exe: ""}, false, false},
		{ProcInfo{Comm: "", Argv: []string{"x"}}, true, true},
		{ProcInfo{Comm: "timeout", Exe: "/usr/bin/timeout"}, false, true},
		{ProcInfo{Comm: "npm exec opencod", Exe: "/usr/bin/node"}, true, true},
		{ProcInfo{Comm: "make", Exe: "/usr/bin/make"}, false, false},
		{ProcInfo{Comm: "nix", Exe: "/nix/store/x/bin/nix"}, false, true},
	} {
		if got := isInterpreter(c.p); got != c.interp {
			t.Errorf("isInterpreter(%+v) = %v", c.p, got)
		}
		if got := wraps(c.p); got != c.wrap {
			t.Errorf("wraps(%+v) = %v", c.p, got)
		}
	}
}

// TestDetectionCorpus: processes that only mention an agent in an argument,
// a directory or a script path are not agents; each real install shape is,
// by its own identity, against the test [detect] blocks.
func TestDetectionCorpus(t *testing.T) {
	detectionCorpus(t, testRegistry(t), true)
}

// TestDetectionCorpusBundled runs the same corpus against the shipped
// manifests: the same verdicts, whatever rule decided.
func TestDetectionCorpusBundled(t *testing.T) {
	reg, errs := Load(LoadOptions{NoUser: true})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	detectionCorpus(t, reg, false)
}

func detectionCorpus(t *testing.T, reg *Registry, exactRule bool) {
	d := NewDetector(DetectorOptions{Registry: reg, ExtraNames: []string{"myagent"}})
	notAgents := []ProcInfo{
		{Comm: "bash", Argv: []string{"bash", "/home/u/dev/crush/scripts/build.sh"}, Exe: "/usr/bin/bash"},
		{Comm: "bash", Argv: []string{"bash", "/home/u/claude/deploy.sh"}, Exe: "/usr/bin/bash"},
		{Comm: "python3", Argv: []string{"python3", "/home/u/dev/codex/tool.py"}, Exe: "/usr/bin/python3.12"},
		{Comm: "vim", Argv: []string{"vim", "/home/u/dev/codex/tool.py"}, Exe: "/usr/bin/vim.basic"},
		{Comm: "git", Argv: []string{"git", "log", "--", "src/cursor/"}, Exe: "/usr/bin/git"},
		{Comm: "fish", Argv: []string{"-fish"}, Exe: "/usr/bin/fish"},
		{Comm: "server", Argv: []string{"/home/u/dev/claude-code/build/server"}, Exe: "/home/u/dev/claude-code/build/server"},
		{Comm: "compile", Argv: []string{"/usr/lib/go/pkg/tool/compile", "-p", "crush/internal/tui"}, Exe: "/usr/lib/go/pkg/tool/linux_amd64/compile"},
		{Comm: "node", Argv: []string{"node", "/home/u/crush/node_modules/vite/bin/vite.js"}, Exe: "/usr/bin/node"},
		{Comm: "bun", Argv: []string{"bun", "run", "/home/u/codex/scripts/seed.ts"}, Exe: "/home/u/.bun/bin/bun"},
		{Comm: "grep", Argv: []string{"grep", "-r", "claude", "."}, Exe: "/usr/bin/grep"},
		{Comm: "python3", Argv: []string{"python3", "-m", "pytest", "tests/aider/test_x.py"}, Exe: "/usr/bin/python3.12"},
		{Comm: "tail", Argv: []string{"tail", "-f", "/home/u/dev/opencode/main.go"}, Exe: "/usr/bin/tail"},
		{Comm: "pi", Argv: []string{"/usr/local/bin/pi"}, Exe: "/usr/local/bin/pi"},
		{Comm: "kilo", Argv: []string{"kilo", "notes.txt"}, Exe: "/usr/bin/kilo"},
		{Comm: "amp", Argv: []string{"amp"}, Exe: "/usr/local/bin/amp"}, // the gap fix
		{Comm: "qwen", Argv: []string{"qwen"}, Exe: "/usr/local/bin/qwen"},
		{Comm: "timeout", Argv: []string{"timeout", "60", "make"}, Exe: "/usr/bin/timeout"},
		{Comm: "make", Argv: []string{"make", "run"}, Exe: "/usr/bin/make"},
		{Comm: "sh", Argv: []string{"sh", "-c", "grep claude log; true"}, Exe: "/usr/bin/dash"},
	}
	for _, p := range notAgents {
		if m := d.MatchProcess(p); m.Agent {
			t.Errorf("%q matched %q on %s; want no agent", p.Argv, m.HarnessID, m.Rule)
		}
	}
	agents := []struct {
		p        ProcInfo
		harness  string
		rule     string
		identity agentstate.Identity
	}{
		{ProcInfo{Comm: "claude", Argv: []string{"claude"}, Exe: "/home/u/.local/share/claude/versions/2.1.222"}, "claude-code", "comm=claude", agentstate.IdentityManifest},
		{ProcInfo{Comm: "2.1.222", Argv: []string{"claude"}, Exe: "/home/u/.local/share/claude/versions/2.1.222"}, "claude-code", "argv0=claude", agentstate.IdentityManifest},
		{ProcInfo{Comm: "2.1.222", Argv: []string{"2.1.222"}, Exe: "/home/u/.local/share/claude/versions/2.1.222"}, "claude-code", "exe_glob=**/share/claude/versions/*", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, Exe: "/usr/bin/node"}, "claude-code", "argv_path=@anthropic-ai/claude-code", agentstate.IdentityManifest},
		{ProcInfo{Comm: "crush", Argv: []string{"crush"}, Exe: "/usr/local/bin/crush"}, "crush", "comm=crush", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/@charmland/crush/run-crush.js"}, Exe: "/usr/bin/node"}, "crush", "argv_path=/crush/", agentstate.IdentityManifest},
		{ProcInfo{Comm: "opencode", Argv: []string{"opencode"}, Exe: "/home/u/.opencode/bin/opencode"}, "opencode", "comm=opencode", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/opencode-ai/bin/opencode"}, Exe: "/usr/bin/node"}, "opencode", "argv0=opencode (run token)", agentstate.IdentityManifest},
		{ProcInfo{Comm: "MainThread", Argv: []string{"node", "/home/u/.bun/bin/gemini"}, Exe: "/usr/bin/node"}, "gemini-cli", "argv0=gemini (run token)", agentstate.IdentityManifest},
		{ProcInfo{Comm: "pi", Argv: []string{"pi"}, Exe: "/home/u/.nvm/versions/node/v22/bin/node"}, "pi", "comm=pi", agentstate.IdentityManifest},
		{ProcInfo{Comm: "amp", Argv: []string{"amp"}, Exe: "/home/u/.amp/bin/amp"}, "amp", "comm=amp", agentstate.IdentityManifest},
		{ProcInfo{Comm: "codex", Argv: []string{"codex"}, Exe: "/usr/local/bin/codex"}, "codex", "comm=codex", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/@openai/codex/bin/codex.js"}, Exe: "/usr/bin/node"}, "codex", "argv0=codex (run token)", agentstate.IdentityManifest},
		{ProcInfo{Comm: "aider", Argv: []string{"/home/u/.local/share/uv/tools/aider-chat/bin/python", "/home/u/.local/bin/aider"}, Exe: "/home/u/.local/share/uv/tools/aider-chat/bin/python3.12"}, "aider", "comm=aider", agentstate.IdentityManifest},
		{ProcInfo{Comm: "python3", Argv: []string{"python3", "-m", "aider"}, Exe: "/usr/bin/python3.12"}, "aider", "argv0=aider (run token)", agentstate.IdentityManifest},
		{ProcInfo{Comm: "python3", Argv: []string{"python3", "/usr/lib/python3/site-packages/aider/main.py"}, Exe: "/usr/bin/python3.12"}, "aider", "argv_path=/aider/", agentstate.IdentityManifest},
		{ProcInfo{Comm: "droid", Argv: []string{"/x/node_modules/@factory/cli-linux-x64/droid"}, Exe: "/x/node_modules/@factory/cli-linux-x64/droid"}, "droid", "comm=droid", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/@qwen-code/qwen-code/cli.js"}, Exe: "/usr/bin/node"}, "qwen", "argv_path=@qwen-code/qwen-code", agentstate.IdentityManifest},
		{ProcInfo{Comm: "qwen", Argv: []string{"qwen"}, Exe: "/usr/bin/node"}, "qwen", "comm=qwen", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/@kilocode/cli/index.js"}, Exe: "/usr/bin/node"}, "kilo", "argv_path=@kilocode/cli", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/@github/copilot/index.js"}, Exe: "/usr/bin/node"}, "copilot", "argv_path=@github/copilot", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/cline/bin/cline"}, Exe: "/usr/bin/node"}, "cline", "argv0=cline (run token)", agentstate.IdentityManifest},
		{ProcInfo{Comm: "node", Argv: []string{"npx", "-y", "opencode@latest"}, Exe: "/usr/bin/node"}, "opencode", "argv_path=/opencode/", agentstate.IdentityManifest},
		{ProcInfo{Comm: "myagent", Argv: []string{"myagent"}, Exe: "/opt/myagent"}, "", "name comm=myagent", agentstate.IdentityList},
		{ProcInfo{Comm: "auggie", Argv: []string{"auggie"}, Exe: "/opt/auggie"}, "", "name comm=auggie", agentstate.IdentityList},
		{ProcInfo{Comm: "node", Argv: []string{"node", "/x/node_modules/octofriend/dist/index.js"}, Exe: "/usr/bin/node"}, "", "name package=octofriend", agentstate.IdentityList},
	}
	for _, c := range agents {
		m := d.MatchProcess(c.p)
		if !m.Agent || m.HarnessID != c.harness || (exactRule && m.Rule != c.rule) || m.Identity != c.identity {
			t.Errorf("%q: got agent=%v harness=%q rule=%q identity=%v; want %q %q %v",
				c.p.Argv, m.Agent, m.HarnessID, m.Rule, m.Identity, c.harness, c.rule, c.identity)
		}
		if m.Confidence() != agentstate.ConfidenceStrong {
			t.Errorf("%q: confidence %v", c.p.Argv, m.Confidence())
		}
	}
}

// TestNameListGapFix pins the gap fix: a short list name needs the exe
// corroboration a manifest would.
func TestNameListGapFix(t *testing.T) {
	// Without manifests, a short list name (amp, qwen) never counts; long ones do.
	bare := NewDetector(DetectorOptions{ExtraNames: []string{"zed"}})
	for _, p := range []ProcInfo{
		{Comm: "amp", Argv: []string{"amp"}, Exe: "/usr/local/bin/amp"},
		{Comm: "amp", Argv: []string{"amp"}, Exe: "/home/u/.amp/bin/amp"},
		{Comm: "qwen", Argv: []string{"qwen"}, Exe: "/usr/bin/node"},
		{Comm: "zed", Argv: []string{"zed"}, Exe: "/usr/bin/zed"},
		{Comm: "x", Argv: []string{"x"}, Exe: "/usr/local/bin/amp"},
	} {
		if m := bare.MatchProcess(p); m.Agent {
			t.Errorf("no manifests: %+v matched on %s", p, m.Rule)
		}
	}
	if m := bare.MatchProcess(ProcInfo{Comm: "codex", Argv: []string{"codex"}, Exe: "/usr/local/bin/codex"}); !m.Agent || m.Rule != "name comm=codex" || m.Identity != agentstate.IdentityList {
		t.Errorf("codex by list: %+v", m)
	}
	// With only the name list's corroborating manifest registered under a
	// different id, the list counts the short name when require is met.
	amp, err := ParseManifest([]byte(testManifestTOML("ampcode", `exe_glob = ["**/nothing-here"]
argv0 = ["amp"]
[detect.require]
exe_glob = ["**/.amp/**"]`)), "ampcode.toml")
	if err != nil {
		t.Fatal(err)
	}
	d := NewDetector(DetectorOptions{Registry: NewRegistry(amp)})
	// comm "amp" is not in ampcode's comm list; argv0 is "amp-wrapper" so the
	// manifest refuses, and the list decides with ampcode's corroboration.
	p := ProcInfo{Comm: "amp", Argv: []string{"amp-wrapper"}, Exe: "/home/u/.amp/bin/amp"}
	if m := d.MatchProcess(p); !m.Agent || m.Rule != "name comm=amp" {
		t.Errorf("corroborated amp: %+v", m)
	}
	p.Exe = "/usr/local/bin/amp"
	if m := d.MatchProcess(p); m.Agent {
		t.Errorf("uncorroborated amp matched: %+v", m)
	}
	x := d.ExplainProcess(p)
	if len(x.NameListRefused) == 0 || !strings.Contains(x.NameListRefused[0], "shorter than 5") {
		t.Errorf("explain does not say why amp was refused: %#v", x.NameListRefused)
	}
}

func TestManifestRefusalReasons(t *testing.T) {
	reg := testRegistry(t)
	d := NewDetector(DetectorOptions{Registry: reg})
	x := d.ExplainProcess(ProcInfo{PID: 1, Comm: "tail", Argv: []string{"tail", "-f", "/home/u/dev/opencode/main.go"}, Exe: "/usr/bin/tail"})
	reasons := map[string]string{}
	for _, r := range x.Manifests {
		reasons[r.ID] = r.Reason
	}
	if len(x.Manifests) != reg.Len() {
		t.Fatalf("%d manifest results for %d manifests", len(x.Manifests), reg.Len())
	}
	for id, want := range map[string]string{
		"opencode": `comm "tail" not in [opencode]; argv0 "tail" and run token name "" not in [opencode]; argv_path[opencode-ai /opencode/] was not consulted: this process is not an interpreter, so its arguments are not its identity`,
		"amp":      `require unmet: exe "/usr/bin/tail" is none of exe_base[] exe_glob[**/.amp/** **/@ampcode/** **/@sourcegraph/**]; argv_path[@sourcegraph/amp @ampcode/cli] was not consulted: this process is not an interpreter, so its arguments are not its identity`,
		"codex":    `comm "tail" not in [codex]; argv0 "tail" and run token name "" not in [codex]; exe "/usr/bin/tail" matched none of [**/vendor/*/bin/codex **/codex]; argv_path[@openai/codex] was not consulted: this process is not an interpreter, so its arguments are not its identity`,
	} {
		if reasons[id] != want {
			t.Errorf("%s reason:\n got %s\nwant %s", id, reasons[id], want)
		}
	}
	if len(x.Ignored) != 1 || x.Ignored[0].Word != "opencode" || x.Ignored[0].Where != "argument" {
		t.Errorf("ignored = %#v", x.Ignored)
	}
	if !strings.HasPrefix(x.Verdict, "This pane does not run an agent. The foreground process is tail.") {
		t.Errorf("verdict %q", x.Verdict)
	}
}

func TestExplainEscapesProcessText(t *testing.T) {
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	x := d.ExplainProcess(ProcInfo{PID: 1, Comm: "cat", Argv: []string{"cat", "/tmp/claude\x1b]0;pwned\x07/x"}, Exe: "/usr/bin/cat"})
	s := x.String()
	if strings.ContainsAny(s, "\x1b\x07") {
		t.Fatalf("control characters reached the text:\n%q", s)
	}
	if !strings.Contains(s, `\x1b]0;pwned\x07`) {
		t.Errorf("escaped argument missing:\n%s", s)
	}
}

func TestArgvPathIgnoresCode(t *testing.T) {
	for _, tok := range []string{
		"node /x/node_modules/@anthropic-ai/claude-code/cli.js; true",
		"cat node_modules/@anthropic-ai/claude-code/package.json",
		"$(echo node_modules/@anthropic-ai/claude-code)",
	} {
		if matchArgvPath("@anthropic-ai/claude-code", tok) {
			t.Errorf("code %q matched", tok)
		}
	}
}

func TestExplanationJSON(t *testing.T) {
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	x := d.ExplainProcess(ProcInfo{PID: 7, Comm: "claude", Argv: []string{"claude"}, Exe: "/usr/local/bin/claude"})
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(b, &got)
	for k, want := range map[string]any{
		"type": "agent_detect", "matched": true, "running": true, "harness_id": "claude-code", "identity": "manifest", "confidence": "strong",
		"verdict": "This pane runs claude-code.", "matched_rule": "comm=claude", "matched_harness": "claude-code",
	} {
		if got[k] != want {
			t.Errorf("%s = %#v, want %#v", k, got[k], want)
		}
	}
	p, _ := got["process"].(map[string]any)
	if p["comm"] != "claude" || p["interpreter"] != false || p["argv0"] != "claude" {
		t.Errorf("process = %#v", p)
	}
	if ms, _ := got["manifests"].([]any); len(ms) != len(testManifests) {
		t.Errorf("manifests = %d", len(ms))
	}
	// Not running.
	x = d.ExplainProcess(ProcInfo{})
	if x.Verdict != "This pane runs no process that tuios can read." || len(x.Evidence) != 1 || x.Evidence[0] != "No foreground process can be read for this pane." {
		t.Errorf("not running: %+v", x)
	}
	// Name list match.
	x = NewDetector(DetectorOptions{ExtraNames: []string{"myagent"}}).ExplainProcess(ProcInfo{PID: 8, Comm: "myagent", Argv: []string{"myagent"}})
	want := "This pane runs an agent named myagent.\n  The process myagent matched the name list on comm=myagent.\n  A process name is strong evidence. It names no harness.\n  The name list matched, not a manifest. No harness is named, so no screen rules run.\n"
	if s := x.String(); !strings.HasPrefix(s, want) || x.Identity != agentstate.IdentityList || x.HarnessID != "" {
		t.Errorf("list:\n%s", s)
	}
}

func TestExplanationApplyReport(t *testing.T) {
	d := NewDetector(DetectorOptions{Registry: testRegistry(t)})
	x := d.ExplainProcess(ProcInfo{PID: 7, Comm: "vim", Argv: []string{"vim"}, Exe: "/usr/bin/vim"})
	x.ApplyReport("codex")
	if x.Evidence[0] != "The harness codex named itself in a report. That is certain." ||
		x.Identity != agentstate.IdentityReport || x.Confidence != agentstate.ConfidenceCertain || x.HarnessID != "codex" {
		t.Errorf("%+v", x)
	}
}
