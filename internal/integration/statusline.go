package integration

import (
	"regexp"
	"strconv"
	"strings"
)

// Claude Code's status line: settings.json "statusLine": {"type":
// "command", "command": "..."} runs a command on every redraw with the
// session's model, cost and context use on stdin, and shows what it
// prints. tuios's command records those as agent metadata and prints the
// line: its own, or the output of the person's own status line command,
// which it chains to with --then and never replaces.

type statusLine struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

var thenRE = regexp.MustCompile(` --then '((?:[^']|'\\'')*)'`)

// statusLineCommand is tuios's status line command, chained to then.
func (h Harness) statusLineCommand(program, then string) string {
	c := shellQuote(program) + " agent-hook " + h.ID + " --integration " + strconv.Itoa(h.Version) + " --statusline"
	if then != "" {
		c += " --then " + shellQuote(then)
	}
	return c
}

// thenOf is the command a tuios status line chains to.
func thenOf(command string) string {
	m := thenRE.FindStringSubmatch(command)
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], `'\''`, "'")
}

func isOurStatusLine(command, harness string) bool {
	return ourCommand(harness).MatchString(command) && strings.Contains(command, " --statusline")
}

// installStatusLine points statusLine at tuios, chaining to whatever
// status line command was there (or to then, when given).
func (h Harness) installStatusLine(src, program, then string) (string, error) {
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	cur := root.get("statusLine")
	if cur != nil {
		if c := cur.get("command"); c != nil && c.kind == '"' {
			switch {
			case then != "":
			case isOurStatusLine(c.str, h.ID):
				then = thenOf(c.str)
			default:
				then = c.str
			}
		}
	}
	want := statusLine{Type: "command", Command: h.statusLineCommand(program, then)}
	if cur == nil {
		return appendTo(src, root, "statusLine", want), nil
	}
	if c := cur.get("command"); c != nil && c.kind == '"' && c.str == want.Command {
		return src, nil
	}
	return replaceValue(src, cur, want), nil
}

// uninstallStatusLine gives the person's own status line back, or removes
// tuios's. When the backup of the first original holds the same command,
// its status line comes back exactly as it was written.
func (h Harness) uninstallStatusLine(src, original string) (string, error) {
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	cur := root.get("statusLine")
	c := cur.get("command")
	if cur == nil || c == nil || c.kind != '"' || !isOurStatusLine(c.str, h.ID) {
		return src, nil
	}
	if then := thenOf(c.str); then != "" {
		if orig, err := parseJSON(original); err == nil {
			if o := orig.get("statusLine"); o != nil {
				if oc := o.get("command"); oc != nil && oc.kind == '"' && oc.str == then {
					return src[:cur.start] + original[o.start:o.end] + src[cur.end:], nil
				}
			}
		}
		return replaceValue(src, cur, statusLine{Type: "command", Command: then}), nil
	}
	return removeAt(src, root, memberIndex(root, "statusLine")), nil
}
