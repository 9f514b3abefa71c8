package vt_test

import (
	"fmt"

	"github.com/tuios/tuios/vt"
)

// A rule reads the last non-empty lines of the active screen.
func ExampleScreen_Tail() {
	s := vt.New(vt.Options{Cols: 40, Rows: 10})
	s.Write([]byte("$ make\r\nbuilding...\r\n\x1b[32mok\x1b[0m   \r\n\r\n\x1b[1m>\x1b[0m Do you want to proceed?\r\n  1. Yes\r\n  2. No\r\n"))
	for _, line := range s.Tail(3) {
		fmt.Printf("%q\n", line)
	}
	// Output:
	// "> Do you want to proceed?"
	// "  1. Yes"
	// "  2. No"
}

// Events arrive through a callback, after the screen lock is released.
func ExampleOptions_onEvent() {
	s := vt.New(vt.Options{OnEvent: func(e vt.Event) {
		switch e.Kind {
		case vt.EventTitleChanged:
			fmt.Println("title:", e.Text)
		case vt.EventNotification:
			fmt.Println("notify:", e.Notification.Title, "/", e.Notification.Body)
		case vt.EventBell:
			fmt.Println("bell")
		}
	}})
	s.Write([]byte("\x1b]2;✳ Claude Code\x07\x1b]777;notify;Claude;needs your permission\x07\a"))
	// Output:
	// title: ✳ Claude Code
	// notify: Claude / needs your permission
	// bell
}

// capture-pane forms: the visible screen, or the last N lines of history
// and screen together.
func ExampleScreen_Capture() {
	s := vt.New(vt.Options{Cols: 20, Rows: 3})
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(s, "line %d\r\n", i)
	}
	fmt.Println(s.Capture(vt.CaptureOptions{}))
	fmt.Println("--")
	fmt.Println(s.Capture(vt.CaptureOptions{Scrollback: true, Lines: 4}))
	// Output:
	// line 4
	// line 5
	// --
	// line 2
	// line 3
	// line 4
	// line 5
}

// A narrower window wraps a long line; a wider one joins it again. Capture
// with Join reads soft-wrapped lines whole at any width.
func ExampleScreen_Resize() {
	s := vt.New(vt.Options{Cols: 40, Rows: 4})
	s.Write([]byte("$ make\r\nline-with-a-long-tail-that-stays-whole\r\n$ "))
	s.Resize(20, 4)
	fmt.Println(s.Text())
	fmt.Println("--")
	fmt.Println(s.Capture(vt.CaptureOptions{Join: true}))
	fmt.Println("--")
	s.Resize(40, 4)
	fmt.Println(s.Text())
	// Output:
	// $ make
	// line-with-a-long-tai
	// l-that-stays-whole
	// $
	// --
	// $ make
	// line-with-a-long-tail-that-stays-whole
	// $
	// --
	// $ make
	// line-with-a-long-tail-that-stays-whole
	// $
}
