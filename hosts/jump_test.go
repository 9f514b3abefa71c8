package hosts

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jumpHostOK is what a parsed hop's host may be: a host name that is not
// an option, or an IPv6 address (read from brackets).
func jumpHostOK(h string) bool {
	if ip := net.ParseIP(h); ip != nil && ip.To4() == nil {
		return true
	}
	return ValidName(h) && !strings.HasPrefix(h, "-")
}

func TestParseProxyJump(t *testing.T) {
	for in, want := range map[string]string{
		"jump":                     "jump",
		"me@jump":                  "me@jump",
		"jump:2222":                "jump:2222",
		"me@bastion.example:22,in": "me@bastion.example:22,in",
		"a,b,c,d":                  "a,b,c,d",
		"10.0.0.1":                 "10.0.0.1",
		"[::1]:22":                 "[::1]:22",
		"me@[fd00::7],in":          "me@[fd00::7],in",
	} {
		js, err := ParseProxyJump(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		var back []string
		for _, j := range js {
			back = append(back, j.String())
		}
		if got := strings.Join(back, ","); got != want {
			t.Errorf("%q read back as %q", in, got)
		}
	}
	if js, err := ParseProxyJump("NONE"); js != nil || err != nil {
		t.Errorf("none: %v %v", js, err)
	}
	for _, bad := range []string{
		"", "-oProxyCommand=touch x", "jump,-x", "a,b,c,d,e", "a,,b", "ssh://me@jump:22", "$(touch x)", "`id`",
		"a;touch x", "a b", "a|b", "-", "me@-jump", "-me@jump", "jump:0", "jump:65536", "jump:+22", "jump:022", "jump:x",
		"::1", "[::1", "[::1]x", "[::1]:", "[::1]:0", "[10.0.0.1]", "[fe80::1%eth0]", "[jump]", "[::1]:22:33", "a@b@c", "jump\n", "é", "me@", "@jump", strings.Repeat("a", 2000),
	} {
		if js, err := ParseProxyJump(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, js)
		}
	}
}

// Whatever the value, ParseProxyJump either refuses it or gives at most
// MaxJumps hops that are each a plain host name (never an option, a URL,
// or anything a shell would read), which read back the same.
func FuzzParseProxyJump(f *testing.F) {
	for _, s := range []string{"jump", "me@jump:2222,in", "none", "-oProxyCommand=x", "a,b,c,d,e", "$(x)", "a@b@c:1", ",", "x:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		js, err := ParseProxyJump(v)
		if err != nil {
			if js != nil {
				t.Fatalf("%q: hops with an error", v)
			}
			return
		}
		if len(js) > MaxJumps {
			t.Fatalf("%q: %d hops", v, len(js))
		}
		var back []string
		for _, j := range js {
			if !jumpHostOK(j.Host) || (j.User != "" && !validUser(j.User)) || j.Port < 0 || j.Port > 65535 {
				t.Fatalf("%q gave hop %+v", v, j)
			}
			back = append(back, j.String())
		}
		if js == nil {
			if !strings.EqualFold(v, "none") {
				t.Fatalf("%q: no hops, no error", v)
			}
			return
		}
		again, err := ParseProxyJump(strings.Join(back, ","))
		if err != nil || len(again) != len(js) {
			t.Fatalf("%q does not read back: %v", v, err)
		}
		for i := range js {
			if again[i] != js[i] {
				t.Fatalf("%q: hop %d %+v read back as %+v", v, i, js[i], again[i])
			}
		}
	})
}

