package hosts

import (
	"strings"
	"testing"
)

func TestSplitCopyEnd(t *testing.T) {
	for _, c := range []struct{ in, host, path string }{
		{"/tmp/a", "", "/tmp/a"},
		{"/tmp/a:b", "", "/tmp/a:b"},
		{"./a:b", "", "./a:b"},
		{"report.json", "", "report.json"},
		{"lab:/srv/x", "lab", "/srv/x"},
		{"lab:notes.txt", "lab", "notes.txt"},
		{"lab:", "lab", ""},
		{"local:/tmp/x", "", "/tmp/x"},
		{"a b:x", "", "a b:x"},
		{"dir/a:b", "", "dir/a:b"},
	} {
		h, p := SplitCopyEnd(c.in)
		if h != c.host || p != c.path {
			t.Errorf("SplitCopyEnd(%q) = %q, %q; want %q, %q", c.in, h, p, c.host, c.path)
		}
	}
}

// Whatever the end, the split never panics, a host is a valid name, and
// host and path put back together give the end.
func FuzzSplitCopyEnd(f *testing.F) {
	for _, s := range []string{"/tmp/a", "lab:/x", "local:y", "./a:b", "é:x", ":x", "a::b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, p := SplitCopyEnd(s)
		if h == "" {
			if p != s && "local:"+p != s {
				t.Fatalf("local end %q came back as %q", s, p)
			}
			return
		}
		if !ValidName(h) || h == Local || strings.HasPrefix(s, "/") || h+":"+p != s {
			t.Fatalf("SplitCopyEnd(%q) = %q, %q", s, h, p)
		}
	})
}
