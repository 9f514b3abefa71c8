package cli

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/tuios/tuios/hosts"
)

// The colon rule as routeTarget applies it to a verb's params: the word
// before the first colon is a host when it could be a host name or is
// local, the rest goes to that host as written; a window names a host
// only in the full HOST:SESSION:WINDOW form, so a window titled like a
// URL stays local.
func TestRouteTargetColonRules(t *testing.T) {
	for _, c := range []struct {
		name string
		in   map[string]any
		host string
		out  map[string]any
	}{
		{"an unknown host is still a host", map[string]any{"session": "nope:api"}, "nope", map[string]any{"session": "api"}},
		{"local:NAME keeps the colon in the name", map[string]any{"session": "local:a:b"}, "local", map[string]any{"session": "a:b"}},
		{"a:b is host a", map[string]any{"session": "a:b"}, "a", map[string]any{"session": "b"}},
		{"a URL-like window stays local", map[string]any{"window": "http://x"}, "", map[string]any{"window": "http://x"}},
		{"a window with one colon stays local", map[string]any{"session": "work", "window": "a:b"}, "", map[string]any{"session": "work", "window": "a:b"}},
		{"local::NAME is this machine's window", map[string]any{"session": "work", "window": "local::x:y"}, "local", map[string]any{"session": "work", "window": "x:y"}},
		{"a window's colons after the third part are its own", map[string]any{"window": "build:api:x:y"}, "build", map[string]any{"session": "api", "window": "x:y"}},
		{"-s HOST:SESSION -w WINDOW", map[string]any{"session": "build:api", "window": "0", "text": "ls"}, "build", map[string]any{"session": "api", "window": "0", "text": "ls"}},
		{"-w HOST:SESSION:WINDOW alone", map[string]any{"window": "build:api:0"}, "build", map[string]any{"session": "api", "window": "0"}},
		{"both naming the same host and session", map[string]any{"session": "build:api", "window": "build:api:0"}, "build", map[string]any{"session": "api", "window": "0"}},
		{"the host's most recent session", map[string]any{"session": "build:"}, "build", map[string]any{}},
		{"the host's current session, a window in it", map[string]any{"window": "build::0"}, "build", map[string]any{"window": "0"}},
		{"a session whose first word cannot be a host", map[string]any{"session": "my session:x"}, "", map[string]any{"session": "my session:x"}},
		{"a leading colon is no host", map[string]any{"session": ":x"}, "", map[string]any{"session": ":x"}},
		{"mail's to is a window", map[string]any{"to": "build:api:reviewer", "text": "hi"}, "build", map[string]any{"session": "api", "to": "reviewer", "text": "hi"}},
		{"no target", map[string]any{"all": true}, "", map[string]any{"all": true}},
		{"nil params", nil, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			host, out, err := routeTarget(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if host != c.host || !reflect.DeepEqual(out, c.out) && !(len(out) == 0 && len(c.out) == 0) {
				t.Fatalf("got %q %v, want %q %v", host, out, c.host, c.out)
			}
		})
	}
}

// A target that names two machines, or two sessions, is refused rather
// than guessed at.
func TestRouteTargetRefusesTwoHosts(t *testing.T) {
	for _, in := range []map[string]any{
		{"session": "build:api", "window": "gpu:api:0"},
		{"session": "build:api", "window": "local::0"},
		{"session": "work", "window": "build:api:0"},
		{"session": "build:api", "window": "build:other:0"},
	} {
		_, _, err := routeTarget(in)
		var e *Error
		if !errors.As(err, &e) || e.Code != "invalid_params" {
			t.Errorf("%v: %v", in, err)
		}
	}
}

