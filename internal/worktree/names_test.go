package worktree_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/worktree"
)

func TestStemAndNames(t *testing.T) {
	for _, c := range []struct{ prompt, name, want string }{
		{"Add a retry with backoff to the HTTP client.", "", "fan/add-retry-backoff"},
		{"  fix   the flaky test in api/retry_test.go", "", "fan/fix-flaky-test"},
		{"¿Qué? ***", "", "fan/qu"},
		{"", "", "fan/attempt"},
		{"!!!", "", "fan/attempt"},
		{"whatever", "demo", "fan/demo"},
		{"whatever", "fan/demo", "fan/demo"},
	} {
		if got := worktree.Stem(c.prompt, c.name); got != c.want {
			t.Errorf("Stem(%q, %q) = %q, want %q", c.prompt, c.name, got, c.want)
		}
	}
	if got := worktree.Branches("fan/demo", 3); !reflect.DeepEqual(got, []string{"fan/demo", "fan/demo-2", "fan/demo-3"}) {
		t.Fatalf("branches: %v", got)
	}
	if got := worktree.SessionName("api", "fan/demo-2"); got != "api-fan-demo-2" {
		t.Fatalf("session: %q", got)
	}
	if got := worktree.SessionName("my repo:x", "feat/a b"); strings.ContainsAny(got, " :/") {
		t.Fatalf("a session name must not read as HOST:SESSION: %q", got)
	}
	if got := worktree.Dir("/d", "api", "feat/retry"); got != "/d/worktrees/api/feat-retry" {
		t.Fatalf("dir: %q", got)
	}
	env := map[string]string{"HOME": "/home/u"}
	if got := worktree.DataDir(func(k string) string { return env[k] }); got != "/home/u/.local/share/tuios" {
		t.Fatalf("data dir: %q", got)
	}
	env["XDG_DATA_HOME"] = "/x"
	if got := worktree.DataDir(func(k string) string { return env[k] }); got != "/x/tuios" {
		t.Fatalf("data dir: %q", got)
	}
}

func TestSplitCommandReadsWordsLikeAShell(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"claude", []string{"claude"}},
		{"  codex   --model  o3 ", []string{"codex", "--model", "o3"}},
		{`claude --append-system-prompt 'be brief; no $ here'`, []string{"claude", "--append-system-prompt", "be brief; no $ here"}},
		{`a "b c" d\ e`, []string{"a", "b c", "d e"}},
		{`a "x\"y\\z\q"`, []string{"a", `x"y\z\q`}},
		{`a ''`, []string{"a", ""}},
		{`a b~c --x=~`, []string{"a", "b~c", "--x=~"}},
		{"a\\\nb", []string{"ab"}},
	} {
		got, err := worktree.SplitCommand(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "  ", "a 'b", `a "b`, "a $HOME", "a `x`", `a "$x"`, "a; b", "a | b", "a > f", "a &", "a *.go", "~/bin/x", "a #c", "a\\", "a\x00"} {
		if _, err := worktree.SplitCommand(in); worktreeCode(err) != worktree.CodeInvalidParams {
			t.Errorf("SplitCommand(%q): %v, want invalid_params", in, err)
		}
	}
}

func TestSplitAgents(t *testing.T) {
	got, err := worktree.SplitAgents(`claude,codex --model o3,'my agent' --flag "a,b"`)
	want := [][]string{{"claude"}, {"codex", "--model", "o3"}, {"my agent", "--flag", "a,b"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q %v", got, err)
	}
	for _, in := range []string{"", "claude,", ",claude", "claude,,codex"} {
		if _, err := worktree.SplitAgents(in); err == nil {
			t.Errorf("SplitAgents(%q) took it", in)
		}
	}
}

func worktreeCode(err error) string {
	if e, ok := err.(*worktree.Error); ok {
		return e.Code
	}
	return ""
}
