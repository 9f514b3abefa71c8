package review

import (
	"strings"
	"testing"
)

const samplePatch = "diff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -1,2 +1,3 @@ func f()\n a\n-b\n+c\n+d\n\\ No newline at end of file\n" +
	"diff --git a/old name b/new name\nsimilarity index 100%\nrename from old name\nrename to new name\n" +
	"diff --git \"a/t\\tab\" \"b/t\\tab\"\nnew file mode 100644\n--- /dev/null\n+++ \"b/t\\tab\"\n@@ -0,0 +1 @@\n+z\n" +
	"diff --git a/bin b/bin\nBinary files a/bin and b/bin differ\n"

func TestParseUnified(t *testing.T) {
	fs := ParseUnified([]byte(samplePatch))
	if len(fs) != 4 {
		t.Fatalf("%d files: %+v", len(fs), fs)
	}
	h := fs[0].Hunks[0]
	if fs[0].Path != "x.go" || h.Header != "@@ -1,2 +1,3 @@ func f()" || len(h.Lines) != 4 || !h.Lines[3].NoNewline ||
		h.Lines[1] != (Line{Op: OpDelete, Old: 2, Text: "b"}) || h.Lines[3].New != 3 {
		t.Errorf("x.go: %+v", fs[0])
	}
	if fs[1].Path != "new name" || fs[1].OldPath != "old name" {
		t.Errorf("rename: %+v", fs[1])
	}
	if fs[2].Path != "t\tab" || fs[2].Hunks[0].Lines[0].New != 1 {
		t.Errorf("quoted: %+v", fs[2])
	}
	if !fs[3].Binary || fs[3].Path != "bin" {
		t.Errorf("binary: %+v", fs[3])
	}
	cut := ParseUnified([]byte(samplePatch[:strings.Index(samplePatch, "+d")]))
	if !cut[0].Cut {
		t.Error("a clipped hunk is not marked cut")
	}
}

// FuzzParseUnified: any bytes parse without a panic, and every line's
// numbers stay within its hunk's ranges.
func FuzzParseUnified(f *testing.F) {
	f.Add([]byte(samplePatch))
	f.Add([]byte("diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n"))
	f.Add([]byte("@@ -0,0 +0,0 @@\n"))
	f.Add([]byte("diff --git \"a/\\377\\"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, pf := range ParseUnified(b) {
			for _, h := range pf.Hunks {
				for _, l := range h.Lines {
					if l.Op == OpAdd && (l.New < h.NewStart || l.New > h.NewStart+h.NewLines) ||
						l.Op == OpDelete && (l.Old < h.OldStart || l.Old > h.OldStart+h.OldLines) {
						t.Fatalf("line %+v outside hunk %s", l, h.Header)
					}
				}
			}
		}
	})
}

func TestFollowAndMessage(t *testing.T) {
	file := func(extra int, keep bool) []string {
		var l []string
		for range extra {
			l = append(l, "// new")
		}
		for i := 1; i <= 60; i++ {
			if i == 42 {
				if keep {
					l = append(l, "\t\treturn err  ")
				}
				continue
			}
			l = append(l, "x")
		}
		return l
	}
	n := Note{Path: "api/retry.go", Line: 42, Quote: "return err"}
	n.Follow(file(10, true))
	if n.Line != 52 || n.Outdated {
		t.Fatalf("moved: %+v", n)
	}
	n.Follow(file(10, false))
	if !n.Outdated || n.Line != 52 {
		t.Fatalf("deleted: %+v", n)
	}
	n.Follow(file(0, true))
	if n.Outdated || n.Line != 42 {
		t.Fatalf("restored: %+v", n)
	}
	msg, err := ComposeMessage(Message{Base: "main", Sender: "the person", Notes: []SendNote{
		{Note: Note{ID: "n2", Path: "b.go", Line: 3, Quote: "token = \"ghp_abcdefghijklmnop\"\x1b[2J", Text: "do not log this"}},
		{Note: Note{ID: "n1", Path: "a.go", Line: 9, Quote: "x", Text: "why?", Outdated: true}, WrittenBy: "pane lead"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Review notes on your changes (vs main), from the person:\n\n" +
		"1. a.go:9, on \"x\" (outdated: the line is no longer there) (written by pane lead, not by the person)\n   why?\n\n" +
		"2. b.go:3, on \"token = \\\"****\\\"[2J\"\n   do not log this\n\n" +
		"Address each note, then say which you changed.\n"
	if msg != want {
		t.Fatalf("message:\n%s\nwant:\n%s", msg, want)
	}
	if _, err := ComposeMessage(Message{}); err == nil || err.(*DiffError).Code != "no_notes" {
		t.Fatalf("no notes: %v", err)
	}
}
