package integration

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzParseJSON: parseJSON never panics; it reads every object
// encoding/json reads; and on any object it reads, install then
// uninstall gives the text back byte for byte (where that is defined,
// see exactRoundTrip), install is idempotent, and repeated round trips
// settle.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		jsoncSettings, tabSettings, compactSettings, fourSpaceSettings, crlfSettings, userHooksSettings, olderSettings,
		`{}`, `{ }`, "{\n}", `{"hooks":{}}`, `{"hooks":[]}`, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":5}}`,
		"{\n  // c\n}\n", "{/* c */}", `{"a":1,}`, `[1]`, `"x"`, `{"a":"\u00e9\ud83d\ude00"}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"tuios agent-hook claude-code --integration 3"},{"command":"x"}]}],"Stop":[]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/x/tuios agent-hook gemini-cli --integration 0 || echo '{}'"}]}]}}`,
		"{\"hooks\": {\n  \"Stop\": [\n    // off\n  ]\n}}",
		`{"hooks":{"Stop":[ /* c */ ]}}`, "{\"hooks\":{\"Stop\":[ // c\n]}}", `{"hooks":{/*c*/}}`, `{"a":1, /* c */}`,
		"{\r\n  \"hooks\": {\r\n    // c\r\n  }\r\n}\r\n", `{"hooks":{"Stop":[{"hooks":[]}],"PreCompact":[1]}}`,
	} {
		f.Add(s)
	}
	cc, _ := Lookup("claude-code")
	crush, _ := Lookup("crush")         // the flat layout
	cursor, _ := Lookup("cursor-agent") // flat, with "version": 1
	f.Fuzz(func(t *testing.T, src string) {
		root, err := parseJSON(src) // must not panic
		if err != nil {
			if strictObject(src) && depth(src) <= 200 {
				t.Fatalf("encoding/json reads %q as an object; parseJSON refuses it: %v", src, err)
			}
			return
		}
		if root.kind != '{' || len(src) > 8<<10 { // each edit parses the file again: keep the runs quick
			return
		}
		roundTrip(t, cc, src, root)
		roundTrip(t, crush, src, root)
		roundTrip(t, cursor, src, root)
	})
}

func roundTrip(t *testing.T, h Harness, src string, root *jnode) {
	cmd := h.HookCommand("/opt/tuios")
	out, err := h.hooks.install(src, h.ID, cmd)
	if err != nil {
		if len(h.hooks.findOurs(root, h.ID)) > 8 { // install makes a bounded number of edits
			return
		}
		t.Fatalf("%s: install into %q: %v", h.ID, src, err)
	}
	if installed, current, _, err := h.hooks.state(out, h.ID, h.Version); err != nil || !installed || !current {
		t.Fatalf("%s: after install of %q: installed=%v current=%v err=%v\n%s", h.ID, src, installed, current, err, out)
	}
	n := map[string]int{}
	for _, r := range findOursText(t, out, h) {
		n[r.event]++
	}
	for _, e := range h.hooks.events {
		if n[e] != 1 {
			t.Fatalf("%s: %d entries for %s after install of %q:\n%s", h.ID, n[e], e, src, out)
		}
	}
	if again, err := h.hooks.install(out, h.ID, cmd); err != nil || again != out {
		t.Fatalf("%s: a second install of %q changed it (%v):\n%s\n---\n%s", h.ID, src, err, out, again)
	}
	back, err := h.hooks.uninstall(out, h.ID)
	if err != nil {
		t.Fatalf("%s: uninstall of %q: %v\n%s", h.ID, src, err, out)
	}
	if refs := findOursText(t, back, h); len(refs) != 0 {
		t.Fatalf("%s: uninstall left %d entries:\n%s", h.ID, len(refs), back)
	}
	if exactRoundTrip(src, root, h) {
		if back != src {
			t.Fatalf("%s: install then uninstall changed\n%q\ninto\n%q\n(installed:\n%s)", h.ID, src, back, out)
		}
		return
	}
	// A round trip may tidy what was there (see exactRoundTrip); more
	// round trips settle within a few.
	for range 4 {
		r, err := parseJSON(back)
		if err != nil {
			t.Fatalf("%s: %q after a round trip does not parse: %v", h.ID, back, err)
		}
		exact := exactRoundTrip(back, r, h)
		out, err := h.hooks.install(back, h.ID, cmd)
		if err != nil {
			t.Fatalf("%s: install into %q: %v", h.ID, back, err)
		}
		next, err := h.hooks.uninstall(out, h.ID)
		if err != nil {
			t.Fatalf("%s: uninstall of %q: %v", h.ID, out, err)
		}
		if next == back {
			return
		}
		if exact {
			t.Fatalf("%s: install then uninstall changed\n%q\ninto\n%q", h.ID, back, next)
		}
		back = next
	}
	t.Fatalf("%s: round trips of %q do not settle", h.ID, src)
}

