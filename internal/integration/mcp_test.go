package integration

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A ~/.claude.json as Claude Code keeps it, trimmed: other keys, a server
// of the person's own, odd spacing.
const claudeJSON = `{
    "numStartups": 12,
    "theme": "dark",
    "mcpServers": {
        "files": {"type": "stdio", "command": "/usr/bin/files-mcp", "args": []}
    },
    "projects": {"/src": {"allowedTools": []}}
}
`

func TestMCPClaudeCodeInstallKeepsEveryOtherByte(t *testing.T) {
	f := newHome(t)
	cc := harness(t, "claude-code")
	f.settings(cc, "", 0o600) // the ~/.claude directory
	path := filepath.Join(f.dir, ".claude.json")
	writeFile(t, path, claudeJSON, 0o600)

	res, err := InstallMCP(cc, MCPOptions{Env: f.env, Default: "/opt/tuios"})
	if err != nil || !res.Changed {
		t.Fatalf("install: %+v %v", res, err)
	}
	got := readText(t, path)
	var v struct {
		NumStartups int `json:"numStartups"`
		MCPServers  map[string]struct {
			Type, Command string
			Args          []string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("not JSON after install: %v\n%s", err, got)
	}
	e := v.MCPServers["tuios"]
	if e.Type != "stdio" || e.Command != "/opt/tuios" || strings.Join(e.Args, " ") != "mcp --integration 1" {
		t.Errorf("the entry: %+v\n%s", e, got)
	}
	if v.MCPServers["files"].Command != "/usr/bin/files-mcp" || v.NumStartups != 12 {
		t.Errorf("the person's entries changed:\n%s", got)
	}
	// Everything but the inserted lines is the same text.
	if !strings.HasPrefix(got, claudeJSON[:strings.Index(claudeJSON, `"args": []}`)+len(`"args": []}`)]) ||
		!strings.HasSuffix(got, "\n    },\n    \"projects\": {\"/src\": {\"allowedTools\": []}}\n}\n") {
		t.Errorf("install rewrote more than its entry:\n%s", got)
	}
	if res.Backup != path+BackupSuffix || readText(t, res.Backup) != claudeJSON {
		t.Errorf("backup: %q", res.Backup)
	}

	// Again: nothing changes. With --mcp-write: the entry gains --write.
	if res, err := InstallMCP(cc, MCPOptions{Env: f.env, Default: "/other"}); err != nil || res.Changed {
		t.Errorf("a second install: %+v %v", res, err)
	}
	res, err = InstallMCP(cc, MCPOptions{Env: f.env, Default: "/other", Write: true})
	if err != nil || !res.Changed || res.Program != "/opt/tuios" {
		t.Errorf("install --mcp-write: %+v %v", res, err)
	}
	// The note names every tool --write adds (the agents page: send_text,
	// send_keys, ask_agent, respond and fan).
	for _, tool := range []string{"tuios_send_text", "tuios_send_keys", "tuios_ask_agent", "tuios_respond", "tuios_fan"} {
		if !strings.Contains(res.Note, tool) {
			t.Errorf("install --mcp-write's note lacks %s: %s", tool, res.Note)
		}
	}
	if got := readText(t, path); !strings.Contains(got, `"--write"`) || !MCPInstalled(cc, f.env) {
		t.Errorf("after --mcp-write:\n%s", got)
	}

	res, err = UninstallMCP(cc, f.env)
	if err != nil || !res.Changed {
		t.Fatalf("uninstall: %+v %v", res, err)
	}
	if got := readText(t, path); got != claudeJSON {
		t.Errorf("uninstall did not give the file back:\n%s\nwant\n%s", got, claudeJSON)
	}
	if res, err := UninstallMCP(cc, f.env); err != nil || res.Changed {
		t.Errorf("a second uninstall: %+v %v", res, err)
	}
}

// A file with no mcpServers gets one and loses it again, byte for byte.
func TestMCPClaudeCodeNoServersYet(t *testing.T) {
	f := newHome(t)
	cc := harness(t, "claude-code")
	f.settings(cc, "", 0o600)
	path := filepath.Join(f.dir, ".claude.json")
	orig := "{\n  \"theme\": \"light\"\n}\n"
	writeFile(t, path, orig, 0o644)
	if _, err := InstallMCP(cc, MCPOptions{Env: f.env, Default: "tuios", Write: true}); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); !strings.Contains(got, "\"mcpServers\": {\n    \"tuios\": {") {
		t.Errorf("install:\n%s", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
	if _, err := UninstallMCP(cc, f.env); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); got != orig {
		t.Errorf("uninstall:\n%q\nwant\n%q", got, orig)
	}
}

// A server named tuios that tuios did not write is the person's: refused,
// nothing written, and uninstall leaves it.
func TestMCPRefusesAServerOfYourOwn(t *testing.T) {
	f := newHome(t)
	cc := harness(t, "claude-code")
	f.settings(cc, "", 0o600)
	path := filepath.Join(f.dir, ".claude.json")
	orig := `{"mcpServers":{"tuios":{"command":"/my/fork","args":["serve"]}}}`
	writeFile(t, path, orig, 0o600)
	_, err := InstallMCP(cc, MCPOptions{Env: f.env, Default: "tuios"})
	var ie *Error
	if !errors.As(err, &ie) || ie.Code() != CodeNotOurs {
		t.Fatalf("install over the person's tuios server: %v", err)
	}
	if _, err := UninstallMCP(cc, f.env); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); got != orig {
		t.Errorf("the person's server changed:\n%s", got)
	}
}

