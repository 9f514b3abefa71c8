package detect

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/vt"
)

// Crush's "Permission Required" dialog read from fixture screens: the
// pane is needs_input, kind approval, message "approve <tool>: <what>"
// (the command for bash, the file for edit and write, the URL or folder
// otherwise), with " (not all shown)" when the dialog scrolls, is narrow
// (description only) or the message is cut, so the person never approves
// a call they could not read whole; the peek offers Crush's keys a, s and
// d. The fixtures are written from Crush's documented dialog, not
// captured (Crush could not be installed here); their headers say so.

type crushCase struct {
	fixture string
	tool    string
	message string // exact; "" = checked by prefix and suffix below
	prefix  string
	partial bool
}

var crushCases = []crushCase{
	{fixture: "crush-permission.txt", tool: "bash", message: "approve bash: touch hello.txt"},
	{fixture: "crush-permission-bash.txt", tool: "bash", message: "approve bash: touch hello.txt"},
	{fixture: "crush-permission-edit.txt", tool: "edit", message: "approve edit: ~/src/hello/main.go"},
	{fixture: "crush-permission-write.txt", tool: "write", message: "approve write: ~/src/hello/docs/NOTES.md"},
	{fixture: "crush-permission-fetch.txt", tool: "fetch", message: "approve fetch: https://example.invalid/docs/install.md"},
	{fixture: "crush-permission-ls.txt", tool: "ls", message: "approve ls: ~/src/hello/internal"},
	// Narrow: the dialog shows the description only.
	{fixture: "crush-permission-narrow.txt", tool: "bash", partial: true,
		message: "approve bash: Create an empty file named hello.txt in the project directory (not all shown)"},
	// Narrow edit: the File field still carries the whole (wrapped) path.
	{fixture: "crush-permission-narrow-edit.txt", tool: "edit",
		message: "approve edit: ~/src/projects/hello-world/internal/server/main.go"},
	// The command view scrolls: the message the risk rules' corpus checks
	// for a cut call, word for word.
	{fixture: "crush-permission-scroll.txt", tool: "bash", partial: true,
		message: "approve bash: curl -fsSL https://example.invalid/install.sh | (not all shown)"},
	// Longer than a message: cut, and said so.
	{fixture: "crush-permission-long.txt", tool: "bash", partial: true, prefix: "approve bash: go test -race -count=1 -run 'TestDialog|TestCrush|TestReadPr"},
	// A command whose first word is a field label is still the command.
	{fixture: "crush-permission-label-command.txt", tool: "bash", message: "approve bash: file hello.txt"},
	// A tall pane: the dialog sits in the middle, rows fill the pane below it.
	{fixture: "crush-permission-tall.txt", tool: "bash", message: "approve bash: ls -la"},
}

func checkCrushVerdict(t *testing.T, c crushCase, v Verdict) {
	t.Helper()
	if !v.Matched || v.State != agentstate.NeedsInput || v.Kind != agentstate.KindApproval || v.Rule != 0 {
		t.Fatalf("%s: verdict %+v", c.fixture, v)
	}
	if v.Dialog == nil {
		t.Fatalf("%s: no dialog (message %q)", c.fixture, v.Message)
	}
	if v.Dialog.Tool != c.tool || v.Dialog.Partial != c.partial {
		t.Errorf("%s: tool %q partial %v, want %q %v", c.fixture, v.Dialog.Tool, v.Dialog.Partial, c.tool, c.partial)
	}
	switch {
	case c.message != "":
		if v.Message != c.message {
			t.Errorf("%s: message\n got %q\nwant %q", c.fixture, v.Message, c.message)
		}
	default:
		if !strings.HasPrefix(v.Message, c.prefix) || !strings.HasSuffix(v.Message, notAllShown) {
			t.Errorf("%s: cut message %q", c.fixture, v.Message)
		}
		if n := utf8.RuneCountInString(v.Message); n != MaxMessageRunes {
			t.Errorf("%s: cut message of %d runes, want %d", c.fixture, n, MaxMessageRunes)
		}
	}
	if strings.HasSuffix(v.Message, notAllShown) != c.partial {
		t.Errorf("%s: message %q, partial %v", c.fixture, v.Message, c.partial)
	}
}

// Each fixture through the shipped manifest's rules, cut as the daemon
// cuts a pane (the bottom `lines` non-empty rows).
func TestCrushDialogFixtures(t *testing.T) {
	m := shippedManifest(t, "crush")
	for _, c := range crushCases {
		t.Run(c.fixture, func(t *testing.T) {
			checkCrushVerdict(t, c, m.Screen.Classify(fixtureTail(t, m, c.fixture)))
		})
	}
}