func findOursText(t *testing.T, text string, h Harness) []hookRef {
	root, err := parseJSON(text)
	if err != nil {
		t.Fatalf("the result does not parse: %v\n%s", err, text)
	}
	return h.hooks.findOurs(root, h.ID)
}

// exactRoundTrip says when install then uninstall must give back the
// text byte for byte. It need not when the text already holds tuios's
// entries (uninstall removes them too), when "hooks" or a wired event
// holds something else than an object or array (install replaces it), or
// when install adds to a container that holds nothing: the whitespace
// inside it is not kept ({ } comes back as {}), and an empty "hooks" or
// event array without a comment (which tuios cannot tell from one it
// made) is removed with tuios's last entry. A container that holds
// nothing but comments is kept, and comes back byte for byte when its
// closing bracket stands on a line of its own at its indentation.
func exactRoundTrip(src string, root *jnode, h Harness) bool {
	if len(h.hooks.findOurs(root, h.ID)) > 0 {
		return false
	}
	if h.hooks.version && root.get("version") == nil { // install adds it, and it stays
		return false
	}
	hooks := root.get("hooks")
	if hooks == nil {
		return len(root.members) > 0 || tidyEmpty(src, root, true)
	}
	if hooks.kind != '{' || (len(hooks.members) == 0 && !tidyEmpty(src, hooks, false)) {
		return false
	}
	for _, e := range h.hooks.events {
		arr := hooks.get(e)
		if arr == nil {
			continue
		}
		if arr.kind != '[' || (len(arr.elems) == 0 && !tidyEmpty(src, arr, false)) {
			return false
		}
	}
	return true
}

// tidyEmpty: the container holds nothing and comes back as it was after
// install and uninstall: {} exactly (when bare may be), or comments with
// the closing bracket on its own line at the container's indentation.
func tidyEmpty(src string, c *jnode, bare bool) bool {
	inner := src[c.start+1 : c.end-1]
	if inner == "" {
		return bare
	}
	return hasComment(inner) && inner[len(strings.TrimRight(inner, " \t\r\n")):] == "\n"+lineIndent(src, c.start)
}

// strictObject: encoding/json reads src, and it is an object.
func strictObject(src string) bool {
	var v any
	if json.Unmarshal([]byte(src), &v) != nil {
		return false
	}
	_, ok := v.(map[string]any)
	return ok
}

// depth is how deep src's brackets nest, outside strings.
func depth(src string) int {
	d, max, in, esc := 0, 0, false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			d++
			max = maxInt(max, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// FuzzTOMLHooks: a config.toml with [[hooks]] tables (Kimi Code's) is
// read without panicking; on any file that parses, install gives a file
// that parses and holds exactly one current table per event, a second
// install changes nothing, and uninstall takes tuios's tables out again,
// giving a file the person wrote back byte for byte (when it ended in a
// newline and held none of tuios's tables).
func FuzzTOMLHooks(f *testing.F) {
	for _, s := range []string{
		"", "\n", "a = 1\n", "default_model = \"k2\"\n\n[models.k2]\nprovider = \"kimi\"\n",
		"[[hooks]]\nevent = \"Stop\"\ncommand = \"notify-send done\"\n",
		"[[hooks]]\nevent = \"Stop\"\ncommand = \"/opt/tuios agent-hook kimi --integration 0\"\ntimeout = 10\n",
		"hooks = []\n", "[hooks]\nx = 1\n", "# only a comment\n", "a = 1", "[[hooks]]\n", "x = \"\"\"\n[[hooks]]\n\"\"\"\n",
	} {
		f.Add(s)
	}
	h, _ := Lookup("kimi")
	cmd := h.HookCommand("/opt/tuios")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8<<10 {
			return
		}
		_, _, _, serr := h.toml.state(src, h.ID, h.Version) // must not panic
		out, err := h.toml.install(src, h.ID, cmd)
		if err != nil {
			return // a file that is not TOML, or cannot take [[hooks]] tables: refused, nothing written
		}
		if serr != nil && strings.TrimSpace(src) != "" {
			t.Fatalf("state refused %q (%v) but install took it", src, serr)
		}
		if err := parseTOML(out); err != nil {
			t.Fatalf("install of %q gave a file that does not parse: %v\n%s", src, err, out)
		}
		if installed, current, _, err := h.toml.state(out, h.ID, h.Version); err != nil || !installed || !current {
			t.Fatalf("after install of %q: installed=%v current=%v err=%v\n%s", src, installed, current, err, out)
		}
		if n := len(h.toml.blocks(splitLines(out), h.ID)); n != len(h.toml.events) {
			t.Fatalf("install of %q left %d tables, want %d:\n%s", src, n, len(h.toml.events), out)
		}
		if again, err := h.toml.install(out, h.ID, cmd); err != nil || again != out {
			t.Fatalf("a second install of %q changed it (%v)", src, err)
		}
		back, err := h.toml.uninstall(out, h.ID)
		if err != nil {
			t.Fatalf("uninstall of %q: %v", src, err)
		}
		if n := len(h.toml.blocks(splitLines(back), h.ID)); n != 0 {
			t.Fatalf("uninstall left %d tables:\n%s", n, back)
		}
		if len(h.toml.blocks(splitLines(src), h.ID)) == 0 && (src == "" || strings.HasSuffix(src, "\n")) && !strings.HasSuffix(src, "\n\n") && back != src {
			t.Fatalf("install then uninstall changed\n%q\ninto\n%q", src, back)
		}
	})
}

