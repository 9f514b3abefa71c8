package integration

import (
	"strings"
	"testing"
)

func TestParseJSON(t *testing.T) {
	good := []string{
		`{}`, ` { } `, `[]`, `1`, `"s"`, `null`, `{"a":[1,2.5e3,-0,true,false,null,"x\"y\\\u00e9"]}`,
		"// c\n{ /* b */ \"a\" /* c */ : /* d */ 1 // e\n}",
		`{"a":1,}`, `[1,2,]`, `{"a":{"b":[{"c":{}}]}}`, `{"dup":1,"dup":2}`, "{\r\n\t\"a\": 1\r\n}",
		`{"a":1}/* a comment left open at the end`,
		strings.Repeat("[", 200) + strings.Repeat("]", 200),
	}
	for _, s := range good {
		if _, err := parseJSON(s); err != nil {
			t.Errorf("parseJSON(%q): %v", s, err)
		}
	}
	bad := []string{
		``, `   `, `// only a comment`, `{`, `{"a"}`, `{"a":}`, `{"a":1,,}`, `{,}`, `[,]`, `{a:1}`, `{'a':1}`,
		`{"a":1}}`, `{"a":1} x`, `{"a":tru}`, `{"a":01}`, `{"a":1.}`, `{"a":"x` + "\n" + `"}`, `{"a":"\x"}`,
		"{\"a\":\"tab\there\"}", `{"a":1 /* unclosed }`, `[1:2]`, `[1"x"]`, `{"a" 1}`, "\ufeff{}",
		strings.Repeat("[", 300) + strings.Repeat("]", 300),
	}
	for _, s := range bad {
		if _, err := parseJSON(s); err == nil {
			t.Errorf("parseJSON(%q) accepted it", s)
		}
	}
	// Errors say the line.
	_, err := parseJSON("{\n  \"a\": 1\n  \"b\": 2\n}")
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %v does not name line 3", err)
	}
}

func TestParseJSONSpans(t *testing.T) {
	src := `{ "a" : [1, {"k": "v\n"}], "b": "x" } `
	n, err := parseJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	if src[n.start:n.end] != `{ "a" : [1, {"k": "v\n"}], "b": "x" }` {
		t.Errorf("root span %q", src[n.start:n.end])
	}
	a := n.get("a")
	if src[a.start:a.end] != `[1, {"k": "v\n"}]` || len(a.elems) != 2 {
		t.Errorf("a span %q", src[a.start:a.end])
	}
	if v := a.elems[1].get("k"); v.str != "v\n" {
		t.Errorf("k = %q", v.str)
	}
	if src[n.members[1].keyStart:n.members[1].val.end] != `"b": "x"` {
		t.Error("member span")
	}
	if n.get("zz") != nil || a.get("a") != nil {
		t.Error("get on a missing key or an array")
	}
	// The last duplicate wins, as in JSON.parse.
	d, _ := parseJSON(`{"k":1,"k":"two"}`)
	if d.get("k").str != "two" {
		t.Error("the first duplicate won")
	}
}

// Comments inside an object that has no member yet are the person's:
// install keeps them, and uninstall gives back the file.
func TestInstallKeepsCommentsInEmptyObject(t *testing.T) {
	h := harness(t, "claude-code")
	for _, text := range []string{
		"{\n  // \"model\": \"opus\",\n}\n",
		"{\n  /* nothing yet */\n}\n",
		"{\n  \"model\": \"opus\",\n  \"hooks\": {\n    // \"Stop\": []\n  }\n}\n",
		"{\n  \"hooks\": {\n    \"Stop\": [\n      // my stop hook, off for now\n    ]\n  }\n}\n",
	} {
		out, err := h.hooks.install(text, h.ID, h.HookCommand(prog))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		for _, line := range strings.Split(text, "\n") {
			if c := strings.TrimSpace(line); strings.HasPrefix(c, "//") || strings.HasPrefix(c, "/*") {
				if !strings.Contains(out, c) {
					t.Errorf("install dropped the comment %q:\n%s", c, out)
				}
			}
		}
		assertWired(t, h, out, h.HookCommand(prog))
		back, err := h.hooks.uninstall(out, h.ID)
		if err != nil {
			t.Fatal(err)
		}
		if back != text {
			t.Errorf("round trip of %q gave %q", text, back)
		}
	}
}

