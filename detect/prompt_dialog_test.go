package detect

import (
	"strings"
	"testing"

	"github.com/tuios/tuios/vt"
)

// fixtureScreen is a fixture's whole screen.
func fixtureScreen(t *testing.T, id, name string) []string {
	t.Helper()
	for _, fx := range loadFixtures(t, []string{id}) {
		if fx.name == name {
			return fx.screen
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// The captured Claude Code prompt: the rule reads 8 rows, the dialog runs
// from the rule over it, and its body holds the command.
func TestReadDialogOnACapturedClaudePermission(t *testing.T) {
	m := shippedManifest(t, "claude-code")
	screen := fixtureScreen(t, "claude-code", "claude-code-permission-captured.txt")
	p, ok := ReadPrompt(m, tailOf(screen, m.Screen.ReadLines()))
	if !ok {
		t.Fatal("no prompt")
	}
	d := ReadDialog(p, screen, true)
	if !d.Whole || !strings.HasPrefix(d.Lines[0], "────") || !strings.Contains(strings.Join(d.Body, "\n"), "touch hello.txt") {
		t.Fatalf("dialog: %+v", d)
	}
	if strings.Contains(strings.Join(d.Body, "\n"), "1. Yes") {
		t.Fatalf("the body reaches the options: %q", d.Body)
	}
}

// permissionBox draws a prompt as the pretend agent does: a box 64 columns
// wide, the command on its third row.
func permissionBox(cmd string) string {
	rows := []string{"Bash command", "", "  " + cmd, "  Clean the build directory", "", "Do you want to proceed?", "❯ 1. Yes",
		"  2. No, and tell the agent what to do differently (esc)"}
	var b strings.Builder
	b.WriteString("╭" + strings.Repeat("─", 62) + "╮\r\n")
	for _, r := range rows {
		b.WriteString("│ " + r + strings.Repeat(" ", max(0, 60-len([]rune(r)))) + " │\r\n")
	}
	b.WriteString("╰" + strings.Repeat("─", 62) + "╯\r\n")
	return b.String()
}

// A short, narrow pane cuts the command off the rows a rule reads; the
// history and the joined rows still hold the dialog whole.
func TestReadDialogFindsTheCommandAShortPaneCut(t *testing.T) {
	m := shippedManifest(t, "claude-code")
	sc := vt.New(vt.Options{Cols: 80, Rows: 24})
	sc.Write([]byte("● Reading the tree\r\n" + permissionBox("rm -rf build/")))
	sc.Resize(40, 10)
	p, ok := ReadPrompt(m, sc.Tail(m.Screen.ReadLines()))
	if !ok {
		t.Fatalf("no prompt on\n%s", sc.Text())
	}
	if strings.Contains(strings.Join(p.Lines, "\n"), "rm -rf") {
		t.Fatalf("the rule's own lines hold the command; the test shows nothing:\n%s", strings.Join(p.Lines, "\n"))
	}
	d := ReadDialog(p, sc.LastLines(MaxDialogLines), !sc.AltScreen())
	if !d.Whole || !strings.HasPrefix(d.Lines[0], "╭") || !strings.Contains(strings.Join(d.Body, "\n"), "rm -rf build/") {
		t.Fatalf("dialog: %+v", d)
	}
}

// A full-screen program's alternate screen keeps no history: the top of a
// dialog taller than the pane is gone, and the dialog is not whole.
func TestReadDialogOnACutAlternateScreen(t *testing.T) {
	m := shippedManifest(t, "claude-code")
	sc := vt.New(vt.Options{Cols: 80, Rows: 7})
	sc.Write([]byte("\x1b[?1049h\x1b[H" + permissionBox("rm -rf build/")))
	p, ok := ReadPrompt(m, sc.Tail(m.Screen.ReadLines()))
	if !ok {
		t.Fatalf("no prompt on\n%s", sc.Text())
	}
	d := ReadDialog(p, sc.LastLines(MaxDialogLines), !sc.AltScreen())
	if d.Whole || strings.Contains(strings.Join(d.Body, "\n"), "rm -rf") {
		t.Fatalf("a cut dialog read as whole: %+v", d)
	}
	// No frame, or no option to anchor on: read as the rule read it, whole
	// where the history kept what scrolled up.
	lines := []string{" Bash command", "", "   touch hello.txt", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"}
	bare := Prompt{Lines: lines, Options: PromptOptions(lines)}
	if d := ReadDialog(bare, lines, true); !d.Whole || len(d.Lines) != len(lines) || d.Body[2] != "touch hello.txt" {
		t.Fatalf("no frame, main screen: %+v", d)
	}
	if d := ReadDialog(bare, lines, false); d.Whole {
		t.Fatalf("no frame, alternate screen: %+v", d)
	}
	if d := ReadDialog(Prompt{Lines: []string{"Proceed?"}}, []string{"Proceed?"}, false); d.Whole {
		t.Fatalf("no options, alternate screen: %+v", d)
	}
}

// A dialog rule's box is the dialog, whole unless it said otherwise.
func TestReadDialogOfADialogRule(t *testing.T) {
	m := shippedManifest(t, "crush")
	p, ok := ReadPrompt(m, fixtureTail(t, m, "crush-permission.txt"))
	if !ok || p.Dialog == nil {
		t.Fatalf("prompt: %+v", p)
	}
	if d := ReadDialog(p, nil, false); d.Whole != !p.Dialog.Partial || len(d.Lines) != len(p.Lines) {
		t.Fatalf("dialog: %+v", d)
	}
}

// FuzzReadDialog: any text and any prompt read from it: no panic, and a
// whole dialog's lines are the end of the text.
func FuzzReadDialog(f *testing.F) {
	f.Add("╭──────╮\n│ rm -rf x │\n│ Do you want to proceed? │\n│ ❯ 1. Yes │\n╰──────╯")
	f.Add("────\n Bash command\n   ls\n Do you want to proceed?\n ❯ 1. Yes\n   2. No")
	f.Add("1. Yes\n1. Yes\n───")
	f.Fuzz(func(t *testing.T, s string) {
		text := strings.Split(s, "\n")
		p := Prompt{Lines: text, Options: PromptOptions(text)}
		d := ReadDialog(p, text, len(s)%2 == 0)
		if len(d.Options) > 0 && (len(d.Lines) == 0 || d.Lines[len(d.Lines)-1] != text[len(text)-1]) {
			t.Fatalf("a framed dialog %q does not end the text", d.Lines)
		}
	})
}