// Whatever config.toml holds, installing tuios's MCP block either refuses
// or writes a file that parses and holds tuios's server; uninstalling it
// again never breaks a file that parsed.
func FuzzCodexTOMLInstall(f *testing.F) {
	for _, s := range []string{"", "model = \"o4\"\n", "[mcp_servers]\ntuios = { command = \"x\" }\n",
		"mcp_servers = { docs = {} }\n", "[ mcp_servers.\"tuios\" ]\n", "mcp_servers.docs.command = \"d\"\n", "x = '''\n[mcp_servers]\n'''\n",
		tomlBlock("tuios", []string{"mcp"})} {
		f.Add(s)
	}
	block := tomlBlock("/bin/tuios", mcpArgs(false))
	f.Fuzz(func(t *testing.T, old string) {
		next, err := tomlInstall(old, block, "config.toml")
		if err != nil {
			return
		}
		if perr := tomlCheck(next); perr != nil || !tomlHasServer(next, mcpServerName) {
			t.Fatalf("%q installed into %q: %v", old, next, perr)
		}
		if back := tomlRemoveBlock(next); tomlCheck(back) != nil {
			t.Fatalf("%q: removing the block broke it: %q", old, back)
		}
	})
}

// FuzzStatusLine: whatever settings.json holds, installing tuios's status
// line either refuses or leaves a file that parses, whose statusLine runs
// tuios and keeps every other field it had; uninstalling then parses too.
func FuzzStatusLine(f *testing.F) {
	for _, s := range []string{`{}`, tabSettings,
		"{\"statusLine\":{\"type\":\"command\",\"command\":\"x\",\"padding\":2}}",
		"{\"statusLine\":{\"padding\":1}}", "{\"statusLine\":\"x\"}", "{\"statusLine\":{\"command\":5,\"type\":\"other\"}}",
		"{\"statusLine\":{\"command\":\"a\",\"command\":\"b\"}}"} {
		f.Add(s)
	}
	cc, _ := Lookup("claude-code")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4<<10 {
			return
		}
		if root, err := parseJSON(src); err != nil || root.kind != '{' {
			return
		}
		out, err := cc.installStatusLine(src, prog, "")
		if err != nil {
			return
		}
		root, err := parseJSON(out)
		if err != nil {
			t.Fatalf("%q installed into %q, which does not parse: %v", src, out, err)
		}
		sl := root.get("statusLine")
		if c := sl.get("command"); c == nil || !isOurStatusLine(c.str, cc.ID) || sl.get("type").str != "command" {
			t.Fatalf("%q: statusLine %q", src, out[sl.start:sl.end])
		}
		if before := (func() *jnode { r, _ := parseJSON(src); return r.get("statusLine") })(); before != nil && before.kind == '{' {
			for _, m := range before.members {
				if m.key != "command" && m.key != "type" && sl.get(m.key) == nil {
					t.Fatalf("%q lost %q: %q", src, m.key, out)
				}
			}
		}
		back, err := cc.uninstallStatusLine(out, src)
		if err != nil {
			t.Fatalf("uninstall of %q: %v", out, err)
		}
		if _, err := parseJSON(back); err != nil {
			t.Fatalf("uninstall of %q gave %q: %v", out, back, err)
		}
	})
}

