package grant

import (
	"fmt"
	"strings"
)

// Set is a set of grants.
type Set uint8

// The grants, in the docs' order.
const (
	Read Set = 1 << iota
	Write
	Fan
	Respond
	Files
	Admin

	// None is the empty set; "none" is its written form.
	None Set = 0
	// All is every grant: what the person holds.
	All = Read | Write | Fan | Respond | Files | Admin
	// implied is what admin brings with it: never respond.
	implied = Read | Write | Fan | Files
)

var names = [...]string{"read", "write", "fan", "respond", "files", "admin"}

// Names lists the grant names in the docs' order.
func Names() []string { return append([]string(nil), names[:]...) }

// Expand adds what admin implies: read, write, fan and files.
func (s Set) Expand() Set {
	if s&Admin != 0 {
		s |= implied
	}
	return s
}

// Has reports whether s holds every grant of g, admin's implied ones
// counted.
func (s Set) Has(g Set) bool { return s.Expand()&g == g }

// Missing is what of need s does not hold (admin's implied ones counted).
func (s Set) Missing(need Set) Set { return need &^ s.Expand() }

// Covers reports whether s holds everything other holds: a pane that
// holds s gives no more than it has when it gives other, and one pane
// types into another only when the target holds nothing it does not.
func (s Set) Covers(other Set) bool { return s.Missing(other.Expand()) == 0 }

// List is the grants of s by name, in the docs' order; admin's implied
// grants are not repeated.
func (s Set) List() []string {
	out := []string{}
	for i, n := range names {
		g := Set(1) << i
		if s&g == 0 || s&Admin != 0 && g&implied != 0 {
			continue
		}
		out = append(out, n)
	}
	return out
}

// String is the written form: "read,write", "admin", "admin,respond", or
// "none" for the empty set.
func (s Set) String() string {
	if s == None {
		return "none"
	}
	return strings.Join(s.List(), ",")
}

// ByName is the one grant a name stands for; ok is false for a name that
// is not a grant.
func ByName(name string) (g Set, ok bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for i, n := range names {
		if n == name {
			return Set(1) << i, true
		}
	}
	return None, false
}

// Error is a list with a word that names no grant.
type Error struct {
	Word string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%q is not a grant (grants: %s, or none)", e.Word, strings.Join(names[:], ", "))
}

// Parse reads a list of grants separated by commas or spaces: "read,write",
// "admin", "none" (nothing). A word that is not a grant is an *Error: what
// a person or a program asks for is never guessed at. An empty list is an
// error too, since it says nothing; write none for nothing.
func Parse(list string) (Set, error) {
	words := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(words) == 0 {
		return None, &Error{Word: list}
	}
	return ParseWords(words)
}

// ParseWords is Parse over words already split, as a TOML array gives
// them; "none" stands alone or beside nothing else it would contradict.
func ParseWords(words []string) (Set, error) {
	var s Set
	none := false
	for _, w := range words {
		if strings.EqualFold(strings.TrimSpace(w), "none") {
			none = true
			continue
		}
		g, ok := ByName(w)
		if !ok {
			return None, &Error{Word: w}
		}
		s |= g
	}
	if none && s != None {
		return None, &Error{Word: "none"}
	}
	return s, nil
}

// Lenient reads a config file's list: words that are not grants are
// returned as unknown and dropped, as the docs say, rather than failing
// the whole file.
func Lenient(words []string) (s Set, unknown []string) {
	for _, w := range words {
		if strings.EqualFold(strings.TrimSpace(w), "none") {
			continue
		}
		g, ok := ByName(w)
		if !ok {
			unknown = append(unknown, w)
			continue
		}
		s |= g
	}
	return s, unknown
}
