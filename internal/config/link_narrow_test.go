package config

import (
	"slices"
	"testing"
)

func TestNarrowedHostsAllowsNoMoreThanEither(t *testing.T) {
	yes := true
	allow := func(c ...string) *[]string { return &c }
	a := &File{Hosts: map[string]Host{
		"build": {Addr: "build.lan", Allow: allow("list", "mail", "respond")},
		"*":     {Allow: allow("list", "mail")},
	}}
	b := &File{Hosts: map[string]Host{
		"build": {Addr: "build.lan", Allow: allow("list", "write")}, // drops mail and respond, adds write
		"gpu":   {Addr: "gpu.lan", Allow: allow("list", "mail", "open", "write", "respond"), HoldMail: &yes},
	}}
	n := NarrowedHosts(a, b)
	for _, tc := range []struct {
		peer string
		want []string
		hold bool
	}{
		{"build", []string{"list"}, false},         // write waits for config apply
		{"gpu", []string{"list", "mail"}, true},    // a's "*" bounds a new table
		{"other", []string{"list", "mail"}, false}, // b has no "*": the default allows more than a's
		{"", []string{"list", "mail"}, false},
	} {
		p := n.LinkPolicy(tc.peer)
		if !slices.Equal(p.Allow, tc.want) || p.HoldMail != tc.hold {
			t.Errorf("%q: got %v hold=%v, want %v hold=%v", tc.peer, p.Allow, p.HoldMail, tc.want, tc.hold)
		}
	}
	if n.Hosts["build"].Addr != "build.lan" {
		t.Errorf("addresses are a's: %+v", n.Hosts["build"])
	}
	if p := NarrowedHosts(nil, nil).LinkPolicy("x"); !slices.Equal(p.Allow, DefaultLinkAllow()) {
		t.Errorf("two defaults: %v", p.Allow)
	}
}
