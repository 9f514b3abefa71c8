package fuzzy

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"list-agent", "list-agents", 1}, {"kitten", "sitting", 3}, {"abc", "", 3}, {"risck", "risk", 1}, {"rsik", "risk", 2}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
