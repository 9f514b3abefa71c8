package cli

import (
	"slices"
	"strings"
	"testing"
)

// fakeNames stands in for the daemon's live names.
type fakeNames struct{ gotSession string }

func (f *fakeNames) sessions() []candidate {
	return []candidate{{"api", "2 windows"}, {"docs", "1 windows"}}
}
func (f *fakeNames) windows(s string) []candidate {
	f.gotSession = s
	return []candidate{{"build", "claude"}, {"1a2b3c4d", "Terminal"}}
}
func (f *fakeNames) hosts() []candidate { return []candidate{{"far", "me@far"}} }

func words(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.word)
	}
	return out
}

func TestCompleteFromTheVerbTable(t *testing.T) {
	table := commands()
	live := &fakeNames{}
	cases := []struct {
		typed []string
		want  []string // each must be offered
		not   []string // none of these may be
	}{
		{[]string{"list-w"}, []string{"list-windows", "list-workspaces"}, []string{"ls"}},
		{[]string{""}, []string{"attach", "hosts", "risk", "completion"}, []string{"__complete"}},
		{[]string{"hosts", ""}, []string{"add", "remove", "test"}, nil},
		{[]string{"risk", ""}, []string{"check"}, nil},
		{[]string{"capture-pane", "--sc"}, []string{"--scrollback"}, []string{"--lines"}},
		{[]string{"send-text", "-s", ""}, []string{"api", "docs"}, nil},
		{[]string{"send-text", "--session=a"}, []string{"--session=api"}, []string{"--session=docs"}},
		{[]string{"send-text", "-s", "api", "-w", ""}, []string{"build", "1a2b3c4d"}, nil},
		{[]string{"ls", "--host", ""}, []string{"far"}, nil},
		{[]string{"set-agent-state", "--harness", "cl"}, []string{"claude-code"}, []string{"codex"}},
		{[]string{"--skill", ""}, []string{"core", "grants", "all"}, nil},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}, nil},
		{[]string{"help", "hosts", ""}, []string{"add", "test"}, nil},
		{[]string{"-"}, []string{"--help", "--skill", "--version"}, nil},
	}
	for _, c := range cases {
		got := words(complete(table, c.typed, live))
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("tuios %s<TAB>: %q not offered in %q", strings.Join(c.typed, " "), w, got)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("tuios %s<TAB>: %q offered", strings.Join(c.typed, " "), w)
			}
		}
	}
	complete(table, []string{"send-text", "-s", "api", "-w", ""}, live)
	if live.gotSession != "api" {
		t.Errorf("windows asked of session %q, want the -s typed", live.gotSession)
	}
	// Every flag of every verb completes with its help: the table is the
	// one source, so nothing is left out.
	for _, c := range table {
		if c.Hidden || c.Run == nil || c.RawArgs {
			continue
		}
		got := complete(table, append(strings.Fields(c.Name), "--"), live)
		if len(got) == 0 || !slices.Contains(words(got), "--help") {
			t.Errorf("tuios %s --<TAB>: %q", c.Name, words(got))
		}
		for _, g := range got {
			if g.desc == "" {
				t.Errorf("tuios %s: %s has no help", c.Name, g.word)
			}
		}
	}
}