// Duplicate keys are valid JSON (the last wins); an entry in the hidden
// duplicate is not the harness's and is left alone, without a panic.
func TestDuplicateKeys(t *testing.T) {
	h := harness(t, "claude-code")
	ours := `{"type":"command","command":"tuios agent-hook claude-code --integration 3"}`
	for _, text := range []string{
		`{"hooks":{"Stop":[{"hooks":[` + ours + `,{"command":"x"}]}],"Stop":[]}}`,
		`{"hooks":{"Stop":[{"hooks":[` + ours + `]}],"Stop":5}}`,
		`{"hooks":{"Stop":[{"hooks":[{"command":"x"},` + ours + `]}],"Stop":[{"hooks":[]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[` + ours + `]}]},"hooks":{}}`,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", text, r)
				}
			}()
			out, err := h.hooks.install(text, h.ID, h.HookCommand(prog))
			if err != nil {
				t.Errorf("%s: install: %v", text, err)
				return
			}
			assertWired(t, h, out, h.HookCommand(prog))
			if _, err := h.hooks.uninstall(out, h.ID); err != nil {
				t.Errorf("%s: uninstall: %v", text, err)
			}
		}()
	}
}

func TestRemoveAt(t *testing.T) {
	cases := []struct {
		src  string
		path []string // keys to the container; "" for the root
		i    int
		want string
	}{
		{`[1, 2, 3]`, nil, 0, `[2, 3]`},
		{`[1, 2, 3]`, nil, 1, `[1, 3]`},
		{`[1, 2, 3]`, nil, 2, `[1, 2]`},
		{`[1]`, nil, 0, `[]`},
		{"[\n  1,\n  2\n]", nil, 0, "[\n  2\n]"},
		{"[\n  1,\n  2\n]", nil, 1, "[\n  1\n]"},
		{"{\n  \"a\": 1,\n  \"b\": 2,\n}", nil, 1, "{\n  \"a\": 1,\n}"},
		{`{"a": 1, "b": 2}`, nil, 0, `{"b": 2}`},
		// the only value of a container that holds comments: they stay
		{"[\n  // c\n  1,\n]", nil, 0, "[\n  // c\n]"},
		{"[ /* c */ 1 ]", nil, 0, "[ /* c */  ]"},
		{"[1 /* c */ , ]", nil, 0, "[ /* c */  ]"},
		{"[ // c\n 1]", nil, 0, "[ // c\n ]"},
		{"{\r\n  // c\r\n  \"a\": 1\r\n}", nil, 0, "{\r\n  // c\r\n}"},
	}
	for _, c := range cases {
		n, err := parseJSON(c.src)
		if err != nil {
			t.Fatal(err)
		}
		got := removeAt(c.src, n, c.i)
		if got != c.want {
			t.Errorf("removeAt(%q, %d) = %q, want %q", c.src, c.i, got, c.want)
		}
		if _, err := parseJSON(got); err != nil {
			t.Errorf("removeAt(%q, %d) does not parse: %v", c.src, c.i, err)
		}
	}
}

func TestIndentUnit(t *testing.T) {
	for src, want := range map[string]string{
		"{}":                            "  ",
		"{\n\t\"a\": 1\n}":              "\t",
		"{\n    \"a\": 1\n}":            "    ",
		"{\n  \"a\": {\n    \"b\": 1}}": "  ",
	} {
		if got := indentUnit(src); got != want {
			t.Errorf("indentUnit(%q) = %q, want %q", src, got, want)
		}
	}
}
