package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attach --ssh hands the terminal to the system ssh with the host row's
// options, addr and far tuios, and exits with ssh's status. The system
// ssh reads the user's real ~/.ssh (from the password database, not
// $HOME), which a test must not touch, so an ssh on PATH that prints its
// arguments stands in for it; the real sshd tests cover the link itself.
func TestAttachSSHRunsSystemSSH(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bin := filepath.Join(e.dir, "fakebin")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "ssh"), []byte("#!/bin/sh\nfor a in \"$@\"; do echo \"arg:$a\"; done\nexit 7\n"), 0o755))
	for i, v := range e.vars {
		if strings.HasPrefix(v, "PATH=") {
			e.vars[i] = "PATH=" + bin + ":" + strings.TrimPrefix(v, "PATH=")
		}
	}
	e.ok("hosts", "add", "build", "me@build.example", "--ssh-option", "-p 2222", "--command", "/opt/tuios/bin/tuios")
	r := e.run("attach", "--host", "build", "it's", "--ssh")
	want := "arg:-t\narg:-p\narg:2222\narg:--\narg:me@build.example\narg:/opt/tuios/bin/tuios attach -t 'it'\\''s'\n"
	if r.out != want {
		t.Fatalf("ssh got\n%s\nwant\n%s", r.out, want)
	}
	if r.code != 7 || !strings.Contains(r.err, "ssh to host build exited with status 7") {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	if r := e.run("attach", "-t", "nohost:api", "--ssh"); r.code != 1 || !strings.Contains(r.err, "unknown_host") {
		t.Fatalf("unknown host: exit %d %s", r.code, r.err)
	}
}
