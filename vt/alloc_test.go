package vt

import "testing"

// Steady state: once the scrollback is full and every slot has been reused,
// writing output allocates nothing.
func TestSteadyStateAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes several MiB")
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"plain", plainStream(1 << 20)},
		{"listing", listingStream(1 << 20)},
		{"tui", tuiStream(1<<20, 120, 40)},
	} {
		s := New(Options{Cols: 120, Rows: 40})
		for range 3 {
			writeChunks(s, tc.data)
		}
		allocs := leastAllocs(3, func() { writeChunks(s, tc.data) })
		t.Logf("%s: %.0f allocs per MiB", tc.name, allocs)
		if allocs > 0 {
			t.Errorf("%s: %.0f allocs per MiB in the steady state", tc.name, allocs)
		}
	}
}

// After a resize the reflowed history keeps the room its lines had: once
// the output has gone round once, writing allocates nothing again, as
// before the resize.
func TestSteadyStateAllocsAfterResize(t *testing.T) {
	if testing.Short() {
		t.Skip("writes several MiB")
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"plain", plainStream(1 << 20)},
		{"listing", listingStream(1 << 20)},
		{"wide", longStream(7000)},
	} {
		s := New(Options{Cols: 160, Rows: 40})
		for range 3 {
			writeChunks(s, tc.data)
		}
		for _, size := range [][2]int{{80, 40}, {160, 40}, {100, 30}} {
			s.Resize(size[0], size[1])
			writeChunks(s, tc.data) // one pass: slots that need more room get it
			allocs := leastAllocs(2, func() { writeChunks(s, tc.data) })
			if allocs > 0 {
				t.Errorf("%s after a resize to %dx%d: %.0f allocs per pass", tc.name, size[0], size[1], allocs)
			}
		}
	}
}

// leastAllocs is testing.AllocsPerRun(runs, f), the fewest of three tries:
// the count is process-wide, so a stray allocation elsewhere (the test
// runner's own) can land in one try.
func leastAllocs(runs int, f func()) float64 {
	allocs := testing.AllocsPerRun(runs, f)
	for try := 0; try < 2 && allocs > 0; try++ {
		allocs = min(allocs, testing.AllocsPerRun(runs, f))
	}
	return allocs
}
