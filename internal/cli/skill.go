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

// skillTopics are the guide's parts in the order all prints them: the
// core, then the thirteen topics the agents page names.
var skillTopics = []string{"core", "panes", "state", "mail", "inbox", "fleet", "hosts", "grants",
	"events", "mcp", "tmux", "config", "errors", "recipes"}

// skillFrontMatter heads the guide when it is printed whole (the core, or
// all), so that `tuios --skill > ~/.claude/skills/tuios/SKILL.md` is a
// skill Claude Code registers: its loader reads the name and description
// from this YAML block.
const skillFrontMatter = `---
name: tuios
description: "Drive tuios from inside a terminal pane. Address panes, read and type into them, open windows to run work, wait on conditions instead of polling, report your agent state, and work with the other agents in the session. Use when TUIOS_ENV=1 or the user mentions tuios."
---

`

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
	if topic == "core" || topic == "all" {
		io.WriteString(w, skillFrontMatter)
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
