package config

import (
	"testing"

	"github.com/tuios/tuios/internal/grant"
)

func TestPaneDefault(t *testing.T) {
	cases := []struct {
		toml    string
		mode    string
		want    grant.Set
		unknown int
	}{
		{"", "open", grant.Admin, 0},
		{"[agents.permissions]\nmode = \"open\"\n", "open", grant.Admin, 0},
		{"[agents.permissions]\nmode = \"strict\"\n", "strict", grant.Read | grant.Write | grant.Fan, 0},
		{"[agents.permissions]\nmode = \"strict\"\ngrants = []\n", "strict", grant.None, 0},
		{"[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\", \"wirte\"]\n", "strict", grant.Read, 1},
		{"[agents.permissions]\nmode = \"STRICT\"\ngrants = [\"none\"]\n", "strict", grant.None, 0},
		{"[agents.permissions]\nmode = \"opne\"\n", "strict", grant.Read | grant.Write | grant.Fan, 0}, // a typo never opens
	}
	for _, c := range cases {
		f, err := Parse([]byte(c.toml))
		if err != nil {
			t.Fatalf("%q: %v", c.toml, err)
		}
		mode, g, unknown := f.PaneDefault()
		if mode != c.mode || g != c.want || len(unknown) != c.unknown {
			t.Errorf("%q: %s %v %v, want %s %v", c.toml, mode, g, unknown, c.mode, c.want)
		}
		if len(f.Unknown()) != 0 {
			t.Errorf("%q: unknown keys %v", c.toml, f.Unknown())
		}
	}
}

func TestNarrowedAndWiderPermissions(t *testing.T) {
	parse := func(s string) *File {
		f, err := Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	open := parse("")
	strict := parse("[agents.permissions]\nmode = \"strict\"\n")
	readOnly := parse("[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\"]\n")
	adminStrict := parse("[agents.permissions]\nmode = \"strict\"\ngrants = [\"admin\"]\n")
	withRespond := parse("[agents.permissions]\nmode = \"strict\"\ngrants = [\"read\", \"respond\"]\n")
	for _, c := range []struct {
		a, b  *File
		wider bool
		narr  string
	}{
		{strict, open, true, "read,write,fan"},
		{open, strict, false, "read,write,fan"},
		{strict, readOnly, false, "read"},
		{readOnly, strict, true, "read"},
		{adminStrict, strict, false, "read,write,fan"},
		{strict, adminStrict, true, "read,write,fan"},
		{readOnly, withRespond, true, "read"},
		{open, open, false, ""},
	} {
		if got := WiderPermissions(c.a, c.b); got != c.wider {
			t.Errorf("wider(%v, %v) = %v", c.a.Agents.Permissions, c.b.Agents.Permissions, got)
		}
		n := NarrowedPermissions(c.a, c.b)
		if c.narr == "" {
			if n.Mode != "open" {
				t.Errorf("narrowed open/open is %v", n)
			}
			continue
		}
		g, _ := grant.Lenient(*n.Grants)
		if n.Mode != "strict" || g.String() != c.narr {
			t.Errorf("narrowed: %s %v, want strict %s", n.Mode, g, c.narr)
		}
	}
}
