//go:build !unix

package pretend

func terminalWidth() int                   { return 80 }
func onResize(redraw func()) (stop func()) { return func() {} }
