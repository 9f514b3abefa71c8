package integration

import (
	"regexp"
	"strconv"
	"strings"
)

// ownedFile is a file tuios owns whole (a plugin or an extension). Its
// first line carries the marker "tuios-integration: <harness> v<N>"; a
// file at that path without the marker belongs to someone else and is
// never overwritten or removed.
type ownedFile struct {
	comment string                                 // the line-comment prefix of the file's language
	body    func(h Harness, program string) string // everything after the marker line
}

func (o *ownedFile) marker(h Harness) string {
	return o.comment + " tuios-integration: " + h.ID + " v" + strconv.Itoa(h.Version) +
		" (written by tuios integration install; tuios integration uninstall removes it)\n"
}

var markerRE = regexp.MustCompile(`tuios-integration: ([\w.-]+) v(\d+)`)

// ownedState reads a file at an owned path: whether tuios wrote it, and
// which version.
func ownedState(text string, exists bool, harness string) (ours bool, version int) {
	if !exists {
		return false, 0
	}
	first, _, _ := strings.Cut(text, "\n")
	m := markerRE.FindStringSubmatch(first)
	if m == nil || m[1] != harness {
		return false, 0
	}
	v, _ := strconv.Atoi(m[2])
	return true, v
}

// programInOwned is the program an owned file runs (written on its second
// line as "<comment> program: PATH").
func programInOwned(text, comment string) string {
	for _, line := range strings.SplitN(text, "\n", 4) {
		if p, ok := strings.CutPrefix(line, comment+" program: "); ok {
			return p
		}
	}
	return ""
}

func (o *ownedFile) text(h Harness, program string) string {
	return o.marker(h) + o.comment + " program: " + program + "\n" + o.body(h, program)
}
