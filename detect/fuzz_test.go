package detect

import (
	"strings"
	"testing"
)

func FuzzLoadManifest(f *testing.F) {
	f.Add([]byte("schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\"xagent\"]\n"))
	f.Add([]byte("schema_version = 1\nid = \"x\"\n[detect]\ncomm = [\"xa\"]\n[detect.require]\nexe_glob = [\"**/.xa/**\"]\n[screen]\nenabled = true\n[[screen.rule]]\nstate = \"needs_input\"\nall = [\"a\"]\n"))
	f.Add([]byte("schema_version = 1\nid = \"x\"\n[detect]\nexe_glob = [\"[\"]\n[transcript]\nreader = \"claude-code-jsonl\"\ndir = \"{home}/{x\"\nglob = \"*\"\n"))
	f.Add([]byte("schema_version = 2\n"))
	f.Add([]byte("[[screen.rule]]\n[[screen.rule]]\nstate = 1\n"))
	for _, name := range []string{"claude-code.toml"} {
		if b, err := bundledFiles.ReadFile("harnesses/" + name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data, "fuzz.toml")
		if err != nil {
			le, ok := err.(*LoadError)
			if !ok || le.Code() == "" || le.Reason == "" || le.Source != "fuzz.toml" || strings.Contains(le.Reason, "\n") {
				t.Fatalf("bad error %T %#v", err, err)
			}
			return
		}
		if m.SchemaVersion != 1 || m.ID == "" || m.DisplayName == "" {
			t.Fatalf("loaded an invalid manifest: %+v", m)
		}
		d := &m.Detect
		if len(d.Comm)+len(d.Argv0)+len(d.ArgvPath)+len(d.ExeGlob) == 0 {
			t.Fatal("loaded a manifest that matches nothing")
		}
		if d.Require.Empty() {
			for _, n := range append(append([]string(nil), d.Comm...), d.Argv0...) {
				if len([]rune(n)) < shortName {
					t.Fatalf("generic name %q loaded without require", n)
				}
			}
		}
		// Matching with it must not panic.
		det := NewDetector(DetectorOptions{Registry: NewRegistry(m)})
		det.MatchProcess(ProcInfo{Comm: "x", Argv: []string{"node", "/n/node_modules/x/cli.js"}, Exe: "/usr/bin/node"})
	})
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("42 (a) (b c)) S 1 42 42 34816 99 4194560 0 0 0 0 0 0 0 0 20 0 3 0 777 0 0"))
	f.Add([]byte("1 (systemd) S 0 1 1 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 10 1 2"))
	f.Add([]byte("1 ()) Z"))
	f.Add([]byte("7 (claude) S 1 7 7 34816 7 4194560 0 0 0 0 0 0 0 0 20 0 9 0 777 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 140730759461391 140730759462000 140730759462001 140730759462863 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, ok := parseStat(b)
		if !ok {
			return
		}
		if len(st.comm) > len(b) {
			t.Fatal("comm longer than input")
		}
		// The comm is what lies between the first '(' and the last ')'.
		s := string(b)
		if string(st.comm) != s[strings.IndexByte(s, '(')+1:strings.LastIndexByte(s, ')')] {
			t.Fatalf("comm %q", st.comm)
		}
		st.image() // never panics, whatever follows starttime
	})
}

func FuzzBaseNameAndGlob(f *testing.F) {
	f.Add("*/claude", "/usr/bin/claude", "node /x/node_modules/@a/b/cli.js")
	f.Add("/usr/**/claude", "/usr/local/lib/claude", "@a/b")
	f.Add("**/.cursor/**/agent", `C:\x\.cursor\1\agent`, "-bash")
	f.Add("[", "/", "")
	f.Fuzz(func(t *testing.T, pat, exe, tok string) {
		b := baseName(exe)
		if strings.ContainsRune(b, '/') || strings.ContainsRune(b, '\\') {
			t.Fatalf("baseName(%q) = %q holds a separator", exe, b)
		}
		if b != strings.ToLower(b) {
			t.Fatalf("baseName(%q) = %q not lowercased", exe, b)
		}
		got := matchExeGlob(pat, exe)
		// A relative pattern is the same as "**/" + pattern.
		if !strings.HasPrefix(strings.TrimSpace(pat), "/") && len(pathComps(strings.TrimSpace(pat))) > 0 && validGlob(pat) {
			if alt := matchExeGlob("**/"+strings.TrimSpace(pat), exe); alt != got {
				t.Fatalf("matchExeGlob(%q, %q) = %v but with **/ = %v", pat, exe, got, alt)
			}
		}
		matchArgvPath(pat, tok)
		runToken(strings.Fields(tok))
		_ = titleName(tok)
	})
}
