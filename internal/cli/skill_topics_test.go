package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// The thirteen topics the agents page names, each printable alone.
var pageTopics = []string{"panes", "state", "mail", "inbox", "fleet", "hosts", "grants",
	"events", "mcp", "tmux", "config", "errors", "recipes"}

func skillText(t *testing.T, args ...string) string {
	t.Helper()
	var b bytes.Buffer
	if err := runSkill(&b, args); err != nil {
		t.Fatalf("--skill %v: %v", args, err)
	}
	return b.String()
}

func TestSkillKnowsEveryTopicOfThePage(t *testing.T) {
	for _, topic := range pageTopics {
		out := skillText(t, topic)
		if !strings.HasPrefix(out, "# ") || len(out) < 200 {
			t.Errorf("--skill %s: %.80q", topic, out)
		}
		if strings.HasPrefix(out, "---") {
			t.Errorf("--skill %s carries front matter", topic)
		}
	}
	core := skillText(t)
	for _, topic := range pageTopics {
		if !strings.Contains(core, "`"+topic+"`") && !strings.Contains(core, "--skill "+topic) {
			t.Errorf("the core does not name the topic %s", topic)
		}
	}
}

// tuios --skill is a SKILL.md Claude Code registers: YAML front matter
// with name and description, then the guide.
func TestSkillIsASkillFile(t *testing.T) {
	for _, args := range [][]string{nil, {"all"}} {
		out := skillText(t, args...)
		head, body, ok := strings.Cut(strings.TrimPrefix(out, "---\n"), "\n---\n")
		if !strings.HasPrefix(out, "---\n") || !ok {
			t.Fatalf("--skill %v has no front matter:\n%.200s", args, out)
		}
		fields := map[string]string{}
		for _, line := range strings.Split(head, "\n") {
			k, v, found := strings.Cut(line, ": ")
			if !found {
				t.Fatalf("front matter line %q is not key: value", line)
			}
			fields[k] = v
		}
		if fields["name"] != "tuios" {
			t.Errorf("name = %q", fields["name"])
		}
		d := fields["description"]
		// Quoted, so the colons and dashes a description may hold stay
		// one YAML string.
		if len(d) < 40 || d[0] != '"' || d[len(d)-1] != '"' || strings.Contains(d[1:len(d)-1], `"`) {
			t.Errorf("description = %q", d)
		}
		if !strings.HasPrefix(strings.TrimLeft(body, "\n"), "# Driving tuios from a pane") || strings.Count(out, "\n---\nname:") > 0 {
			t.Errorf("--skill %v: the guide does not follow one front matter", args)
		}
	}
	all := skillText(t, "all")
	for _, topic := range pageTopics {
		if !strings.Contains(all, skillText(t, topic)) {
			t.Errorf("--skill all lacks %s", topic)
		}
	}
}

// absentVerbs are commands the topics name only to say this version does
// not have them. When one is added, this test fails: the topic that says
// it is missing must be rewritten.
var absentVerbs = []string{"grant"}

// The guide never shows a tuios command that does not exist.
func TestSkillNamesOnlyRealVerbs(t *testing.T) {
	table := commands()
	for _, v := range absentVerbs {
		if c, _ := lookup(table, []string{v}); c != nil {
			t.Errorf("%q is a verb now: rewrite the skill topics that say it is not in this version", v)
		}
	}
	absent := map[string]bool{}
	for _, v := range absentVerbs {
		absent[v] = true
	}
	cmd := regexp.MustCompile("(?m)(?:^[ \\t]+|`|\\$\\(|; |\\| )tuios ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?")
	for _, topic := range append([]string{"core"}, pageTopics...) {
		for _, m := range cmd.FindAllStringSubmatch(skillText(t, topic), -1) {
			words := []string{m[1]}
			if m[2] != "" {
				words = append(words, m[2])
			}
			if absent[m[1]] {
				continue
			}
			if c, _ := lookup(table, words); c == nil {
				t.Errorf("--skill %s shows %q, which is no verb", topic, m[0])
			}
		}
	}
}
