package review

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// Relative paths resolve against the pane's directory: from the root,
// from a subdirectory of it (Request.Dir), and after a cd in the line.
func TestOutsideResolvesRelativePaths(t *testing.T) {
	c, err := NewChecker(RiskConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		tool, line, dir string
		outside         bool
	}{
		{"Bash", `rm ../x`, "", true},
		{"Bash", `rm ../x`, "/src/api/sub", false}, // the pane sits in sub: ../x is /src/api/x
		{"Bash", `rm ../../x`, "/src/api/sub", true},
		{"Write", `../x`, "/src/api/sub", false},
		{"Write", `../../x`, "/src/api/sub", true},
		{"Bash", `rm ./x`, "relative/dir", false}, // a dir that is not absolute is not used
		{"Bash", `cd .. && rm -f x`, "", true},
		{"Bash", `cd ~ && rm x`, "", true},
		{"Bash", `cd && rm x`, "", true},                // cd alone goes home
		{"Bash", `cd /src/api/a && rm ../b`, "", false}, // /src/api/b
		{"Bash", `cd "$X" && rm ../b`, "", false},       // not known: not judged
		{"Bash", `pushd +1 && rm ../b`, "", false},
		{"Bash", `popd; rm ../b`, "", false},
		{"Bash", `rm ../b; cd /src/api/a`, "", true}, // the cd comes after
		{"Bash", "rm `pwd`/../x", "", false},         // a substitution writes the path
		{"Bash", `tee ~/.profile`, "", true},
		{"Bash", `rm ~other/x`, "", true}, // another user's home
	} {
		hits := c.Check(Request{Tool: tt.tool, Command: tt.line, Worktree: "/src/api", Dir: tt.dir, Home: "/home/me"})
		if got := slices.Contains(ruleNames(hits), RuleOutside); got != tt.outside {
			t.Errorf("%s %q from %q: outside = %v, want %v (hits %v)", tt.tool, tt.line, tt.dir, got, tt.outside, ruleNames(hits))
		}
	}
}

func TestIsOutsideFromADir(t *testing.T) {
	for _, tt := range []struct {
		p, dir string
		want   bool
	}{
		{"../x", "/src/api", true},
		{"x/../../..", "/src/api", true},
		{"x/..", "/src/api", false},
		{".", "/src/api", false},
		{"..", "/src/api/a", false},
		{"../../api2", "/src/api/a", true},
		{"../x", "", false},            // no dir known
		{"$D/../x", "/src/api", false}, // a variable
		{"'../x'", "/src/api", true},   // quoted
		{"../null", "/dev/fd", false},  // /dev/null
	} {
		if got := isOutside(tt.p, "/src/api", "/home/me", tt.dir); got != tt.want {
			t.Errorf("isOutside(%q) from %q = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}

// FuzzOutside: resolving never panics, a resolved path is absolute and
// clean, and a relative path with no ".." read from inside the root is
// never outside it.
func FuzzOutside(f *testing.F) {
	for _, s := range []string{"../x", "sub/../../x", "~/x", "~", "$HOME/x", "${HOME}", "~other", "a/./b", "", "/", "..", "'..'", "$X/..", "\x00", "./../."} {
		f.Add(s, "/src/api/sub")
	}
	f.Fuzz(func(t *testing.T, p, dir string) {
		abs, ok := resolvePath(p, "/home/me", dir)
		if ok && (!strings.HasPrefix(abs, "/") || path.Clean(abs) != abs) {
			t.Fatalf("resolvePath(%q, %q) = %q: not absolute and clean", p, dir, abs)
		}
		out := isOutside(p, "/src/api", "/home/me", "/src/api/sub")
		q := strings.TrimSpace(p)
		if q != "" && !strings.HasPrefix(q, "/") && !strings.HasPrefix(q, "~") && !strings.HasPrefix(q, "$") &&
			!strings.HasPrefix(q, "'") && !strings.HasPrefix(q, `"`) && !strings.Contains(q, "..") && out {
			t.Fatalf("%q read from inside the root is outside", p)
		}
	})
}