func parseFor(t *testing.T, cmd *Command, args ...string) (*pflag.FlagSet, error) {
	t.Helper()
	fs := pflag.NewFlagSet(cmd.Name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cmd.Flags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs, foldHost(cmd, fs)
}

// --host is -s's host part: -s after it is the far session as written.
func TestFoldHost(t *testing.T) {
	cmd := &Command{Name: "list-windows", Flags: targetFlags}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", "build", "-s", "api"}, "build:api"},
		{[]string{"--host", "build"}, "build:"},
		{[]string{"--host", "build", "-s", "a:b"}, "build:a:b"},
		{[]string{"--host", "local", "-s", "a:b"}, "local:a:b"},
		{[]string{"-s", "gpu:x"}, "gpu:x"},
	} {
		fs, err := parseFor(t, cmd, c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if got, _ := fs.GetString("session"); got != c.want {
			t.Errorf("%v: session %q, want %q", c.args, got, c.want)
		}
	}
	if _, err := parseFor(t, cmd, "--host", "bad name"); err == nil {
		t.Error("a host name with a space was taken")
	}
	both := &Command{Name: "list-agents", Flags: func(fs *FlagSet) { sessionFlag(fs); allHostsFlags(fs) }}
	if _, err := parseFor(t, both, "--host", "build", "--all-hosts"); err == nil {
		t.Error("--host with --all-hosts was taken")
	}
	// A --host of another meaning (not targetFlags') is left alone.
	other := &Command{Name: "list-attention", Flags: func(fs *FlagSet) { fs.StringP("session", "s", "", ""); fs.String("host", "", "") }}
	fs, err := parseFor(t, other, "--host", "build", "-s", "api")
	if got, _ := fs.GetString("session"); err != nil || got != "api" {
		t.Fatalf("other --host folded: %q %v", got, err)
	}
}

// A far answer is marked as such, whatever its shape; one that is not an
// object is refused, not half-read.
func TestDecodeRemoteMarksTheAnswer(t *testing.T) {
	var m map[string]any
	if err := decodeRemote("build", []byte(`{"type":"window_list","host":"forged","windows":[]}`), &m); err != nil {
		t.Fatal(err)
	}
	if m["host"] != "build" || m["untrusted"] != true || m["type"] != "window_list" {
		t.Fatalf("%v", m)
	}
	if err := decodeRemote("build", nil, &m); err != nil {
		t.Fatal(err)
	}
	var e *Error
	if err := decodeRemote("build", []byte(`[1,2]`), &m); !errors.As(err, &e) || !e.Untrusted || e.Host != "build" {
		t.Fatalf("a list answer: %v", err)
	}
}

// Whatever -s and -w hold, routing names at most one valid host, never
// loses a part of the target, and never invents one.
func FuzzRouteTarget(f *testing.F) {
	f.Add("build:api", "0")
	f.Add("local:a:b", "local::x")
	f.Add("", "http://x:8080/y")
	f.Add("a b:c", "build::")
	f.Fuzz(func(t *testing.T, s, w string) {
		in := map[string]any{"session": s, "window": w}
		host, out, err := routeTarget(in)
		if err != nil {
			return
		}
		if host == "" {
			if !reflect.DeepEqual(out, in) {
				t.Fatalf("a local target changed: %v -> %v", in, out)
			}
			return
		}
		if !hosts.ValidName(host) {
			t.Fatalf("host %q from %q %q", host, s, w)
		}
		os, _ := out["session"].(string)
		ow, _ := out["window"].(string)
		if !strings.Contains(s, os) && !strings.Contains(w, os) || !strings.Contains(w, ow) {
			t.Fatalf("%q %q -> %q %q %q", s, w, host, os, ow)
		}
		if s != "" && !strings.HasPrefix(s, host+":") && !strings.HasPrefix(w, host+":") {
			t.Fatalf("host %q is in neither %q nor %q", host, s, w)
		}
	})
}

// targetFlags defines --host: a command that adds a --host of its own
// beside it would panic when its flags are built. Every command's flags
// build, and every routing --host folds into a -s.
func TestEveryCommandsFlagsBuild(t *testing.T) {
	for _, c := range commands() {
		if c.Flags == nil {
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("tuios %s: its flags panic: %v", c.Name, r)
				}
			}()
			fs := pflag.NewFlagSet(c.Name, pflag.ContinueOnError)
			c.Flags(fs)
			if f := fs.Lookup("host"); f != nil && f.Annotations[hostFlagAnnotation] != nil && fs.Lookup("session") == nil {
				t.Errorf("tuios %s: a routing --host without -s", c.Name)
			}
		}()
	}
}
