package agentproto_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/agentproto"
)

func ExampleClean() {
	fmt.Printf("%q\n", agentproto.Clean("\x1b]0;pwned\x07\x1b[31mDone\x1b[0m: 3 files\u202e"))
	// Output: "Done: 3 files"
}

func ExampleSplitCommand() {
	argv, _ := agentproto.SplitCommand(`npx -y '@zed-industries/claude-code-acp'`)
	fmt.Printf("%q\n", argv)
	// Output: ["npx" "-y" "@zed-industries/claude-code-acp"]
}
