//go:build !linux

package pretend

type termState struct{}

func rawMode() termState   { return termState{} }
func (termState) restore() {}
