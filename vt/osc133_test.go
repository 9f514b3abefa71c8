package vt

import "testing"

func TestParsePromptMark(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		want PromptMark
	}{
		{"A", true, PromptMark{Kind: MarkPromptStart}},
		{"A;aid=7", true, PromptMark{Kind: MarkPromptStart}},
		{"B", true, PromptMark{Kind: MarkCommandStart}},
		{"D;1", true, PromptMark{Kind: MarkCommandEnd, Exit: 1, HasExit: true}},
		{"D;0;aid=3", true, PromptMark{Kind: MarkCommandEnd, Exit: 0, HasExit: true}},
		{"D", true, PromptMark{Kind: MarkCommandEnd}},
		{"C;cmdline_url=go%20test%20.%2F...", true, PromptMark{Kind: MarkOutputStart, Cmdline: "go test ./..."}},
		{"C;cmdline=ls -la", true, PromptMark{Kind: MarkOutputStart, Cmdline: "ls -la"}},
		{"C;cmdline=a\x1b[2Jb", true, PromptMark{Kind: MarkOutputStart, Cmdline: "a [2Jb"}},
		{"", false, PromptMark{}},
		{"Z", false, PromptMark{}},
		{"Ax", false, PromptMark{}},
	}
	for _, c := range cases {
		got, ok := ParsePromptMark(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParsePromptMark(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// The command line is read back from the screen when the shell sends a
// bare C: between the B mark and the Enter.
func TestPromptMarkCommandFromScreen(t *testing.T) {
	var marks []PromptMark
	s := New(Options{Cols: 40, Rows: 3, OnEvent: func(e Event) {
		if e.Kind == EventPromptMark {
			marks = append(marks, e.Mark)
		}
	}})
	// One chunk per step, as a shell writes them; the last command is
	// typed at the bottom row, so its Enter scrolls.
	for _, chunk := range []string{
		"\x1b]133;A\x07$ \x1b]133;B\x07", "go test ./...", "\r\n\x1b]133;C\x07", "ok\r\n\x1b]133;D;0\x07",
		"\x1b]133;A\x07$ \x1b]133;B\x07", "false", "\r\n\x1b]133;C\x07\x1b]133;D;1\x07",
	} {
		s.Write([]byte(chunk))
	}
	var got []string
	for _, m := range marks {
		switch m.Kind {
		case MarkOutputStart:
			got = append(got, "C:"+m.Cmdline)
		case MarkCommandEnd:
			got = append(got, "D:"+string(rune('0'+m.Exit)))
		}
	}
	want := "C:go test ./...,D:0,C:false,D:1"
	if s := joinComma(got); s != want {
		t.Fatalf("marks %s, want %s", s, want)
	}
}

func joinComma(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