func TestMCPNeedsTheConfigDir(t *testing.T) {
	f := newHome(t)
	_, err := InstallMCP(harness(t, "claude-code"), MCPOptions{Env: f.env, Default: "tuios"})
	var ie *Error
	if !errors.As(err, &ie) || ie.Code() != CodeNoConfigDir {
		t.Fatalf("no ~/.claude: %v", err)
	}
	if _, err := InstallMCP(harness(t, "kilo"), MCPOptions{Env: f.env, Default: "tuios"}); !errors.As(err, &ie) || ie.Code() != CodeNoIntegration {
		t.Fatalf("kilo: %v", err)
	}
}

const codexTOML = `model = "o4"

[mcp_servers.docs]
command = "docs-mcp"
`

func TestMCPCodexBlockBetweenMarkers(t *testing.T) {
	f := newHome(t)
	cx := harness(t, "codex")
	f.settings(cx, "", 0o600)
	path := filepath.Join(cx.ConfigDir(f.env), "config.toml")
	writeFile(t, path, codexTOML, 0o600)
	if _, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "/bin/tu ios", Write: true}); err != nil {
		t.Fatal(err)
	}
	want := codexTOML + "\n" + tomlBegin + "\n[mcp_servers.tuios]\ncommand = \"/bin/tu ios\"\nargs = [\"mcp\", \"--integration\", \"1\", \"--write\"]\n" + tomlEnd + "\n"
	if got := readText(t, path); got != want {
		t.Errorf("install:\n%s\nwant\n%s", got, want)
	}
	// Again without --write: the block is replaced in place, the program kept.
	if res, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "/elsewhere"}); err != nil || !res.Changed || res.Program != "/bin/tu ios" {
		t.Fatalf("reinstall: %+v %v", res, err)
	}
	if got := readText(t, path); strings.Count(got, "[mcp_servers.tuios]") != 1 || strings.Contains(got, "--write") {
		t.Errorf("reinstall:\n%s", got)
	}
	if _, err := UninstallMCP(cx, f.env); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); got != codexTOML {
		t.Errorf("uninstall:\n%q\nwant\n%q", got, codexTOML)
	}
	// A table of the person's own under that name: refused.
	writeFile(t, path, codexTOML+"\n[mcp_servers.tuios]\ncommand = \"mine\"\n", 0o600)
	var ie *Error
	if _, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "tuios"}); !errors.As(err, &ie) || ie.Code() != CodeNotOurs {
		t.Errorf("over the person's [mcp_servers.tuios]: %v", err)
	}
}

// Codex with no config.toml: tuios creates it, and uninstall removes it.
func TestMCPCodexCreatesAndRemovesTheFile(t *testing.T) {
	f := newHome(t)
	cx := harness(t, "codex")
	f.settings(cx, "", 0o600)
	path := filepath.Join(cx.ConfigDir(f.env), "config.toml")
	if _, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "tuios"}); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, path); !strings.HasPrefix(got, tomlBegin) {
		t.Errorf("created:\n%s", got)
	}
	if _, err := UninstallMCP(cx, f.env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the file tuios created is still there: %v", err)
	}
}

func TestMCPGeminiAndOpencodeFormats(t *testing.T) {
	f := newHome(t)
	g := harness(t, "gemini-cli")
	gpath := f.settings(g, `{"theme":"x"}`, 0o600)
	if _, err := InstallMCP(g, MCPOptions{Env: f.env, Default: "tuios"}); err != nil {
		t.Fatal(err)
	}
	var gv struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readText(t, gpath)), &gv); err != nil || gv.MCPServers["tuios"].Command != "tuios" {
		t.Errorf("gemini: %v\n%s", err, readText(t, gpath))
	}

	o := harness(t, "opencode")
	if err := os.MkdirAll(o.ConfigDir(f.env), 0o755); err != nil {
		t.Fatal(err)
	}
	opath := filepath.Join(o.ConfigDir(f.env), "opencode.json")
	writeFile(t, opath, "{\n  // mine\n  \"model\": \"x\"\n}\n", 0o600)
	if _, err := InstallMCP(o, MCPOptions{Env: f.env, Default: "/t/tuios", Write: true}); err != nil {
		t.Fatal(err)
	}
	got := readText(t, opath)
	root, err := parseJSON(got)
	if err != nil {
		t.Fatalf("opencode: %v\n%s", err, got)
	}
	n := root.get("mcp").get("tuios")
	var ov struct {
		Type    string
		Command []string
		Enabled bool
	}
	if n == nil || json.Unmarshal([]byte(got[n.start:n.end]), &ov) != nil || ov.Type != "local" || !ov.Enabled ||
		strings.Join(ov.Command, " ") != "/t/tuios mcp --integration 1 --write" || !strings.Contains(got, "// mine") {
		t.Errorf("opencode:\n%s", got)
	}
	if _, err := UninstallMCP(o, f.env); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, opath); got != "{\n  // mine\n  \"model\": \"x\"\n}\n" {
		t.Errorf("opencode uninstall:\n%s", got)
	}
}

