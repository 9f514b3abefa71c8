package tui

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSyntaxPaintsByFileType(t *testing.T) {
	for _, c := range []struct {
		path, text, base, want string
	}{
		{"api/retry.go", `return "x" // done`, sgrAdd,
			sgrKeyword + "return" + sgrAdd + " " + sgrString + `"x"` + sgrAdd + " " + sgrComment + "// done" + sgrAdd},
		{"main.go", "n := 42 /* hi */ + m", "",
			"n := " + sgrNumber + "42" + "\x1b[39m " + sgrComment + "/* hi */" + "\x1b[39m + m"},
		{"a.go", `s := "a\"b" + x`, "", `s := ` + sgrString + `"a\"b"` + "\x1b[39m + x"},
		{"run.sh", "echo ${#a} # count", "", "echo ${#a} " + sgrComment + "# count" + "\x1b[39m"},
		{"q.sql", "SELECT id", "", sgrKeyword + "SELECT" + "\x1b[39m id"},
		{"notes.txt", `return "x" // done`, sgrAdd, `return "x" // done`},
		{"x.py", "résumé = None", "", "résumé = " + sgrKeyword + "None" + "\x1b[39m"},
	} {
		if got := syntaxOf(c.path).paint(c.text, c.base); got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", c.path, c.text, got, c.want)
		}
	}
}

func FuzzSyntaxPaint(f *testing.F) {
	f.Add("x.go", "func f() { return `a` + \"b\\\" }")
	f.Add("x.sh", "# \x1b[31m")
	f.Fuzz(func(t *testing.T, name, text string) {
		in := codeText(text)
		if out := syntaxOf(name).paint(in, sgrDel); ansi.Strip(out) != in {
			t.Fatalf("painting changed the text: %q -> %q", in, ansi.Strip(out))
		}
	})
}
