package acp_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/agentproto/acp"
)

// The tool name a permission request's kind becomes in the held line and
// for the risk rules.
func ExampleToolName() {
	fmt.Println(acp.ToolName("execute"), acp.ToolName("read"), acp.ToolName(""))
	// Output: shell read tool
}
