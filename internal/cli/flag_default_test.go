package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// Each flag shows one default, the real one: none when the usage already
// names it or the default is an unset zero, numbers bare, strings quoted.
func TestFlagDefaultShownOnce(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Int("idle", 0, "window-idle: milliseconds of silence (default 500)")
	fs.Int("workspace", 0, "the workspace, 1 to 9")
	fs.Int("timeout", 30000, "milliseconds before giving up")
	fs.String("format", "png", "the format")
	fs.String("name", "", "the name")
	fs.StringArray("attach", nil, "a file")
	fs.Duration("wait", 500*time.Millisecond, "give up after this long")
	fs.Bool("json", false, "print JSON")
	want := map[string]string{"idle": "", "workspace": "", "timeout": " (default 30000)", "format": ` (default "png")`,
		"name": "", "attach": "", "wait": " (default 500ms)", "json": ""}
	for name, w := range want {
		if got := flagDefault(fs.Lookup(name)); got != w {
			t.Errorf("--%s: %q, want %q", name, got, w)
		}
	}
}

// No verb's --help shows two defaults on one flag, or a quoted number.
func TestEveryHelpShowsOneDefaultPerFlag(t *testing.T) {
	quotedNumber := regexp.MustCompile(`\(default "-?[0-9]+"\)`)
	table := commands()
	for i := range table {
		var b bytes.Buffer
		writeHelp(&b, table, &table[i])
		for _, line := range strings.Split(b.String(), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "-") {
				continue
			}
			if strings.Count(strings.ToLower(line), "default") > 1 || quotedNumber.MatchString(line) || strings.Contains(line, `(default "[]")`) {
				t.Errorf("%s: %s", table[i].Name, line)
			}
		}
	}
}
