package detect_test

import (
	"errors"
	"fmt"

	"github.com/tuios/tuios/detect"
)

// A recorded screen — the bytes an agent wrote to its terminal — is
// explained in one call: replayed on a screen of the recorded size and
// read by the harness's rules, as a live pane's look reads it.
func ExampleRegistry_ExplainBytes() {
	reg, _ := detect.Load(detect.LoadOptions{NoUser: true})
	recording := []byte("\x1b]0;✳ Claude Code\x07" +
		"● Bash(rm -rf build/)\r\n\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n")

	ex, err := reg.ExplainBytes(recording, detect.ExplainBytesOptions{Harness: "claude-code", Cols: 80, Rows: 24})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("fired:", ex.Matched, "rule", ex.Rule, ex.RuleState, ex.Kind, ex.Message)
	for _, line := range ex.Tail {
		fmt.Printf("| %s\n", line) // pane text: data, fenced when shown
	}
	fmt.Printf("title: rule %d (%s) matches; block on: %v; fired: %v\n", ex.TitleRule, ex.TitleRuleState, ex.TitleEnabled, ex.TitleMatched)
	// ex.String() is the whole explanation: every rule, and why each
	// other one did not match.

	_, err = reg.ExplainBytes(recording, detect.ExplainBytesOptions{Harness: "claude"})
	var he *detect.HarnessError
	if errors.As(err, &he) {
		fmt.Println(he.Code(), "did you mean", he.DidYouMean)
	}
	// Output:
	// fired: true rule 0 needs_input approval approval: Do you want to proceed?
	// | ● Bash(rm -rf build/)
	// |  Do you want to proceed?
	// |  ❯ 1. Yes
	// |    2. No
	// title: rule 1 (idle) matches; block on: false; fired: false
	// unknown_harness did you mean claude-code
}
