package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

const commented = `# my tuios config
# (kept in a dotfiles repository)

[daemon]
resume_agents = "ask"   # ask me first

[notifications.agent]
enabled = true
  sound = false        # quiet by day
command = """
[ui]
rail = "right"
"""

# the states I care about
[notifications.agent.states]
idle = false
`

func set(t *testing.T, data, key, value string) string {
	t.Helper()
	o, err := LookupOption(key)
	if err != nil {
		t.Fatal(err)
	}
	v, err := o.Parse(value)
	if err != nil {
		t.Fatal(err)
	}
	out, err := setKey([]byte(data), key, literal(v))
	if err != nil {
		t.Fatalf("set %s %s: %v", key, value, err)
	}
	return string(out)
}

// An edit changes the key's one line (indent, spacing and the comment
// after the value stay), or adds one line under the key's table, and
// keeps every other byte.
func TestSetKeyKeepsEveryOtherByte(t *testing.T) {
	for _, c := range []struct{ name, key, value, want string }{
		{"the line, comment kept", "notifications.agent.sound", "true",
			strings.Replace(commented, "  sound = false        # quiet", "  sound = true        # quiet", 1)},
		{"a string line", "daemon.resume_agents", "auto",
			strings.Replace(commented, `resume_agents = "ask"   #`, `resume_agents = "auto"   #`, 1)},
		{"added under its table, after its last key", "notifications.agent.dock", "false",
			strings.Replace(commented, "\"\"\"\n\n# the states", "\"\"\"\ndock = false\n\n# the states", 1)},
		{"added under a table with no key yet", "daemon.restore", "false",
			strings.Replace(commented, "# ask me first\n", "# ask me first\nrestore = false\n", 1)},
		{"a table added at the end", "ui.rail", "right", commented + "\n[ui]\nrail = \"right\"\n"},
		{"a sub-table's key", "notifications.agent.states.idle", "on",
			strings.Replace(commented, "idle = false", "idle = true", 1)},
		{"a number", "notifications.agent.settle_seconds", "5",
			strings.Replace(commented, "  sound = false        # quiet by day\n", "  sound = false        # quiet by day\n", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := set(t, commented, c.key, c.value)
			if c.key == "notifications.agent.settle_seconds" {
				// Added after the multi-line string, not inside it.
				if !strings.Contains(got, "\"\"\"\nsettle_seconds = 5\n") {
					t.Fatalf("got:\n%s", got)
				}
				return
			}
			if got != c.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// The multi-line string above holds "[ui]" and "rail = ...": they are
// text, not a table, so ui.rail is added as a new table at the end and
// the string is unchanged.
func TestSetKeyIsNotFooledByAStringThatLooksLikeATable(t *testing.T) {
	got := set(t, commented, "ui.rail", "left")
	if !strings.HasPrefix(got, commented) {
		t.Fatalf("the file before the new table changed:\n%s", got)
	}
	f, err := Parse([]byte(got))
	if err != nil || f.UI.Rail != "left" || !strings.Contains(f.Notify.Agent.Command, "rail = \"right\"") {
		t.Fatalf("%v %+v", err, f)
	}
}

func TestSetKeyForms(t *testing.T) {
	// CRLF files get CRLF lines.
	crlf := "[daemon]\r\nrestore = true\r\n"
	if got := set(t, crlf, "daemon.resume_agents", "off"); got != "[daemon]\r\nrestore = true\r\nresume_agents = \"off\"\r\n" {
		t.Fatalf("crlf: %q", got)
	}
	// A table made by dotted keys gets a sibling dotted key.
	dotted := "[notifications]\nagent.dock = true # mine\n"
	if got := set(t, dotted, "notifications.agent.sound", "true"); got != dotted+"agent.sound = true\n" {
		t.Fatalf("dotted: %q", got)
	}
	// A file with no newline at the end.
	if got := set(t, "[ui]\nrail = \"left\"", "ui.ascii_only", "true"); got != "[ui]\nrail = \"left\"\nascii_only = true\n" {
		t.Fatalf("no final newline: %q", got)
	}
	// A quoted header and a quoted key are found.
	q := "[\"ui\"]\n\"rail\" = 'left'\n"
	if got := set(t, q, "ui.rail", "right"); got != "[\"ui\"]\n\"rail\" = \"right\"\n" {
		t.Fatalf("quoted: %q", got)
	}
	// An empty file.
	if got := set(t, "", "notifications.agent.sound", "yes"); got != "[notifications.agent]\nsound = true\n" {
		t.Fatalf("empty: %q", got)
	}
	// An inline table cannot take another key this way: refused, the
	// caller writes nothing.
	o, _ := LookupOption("notifications.agent.sound")
	if _, err := setKey([]byte("[notifications]\nagent = { dock = true }\n"), o.Key, "true"); err == nil || !strings.Contains(err.Error(), "by hand") {
		t.Fatalf("inline table: %v", err)
	}
}

// SetOption writes the file atomically with mode 0600, follows a
// symlink, leaves a file that does not parse alone, and writes nothing
// when the value is already there.
func TestSetOptionWritesTheFile(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "tuios.toml")
	os.MkdirAll(filepath.Dir(real), 0o755)
	if err := os.WriteFile(real, []byte(commented), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tuios", "config.toml")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.Symlink(real, path); err != nil {
		t.Fatal(err)
	}
	o, _ := LookupOption("notifications.agent.sound")
	res, err := SetOption(path, o, true)
	if err != nil || !res.Changed || res.Previous != false || !res.WasSet {
		t.Fatalf("%+v %v", res, err)
	}
	if fi, _ := os.Lstat(path); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	f, err := Load(path)
	if err != nil || !f.Alerts().Sound {
		t.Fatalf("sound not on: %v", err)
	}
	st, _ := os.Stat(real)
	res, err = SetOption(path, o, true)
	if err != nil || res.Changed {
		t.Fatalf("same value again: %+v %v", res, err)
	}
	if st2, _ := os.Stat(real); !st2.ModTime().Equal(st.ModTime()) {
		t.Fatal("the file was written for a value it already had")
	}

	broken := filepath.Join(dir, "broken.toml")
	os.WriteFile(broken, []byte("[ui\nrail = "), 0o600)
	if _, err := SetOption(broken, o, true); err == nil {
		t.Fatal("a file that does not parse was edited")
	}
	if b, _ := os.ReadFile(broken); string(b) != "[ui\nrail = " {
		t.Fatalf("broken file changed: %q", b)
	}

	fresh := filepath.Join(dir, "new", "tuios", "config.toml")
	if _, err := SetOption(fresh, o, true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file mode %v", fi.Mode().Perm())
	}
}

func TestLookupOptionRefusals(t *testing.T) {
	var oe *OptionError
	_, err := LookupOption("notifications.agent.sond")
	if !errors.As(err, &oe) || oe.Kind != OptionUnknown || oe.DidYouMean != "notifications.agent.sound" || oe.Code() != "invalid_params" {
		t.Fatalf("typo: %#v", err)
	}
	if _, err := LookupOption("sound_mode"); !errors.As(err, &oe) || oe.DidYouMean != "notifications.agent.sound_mode" {
		t.Fatalf("last part: %#v", err)
	}
	for key, word := range map[string]string{
		"daemon.respond_from_shell":     "never set over the socket",
		"agents.approvals.hold_seconds": "[agents]",
		"hosts.build.addr":              "[hosts]",
		"notify.ntfy.url":               "secrets",
		"keybindings.prefix":            "key bindings",
		"dock.items":                    "[dock]",
		"hooks.on_start":                "[hooks]",
		"tailscale.enabled":             "[tailscale]",
	} {
		_, err := LookupOption(key)
		if !errors.As(err, &oe) || oe.Kind != OptionExcluded || oe.Code() != "forbidden" || !strings.Contains(oe.Why, word) {
			t.Errorf("%s: %#v", key, err)
		}
	}
	if o, err := LookupOption("agents.enabled"); err != nil || !o.PersonOnly {
		t.Fatalf("agents.enabled: %+v %v", o, err)
	}
	for _, c := range []struct{ key, value, accepted string }{
		{"notifications.agent.sound", "maybe", "true or false"},
		{"notifications.agent.settle_seconds", "9999", "a number from 0 to 3600"},
		{"notifications.agent.settle_seconds", "NaN", "a number from 0 to 3600"},
		{"daemon.agent_detect_seconds", "1.5", "a whole number from -1 to 3600"},
		{"notifications.agent.sound_mode", "loud", "audio, bell, both"},
		{"notifications.agent.quiet_hours", "25:00-07:00", "HH:MM-HH:MM"},
		{"notifications.agent.sounds.done", "a\nb", "one line"},
	} {
		o, _ := LookupOption(c.key)
		_, err := o.Parse(c.value)
		if !errors.As(err, &oe) || oe.Kind != OptionBadValue || !strings.Contains(oe.Accepted+oe.Why, c.accepted) {
			t.Errorf("%s %q: %#v", c.key, c.value, err)
		}
	}
}

// Every option's default is a value its own Parse accepts, written as
// the file would hold it.
func TestOptionDefaultsRoundTrip(t *testing.T) {
	for _, o := range Options() {
		out, err := setKey(nil, o.Key, literal(o.Default))
		if err != nil {
			t.Fatalf("%s: %v", o.Key, err)
		}
		f, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: %v", o.Key, err)
		}
		if len(f.Unknown()) > 0 {
			t.Fatalf("%s is no key of the schema: %v", o.Key, f.Unknown())
		}
		v, set, err := OptionValue(out, o)
		if err != nil || !set || !reflect.DeepEqual(v, o.Default) {
			t.Fatalf("%s: %v %v %v", o.Key, v, set, err)
		}
	}
}

// FuzzSetOption: any file, any settable key, any value text. The parse
// never panics; a value it accepts is within the key's bounds; an edit
// it makes reads back as that value with the rest of the file unchanged.
func FuzzSetOption(f *testing.F) {
	f.Add(commented, 0, "true")
	f.Add("[notifications]\nagent.dock = true\n", 8, "yes")
	f.Add("[ui]\r\nrail = 'left' # x\r\n", 27, "right")
	f.Add("a = \"\"\"\n[ui]\n\"\"\"\n[notifications.agent.states]\n", 11, "22:00-07:00")
	f.Add("[notifications.agent]\nsettle_seconds = 2 # s\n", 12, "2.5")
	opts := Options()
	f.Fuzz(func(t *testing.T, data string, k int, value string) {
		if k < 0 {
			k = -k
		}
		o := opts[k%len(opts)]
		v, err := o.Parse(value)
		if err != nil {
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Kind != OptionBadValue {
				t.Fatalf("%v", err)
			}
			return
		}
		if (o.Type == "int" || o.Type == "number") && (toFloat(v) < *o.Min || toFloat(v) > *o.Max) {
			t.Fatalf("%s accepted %v", o.Key, v)
		}
		var before map[string]any
		if _, err := toml.Decode(data, &before); err != nil {
			return
		}
		out, err := setKey([]byte(data), o.Key, literal(v))
		if err != nil {
			return // refused: the caller writes nothing
		}
		got, set, err := OptionValue(out, o)
		if err != nil || !set || !reflect.DeepEqual(got, v) {
			t.Fatalf("%s = %v: read back %v %v %v\n%s", o.Key, v, got, set, err, out)
		}
		var after map[string]any
		toml.Decode(string(out), &after)
		var lit map[string]any
		toml.Decode("v = "+literal(v), &lit)
		setPath(before, strings.Split(o.Key, "."), lit["v"])
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("the rest changed:\n%q\n%q", data, out)
		}
	})
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// FuzzLookupOption: any key text is found, excluded with a reason, or
// unknown with a suggestion that is itself a settable key.
func FuzzLookupOption(f *testing.F) {
	for _, k := range []string{"notifications.agent.sound", "sound", "agents.enabled", "notify.ntfy.url", "daemon.respond_from_shell", "", ".", "hosts.", "ui.rail.x"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		o, err := LookupOption(key)
		if err == nil {
			if o.Key != strings.TrimSpace(key) {
				t.Fatalf("%q found %q", key, o.Key)
			}
			return
		}
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Fatalf("%q: %v", key, err)
		}
		switch oe.Kind {
		case OptionExcluded:
			if oe.Why == "" || oe.Code() != "forbidden" {
				t.Fatalf("%q: %+v", key, oe)
			}
		case OptionUnknown:
			if oe.DidYouMean != "" {
				if _, err := LookupOption(oe.DidYouMean); err != nil {
					t.Fatalf("%q suggests %q, which is not settable", key, oe.DidYouMean)
				}
			}
		default:
			t.Fatalf("%q: kind %q", key, oe.Kind)
		}
	})
}

// Every key of the schema is an option or refused with a reason, so a key
// added to File is not silently unsettable (or settable by accident).
func TestEveryKeyIsAnOptionOrExcluded(t *testing.T) {
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		for i := 0; i < typ.NumField(); i++ {
			fl := typ.Field(i)
			name, _, _ := strings.Cut(fl.Tag.Get("toml"), ",")
			if name == "" || name == "-" || !fl.IsExported() {
				continue
			}
			key := prefix + name
			ft := fl.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if _, err := LookupOption(key); err == nil {
				continue
			}
			if excludedWhy(key) != "" {
				continue
			}
			if ft.Kind() == reflect.Struct {
				walk(key+".", ft)
				continue
			}
			t.Errorf("%s is neither an option (Options in edit.go) nor excluded (excludedWhy)", key)
		}
	}
	walk("", reflect.TypeOf(File{}))
}
