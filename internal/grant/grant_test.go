package grant

import (
	"errors"
	"testing"
)

func TestAdminImpliesAllButRespond(t *testing.T) {
	a := Admin
	for _, g := range []Set{Read, Write, Fan, Files} {
		if !a.Has(g) {
			t.Errorf("admin lacks %v", g)
		}
	}
	if a.Has(Respond) {
		t.Error("admin implies respond")
	}
	if got := a.Missing(Respond | Write); got != Respond {
		t.Errorf("admin is missing %v of respond,write", got)
	}
}

func TestCovers(t *testing.T) {
	cases := []struct {
		holder, target Set
		want           bool
	}{
		{Read | Write, Read, true},
		{Read | Write, Read | Write, true},
		{Read, Read | Write, false},
		{Admin, Read | Write | Fan | Files, true},
		{Admin, Admin, true},
		{Read | Write | Fan | Files, Admin, false}, // admin is more than its parts
		{Admin, Respond, false},
		{Admin | Respond, Respond | Write, true},
		{None, None, true},
	}
	for _, c := range cases {
		if got := c.holder.Covers(c.target); got != c.want {
			t.Errorf("%v covers %v = %v, want %v", c.holder, c.target, got, c.want)
		}
	}
}

func TestParseAndString(t *testing.T) {
	for in, want := range map[string]string{
		"read,write":           "read,write",
		" write , read ":       "read,write",
		"admin":                "admin",
		"admin,read,respond":   "respond,admin",
		"none":                 "none",
		"READ fan":             "read,fan",
		"files,read,fan,write": "read,write,fan,files",
	} {
		s, err := Parse(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if s.String() != want {
			t.Errorf("%q reads as %q, want %q", in, s, want)
		}
		again, err := Parse(s.String())
		if err != nil || again.Expand() != s.Expand() {
			t.Errorf("%q does not read back: %v %v", s, again, err)
		}
	}
	for _, bad := range []string{"", " , ", "reed", "read,root", "none,read"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		} else {
			var ge *Error
			if !errors.As(err, &ge) {
				t.Errorf("%q: %T", bad, err)
			}
		}
	}
}

func TestLenientDropsUnknownWords(t *testing.T) {
	s, unknown := Lenient([]string{"read", "wrtie", "fan", "none"})
	if s != Read|Fan || len(unknown) != 1 || unknown[0] != "wrtie" {
		t.Fatalf("got %v %v", s, unknown)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"read,write", "admin", "none", "", "x,,y", "respond files"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		again, err := Parse(s.String())
		if err != nil || again.Expand() != s.Expand() {
			t.Fatalf("%q -> %v -> %v %v", in, s, again, err)
		}
	})
}
