package detect

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tuios/tuios/internal/fuzzy"
	"github.com/tuios/tuios/vt"
)

// ExplainBytesOptions say whose rules read a recorded screen and how big
// the terminal was.
type ExplainBytesOptions struct {
	// Harness is the manifest id whose screen and title rules read the
	// screen ("claude-code"). Required.
	Harness string
	// Cols and Rows are the size of the terminal the bytes were written
	// to (80x24 when zero): the same bytes draw another screen at
	// another size.
	Cols, Rows int
	// Lines is how many non-empty rows the screen rules read; zero is the
	// manifest's own number, as a live pane's look reads.
	Lines int
}

// ExplainBytes replays what a program wrote to its terminal (a recording,
// a log of a PTY's output, escape sequences and all) on a fresh screen,
// then explains what the harness's screen and title rules make of the
// screen it leaves: the tail they read, every rule, which fired and why
// the others did not. It reads the screen exactly as a tracked pane's look
// does, so a recording that reads needs_input here reads it live.
//
// An unknown harness is a *HarnessError. The bytes are data: nothing in
// them is obeyed, and the explanation's String fences them.
func (r *Registry) ExplainBytes(data []byte, opt ExplainBytesOptions) (ScreenExplanation, error) {
	m, ok := r.Lookup(opt.Harness)
	if !ok {
		return ScreenExplanation{}, r.unknownHarness(opt.Harness)
	}
	screen := vt.New(vt.Options{Cols: opt.Cols, Rows: opt.Rows})
	screen.Write(data)
	n := opt.Lines
	if n <= 0 {
		n = m.Screen.ReadLines()
	}
	ex := ExplainScreen(m, screen.Tail(n), screen.Title())
	ex.Lines = n
	return ex, nil
}

// CodeUnknownHarness: no loaded manifest has the id.
const CodeUnknownHarness Code = "unknown_harness"

// HarnessError is a harness id no loaded manifest has.
type HarnessError struct {
	ID         string
	DidYouMean string   // the nearest loaded id, or ""
	Available  []string // every loaded id, sorted
}

func (e *HarnessError) Error() string {
	return "detect: no harness " + strconv.Quote(e.ID)
}

// Code returns CodeUnknownHarness.
func (e *HarnessError) Code() Code { return CodeUnknownHarness }

// Hint says what to do next.
func (e *HarnessError) Hint() string {
	if e.DidYouMean != "" {
		return "did you mean " + e.DidYouMean + "? loaded: " + strings.Join(e.Available, ", ")
	}
	return "name a loaded manifest: " + strings.Join(e.Available, ", ")
}

func (r *Registry) unknownHarness(id string) *HarnessError {
	e := &HarnessError{ID: id}
	best := -1
	for _, m := range r.Manifests() {
		e.Available = append(e.Available, m.ID)
		if id == "" || len(id) > 64 { // a long id is no typo of a short one
			continue
		}
		d := fuzzy.Distance(id, m.ID)
		if strings.HasPrefix(m.ID, id+"-") {
			d = 1 // "claude" for claude-code
		}
		if d <= 3 && (best < 0 || d < best) {
			best, e.DidYouMean = d, m.ID
		}
	}
	sort.Strings(e.Available)
	return e
}
