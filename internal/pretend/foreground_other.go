//go:build !unix

package pretend

func takeForeground() func() { return nil }
