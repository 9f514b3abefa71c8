package inbox_test

import (
	"errors"
	"fmt"

	"github.com/tuios/tuios/agentstate"
	"github.com/tuios/tuios/inbox"
)

// A selector picks the panes that fit a description: here every Codex pane
// in a fan session that is resting. A term that does not match, or that the
// pane cannot answer, leaves the pane out.
func ExampleParseSelector() {
	sel, err := inbox.ParseSelector(`harness:codex state:idle,done session:api-fan-*`, inbox.SelectorOptions{Home: "/home/ada"})
	if err != nil {
		panic(err)
	}
	panes := []inbox.SelectorFields{
		{Session: "api-fan-1", Name: "codex", Harness: "codex", State: agentstate.Done},
		{Session: "api-fan-2", Name: "codex", Harness: "codex", State: agentstate.Working},
		{Session: "api-fan-3", Name: "claude", Harness: "claude-code", Program: "claude", State: agentstate.Idle},
		{Session: "api", Name: "lead", Harness: "codex", State: agentstate.Idle},
	}
	for _, p := range panes {
		fmt.Printf("%-9s %-6s %v\n", p.Session, p.Name, sel.Match(&p))
	}
	fmt.Println(sel)

	_, err = inbox.ParseSelector("colour:red", inbox.SelectorOptions{})
	var se *inbox.SelectorError
	if errors.As(err, &se) {
		fmt.Println(se.Code(), se.Param, se.Term, se.Accepted())
	}
	// Output:
	// api-fan-1 codex  true
	// api-fan-2 codex  false
	// api-fan-3 claude false
	// api       lead   false
	// harness:codex state:idle,done session:api-fan-*
	// invalid_params select colour:red [harness state needs session group host name cwd]
}
