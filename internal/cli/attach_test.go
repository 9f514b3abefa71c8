package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/internal/config"
)

func attachCtx(t *testing.T, args ...string) *Context {
	t.Helper()
	fs := pflag.NewFlagSet("attach", pflag.ContinueOnError)
	attachCommands()[0].Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &Context{Flags: fs, Args: fs.Args()}
}

// The ways to name a session on a host: --host H S, --host H -t S,
// -t H:S; local is this machine; a session written after --host keeps
// its colons.
func TestAttachTarget(t *testing.T) {
	for _, c := range []struct {
		args          []string
		host, session string
		err           string
	}{
		{args: nil},
		{args: []string{"-t", "work"}, session: "work"},
		{args: []string{"work"}, session: "work"},
		{args: []string{"-t", "build:api"}, host: "build", session: "api"},
		{args: []string{"--host", "build", "api"}, host: "build", session: "api"},
		{args: []string{"--host", "build", "-t", "a:b"}, host: "build", session: "a:b"},
		{args: []string{"--host", "build"}, host: "build"},
		{args: []string{"-t", "local:work"}, session: "work"},
		{args: []string{"--host", "local", "work"}, session: "work"},
		{args: []string{"--host=bad/name", "api"}, err: "not a host name"},
		{args: []string{"-t", "a", "b"}, err: "name the session once"},
		{args: []string{"api", "--ssh"}, err: "--ssh needs a host"},
		{args: []string{"-t", "build:api", "--ssh"}, host: "build", session: "api"},
	} {
		host, session, err := attachTarget(attachCtx(t, c.args...))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || host != c.host || session != c.session {
			t.Errorf("%v: %q %q %v, want %q %q", c.args, host, session, err, c.host, c.session)
		}
	}
}

// --ssh builds ssh -t, the row's options split as ssh reads them, "--",
// the addr, and the far tuios with the session quoted for the far shell.
func TestSSHAttachArgv(t *testing.T) {
	argv, err := sshAttachArgv("build", config.Host{Addr: "me@build", SSHOptions: []string{"-p 2222"}, Command: "/opt/tuios"}, "it's api")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ssh", "-t", "-p", "2222", "--", "me@build", `/opt/tuios attach -t 'it'\''s api'`}
	if !reflect.DeepEqual(argv, want) {
		t.Fatalf("argv %q\nwant %q", argv, want)
	}
	argv, _ = sshAttachArgv("build", config.Host{Addr: "build"}, "")
	if want := []string{"ssh", "-t", "--", "build", "tuios attach"}; !reflect.DeepEqual(argv, want) {
		t.Errorf("no session: %q", argv)
	}
	for _, bad := range []config.Host{
		{Addr: "-oProxyCommand=touch /tmp/x"},
		{Addr: "build", Command: "-x"},
		{Addr: "build", SSHOptions: []string{"-o ProxyCommand=sh"}},
	} {
		if _, err := sshAttachArgv("build", bad, "api"); err == nil {
			t.Errorf("%+v: not refused", bad)
		}
	}
	if _, err := sshAttachArgv("build", config.Host{Addr: "build"}, "a\x1b]0;x\x07"); err == nil {
		t.Error("a session name with control characters was not refused")
	}
}

// FuzzSSHAttachArgv: whatever the session name, the far command is the
// tuios, "attach -t" and exactly that name as one shell word, and nothing
// lands before "--" but ssh options.
func FuzzSSHAttachArgv(f *testing.F) {
	for _, s := range []string{"api", "it's", "a b", "$(rm -rf /)", "`x`", "'", "", "--", "-t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, session string) {
		argv, err := sshAttachArgv("build", config.Host{Addr: "build", SSHOptions: []string{"-p 22"}}, session)
		if err != nil {
			return
		}
		if !reflect.DeepEqual(argv[:6], []string{"ssh", "-t", "-p", "22", "--", "build"}) || len(argv) != 7 {
			t.Fatalf("argv %q", argv)
		}
		if session == "" {
			if argv[6] != "tuios attach" {
				t.Fatalf("far %q", argv[6])
			}
			return
		}
		word, ok := strings.CutPrefix(argv[6], "tuios attach -t ")
		if !ok {
			t.Fatalf("far %q", argv[6])
		}
		if got, ok := unquoteShellWord(word); !ok || got != session {
			t.Fatalf("%q reads back as %q (%v)", word, got, ok)
		}
	})
}

// unquoteShellWord reads one POSIX shell word made of bare characters
// with no specials, and single-quoted parts (and \' between them). ok is
// false for anything else: something a shell would read differently.
func unquoteShellWord(w string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(w); {
		switch c := w[i]; {
		case c == '\'':
			j := strings.IndexByte(w[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(w[i+1 : i+1+j])
			i += j + 2
		case c == '\\' && i+1 < len(w) && w[i+1] == '\'':
			b.WriteByte('\'')
			i += 2
		case strings.IndexByte(" \t\n\"\\$`;&|<>()*?[]{}#~!'", c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}
