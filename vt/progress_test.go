package vt

import "testing"

func TestParseProgress(t *testing.T) {
	cases := []struct {
		in   string
		want Progress
		ok   bool
		text string
	}{
		{"4", Progress{0, 0, true}, true, "4;0"},
		{"4\a", Progress{0, 0, true}, true, "4;0"},
		{"4\ajunk", Progress{0, 0, true}, true, "4;0"},
		{"4;0", Progress{0, 0, true}, true, "4;0"},
		{"4;0;50", Progress{0, 0, true}, true, "4;0"},
		{"4;1;50", Progress{1, 50, true}, true, "4;1;50"},
		{"4;1", Progress{1, 0, true}, true, "4;1;0"},
		{"4;1;", Progress{1, 0, true}, true, "4;1;0"},
		{"4;1;150", Progress{1, 100, true}, true, "4;1;100"},
		{"4;1;99999999999999999999", Progress{1, 100, true}, true, "4;1;100"},
		{"4;1;-5", Progress{1, 0, true}, true, "4;1;0"},
		{"4;1;+7", Progress{1, 7, true}, true, "4;1;7"},
		{"4;1;abc", Progress{1, 0, true}, true, "4;1;0"},
		{"4;1;50;extra", Progress{1, 50, true}, true, "4;1;50"},
		{"4;2;10", Progress{2, 10, true}, true, "4;2;10"},
		{"4;3", Progress{3, 0, true}, true, "4;3"},
		{"4;3;70", Progress{3, 0, true}, true, "4;3"},
		{"4;4;20", Progress{4, 20, true}, true, "4;4;20"},
		{"4;04;20", Progress{4, 20, true}, true, "4;4;20"},
		// Progress reports that must be ignored.
		{"4;5", Progress{}, true, ""},
		{"4;", Progress{}, true, ""},
		{"4;x;1", Progress{}, true, ""},
		{"4;-1", Progress{}, true, ""},
		{"4; 1", Progress{}, true, ""},
		{"4;99999999999999999999999", Progress{}, true, ""},
		// Ordinary notifications.
		{"", Progress{}, false, ""},
		{"40", Progress{}, false, ""},
		{"4 builds done", Progress{}, false, ""},
		{"hello", Progress{}, false, ""},
		{"44;1", Progress{}, false, ""},
		{";4;1", Progress{}, false, ""},
	}
	for _, tc := range cases {
		got, ok := ParseProgress(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseProgress(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if got.Text() != tc.text {
			t.Errorf("ParseProgress(%q).Text() = %q; want %q", tc.in, got.Text(), tc.text)
		}
	}
}

func FuzzParseProgress(f *testing.F) {
	for _, s := range []string{"4", "4;1;50", "4;3", "4\a", "4;9;", "hello", "4;1;-0", "4;;;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := ParseProgress(s)
		if !ok && p != (Progress{}) {
			t.Fatalf("not a progress report but %+v", p)
		}
		if p.Valid && (p.State < 0 || p.State > 4 || p.Percent < 0 || p.Percent > 100) {
			t.Fatalf("out of range: %+v", p)
		}
		if p.Valid {
			// The text form parses back to the same report.
			q, ok := ParseProgress(p.Text())
			if !ok || q != p {
				t.Fatalf("%q -> %+v -> %q -> %+v", s, p, p.Text(), q)
			}
		}
	})
}
