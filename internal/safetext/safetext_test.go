package safetext

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct {
		in      string
		keepTab bool
		want    string
	}{
		{"plain ✳ 👨‍👩‍👧", false, "plain ✳ 👨‍👩‍👧"},
		{"a\x1b[2Jb", false, `a\x1b[2Jb`},
		{"tab\there", false, `tab\there`},
		{"tab\there", true, "tab\there"},
		{"\u202eevil\n", true, `\u202eevil\n`},
		{"bad\xffbyte", false, `bad\xffbyte`},
		{"real \ufffd kept", false, "real \ufffd kept"},
	} {
		if got := Escape(c.in, c.keepTab); got != c.want {
			t.Errorf("Escape(%q, %v) = %q, want %q", c.in, c.keepTab, got, c.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"  approve\tBash:\n make  test ": "approve Bash: make test",
		"\x1b[31mred\x1b[m":              "[31mred[m", // the ESC goes, so nothing is coloured
		"a\u202eb\u200bc\xffd":           "abcd",
		"":                               "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
