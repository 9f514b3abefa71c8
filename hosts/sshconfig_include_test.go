package hosts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes a private file under home, making its folders.
func writeFile(t *testing.T, home, rel, body string) string {
	t.Helper()
	p := filepath.Join(home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// OrbStack, Colima and 1Password each add an Include line at the top of
// ~/.ssh/config; the hosts they define must resolve as ssh resolves them.
func TestReadSSHConfigFileFollowsInclude(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, ".ssh/orbstack/ssh_config", "Host orb\n  HostName 127.0.0.1\n  Port 32222\n  User default\n")
	writeFile(t, home, ".ssh/conf.d/10-work", "Host work-*\n  User worker\n")
	writeFile(t, home, ".ssh/conf.d/20-more", "Host work-db\n  Port 5022\n  User ignored\n")
	writeFile(t, home, ".ssh/only-build", "User builder\nPort 2201\n")
	writeFile(t, home, ".ssh/in-match", "Host *\n  User frommatch\n")
	cfg := writeFile(t, home, ".ssh/config", `Include orbstack/ssh_config
Include ~/.ssh/conf.d/*
Include missing-file does-not-exist/*
Host build
  HostName build.example.com
  Include only-build
  IdentityFile ~/.ssh/build_key
Match exec "true"
  Include in-match
Host *
  User fallback
`)
	c, err := ReadSSHConfigFile(cfg, SSHConfigFiles{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Lookup("orb"); s.HostName != "127.0.0.1" || s.Port != 32222 || s.User != "default" {
		t.Fatalf("orb: %+v", s)
	}
	// First value wins across files, in the order ssh reads them.
	if s := c.Lookup("work-db"); s.User != "worker" || s.Port != 5022 {
		t.Fatalf("work-db: %+v", s)
	}
	// An Include inside a Host block applies to that host only, and the
	// lines after it still belong to the block.
	if s := c.Lookup("build"); s.User != "builder" || s.Port != 2201 || s.HostName != "build.example.com" || len(s.IdentityFiles) != 1 {
		t.Fatalf("build: %+v", s)
	}
	if s := c.Lookup("other"); s.User != "fallback" || s.Port != 0 {
		t.Fatalf("other: %+v", s)
	}
	// Match is not evaluated, and what it includes is not read.
	s := c.Lookup("other")
	if len(s.Skipped) != 1 || !strings.Contains(s.Skipped[0], "Match at line 8") {
		t.Fatalf("skipped: %q", s.Skipped)
	}
}

// A command-running keyword in an included file is found and named by
// its file, so a dial refuses it as it would in ~/.ssh/config itself.
func TestIncludedProxyCommandIsRefused(t *testing.T) {
	home := t.TempDir()
	inc := writeFile(t, home, ".ssh/extra", "Host sneaky\n  ProxyCommand nc %h %p\n")
	writeFile(t, home, ".ssh/config", "Include extra\n")
	d := &Dialer{Home: home, Getenv: func(string) string { return "" }}
	_, err := d.Resolve(Host{Name: "far", Addr: "sneaky"})
	if err == nil || !strings.Contains(err.Error(), "line 2 of "+inc) {
		t.Fatalf("err = %v", err)
	}
}

func TestIncludeRefusesWhatSSHRefuses(t *testing.T) {
	t.Run("loop", func(t *testing.T) {
		home := t.TempDir()
		cfg := writeFile(t, home, ".ssh/config", "Include config\n")
		if _, err := ReadSSHConfigFile(cfg, SSHConfigFiles{Home: home}); err == nil || !strings.Contains(err.Error(), "16 deep") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("writable by others", func(t *testing.T) {
		home := t.TempDir()
		bad := writeFile(t, home, ".ssh/shared", "Host x\n  HostName evil.example.com\n")
		if err := os.Chmod(bad, 0o666); err != nil {
			t.Fatal(err)
		}
		cfg := writeFile(t, home, ".ssh/config", "Include shared\n")
		if _, err := ReadSSHConfigFile(cfg, SSHConfigFiles{Home: home}); err == nil || !strings.Contains(err.Error(), "bad permissions") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("without a file", func(t *testing.T) {
		c, err := ParseSSHConfig(strings.NewReader("Include other\nHost a\n  User u\n"))
		if err != nil {
			t.Fatal(err)
		}
		if s := c.Lookup("a"); s.User != "u" || len(s.Skipped) != 1 || !strings.Contains(s.Skipped[0], "not followed") {
			t.Fatalf("%+v", s)
		}
	})
}

// A Host block's UserKnownHostsFile and GlobalKnownHostsFile are where the
// link checks the host key, as for ssh; "none" checks against none.
func TestKnownHostsFilesFromSSHConfig(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, ".ssh/known_hosts", "")
	custom := writeFile(t, home, "keys/orb_known_hosts", "")
	writeFile(t, home, ".ssh/config", `Host orb
  UserKnownHostsFile ~/keys/orb_known_hosts ~/keys/missing
  GlobalKnownHostsFile none
`)
	d := &Dialer{Home: home, Getenv: func(string) string { return "" }}
	r, err := d.Resolve(Host{Name: "far", Addr: "orb"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.KnownHosts) != 1 || r.KnownHosts[0] != custom {
		t.Fatalf("known hosts: %q", r.KnownHosts)
	}
	r, err = d.Resolve(Host{Name: "near", Addr: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.KnownHosts) == 0 || r.KnownHosts[0] != filepath.Join(home, ".ssh", "known_hosts") {
		t.Fatalf("default known hosts: %q", r.KnownHosts)
	}
}

// Whatever a config and the files it includes say, reading it ends, and
// Lookup never panics.
func FuzzReadSSHConfigInclude(f *testing.F) {
	f.Add("Include a\nHost x\n  Include b\n", "Host *\n  Include a\n", "x")
	f.Add("Include *\n", "Match all\n  Include a\n", "y")
	f.Fuzz(func(t *testing.T, top, a, host string) {
		home := t.TempDir()
		writeFile(t, home, ".ssh/a", a)
		writeFile(t, home, ".ssh/b", top)
		cfg := writeFile(t, home, ".ssh/config", top)
		c, err := ReadSSHConfigFile(cfg, SSHConfigFiles{Home: home})
		if err != nil {
			return
		}
		c.Lookup(host)
	})
}
