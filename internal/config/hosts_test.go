package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetAndRemoveHostKeepOtherTablesAndComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	orig := "# my settings\n[ui]\nrail = \"right\" # on the right\n\n[hosts.old]\naddr = \"me@old\"\n# note about old\n\n[agents]\nenabled = true\n"
	if err := os.WriteFile(path, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := SetHost(path, "build", Host{Addr: "gaurav@buildbox", ConnectTimeout: 5, SSHOptions: []string{"-p 2222"}}); err != nil {
		t.Fatal(err)
	}
	if err := SetHost(path, "old", Host{Addr: "me@new", Command: "/opt/tuios"}); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Hosts["build"]; got.Addr != "gaurav@buildbox" || got.ConnectTimeout != 5 || len(got.SSHOptions) != 1 {
		t.Fatalf("build = %+v", got)
	}
	if got := f.Hosts["old"]; got.Addr != "me@new" || got.Command != "/opt/tuios" {
		t.Fatalf("old = %+v", got)
	}
	if len(f.Unknown()) != 0 || !f.RailRight() {
		t.Fatalf("unknown %v, rail right %v", f.Unknown(), f.RailRight())
	}
	data, _ := os.ReadFile(path)
	for _, keep := range []string{"# my settings", "rail = \"right\" # on the right", "[agents]"} {
		if !strings.Contains(string(data), keep) {
			t.Fatalf("lost %q:\n%s", keep, data)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v", st.Mode())
	}
	if err := RemoveHost(path, "old"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveHost(path, "old"); !IsNoHost(err) {
		t.Fatalf("second remove: %v", err)
	}
	f, _ = Load(path)
	if _, ok := f.Hosts["old"]; ok || len(f.HostNames()) != 1 {
		t.Fatalf("hosts %v", f.HostNames())
	}
}

func TestSetHostRefusesInlineTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	orig := "[hosts]\nbuild = { addr = \"x@y\" }\n"
	os.WriteFile(path, []byte(orig), 0o600)
	if err := RemoveHost(path, "build"); err == nil {
		t.Fatal("an inline table was reported removed")
	}
	if data, _ := os.ReadFile(path); string(data) != orig {
		t.Fatalf("file changed: %q", data)
	}
}

func TestSetHostCreatesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tuios", "config.toml")
	if err := SetHost(path, "a.b-c_d", Host{Addr: "h"}); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil || f.Hosts["a.b-c_d"].Addr != "h" {
		t.Fatalf("%v %+v", err, f.Hosts)
	}
}

// A key left at its default is not written: a host added with no
// --connect-timeout has no connect_timeout = 0 line, one with it has it.
func TestSetHostWritesOnlyWhatIsSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := SetHost(path, "gpu", Host{Addr: "me@gpu"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "connect_timeout") {
		t.Fatalf("a default written out:\n%s", b)
	}
	if err := SetHost(path, "gpu", Host{Addr: "me@gpu", ConnectTimeout: 3}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "connect_timeout = 3") {
		t.Fatalf("a timeout given is not written:\n%s", b)
	}
}
