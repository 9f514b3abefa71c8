package tui

import "strings"

// riskyText is a risky approval's line as its Inbox row and its rail row
// say it (seed 003: the row reads "risky:", the rail's word is "risky"):
// "risky:" in place of the kind word a screen rule reported, so
// "approval: Do you want to proceed?" reads "risky: Do you want to
// proceed?", and in front of any other line ("risky: approve Bash: …").
func riskyText(s string) string {
	return "risky: " + strings.TrimPrefix(s, "approval: ")
}
