package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SetupMark is the line before each of the README's set-up command
// blocks, the commands a newcomer runs first on a fresh clone.
const SetupMark = "<!-- readme-test: setup -->"

// SetupCommands are the README's set-up commands, in order: the indented
// code block after each SetupMark line (a blank line between them), its
// lines joined.
func SetupCommands(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	lines := strings.Split(string(b), "\n")
	for i, line := range lines {
		if strings.TrimSpace(line) != SetupMark {
			continue
		}
		var block []string
		for _, l := range lines[i+1:] {
			if len(block) == 0 && strings.TrimSpace(l) == "" {
				continue // the blank line between the mark and the block
			}
			if !strings.HasPrefix(l, "    ") {
				break
			}
			block = append(block, strings.TrimPrefix(l, "    "))
		}
		out = append(out, strings.Join(block, "\n"))
	}
	return out
}
