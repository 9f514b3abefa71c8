package mux

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tuios/tuios/internal/proto"
)

// resolveSession builds a session whose window ids are chosen, so that the
// cases random uuids only hit by chance (an id that starts with digits, two
// ids that share a prefix) are hit every run. Resolution reads nothing but
// the list; the real-daemon cases are in TestWindowAddressOverTheProtocol.
func resolveSession(ids []string, names, autos, titles map[string]string) *Session {
	ss := &Session{Name: "work"}
	for _, id := range ids {
		w := &Window{ID: id, session: ss, name: names[id]}
		if a, ok := autos[id]; ok {
			w.auto.Store(&a)
		}
		if t, ok := titles[id]; ok {
			w.title.Store(&t)
		}
		ss.windows = append(ss.windows, w)
	}
	ss.focused = ss.windows[0]
	return ss
}

func TestWindowAddressResolution(t *testing.T) {
	t.Parallel()
	ids := []string{
		"0a1b2c3d-0000-4000-8000-000000000000", // index 0
		"56902daf-0000-4000-8000-000000000001", // index 1: starts with 5
		"12345678-0000-4000-8000-000000000002", // index 2: eight digits
		"ab000001-0000-4000-8000-000000000003", // index 3
		"ab000002-0000-4000-8000-000000000004", // index 4: shares "ab0000" with 3
	}
	ss := resolveSession(ids,
		map[string]string{ids[1]: "build", ids[3]: "a"},
		// What runs in each: window 0 runs a program called build; the
		// named windows run bash, which their given names hide.
		map[string]string{ids[0]: "build", ids[1]: "bash", ids[2]: "vim", ids[3]: "bash", ids[4]: "vim"},
		map[string]string{ids[0]: "root@vm: ~", ids[2]: "⠋ claude", ids[4]: "⠋ claude"})
	s := &Table{}
	cases := []struct {
		addr, want, code, msg string
	}{
		{addr: ids[2], want: ids[2]},
		{addr: "1", want: ids[1]},
		{addr: "4", want: ids[4]},
		// An all-digit address is an index only: 5 is past the end
		// although window 1's id starts with 5.
		{addr: "5", code: proto.CodeWindowNotFound, msg: "(its indexes are 0 to 4)"},
		{addr: "56902", code: proto.CodeWindowNotFound, msg: "no window at index 56902"},
		// Eight digits, the ID column list-windows prints, are no index
		// a session reaches: an id prefix.
		{addr: "12345678", want: ids[2]},
		{addr: "1234567", code: proto.CodeWindowNotFound, msg: "index 1234567"},
		{addr: "87654321", code: proto.CodeWindowNotFound, msg: `no window "87654321"`},
		// ... and a prefix that reaches the dash is not all digits.
		{addr: "12345678-", want: ids[2]},
		{addr: "56902d", want: ids[1]},
		// A given name comes before an automatic one: window 0 runs a
		// program called build, window 1 was named build.
		{addr: "build", want: ids[1]},
		// An id prefix comes before a name, as the skill orders them:
		// "a" starts ids 3 and 4, so it is ambiguous although it names
		// window 3; an upper-case uuid or prefix is the same uuid.
		{addr: "a", code: proto.CodeAmbiguousWindow},
		{addr: "56902DAF", want: ids[1]},
		{addr: strings.ToUpper(ids[4]), want: ids[4]},
		// A name given hides the automatic one: no unnamed window runs
		// bash, so bash addresses nothing.
		{addr: "bash", code: proto.CodeWindowNotFound},
		// A title addresses a window no name matched, as the docs' last
		// resort; two windows titled alike are ambiguous.
		{addr: "root@vm: ~", want: ids[0]},
		{addr: "⠋ claude", code: proto.CodeAmbiguousWindow},
		// Ambiguity is its own code, never a guess.
		{addr: "ab0000", code: proto.CodeAmbiguousWindow, msg: `"ab0000" matches 2 windows`},
		{addr: "ab", code: proto.CodeAmbiguousWindow},
		// Two unnamed windows running vim: the automatic name is ambiguous.
		{addr: "vim", code: proto.CodeAmbiguousWindow},
		{addr: "nosuch", code: proto.CodeWindowNotFound, msg: `no window "nosuch"`},
		// The old "Terminal <id8>" label is no name any more.
		{addr: "Terminal 0a1b2c3d", code: proto.CodeWindowNotFound},
	}
	for _, c := range cases {
		w, err := s.window(nil, ss, c.addr)
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%q: %s: %s", c.addr, err.Code, err.Message)
		case c.code == "" && w.ID != c.want:
			t.Errorf("%q found %s, want %s", c.addr, w.ID, c.want)
		case c.code != "" && err == nil:
			t.Errorf("%q found %s, want %s", c.addr, w.ID, c.code)
		case c.code != "" && (err.Code != c.code || !strings.Contains(err.Message, c.msg)):
			t.Errorf("%q: %s: %s; want %s containing %q", c.addr, err.Code, err.Message, c.code, c.msg)
		}
	}

	// The ambiguity names every candidate, as list-windows shows it.
	_, err := s.window(nil, ss, "vim")
	if err.Hint == nil || fmt.Sprint(err.Hint.Available) != "[2 12345678 vim 4 ab000002 vim]" {
		t.Errorf("ambiguous hint: %+v", err.Hint)
	}
	// An index past the end whose digits start an id says how to reach it.
	_, err = s.window(nil, ss, "1234567")
	if err.Hint == nil || !strings.Contains(err.Hint.Detail, "or its full id "+ids[2]) {
		t.Errorf("index hint: %+v", err.Hint)
	}
	// No address is the focused window (for a caller outside every pane).
	if w, err := s.window(nil, ss, ""); err != nil || w != ss.windows[0] {
		t.Errorf("empty address: %v %v", w, err)
	}
}