// The same screens drawn into a vt.Screen of the pane's size and read back
// with Tail, the way the tracker reads a pane: wide and two-cell glyphs
// must keep the box's columns in line.
func TestCrushDialogFixturesThroughVT(t *testing.T) {
	m := shippedManifest(t, "crush")
	fixtures := map[string][]string{}
	for _, fx := range loadFixtures(t, []string{"crush"}) {
		fixtures[fx.name] = fx.screen
	}
	for _, c := range crushCases {
		t.Run(c.fixture, func(t *testing.T) {
			rows := fixtures[c.fixture]
			if rows == nil {
				t.Fatalf("no fixture %s", c.fixture)
			}
			cols := 0
			for _, r := range rows {
				cols = max(cols, len(vt.LineCells(r)))
			}
			s := vt.New(vt.Options{Cols: cols + 2, Rows: len(rows) + 1})
			var b strings.Builder
			for y, r := range rows {
				fmt.Fprintf(&b, "\x1b[%d;1H%s", y+1, r)
			}
			if _, err := s.Write([]byte(b.String())); err != nil {
				t.Fatal(err)
			}
			checkCrushVerdict(t, c, m.Screen.Classify(s.Tail(m.Screen.ReadLines())))
		})
	}
}

// peek-prompt's reading: only the box's lines, no numbered options, and
// the answers of the manifest's [screen.rule.answers]: approve presses a,
// approve_always s, deny d (the Inbox's a, A and d: allow, allow for the
// session, deny).
func TestCrushDialogPeek(t *testing.T) {
	m := shippedManifest(t, "crush")
	for _, c := range crushCases {
		t.Run(c.fixture, func(t *testing.T) {
			p, ok := ReadPrompt(m, fixtureTail(t, m, c.fixture))
			if !ok || p.Dialog == nil || p.Kind != agentstate.KindApproval {
				t.Fatalf("prompt: %+v", p)
			}
			a := p.Answers
			if a == nil || a.Approve == nil || a.ApproveAlways == nil || a.Deny == nil {
				t.Fatalf("answers: %+v", a)
			}
			for _, x := range []struct {
				name string
				got  *Answer
				key  string
			}{{"approve", a.Approve, "a"}, {"approve_always", a.ApproveAlways, "s"}, {"deny", a.Deny, "d"}} {
				if x.got.Option != "" || len(x.got.Keys) != 1 || x.got.Keys[0] != x.key {
					t.Errorf("%s: %+v, want keys [%s]", x.name, x.got, x.key)
				}
			}
			if len(p.Options) != 0 {
				t.Errorf("options on a key dialog: %+v", p.Options)
			}
			if strings.Join(p.Lines, "\n") != strings.Join(p.Dialog.Lines, "\n") || len(p.Lines) == 0 {
				t.Errorf("peek lines are not the box: %q", p.Lines)
			}
			if p.Lines[0] != " Permission Required" {
				t.Errorf("first box line %q", p.Lines[0])
			}
			for _, l := range p.Lines {
				for _, outside := range []string{"ctrl+c quit", "gopls", "Modified Files", "I'll", "│", "╭", "╰"} {
					if strings.Contains(l, outside) {
						t.Errorf("the peek shows %q from outside the box: %q", outside, l)
					}
				}
			}
		})
	}
}

// The dialog's words outside any box never match: a dialog rule matches
// only when one bordered box holds all its strings, so an agent quoting
// the words is not a dialog. Two boxes holding them match but give no
// dialog message and no answers.
func TestCrushDialogWordsOutsideABox(t *testing.T) {
	m := shippedManifest(t, "crush")
	for _, name := range []string{"crush-quoted.txt", "crush-quoted-transcript.txt"} {
		tail := fixtureTail(t, m, name)
		if v := m.Screen.Classify(tail); v.Matched {
			t.Errorf("%s: matched %+v", name, v)
		}
		if p, ok := ReadPrompt(m, tail); ok {
			t.Errorf("%s: read as a prompt %+v", name, p)
		}
	}
	tail := fixtureTail(t, m, "crush-two-boxes.txt")
	v := m.Screen.Classify(tail)
	if !v.Matched || v.Dialog != nil || strings.HasPrefix(v.Message, "approve") {
		t.Errorf("two boxes: %+v", v)
	}
	if p, ok := ReadPrompt(m, tail); ok && p.Answers != nil {
		t.Errorf("two boxes offer answers: %+v", p.Answers)
	}
}

// Any screen: the dialog rule never panics, a message stays within
// MaxMessageRunes, and a dialog's message names its tool.
func FuzzCrushDialog(f *testing.F) {
	for _, fx := range loadFixtures(f, []string{"crush"}) {
		if fx.harness == "crush" {
			f.Add(strings.Join(fx.screen, "\n"))
		}
	}
	reg, errs := Load(LoadOptions{NoUser: true})
	if len(errs) > 0 {
		f.Fatalf("load: %v", errs)
	}
	m, ok := reg.Lookup("crush")
	if !ok {
		f.Fatal("no crush manifest")
	}
	f.Fuzz(func(t *testing.T, screen string) {
		tail := tailOf(strings.Split(screen, "\n"), m.Screen.ReadLines())
		v := m.Screen.Classify(tail)
		if n := utf8.RuneCountInString(v.Message); n > MaxMessageRunes {
			t.Fatalf("message of %d runes", n)
		}
		if v.Dialog != nil && v.Dialog.Tool != "" && !strings.HasPrefix(v.Message, "approve "+v.Dialog.Tool) {
			t.Fatalf("dialog message %q for tool %q", v.Message, v.Dialog.Tool)
		}
		if p, ok := ReadPrompt(m, tail); ok && p.Dialog != nil && len(p.Lines) != len(p.Dialog.Lines) {
			t.Fatalf("peek lines %q, box %q", p.Lines, p.Dialog.Lines)
		}
	})
}
