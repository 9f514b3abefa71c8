package layout_test

import (
	"encoding/json"
	"fmt"

	"github.com/tuios/tuios/internal/daemon/mux/layout"
)

// Three windows opened without a split asked for make a master and a
// stack; a split then halves the tile it splits and moves no other.
// The tree keeps its shape through the sessions file.
func Example() {
	t := layout.New()
	for _, id := range []string{"editor", "shell", "logs"} {
		t.Add(id)
	}
	all := func(string) bool { return true }
	show := func(p layout.Placement) {
		for _, id := range t.IDs() {
			r := p.Rects[id]
			fmt.Printf("%-6s %2d,%-2d %dx%d\n", id, r.X, r.Y, r.W, r.H)
		}
	}
	show(t.Place(81, 24, all, "editor"))

	// tmux's prefix % on the shell: the new window takes the right half.
	t.Split("shell", "agent", layout.SideBySide, false, 50)
	fmt.Println("--")
	show(t.Place(81, 24, all, "agent"))

	b, _ := json.Marshal(t.Save())
	var saved layout.Saved
	_ = json.Unmarshal(b, &saved)
	same := func(id string) (string, bool) { return id, true }
	back := layout.Load(&saved, same, 100)
	fmt.Println("--")
	fmt.Println(back.IDs(), back.Len())
	// Output:
	// editor  0,0  40x24
	// shell  41,0  40x12
	// logs   41,12 40x12
	// --
	// editor  0,0  40x24
	// shell  41,0  20x12
	// agent  62,0  19x12
	// logs   41,12 40x12
	// --
	// [editor shell agent logs] 4
}
