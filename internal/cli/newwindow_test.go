package cli

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// parseNewWindow parses new-window's words as Main does (flags up to the
// name) and then splits them as runNewWindow does.
func parseNewWindow(words []string) (fs *pflag.FlagSet, name string, argv []string, err error) {
	fs = pflag.NewFlagSet("tuios new-window", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	newWindowFlags(fs)
	fs.BoolP("help", "h", false, "show this help")
	if err = fs.Parse(words); err != nil {
		return fs, "", nil, err
	}
	name, argv, err = splitNewWindow(fs, fs.Args(), fs.ArgsLenAtDash())
	return fs, name, argv, err
}

func TestSplitNewWindow(t *testing.T) {
	for _, c := range []struct {
		in      string
		name    string
		argv    []string
		noFocus bool
		ws      string
	}{
		{"-s work", "", nil, false, "0"},
		{"-s work build", "build", nil, false, "0"},
		{"-s work tests --workspace 2 --cwd /src --no-focus", "tests", nil, true, "2"},
		{"-s work tl --no-focus tail -f x", "tl", []string{"tail", "-f", "x"}, true, "0"},
		{"-s work htop /usr/bin/htop", "htop", []string{"/usr/bin/htop"}, false, "0"},
		{"-s work sh sh -c --no-focus", "sh", []string{"sh", "-c", "--no-focus"}, false, "0"},
		{"-s work --no-focus -- true", "", []string{"true"}, true, "0"},
		{"-s work -- sleep 1", "", []string{"sleep", "1"}, false, "0"},
		{"-s work logs -- --weird -x", "logs", []string{"--weird", "-x"}, false, "0"},
		{"-s work logs --workspace 3 -- tail -f x", "logs", []string{"tail", "-f", "x"}, false, "3"},
		{"-s work --", "", []string{}, false, "0"},
	} {
		fs, name, argv, err := parseNewWindow(strings.Fields(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		nf, _ := fs.GetBool("no-focus")
		if name != c.name || !slices.Equal(argv, c.argv) || nf != c.noFocus || fs.Lookup("workspace").Value.String() != c.ws {
			t.Errorf("%q: name %q argv %q no-focus %v workspace %s; want %q %q %v %s", c.in, name, argv, nf, fs.Lookup("workspace").Value, c.name, c.argv, c.noFocus, c.ws)
		}
	}
	if _, _, _, err := parseNewWindow([]string{"-s", "work", "x", "--bogus", "tail"}); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("an unknown flag between the name and the program: %v", err)
	}
}

// FuzzSplitNewWindow: whatever the words, the argv is a verbatim suffix of
// them (nothing re-parsed or re-quoted), a name is one of them, and a
// leading -- never yields a name.
func FuzzSplitNewWindow(f *testing.F) {
	for _, s := range []string{"-s\x00w\x00tl\x00--no-focus\x00tail\x00-f\x00x", "--\x00sleep\x001", "a\x00--\x00-x", "--json\x00x\x00--workspace\x002\x00--\x00--", "", "-\x00-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Split(s, "\x00")
		if s == "" {
			words = nil
		}
		_, name, argv, err := parseNewWindow(words)
		if err != nil {
			return
		}
		if len(argv) > len(words) || !slices.Equal(words[len(words)-len(argv):], argv) {
			t.Fatalf("%q: argv %q is not a suffix of the words", words, argv)
		}
		if name != "" && !slices.Contains(words, name) {
			t.Fatalf("%q: name %q is not one of the words", words, name)
		}
		if len(words) > 0 && words[0] == "--" && name != "" {
			t.Fatalf("%q: a leading -- gave the name %q", words, name)
		}
	})
}