func TestWindowNameTaken(t *testing.T) {
	t.Parallel()
	ids := []string{"0a1b2c3d-0000-4000-8000-000000000000", "56902daf-0000-4000-8000-000000000001"}
	ss := resolveSession(ids, map[string]string{ids[1]: "build"}, nil, nil)
	if err := nameTakenLocked(ss, "build", nil); err == nil || err.Code != proto.CodeInvalidParams || !strings.Contains(err.Message, `"build" is taken by window 56902daf`) {
		t.Fatalf("duplicate: %+v", err)
	}
	if err := nameTakenLocked(ss, " build ", ss.windows[1]); err != nil {
		t.Fatalf("renaming a window to its own name: %v", err)
	}
	if err := nameTakenLocked(ss, "7", nil); err == nil || !strings.Contains(err.Message, "all digits") {
		t.Fatalf("digits: %+v", err)
	}
	for _, ok := range []string{"", "tests", "Terminal 0a1b2c3d"} {
		if err := nameTakenLocked(ss, ok, ss.windows[0]); err != nil {
			t.Fatalf("%q: %v", ok, err)
		}
	}
}

// Any address against a fixed session: no panic, an all-digit address is
// an index or window_not_found, and a window found answers to the address.
func FuzzWindowAddress(f *testing.F) {
	ids := []string{"0a1b2c3d-0000-4000-8000-000000000000", "56902daf-0000-4000-8000-000000000001", "12345678-0000-4000-8000-000000000002"}
	ss := resolveSession(ids, map[string]string{ids[1]: "build"}, map[string]string{ids[0]: "bash", ids[2]: "vim"}, map[string]string{ids[0]: "root@vm: ~"})
	s := &Table{}
	for _, a := range []string{"", "0", "2", "3", "5", "123", "build", "vim", "bash", "root@vm: ~", "0a", "99999999999999999999999", "\x00"} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		w, err := s.window(nil, ss, addr)
		if isDigits(addr) {
			if err != nil && err.Code != proto.CodeWindowNotFound {
				t.Fatalf("%q: %s", addr, err.Code)
			}
			if err == nil && w != ss.windows[int(addr[len(addr)-1]-'0')] {
				t.Fatalf("%q found %s", addr, w.ID)
			}
			return
		}
		if err == nil && addr != "" && w.ID != addr && w.name != addr && w.Title() != addr && w.autoName() != addr && !strings.HasPrefix(w.ID, addr) {
			t.Fatalf("%q found %s, which does not answer to it", addr, w.ID)
		}
	})
}
