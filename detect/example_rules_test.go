package detect_test

import (
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/tuios/tuios/detect"
)

// A [screen] block from a manifest, compiled and run over a pane's tail
// (the bottom non-empty rows, as vt.Screen.Tail returns them).
func ExampleRuleSet_Classify() {
	const manifest = `
[screen]
enabled = true
fold_case = true
lines = 8

[[screen.rule]]
state = "needs_input"
priority = 30
message = "Waits for approval of a tool call."
all = ["Do you want"]
any = ["1. Yes", "❯ 1."]
`
	var m struct {
		Screen detect.RuleSet `toml:"screen"`
	}
	if _, err := toml.Decode(manifest, &m); err != nil {
		panic(err)
	}
	if err := m.Screen.Compile(detect.RuleScreen); err != nil {
		panic(err)
	}

	prompt := []string{" Bash command", "   touch hello.txt", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"}
	v := m.Screen.Classify(prompt)
	fmt.Println(v.Matched, v.State, v.Kind, v.Message)

	// Prose that quotes the question without the numbered list is no
	// opinion, never a state.
	prose := []string{"It asked: Do you want to proceed? I said yes."}
	fmt.Println(m.Screen.Classify(prose).Matched)

	ex := detect.ExplainScreen(&detect.Manifest{ID: "demo", Screen: m.Screen}, prose, "")
	fmt.Println(ex.Rules[0].NoneOf)
	// Output:
	// true needs_input approval approval: Do you want to proceed?
	// false
	// [1. Yes ❯ 1.]
}
