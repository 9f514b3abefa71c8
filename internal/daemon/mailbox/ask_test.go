package mailbox

import (
	"reflect"
	"testing"
)

func TestReplyLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		base, now []string
		max       int
		want      []string
		truncated bool
	}{
		{"shell: the prompt line took the echo", []string{"$ ls", "a", "$"}, []string{"$ ls", "a", "$ echo hi", "hi", "$"}, 200, []string{"hi", "$"}, false},
		{"nothing printed", []string{"$"}, []string{"$ x"}, 200, []string{}, false},
		{"a redrawn screen", []string{"top", "old"}, []string{"top", "new", "more"}, 200, []string{"new", "more"}, false},
		{"newest lines kept", []string{"$"}, []string{"$ q", "1", "2", "3"}, 2, []string{"2", "3"}, true},
	} {
		got, tr := replyLines(c.base, c.now, c.max)
		if !reflect.DeepEqual(got, c.want) || tr != c.truncated {
			t.Errorf("%s: %q %v", c.name, got, tr)
		}
	}
}

func TestStashDirName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"work": "work", "a.b-c_d": "a.b-c_d", "..": "ID", "a/b": "ID", "": "ID", "x y": "ID"} {
		if got := stashDirName(name, "ID"); got != want {
			t.Errorf("%q: %q", name, got)
		}
	}
}
