package mux

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/internal/daemon/core"
)

// FuzzCheckLabel: whatever a caller sends, an accepted label is short,
// valid text with no control characters, and cleaning it twice is
// cleaning it once.
func FuzzCheckLabel(f *testing.F) {
	for _, s := range []string{"", "Payments API", " x\n", "a\x1bb", "\u0085", strings.Repeat("é", 200), "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := labelParam("name", s)
		if err != nil {
			return
		}
		if len(got) > core.MaxLabel || !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }) {
			t.Fatalf("accepted %q as %q", s, got)
		}
		if again, err := labelParam("name", got); err != nil || again != got {
			t.Fatalf("%q cleaned again is %q, %v", got, again, err)
		}
	})
}

// FuzzWorkspaceOrder: an order that passes the check moves every window
// and name to one workspace of 1..9, keeps how many windows and names
// there are, and a workspace past the order stays where it was.
func FuzzWorkspaceOrder(f *testing.F) {
	f.Add([]byte{2, 1}, []byte{1, 2, 3, 9})
	f.Add([]byte{1}, []byte{1})
	f.Add([]byte{3, 1, 2}, []byte{})
	f.Fuzz(func(t *testing.T, raw, wins []byte) {
		order := make([]int, len(raw))
		for i, b := range raw {
			order[i] = int(int8(b))
		}
		if checkOrder(order) != nil {
			return
		}
		ss := &Session{workspace: 1, wsNames: map[int]string{}}
		before := map[int]int{}
		for i, b := range wins {
			n := int(b)%Workspaces + 1
			ss.windows = append(ss.windows, &Window{ID: string(rune('a' + i%26)), workspace: n})
			before[n]++
			ss.wsNames[n] = "ws" + string(rune('0'+n))
		}
		names := len(ss.wsNames)
		ss.reorderWorkspacesLocked(order)
		after := map[int]int{}
		for _, w := range ss.windows {
			if w.workspace < 1 || w.workspace > Workspaces {
				t.Fatalf("a window went to %d", w.workspace)
			}
			after[w.workspace]++
		}
		for i, old := range order {
			if after[i+1] != before[old] {
				t.Fatalf("order %v: workspace %d holds %d windows, old %d held %d", order, i+1, after[i+1], old, before[old])
			}
		}
		for n := len(order) + 1; n <= Workspaces; n++ {
			if after[n] != before[n] {
				t.Fatalf("order %v moved workspace %d", order, n)
			}
		}
		if len(ss.wsNames) != names || ss.workspace < 1 || ss.workspace > len(order) || order[ss.workspace-1] != 1 {
			t.Fatalf("order %v: names %v, showing %d", order, ss.wsNames, ss.workspace)
		}
	})
}
