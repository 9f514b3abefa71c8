package detect

import (
	"testing"
)

func shippedManifest(t *testing.T, id string) *Manifest {
	t.Helper()
	reg, errs := Load(LoadOptions{NoUser: true})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	m, ok := reg.Lookup(id)
	if !ok {
		t.Fatalf("no manifest %s", id)
	}
	return m
}

func fixtureTail(t *testing.T, m *Manifest, name string) []string {
	t.Helper()
	for _, fx := range loadFixtures(t, []string{m.ID}) {
		if fx.name == name {
			return tailOf(fx.screen, m.Screen.ReadLines())
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// The captured Claude Code permission prompt: the rule's lines, its three
// numbered options (the pointer marks the first) and the answers that bind
// to their labels.
func TestReadPromptOnACapturedClaudePermission(t *testing.T) {
	m := shippedManifest(t, "claude-code")
	p, ok := ReadPrompt(m, fixtureTail(t, m, "claude-code-permission-captured.txt"))
	if !ok || p.Answers == nil || p.Rule != 0 || len(p.Lines) == 0 {
		t.Fatalf("prompt: %+v", p)
	}
	if len(p.Options) != 3 || p.Options[0] != (PromptOption{N: 1, Label: "Yes", Selected: true}) || p.Options[2].Label != "No" {
		t.Fatalf("options: %+v", p.Options)
	}
	if o, ok := OptionFor(p.Options, p.Answers.Approve.Option); !ok || o.N != 1 {
		t.Fatalf("approve binds to %+v", o)
	}
	if o, ok := OptionFor(p.Options, p.Answers.ApproveAlways.Option); !ok || o.N != 2 {
		t.Fatalf("approve_always binds to %+v", o)
	}
}

// A dialog rule reads only its box; Crush's answers are keys, not options.
func TestReadPromptOnACrushDialog(t *testing.T) {
	m := shippedManifest(t, "crush")
	p, ok := ReadPrompt(m, fixtureTail(t, m, "crush-permission.txt"))
	if !ok || p.Dialog == nil || p.Answers == nil || len(p.Options) != 0 {
		t.Fatalf("prompt: %+v", p)
	}
	for _, l := range p.Lines {
		if l == " ctrl+c quit" {
			t.Fatalf("the peek shows text outside the box: %q", p.Lines)
		}
	}
	if p.Answers.Approve == nil || p.Answers.Approve.Keys[0] != "a" || p.Answers.Deny.Keys[0] != "d" {
		t.Fatalf("answers: %+v", p.Answers)
	}
	// Two boxes holding the words: no answers.
	m2 := shippedManifest(t, "crush")
	if p, ok := ReadPrompt(m2, fixtureTail(t, m2, "crush-two-boxes.txt")); ok && p.Answers != nil {
		t.Fatalf("two boxes gave answers: %+v", p)
	}
	// A screen that is not a prompt.
	if _, ok := ReadPrompt(m, []string{"$ ls", "README.md"}); ok {
		t.Fatal("a shell screen read as a prompt")
	}
}

func TestPromptOptions(t *testing.T) {
	got := PromptOptions([]string{"│ ❯ 1. Yes   │", "│   2) No, and tell it (esc) │", "  2. again", "10. not a digit option", "Do you want to proceed?"})
	if len(got) != 2 || got[0] != (PromptOption{N: 1, Label: "Yes", Selected: true}) || got[1].N != 2 || got[1].Label != "No, and tell it (esc)" {
		t.Fatalf("%+v", got)
	}
}

// A label the harness wrapped inside its box, in a narrow tile, is read
// whole: the rows under it indented past its number go on with it.
func TestPromptOptionsJoinAWrappedLabel(t *testing.T) {
	lines := []string{
		"│ Do you want to proceed?            │",
		"│ ❯ 1. Yes                           │",
		"│   2. No, and tell the agent what   │",
		"│      to do differently (esc)       │",
		"╰────────────────────────────────────╯",
	}
	opts := PromptOptions(lines)
	if len(opts) != 2 || opts[1].Label != "No, and tell the agent what to do differently (esc)" || opts[0].Label != "Yes" {
		t.Fatalf("options: %+v", opts)
	}
	// A row back at the box's own indent is not part of a label.
	opts = PromptOptions([]string{"│ 1. Yes │", "│ Esc to cancel │"})
	if len(opts) != 1 || opts[0].Label != "Yes" {
		t.Fatalf("options: %+v", opts)
	}
}
