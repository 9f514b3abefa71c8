package waitfor

import "testing"

// A wait's timeout hint names the pane it watched, quoted for a shell,
// and points a wait on no one pane at a listing.
func TestWaitTimeoutHint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cond  string
		where waitWhere
		want  string
	}{
		{"window-output", waitWhere{"work", "build"}, "tuios capture-pane -s work -w build --scrollback --lines 40"},
		{"window-idle", waitWhere{"my work", "it's"}, `tuios capture-pane -s 'my work' -w 'it'\''s' --scrollback --lines 40`},
		{"agent-state", waitWhere{"work", "build"}, "tuios capture-pane -s work -w build --scrollback --lines 40"},
		{"agent-state", waitWhere{"work", ""}, "tuios list-agents -s work"},
		{"agent-state", waitWhere{}, "tuios list-agents"},
		{"session-exists", waitWhere{"nope", ""}, "tuios ls"},
	} {
		if got := waitTimeoutHint(c.cond, c.where).Command; got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.cond, c.where, got, c.want)
		}
	}
}
