package agentstate

import (
	"fmt"
	"strings"
)

// State is what the agent in a pane is doing, as one of seven wire names.
// The zero value is None.
type State uint8

// The states, in their stable wire order.
const (
	None       State = iota // not an agent, or not reporting
	Working                 // working on a task
	NeedsInput              // blocked, waiting for a person
	Idle                    // not working and not blocked
	Done                    // finished its task
	Errored                 // stopped on an error
	Unknown                 // an agent is there and nothing says what it is doing

	numStates
)

var stateNames = [numStates]string{"none", "working", "needs_input", "idle", "done", "errored", "unknown"}

// States returns every state in wire order.
func States() []State {
	return []State{None, Working, NeedsInput, Idle, Done, Errored, Unknown}
}

// String returns the wire name ("needs_input"); an out-of-range value reads
// as "invalid(N)".
func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("invalid(%d)", uint8(s))
}

// Valid reports whether s is one of the seven states.
func (s State) Valid() bool { return s < numStates }

// ParseState reads a wire name. The empty string is not a state ("none" is
// the spelling that clears); an unknown name is a *StateError that lists
// the accepted names and the nearest one.
func ParseState(name string) (State, error) {
	for i, n := range stateNames {
		if n == name {
			return State(i), nil
		}
	}
	return None, &StateError{Name: name, DidYouMean: nearest(name, stateNames[:])}
}

// StateError is the error ParseState returns. Its code is "invalid_params".
type StateError struct {
	Name       string // what was given
	DidYouMean string // the nearest accepted name, or ""
}

func (e *StateError) Error() string {
	msg := fmt.Sprintf("agentstate: unknown state %q; accepted: %s", e.Name, strings.Join(stateNames[:], ", "))
	if e.DidYouMean != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", e.DidYouMean)
	}
	return msg
}

// Code returns the stable code, CodeInvalidParams.
func (e *StateError) Code() Code { return CodeInvalidParams }

// Hint says what to do next.
func (e *StateError) Hint() string {
	if e.DidYouMean != "" {
		return "did you mean " + e.DidYouMean + "?"
	}
	return "use one of: " + strings.Join(stateNames[:], ", ")
}

// Code is the stable code of this package's errors (the control
// protocol's code for the same refusal).
type Code string

// CodeInvalidParams is the code of a name that is not a state or source.
const CodeInvalidParams Code = "invalid_params"

// Accepted lists the accepted state names in wire order.
func (e *StateError) Accepted() []string { return append([]string(nil), stateNames[:]...) }

// Glyph is the shape drawn in a title bar or a rail. None draws nothing.
// A done state that the person has seen draws the idle circle.
func (s State) Glyph(seen bool) string {
	switch s {
	case Working:
		return "●"
	case NeedsInput:
		return "▲"
	case Idle:
		return "○"
	case Done:
		if seen {
			return "○"
		}
		return "■"
	case Errored:
		return "×"
	case Unknown:
		return "□"
	}
	return ""
}

// ASCII is the glyph for a terminal that cannot draw Glyph's (tuios
// attach --ascii-only draws these).
func (s State) ASCII(seen bool) string {
	switch s {
	case Working:
		return "*"
	case NeedsInput:
		return "!"
	case Idle:
		return "o"
	case Done:
		if seen {
			return "o"
		}
		return "#"
	case Errored:
		return "x"
	case Unknown:
		return "?"
	}
	return ""
}

// NeedsYou reports whether a person has to act: needs_input and errored.
func (s State) NeedsYou() bool { return s == NeedsInput || s == Errored }

// Loudness orders states by how much they want a person, for the hold:
// a change to a quieter state waits, a louder one is published at once.
func (s State) Loudness() int {
	switch s {
	case NeedsInput, Errored:
		return 3
	case Working:
		return 2
	case Idle, Done, Unknown:
		return 1
	}
	return 0
}

// Activity is the coarse reading scripts use: "none", "working",
// "waiting", "resting" or "unknown".
func (s State) Activity() string {
	switch s {
	case Working:
		return "working"
	case NeedsInput:
		return "waiting"
	case Idle, Done, Errored:
		return "resting"
	case Unknown:
		return "unknown"
	}
	return "none"
}

// Ready reports whether a question typed into the pane now would be read
// as a new prompt: false mid-turn, on a prompt, and when nothing is known.
func (s State) Ready() bool {
	switch s {
	case Working, NeedsInput, Unknown:
		return false
	}
	return true
}

// AtRest reports whether the agent is not mid-turn (idle, done, errored).
func (s State) AtRest() bool { return s == Idle || s == Done || s == Errored }

// MarshalText writes the wire name.
func (s State) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("agentstate: invalid state %d", uint8(s))
	}
	return []byte(stateNames[s]), nil
}

// UnmarshalText reads a wire name.
func (s *State) UnmarshalText(b []byte) error {
	v, err := ParseState(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// StateSet is a set of states, used by if_state guards and waits.
// It is a value: building and testing one never allocates.
type StateSet uint8

// SetOf builds a set.
func SetOf(states ...State) StateSet {
	var set StateSet
	for _, s := range states {
		if s.Valid() {
			set |= 1 << s
		}
	}
	return set
}

// Has reports whether s is in the set.
func (set StateSet) Has(s State) bool { return s < numStates && set&(1<<s) != 0 }

// Empty reports whether the set holds nothing.
func (set StateSet) Empty() bool { return set == 0 }

// States lists the members in wire order.
func (set StateSet) States() []State {
	var out []State
	for s := State(0); s < numStates; s++ {
		if set.Has(s) {
			out = append(out, s)
		}
	}
	return out
}

// String is the comma-separated wire form ("idle,done").
func (set StateSet) String() string {
	var b strings.Builder
	for _, s := range set.States() {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.String())
	}
	return b.String()
}

// ParseStateSet reads a comma-separated list of wire names ("idle,done").
// Spaces around names are ignored; an empty list or any unknown name is an
// error.
func ParseStateSet(list string) (StateSet, error) {
	var set StateSet
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		s, err := ParseState(part)
		if err != nil {
			return 0, err
		}
		set |= 1 << s
	}
	return set, nil
}