// FuzzYAMLHooks: a config.yaml (Hermes's) is read without panicking; on
// any file install takes, the result parses, holds exactly one current
// entry per event and every top-level key the file had, a second install
// changes nothing, and uninstall takes tuios's entries out again, leaving
// a document the same as the file the person wrote.
func FuzzYAMLHooks(f *testing.F) {
	f.Add(hermesConfig)
	for _, s := range []string{
		"", "\n", "# only a comment\n", "a: 1\n", "hooks:\n", "hooks: ~\n", "hooks: []\n", "hooks:\n  pre_llm_call: []\n",
		"hooks:\n  on_session_start:\n    - command: \"/opt/tuios agent-hook hermes --integration 0\"\n      timeout: 10\n",
		"a: &x {b: 1}\nc: *x\n", "--- \na: 1\n--- \nb: 2\n", "- 1\n- 2\n", "hooks: {outbound: [{url: x}]}\n", "a: |\n  text\n",
	} {
		f.Add(s)
	}
	h, _ := Lookup("hermes")
	cmd := h.HookCommand("/opt/my tuios/tuios")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8<<10 {
			return
		}
		_, _, _, serr := h.yaml.state(src, h.ID, h.Version) // must not panic
		out, err := h.yaml.install(src, h.ID, cmd)
		if err != nil {
			return // not YAML, or a hooks: tuios cannot add to: refused, nothing written
		}
		if serr != nil {
			t.Fatalf("state refused %q (%v) but install took it", src, serr)
		}
		installed, current, got, err := h.yaml.state(out, h.ID, h.Version)
		if err != nil || !installed || !current || got != cmd {
			t.Fatalf("after install of %q: installed=%v current=%v command=%q err=%v\n%s", src, installed, current, got, err, out)
		}
		doc, _ := yamlDoc(out)
		if n := len(h.yaml.entries(doc, h.ID)); n != len(h.yaml.events) {
			t.Fatalf("install of %q left %d entries, want %d:\n%s", src, n, len(h.yaml.events), out)
		}
		if before, _ := yamlDoc(src); before != nil && before.Content[0].Kind == yaml.MappingNode {
			for i := 0; i < len(before.Content[0].Content); i += 2 {
				if k := before.Content[0].Content[i]; k.Kind == yaml.ScalarNode {
					if v, _ := mapGet(doc.Content[0], k.Value); v == nil {
						t.Fatalf("install of %q lost the key %q:\n%s", src, k.Value, out)
					}
				}
			}
		}
		if again, err := h.yaml.install(out, h.ID, cmd); err != nil || again != out {
			t.Fatalf("a second install of %q changed it (%v):\n%s\n%s", src, err, out, again)
		}
		back, err := h.yaml.uninstall(out, h.ID)
		if err != nil {
			t.Fatalf("uninstall of %q: %v", src, err)
		}
		if bd, err := yamlDoc(back); err != nil || len(h.yaml.entries(bd, h.ID)) != 0 {
			t.Fatalf("uninstall of %q left entries (%v):\n%s", src, err, back)
		}
		if before, _ := yamlDoc(src); before != nil && len(h.yaml.entries(before, h.ID)) == 0 && !isNull(before.Content[0]) &&
			!h.yaml.same(src, back) && !reflect.DeepEqual(yamlMeaning(t, src), yamlMeaning(t, back)) {
			t.Fatalf("install then uninstall changed\n%q\ninto\n%q", src, back)
		}
	})
}

// yamlMeaning is what a config.yaml says, with the empty hooks: and the
// empty event lists an uninstall does not keep (they say nothing).
func yamlMeaning(t *testing.T, text string) any {
	var v map[string]any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	empty := func(e any) bool { l, ok := e.([]any); return e == nil || ok && len(l) == 0 }
	switch hooks := v["hooks"].(type) {
	case map[string]any:
		for k, e := range hooks {
			if empty(e) {
				delete(hooks, k)
			}
		}
		if len(hooks) == 0 {
			delete(v, "hooks")
		}
	case map[any]any:
		for k, e := range hooks {
			if empty(e) {
				delete(hooks, k)
			}
		}
		if len(hooks) == 0 {
			delete(v, "hooks")
		}
	case nil:
		delete(v, "hooks")
	}
	if len(v) == 0 {
		return nil
	}
	return v
}
