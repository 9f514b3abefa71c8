package hosts

import (
	"strings"
	"testing"
)

// An address is read the way a person writes it, port and all: `hosts
// add far root@127.0.0.1:26826` was once saved and could never dial
// (lookup 127.0.0.1:26826).
func TestSplitAddrReadsPortsAndIPv6(t *testing.T) {
	for _, c := range []struct {
		in, user, host string
		port           int
	}{
		{"box", "", "box", 0},
		{"me@box", "me", "box", 0},
		{"box:2200", "", "box", 2200},
		{"root@127.0.0.1:26826", "root", "127.0.0.1", 26826},
		{"me@[::1]:2222", "me", "::1", 2222},
		{"[fe80::1]", "", "fe80::1", 0},
		{"::1", "", "::1", 0},
		{"me@fe80::1", "me", "fe80::1", 0},
		{"ssh://me@box:2200", "me", "box", 2200},
		{"ssh://me@box:2200/", "me", "box", 2200},
		{"ssh://[::1]:22", "", "::1", 22},
		{"a@b@box:1", "a@b", "box", 1},
	} {
		user, host, port, err := splitAddr(c.in)
		if err != nil || user != c.user || host != c.host || port != c.port {
			t.Errorf("%q: %q %q %d %v, want %q %q %d", c.in, user, host, port, err, c.user, c.host, c.port)
		}
	}
	for _, bad := range []string{"", "me@", "box:", "box:0", "box:65536", "box:+22", "box:022", "box:x", "[::1", "[::1]x", "[::1]:", "-oProxyCommand=x", "me@-box", "[]:22", "me@[a]b]:1"} {
		if _, _, _, err := splitAddr(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

// The row is refused when it is added, not when it is dialled, and a
// port in the address reaches the dial.
func TestCheckRefusesAnAddressThatCannotDial(t *testing.T) {
	if err := (Host{Name: "far", Addr: "root@127.0.0.1:26826"}).Check(); err != nil {
		t.Fatalf("a port in the address: %v", err)
	}
	err := (Host{Name: "far", Addr: "root@127.0.0.1:99999"}).Check()
	if err == nil || !strings.Contains(err.Error(), "99999") {
		t.Fatalf("a port out of range: %v", err)
	}
	d := &Dialer{Home: t.TempDir(), Getenv: func(string) string { return "" }}
	r, err := d.Resolve(Host{Name: "far", Addr: "root@127.0.0.1:26826"})
	if err != nil || r.User != "root" || r.HostName != "127.0.0.1" || r.Port != 26826 {
		t.Fatalf("resolve: %v %+v", err, r)
	}
	r, err = d.Resolve(Host{Name: "six", Addr: "me@[::1]:2222"})
	if err != nil || r.HostName != "::1" || r.Port != 2222 {
		t.Fatalf("resolve v6: %v %+v", err, r)
	}
}

func FuzzSplitAddr(f *testing.F) {
	for _, s := range []string{"box", "root@127.0.0.1:26826", "me@[::1]:2222", "ssh://me@box:2200/", "::1", "[x", "a@b@c:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, host, port, err := splitAddr(s)
		if err != nil {
			return
		}
		if host == "" || strings.HasPrefix(host, "-") || port < 0 || port > 65535 {
			t.Fatalf("%q: host %q port %d", s, host, port)
		}
	})
}
