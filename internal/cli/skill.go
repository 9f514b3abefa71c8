package cli

import (
	"embed"
	"fmt"
	"io"
	"strings"
)

// skillFS is the agent guide printed by tuios --skill. It describes this
// binary, so it ships inside it.
//
//go:embed skill/*.md
var skillFS embed.FS

var skillTopics = []string{"core", "panes", "state", "mail", "hosts", "events", "errors", "recipes"}

// runSkill prints the guide's core, one topic, or all of it.
func runSkill(w io.Writer, args []string) error {
	topic := "core"
	if len(args) > 0 {
		topic = args[0]
	}
	topics := []string{topic}
	if topic == "all" {
		topics = skillTopics
	}
	for i, t := range topics {
		b, err := skillFS.ReadFile("skill/" + t + ".md")
		if err != nil {
			return usageError("tuios --skill state", "no topic %q; topics: %s, all", topic, strings.Join(skillTopics, ", "))
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		w.Write(b)
	}
	return nil
}
