package transcript_test

import (
	"testing"

	"github.com/tuios/tuios/detect/transcript"
)

// Claude Code's own names for these folders, computed by the function
// its 2.1.197 package uses (run under node): a dash for every UTF-16 code
// unit that is not an ASCII letter or digit, and past 200 characters a cut
// and a base-36 hash of the whole path.
func TestProjectNameIsClaudeCodes(t *testing.T) {
	for _, c := range []struct{ cwd, want string }{
		{"/tmp/turn.Ab12Cd/repo", "-tmp-turn-Ab12Cd-repo"},
		{"/home/u/my_project", "-home-u-my-project"},
		{"/home/u/.dotfiles", "-home-u--dotfiles"},
		{"/home/u/src/github.com/x", "-home-u-src-github-com-x"},
		{"/tmp/a space/b", "-tmp-a-space-b"},
		{"/home/u/Ünïcødé/é", "-home-u--n-c-d---"},
		{"/tmp/emoji😀dir", "-tmp-emoji--dir"},
		{"/tmp/claude-1000/-home-u/work", "-tmp-claude-1000--home-u-work"},
		{"/home/u/long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name./long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name./long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name.long_name./xxxxxxxxxxxxxxxxxxxx", "-home-u-long-name-long-name-long-name-long-name-long-name-long-name-long-name-long-name-long-name--long-name-long-name-long-name-long-name-long-name-long-name-long-name-long-name-long-name--long-name--ode7zo"},
		{"/üüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüüü", "---------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------7w7ban"},
		{"/tmp/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "-tmp-zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz-6fqd7d"},
	} {
		if got := transcript.ProjectName(c.cwd); got != c.want {
			t.Errorf("ProjectName(%q)\n got %q\nwant %q", c.cwd, got, c.want)
		}
	}
	dir, ok := transcript.ProjectDir("{home}/.claude/projects/{cwd:dashes}", "/home/u", "/home/u/my_project")
	if !ok || dir != "/home/u/.claude/projects/-home-u-my-project" {
		t.Fatalf("ProjectDir: %q %v", dir, ok)
	}
}

func FuzzProjectName(f *testing.F) {
	f.Add("/tmp/turn.Ab12Cd/repo")
	f.Add("/tmp/emoji\U0001F600dir")
	f.Add("\xff\xfe/x")
	f.Fuzz(func(t *testing.T, cwd string) {
		n := transcript.ProjectName(cwd)
		for i := 0; i < len(n); i++ {
			c := n[i]
			if !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				t.Fatalf("ProjectName(%q) = %q: byte %q", cwd, n, c)
			}
		}
		if len(n) > 200+1+7 {
			t.Fatalf("ProjectName(%q) is %d long", cwd, len(n))
		}
	})
}
