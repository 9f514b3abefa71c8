package pretend

import "golang.org/x/sys/unix"

type termState struct{ old *unix.Termios }

// rawMode turns off line buffering and echo so a single key answers the
// prompt, as in a real agent's TUI. Without a terminal it does nothing.
func rawMode() termState {
	t, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		return termState{}
	}
	old := *t
	t.Lflag &^= unix.ICANON | unix.ECHO
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	unix.IoctlSetTermios(0, unix.TCSETS, t)
	return termState{old: &old}
}

func (s termState) restore() {
	if s.old != nil {
		unix.IoctlSetTermios(0, unix.TCSETS, s.old)
	}
}
