package hosts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseSessionAndWindow(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Address
	}{
		{"api", Address{Session: "api"}},
		{"build:api", Address{Host: "build", Session: "api"}},
		{"build:a:b", Address{Host: "build", Session: "a:b"}},
		{"local:we:ird", Address{Host: "local", Session: "we:ird"}},
		{"my host:x", Address{Session: "my host:x"}},
		{":x", Address{Session: ":x"}},
	} {
		if got := ParseSession(c.in); got != c.want {
			t.Errorf("ParseSession(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want Address
	}{
		{"0", Address{Window: "0"}},
		{"build:api", Address{Window: "build:api"}},
		{"build:api:0", Address{Host: "build", Session: "api", Window: "0"}},
		{"build:api:a:b", Address{Host: "build", Session: "api", Window: "a:b"}},
		{"local::x:y:z", Address{Host: "local", Window: "x:y:z"}},
		{"https://example.com:8080/x", Address{Window: "https://example.com:8080/x"}},
	} {
		if got := ParseWindow(c.in); got != c.want {
			t.Errorf("ParseWindow(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
	if ParseWindow("local::x").Remote() || !ParseSession("b:s").Remote() {
		t.Fatal("Remote")
	}
}

func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"a:b:c", "local::x", "https://x:1/y", "", ":", "::", "é:x:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Nothing is lost: the parts put back together are the input.
		a := ParseSession(s)
		back := a.Session
		if a.Host != "" {
			back = a.Host + ":" + a.Session
		}
		w := ParseWindow(s)
		wback := w.Window
		if w.Host != "" {
			wback = w.Host + ":" + w.Session + ":" + w.Window
		}
		if back != s || wback != s || (a.Host != "" && !ValidName(a.Host)) || (w.Host != "" && !ValidName(w.Host)) {
			t.Fatalf("%q parsed to %+v and %+v", s, a, w)
		}
	})
}

func TestParseOptionsSafeSubset(t *testing.T) {
	o, err := ParseOptions([]string{"-p 2222", "-l", "me", "-oHostKeyAlias=box", "-o", "IdentityFile=~/.ssh/k", "-o ServerAliveInterval=15", "-o StrictHostKeyChecking=yes"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Port != 2222 || o.User != "me" || o.HostKeyAlias != "box" || len(o.IdentityFiles) != 1 || o.ServerAliveInterval.Seconds() != 15 {
		t.Fatalf("%+v", o)
	}
	for _, bad := range [][]string{
		{"-o ProxyCommand=nc %h %p"}, {"-oProxyCommand=x"}, {"-o", "LocalCommand=x"}, {"-o PermitLocalCommand=yes"},
		{"-o UserKnownHostsFile=/dev/null"}, {"-o StrictHostKeyChecking=no"}, {"-o StrictHostKeyChecking=accept-new"},
		{"-F", "/x"}, {"-L 1:a:2"}, {"-o ControlPath=/x"}, {"-o Match=exec x"}, {"-J", "a -oProxyCommand=x"},
		{"-o ForwardAgent=/tmp/sock"}, {"host"}, {"-p"}, {"-p 0"}, {"-o HostName=-oProxyCommand=x"}, {"-o Bogus=1"},
	} {
		_, err := ParseOptions(bad)
		var he *Error
		if !errors.As(err, &he) || he.Reason != ReasonOptionRefused || he.Code() != CodeInvalidParams || he.Hint() == "" {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestHostCheck(t *testing.T) {
	good := Host{Name: "build", Addr: "me@box"}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for _, h := range []Host{
		{Name: "build", Addr: "-oProxyCommand=x"}, {Name: "bu ild", Addr: "x"}, {Name: "local", Addr: "x"},
		{Name: "b", Addr: ""}, {Name: "b", Addr: "x", Command: "-x"}, {Name: "b", Addr: "x\n"},
		{Name: "b", Addr: "x", SSHOptions: []string{"-o LocalCommand=x"}},
	} {
		if err := h.Check(); err == nil {
			t.Errorf("%+v accepted", h)
		}
	}
}

func TestSSHConfigLookup(t *testing.T) {
	cfg, err := ParseSSHConfig(strings.NewReader(`# comment
User fallback
Host build bld
  HostName %h.example.com
  Port=2222
  IdentityFile "~/.ssh/build key"
Host *.example.com !bad.example.com
  User exampleuser
Match exec "true"
  User nope
Host evil
  ProxyCommand nc %h %p
Host *
  IdentityFile ~/.ssh/id_any
  Port 22
`))
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Lookup("build")
	if s.HostName != "build.example.com" || s.Port != 2222 || s.User != "fallback" || len(s.IdentityFiles) != 2 || s.IdentityFiles[0] != "~/.ssh/build key" {
		t.Fatalf("%+v", s)
	}
	if s := cfg.Lookup("bad.example.com"); s.User != "fallback" {
		t.Fatalf("negation: %+v", s)
	}
	if s := cfg.Lookup("evil"); len(s.Commands) != 1 || len(s.Skipped) != 1 {
		t.Fatalf("evil: %+v", s)
	}
}

func TestRemoteCommand(t *testing.T) {
	if got := RemoteCommand(Host{Command: "/opt/tuios"}); got != "/opt/tuios stdio-proxy" {
		t.Fatal(got)
	}
	script := RemoteCommand(Host{})
	if strings.Count(script, "'") != 2 || !strings.Contains(script, "exit 127") || !strings.Contains(script, "/usr/local/bin/tuios") {
		t.Fatal(script)
	}
}

func TestResolveReadsAddrAndProxyJump(t *testing.T) {
	d := &Dialer{Home: t.TempDir(), Getenv: func(string) string { return "" }}
	r, err := d.Resolve(Host{Name: "b", Addr: "ssh://me@box:2200", SSHOptions: []string{"-o HostKeyAlias=boxkey"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.User != "me" || r.HostName != "box" || r.Port != 2200 || r.KeyName != "boxkey" || r.Agent {
		t.Fatalf("%+v", r)
	}
	r, err = d.Resolve(Host{Name: "b", Addr: "box", SSHOptions: []string{"-J jump"}})
	if err != nil || len(r.Via) != 1 || r.Via[0].HostName != "jump" || r.Via[0].Port != 22 {
		t.Fatalf("ProxyJump: %v %+v", err, r)
	}
}

func ExampleParseWindow() {
	for _, s := range []string{"build:api:0", "local::build:api:0", "https://x.dev:443/a", "reviewer"} {
		a := ParseWindow(s)
		fmt.Printf("%-22s host=%q session=%q window=%q remote=%v\n", s, a.Host, a.Session, a.Window, a.Remote())
	}
	// Output:
	// build:api:0            host="build" session="api" window="0" remote=true
	// local::build:api:0     host="local" session="" window="build:api:0" remote=false
	// https://x.dev:443/a    host="" session="" window="https://x.dev:443/a" remote=false
	// reviewer               host="" session="" window="reviewer" remote=false
}

// A host name is a label a person types after --host and before a colon:
// one that starts with '-' would read as a flag, so it names no host.
func TestValidNameRefusesALeadingDash(t *testing.T) {
	for name, want := range map[string]bool{"far": true, "gpu-box": true, "a.b_c": true, "-x": false, "-": false, "": false, "fär": false} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}
