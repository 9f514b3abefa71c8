package agentstate

import (
	"fmt"
	"strings"
)

// Source is who made a claim about a pane. Sources are ranked: a source may
// write over a claim ranked at or below its own, never above it.
//
// The zero Source is SourceNone: nobody. It is what an unclaimed pane's
// Snapshot and Change carry, and a Report that names no source is refused
// (ReasonInvalid): every report says who made it.
type Source uint8

// The sources, most trusted first, after SourceNone.
const (
	SourceNone       Source = iota // no source: the pane is unclaimed (never a report's source)
	SourceReport                   // the agent reports for itself (its hooks, or a report it sends)
	SourceProgram                  // an OSC 7501 program status report
	SourceTranscript               // the harness's own record file
	SourceOSC                      // OSC 9;4 progress, title rules, notification rules
	SourceScreen                   // a screen rule matched the pane's text
	SourceDetect                   // the foreground-process detector
	SourceStall                    // the pane was working and went quiet

	numSources
)

// sourceNames are the wire names; SourceNone has none (an unclaimed pane's
// source is written "" on the wire) and prints as "none".
var sourceNames = [numSources]string{"none", "report", "program", "transcript", "osc", "screen", "detect", "stall"}

// The ranks are spaced so a tier can be inserted between two others; only
// their order is a contract. Program sits just below the agent's own report.
// SourceNone ranks below every source, as an unclaimed pane does.
var sourceRanks = [numSources]int{-1, 40, 38, 35, 30, 20, 10, 0}

// Sources returns every source that can make a claim, most trusted first
// (SourceNone is not one).
func Sources() []Source {
	return []Source{SourceReport, SourceProgram, SourceTranscript, SourceOSC, SourceScreen, SourceDetect, SourceStall}
}

// Rank is the source's number. Higher wins. SourceNone and an invalid
// source rank -1, below every source.
func (s Source) Rank() int {
	if s < numSources {
		return sourceRanks[s]
	}
	return -1
}

// String returns the wire name ("screen"), "none" for SourceNone.
func (s Source) String() string {
	if s < numSources {
		return sourceNames[s]
	}
	return fmt.Sprintf("invalid(%d)", uint8(s))
}

// Valid reports whether s is a source that can make a claim: not
// SourceNone, not out of range.
func (s Source) Valid() bool { return s > SourceNone && s < numSources }

// CallerMayName reports whether a report from outside the engine may name
// this source. Transcript, detect and program are set only by the engine's
// own readers: a caller naming them has looked at nothing.
func (s Source) CallerMayName() bool {
	return s == SourceReport || s == SourceOSC || s == SourceScreen || s == SourceStall
}

// CallerSources lists the sources a caller may name, in schema order.
func CallerSources() []Source { return []Source{SourceReport, SourceOSC, SourceScreen, SourceStall} }

// ParseSource reads any source's wire name ("report" … "stall"). An
// unknown name, "none" and "" are a *SourceError (SourceNone is no source
// a claim can name).
func ParseSource(name string) (Source, error) {
	for i, n := range sourceNames {
		if i > int(SourceNone) && n == name {
			return Source(i), nil
		}
	}
	return SourceNone, &SourceError{Name: name, Accepted: sourceNames[SourceNone+1:]}
}

// ParseCallerSource reads a source named from outside the engine (a hook,
// a script, a person's note). The empty string is SourceReport: the agent
// speaking for itself. A source only the engine's own readers set
// (program, transcript, detect), or an unknown name, is a *SourceError
// listing "report, osc, screen, stall".
func ParseCallerSource(name string) (Source, error) {
	if name == "" {
		return SourceReport, nil
	}
	accepted := []string{"report", "osc", "screen", "stall"}
	s, err := ParseSource(name)
	if err != nil || !s.CallerMayName() {
		e := &SourceError{Name: name, Accepted: accepted}
		if err == nil {
			e.EngineOnly = true
		}
		return SourceNone, e
	}
	return s, nil
}

// SourceError is the error of ParseSource and ParseCallerSource. Its code is
// "invalid_params".
type SourceError struct {
	Name       string
	Accepted   []string
	EngineOnly bool // the name is a real source that only the engine sets
}

func (e *SourceError) Error() string {
	why := "unknown source"
	if e.EngineOnly {
		why = "source only the engine may set (a caller naming it has looked at nothing)"
	}
	return fmt.Sprintf("agentstate: %s %q; accepted: %s", why, e.Name, strings.Join(e.Accepted, ", "))
}

// Code returns the stable code, CodeInvalidParams.
func (e *SourceError) Code() Code { return CodeInvalidParams }

// Hint says what to do next.
func (e *SourceError) Hint() string {
	if e.EngineOnly {
		return "name what you looked at: one of " + strings.Join(e.Accepted, ", ")
	}
	return "use one of: " + strings.Join(e.Accepted, ", ")
}

// MarshalText writes the wire name; SourceNone is written "", as the wire
// writes an unclaimed pane's source.
func (s Source) MarshalText() ([]byte, error) {
	if s == SourceNone {
		return []byte{}, nil
	}
	if !s.Valid() {
		return nil, fmt.Errorf("agentstate: invalid source %d", uint8(s))
	}
	return []byte(sourceNames[s]), nil
}

// UnmarshalText reads any wire name; "" is SourceNone.
func (s *Source) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*s = SourceNone
		return nil
	}
	v, err := ParseSource(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
