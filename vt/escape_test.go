package vt

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain ✳ text 👨‍👩‍👧": "plain ✳ text 👨‍👩‍👧",
		"a\x1b[2Jb":          `a\x1b[2Jb`,
		"tab\there\nnl":      `tab\there\nnl`,
		"\u202eevil":         `\u202eevil`,
		"bad\xffbyte":        `bad\xffbyte`,
		"c1\u009bx":          `c1\u009bx`,
		"real \ufffd kept":   "real \ufffd kept",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
