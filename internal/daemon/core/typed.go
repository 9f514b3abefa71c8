package core

import "time"

// Typed is what one prompt typed into a pane did (Host.TypeHeld).
type Typed struct {
	// Harness is the harness it was typed for; "" for none.
	Harness string
	// Output is the pane's output generation read just before the
	// submit key: it is closed by the first output after it.
	Output <-chan struct{}
	// SubmitAt is when the submit key went out, by the daemon's clock;
	// zero when nothing was typed.
	SubmitAt time.Time
}
