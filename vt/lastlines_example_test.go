package vt_test

import (
	"fmt"

	"github.com/tuios/tuios/vt"
)

// A prompt taller than a short pane: its first row scrolled into the
// history, where Tail does not look and LastLines does.
func ExampleScreen_LastLines() {
	s := vt.New(vt.Options{Cols: 40, Rows: 3})
	s.Write([]byte("Bash command\r\n  rm -rf build/\r\nDo you want to proceed?\r\n❯ 1. Yes"))
	fmt.Printf("%q\n", s.Tail(3))
	fmt.Printf("%q\n", s.LastLines(4))
	// Output:
	// ["  rm -rf build/" "Do you want to proceed?" "❯ 1. Yes"]
	// ["Bash command" "  rm -rf build/" "Do you want to proceed?" "❯ 1. Yes"]
}