// Whatever JSON object the file holds, install leaves valid JSON with
// tuios's entry (or refuses), and uninstall leaves no entry of tuios's.
func FuzzMCPJSONEdit(f *testing.F) {
	for _, s := range []string{claudeJSON, `{}`, `{"mcpServers":{}}`, `{"mcpServers":5}`, `{"mcpServers":{"tuios":{"command":"x"}}}`,
		"{\n  // c\n  \"mcpServers\": { /* d */ }\n}", `{"a":1,}`, `[]`} {
		f.Add(s)
	}
	entry := map[string]any{"command": "tuios", "args": mcpArgs(false)}
	t := mcpTarget{path: "mcpServers"}
	f.Fuzz(func(tt *testing.T, src string) {
		out, err := jsonSetServer(src, "mcpServers", entry)
		if err != nil {
			return
		}
		if ours, _, perr := mcpState(t, out); perr != nil || !ours {
			tt.Fatalf("install of %q gave %q (ours %v, %v)", src, out, ours, perr)
		}
		back, err := jsonRemoveServer(out, "mcpServers")
		if err != nil {
			tt.Fatalf("uninstall of %q: %v", out, err)
		}
		if ours, _, perr := mcpState(t, back); perr != nil || ours {
			tt.Fatalf("uninstall left %q (ours %v, %v)", back, ours, perr)
		}
	})
}

// Every way TOML can already hold mcp_servers.tuios is the person's, and
// a file that is not TOML, or whose mcp_servers is an inline table that
// takes no more tables, is refused: nothing written, and what is written
// otherwise always parses.
func TestMCPCodexRefusesWhatItCannotWriteValidly(t *testing.T) {
	f := newHome(t)
	cx := harness(t, "codex")
	f.settings(cx, "", 0o600)
	path := filepath.Join(cx.ConfigDir(f.env), "config.toml")
	for _, c := range []struct {
		name, text string
		code       Code
	}{
		{"inline entry", "[mcp_servers]\ntuios = { command = \"mine\" }\n", CodeNotOurs},
		{"inline table", "mcp_servers = { tuios = { command = \"mine\" } }\n", CodeNotOurs},
		{"quoted key", "[mcp_servers.\"tuios\"]\ncommand = \"mine\"\n", CodeNotOurs},
		{"spaced header", "[ mcp_servers.tuios ]\ncommand = \"mine\"\n", CodeNotOurs},
		{"dotted key", "mcp_servers.tuios.command = \"mine\"\n", CodeNotOurs},
		{"inline without tuios", "mcp_servers = { docs = { command = \"docs\" } }\n", CodeNotOurs},
		{"not TOML", "model = \"o4\n[mcp_servers.docs\n", CodeCannotRead},
		{"duplicate table", "[a]\nx = 1\n[a]\nx = 2\n", CodeCannotRead},
	} {
		writeFile(t, path, c.text, 0o600)
		os.Remove(path + BackupSuffix)
		res, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "tuios"})
		var ie *Error
		if !errors.As(err, &ie) || ie.Code() != c.code || res.Changed {
			t.Errorf("%s: %+v %v, want %s", c.name, res, err, c.code)
		}
		if got := readText(t, path); got != c.text {
			t.Errorf("%s: the file was written:\n%s", c.name, got)
		}
		if _, err := os.Stat(path + BackupSuffix); err == nil {
			t.Errorf("%s: a backup was made of a file left alone", c.name)
		}
	}
	// Forms it can add to: the result parses and holds tuios's server.
	for _, text := range []string{
		"",
		"[mcp_servers]\ndocs = { command = \"docs\" }\n",
		"[mcp_servers.docs]\ncommand = \"docs\"\n[other]\nx = 1\n",
		"model = \"o4\" # no newline at the end",
	} {
		writeFile(t, path, text, 0o600)
		os.Remove(path + BackupSuffix)
		if _, err := InstallMCP(cx, MCPOptions{Env: f.env, Default: "tuios"}); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		got := readText(t, path)
		if err := tomlCheck(got); err != nil || !tomlHasServer(got, "tuios") {
			t.Fatalf("%q became invalid or lacks tuios (%v):\n%s", text, err, got)
		}
		if _, err := UninstallMCP(cx, f.env); err != nil {
			t.Fatal(err)
		}
		// (a file without a newline at its end gets one)
		if got := readText(t, path); strings.TrimSuffix(got, "\n") != strings.TrimSuffix(text, "\n") {
			t.Fatalf("%q after uninstall:\n%q", text, got)
		}
	}
}
