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

// thenRE reads the chained command back: quoted, or a plain word, which
// shellQuote leaves bare (/bin/other); missing the bare form lost the
// chain on the next install and on uninstall.
var thenRE = regexp.MustCompile(` --then (?:'((?:[^']|'\\'')*)'|([^'\s]\S*))`)

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
	if m[2] != "" {
		return m[2]
	}
	return strings.ReplaceAll(m[1], `'\''`, "'")
}

func isOurStatusLine(command, harness string) bool {
	return ourCommand(harness).MatchString(command) && strings.Contains(command, " --statusline")
}

// installStatusLine points statusLine at tuios, chaining to whatever
// status line command was there (or to then, when given). A then that
// differs from the person's own command already there (or from the one
// tuios's status line chains to now) is refused with CodeStatusLineTaken:
// writing it would drop their command for good, since uninstall gives
// back only what the chain names.
func (h Harness) installStatusLine(src, program, then string) (string, error) {
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	cur := root.get("statusLine")
	if cur != nil {
		if c := cur.get("command"); c != nil && c.kind == '"' {
			own := c.str
			if isOurStatusLine(c.str, h.ID) {
				own = thenOf(c.str)
			}
			switch {
			case then == "":
				then = own
			case own != "" && own != then:
				return "", &Error{code: CodeStatusLineTaken, Harness: h.ID,
					Detail: "it runs " + strconv.Quote(own) + ", not " + strconv.Quote(then)}
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