func writeSSHConfig(t *testing.T, home, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Each jump host is resolved from its own Host block; the first hop's own
// ProxyJump goes in front (as ssh does); "none" in ssh_options switches a
// Host block's ProxyJump off; a loop or a chain over MaxJumps is refused.
func TestResolveJumpRoute(t *testing.T) {
	home := t.TempDir()
	writeSSHConfig(t, home, `Host bastion
  HostName bastion.example.com
  User jumper
  Port 2200
  IdentityFile ~/.ssh/bastion_key
  HostKeyAlias bastionkey
Host inner
  HostName 10.1.2.3
  ProxyJump outer
Host outer
  User o
Host viaconfig
  HostName 10.9.9.9
  ProxyJump bastion,me@inner:2022
Host loop
  ProxyJump loop
Host evil
  ProxyCommand nc %h %p
Host cmdjump
  ProxyJump $(touch /tmp/x)
`)
	d := &Dialer{Home: home, Getenv: func(k string) string { return map[string]string{"USER": "local"}[k] }}
	r, err := d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-J bastion"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Via) != 1 {
		t.Fatalf("via: %+v", r.Via)
	}
	b := r.Via[0]
	if b.Host != "bastion" || b.HostName != "bastion.example.com" || b.User != "jumper" || b.Port != 2200 || b.KeyName != "bastionkey" ||
		len(b.IdentityFiles) != 1 || b.IdentityFiles[0] != filepath.Join(home, ".ssh", "bastion_key") {
		t.Fatalf("bastion: %+v", b)
	}
	if r.HostName != "box" || r.User != "local" || r.Port != 22 || r.reach != "bastion" {
		t.Fatalf("host: %+v", r)
	}
	if got := r.Route(); got != "via bastion (jumper@bastion.example.com port 2200)" {
		t.Fatalf("route: %q", got)
	}

	// ProxyJump in the host's own block; the first hop named there has
	// no ProxyJump, the second's (inner → outer) is overridden by the chain.
	r, err = d.Resolve(Host{Name: "far", Addr: "viaconfig"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Via) != 2 || r.Via[0].Host != "bastion" || r.Via[1].Host != "inner" || r.Via[1].User != "me" || r.Via[1].Port != 2022 ||
		r.Via[1].HostName != "10.1.2.3" || r.Via[1].reach != "bastion" || r.reach != "bastion,me@inner:2022" {
		t.Fatalf("viaconfig: %s %+v", r.Route(), r.Via)
	}
	// The first hop's own ProxyJump is put in front of it.
	r, err = d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-o", "ProxyJump=inner"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Via) != 2 || r.Via[0].Host != "outer" || r.Via[0].User != "o" || r.Via[1].Host != "inner" {
		t.Fatalf("inner: %s", r.Route())
	}
	// none in ssh_options wins over the Host block, as with ssh.
	if r, err = d.Resolve(Host{Name: "far", Addr: "viaconfig", SSHOptions: []string{"-J", "none"}}); err != nil || len(r.Via) != 0 || r.Route() != "direct" {
		t.Fatalf("-J none: %v %+v", err, r)
	}

	var he *Error
	_, err = d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-J loop"}})
	if !errors.As(err, &he) || he.Reason != ReasonSSHConfig || !strings.Contains(err.Error(), "over 4 jump hosts") || he.Hint() == "" {
		t.Fatalf("loop: %v", err)
	}
	_, err = d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-J bastion,evil"}})
	if !errors.As(err, &he) || he.Hop != "evil" || he.Code() != CodeHostRefused || !strings.Contains(err.Error(), "jump host evil") || !strings.Contains(err.Error(), "proxycommand") {
		t.Fatalf("evil hop: %v", err)
	}
	_, err = d.Resolve(Host{Name: "far", Addr: "cmdjump"})
	if !errors.As(err, &he) || he.Reason != ReasonSSHConfig || !strings.Contains(err.Error(), "host names only") {
		t.Fatalf("command as ProxyJump: %v", err)
	}
	_, err = d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-J a,b,c,d,e"}})
	if !errors.As(err, &he) || he.Reason != ReasonOptionRefused || !strings.Contains(err.Error(), "at most 4") {
		t.Fatalf("five hops: %v", err)
	}
	_, err = d.Resolve(Host{Name: "far", Addr: "box", SSHOptions: []string{"-J a", "-o ProxyJump=b"}})
	if !errors.As(err, &he) || he.Reason != ReasonOptionRefused || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("two ProxyJumps: %v", err)
	}
}

// Whatever ~/.ssh/config says, a route is refused or is at most MaxJumps
// jump hosts, each a plain host name whose Host block runs no command.
func FuzzSSHConfigRoute(f *testing.F) {
	f.Add("Host j\n  ProxyJump k\nHost k\n  ProxyJump j\n", "j")
	f.Add("Host *\n  ProxyJump bastion\nHost bastion\n  ProxyJump none\n", "a,b")
	f.Add("Host j\n  ProxyCommand nc %h %p\n", "j")
	f.Add("Host j\n  ProxyJump $(id)\n", "x,j")
	f.Add("Host=j\n  ProxyJump=\"a,b\"\n  HostName %h.x\n", "j:22")
	f.Fuzz(func(t *testing.T, config, jump string) {
		cfg, err := ParseSSHConfig(strings.NewReader(config))
		if err != nil {
			return
		}
		listed, err := ParseProxyJump(jump)
		if err != nil {
			return
		}
		d := &Dialer{Home: "/nonexistent", Getenv: func(string) string { return "" }}
		via, err := d.route(Host{Name: "far"}, cfg, "config", listed, 0)
		if err != nil {
			return
		}
		if len(via) > MaxJumps {
			t.Fatalf("%d jump hosts", len(via))
		}
		for _, v := range via {
			if !ValidName(v.Host) || strings.HasPrefix(v.Host, "-") || len(cfg.Lookup(v.Host).Commands) > 0 {
				t.Fatalf("jump host %+v", v)
			}
		}
	})
}

// Whatever ssh_options say, they are refused or their jump hosts are
// plain host names, at most MaxJumps.
func FuzzParseOptionsJump(f *testing.F) {
	f.Add("-J", "a,b")
	f.Add("-o", "ProxyJump=-oProxyCommand=x")
	f.Add("-J a", "-o ProxyJump=none")
	f.Fuzz(func(t *testing.T, a, b string) {
		o, err := ParseOptions([]string{a, b})
		if err != nil {
			return
		}
		if len(o.ProxyJump) > MaxJumps || (o.ProxyJumpNone && o.ProxyJump != nil) {
			t.Fatalf("%+v", o)
		}
		for _, j := range o.ProxyJump {
			if !jumpHostOK(j.Host) {
				t.Fatalf("jump host %+v", j)
			}
		}
	})
}
