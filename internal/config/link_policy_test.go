package config

import (
	"strings"
	"testing"
)

// The policy as a person writes it: [hosts."*"] for every machine,
// [hosts.NAME] over it, allow = [] meaning nothing, an unset allow
// inheriting, hold_mail set per table.
func TestLinkPolicyFromTheFile(t *testing.T) {
	f, err := Parse([]byte(`
[hosts."*"]
allow = ["list", "mail"]
hold_mail = true

[hosts.build]
addr = "ana@build"

[hosts.lab]
allow = []
hold_mail = false

[hosts.gpu]
allow = ["respond", "write", "list", "fly"]
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, allow, from string
		hold              bool
	}{
		{"other", "list,mail", `hosts."*"`, true},
		{"build", "list,mail", `hosts."*"`, true},
		{"lab", "", "hosts.lab", false},
		{"gpu", "list,write,respond", "hosts.gpu", true},
		{"", "list,mail", `hosts."*"`, true},
	} {
		p := f.LinkPolicy(c.name)
		if strings.Join(p.Allow, ",") != c.allow || p.From != c.from || p.HoldMail != c.hold {
			t.Errorf("%q: %+v", c.name, p)
		}
	}
	if u := f.LinkPolicy("gpu").Unknown; len(u) != 1 || u[0] != "fly" {
		t.Errorf("unknown %v", u)
	}
	if names := f.HostNames(); strings.Join(names, ",") != "build,gpu,lab" {
		t.Errorf("dialled hosts %v", names)
	}
	// No file at all: the built-in default, respond opt-in.
	var none *File
	if p := none.LinkPolicy("x"); strings.Join(p.Allow, ",") != "list,mail,open,write" || p.Can(CapRespond) || !p.Can(CapOpen) {
		t.Errorf("default %+v", p)
	}
}
