package worktree_test

import (
	"fmt"

	"github.com/tuios/tuios/internal/worktree"
)

// A fan's names come from its prompt: the branch stem, each attempt's
// branch and session, and its folder under tuios's data folder.
func Example() {
	stem := worktree.Stem("Add a retry with backoff to the HTTP client.", "")
	for _, b := range worktree.Branches(stem, 2) {
		fmt.Println(b, worktree.SessionName("api", b), worktree.Dir("/home/u/.local/share/tuios", "api", b))
	}
	argv, _ := worktree.SplitCommand(`codex --model 'o3 mini'`)
	fmt.Printf("%q\n", argv)
	// Output:
	// fan/add-retry-backoff api-fan-add-retry-backoff /home/u/.local/share/tuios/worktrees/api/fan-add-retry-backoff
	// fan/add-retry-backoff-2 api-fan-add-retry-backoff-2 /home/u/.local/share/tuios/worktrees/api/fan-add-retry-backoff-2
	// ["codex" "--model" "o3 mini"]
}
