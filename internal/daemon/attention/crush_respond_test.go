package attention

import "testing"

// crushAmong: a crush in the pane's tree or its foreground group counts;
// one elsewhere does not.
func TestCrushAmongTheProcessTable(t *testing.T) {
	t.Parallel()
	table := map[int]procRow{
		10: {comm: "sh", ppid: 1, pgrp: 10},
		11: {comm: "node", ppid: 10, pgrp: 11},
		12: {comm: "crush", ppid: 11, pgrp: 11},
		20: {comm: "crush", ppid: 1, pgrp: 20},
		30: {comm: "crush", ppid: 1, pgrp: 30},
	}
	for _, c := range []struct {
		root, fg int
		want     bool
	}{{10, 10, true}, {11, 0, true}, {10, 30, true}, {12, 0, true}, {40, 0, false}, {40, 40, false}} {
		if got := crushAmong(table, c.root, c.fg); got != c.want {
			t.Errorf("root %d fg %d: %v", c.root, c.fg, got)
		}
	}
	delete(table, 12)
	if crushAmong(table, 10, 10) {
		t.Error("a crush outside the pane counted")
	}
}
