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
	if cur.kind != '{' {
		return replaceValue(src, cur, want), nil
	}
	// The person's other fields (padding, and whatever comes later) stay:
	// only command, and type when it is not "command", are tuios's.
	return setStatusLineField(src, "command", want.Command)
}

// setStatusLineField sets one string field of the statusLine object,
// keeping every other byte of it.
func setStatusLineField(src, key, v string) (string, error) {
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	cur := root.get("statusLine")
	if c := cur.get(key); c != nil {
		if c.kind == '"' && c.str == v {
			return ensureCommandType(src)
		}
		src = replaceValue(src, c, v)
	} else {
		src = appendTo(src, cur, key, v)
	}
	return ensureCommandType(src)
}

// ensureCommandType makes the statusLine object's type "command".
func ensureCommandType(src string) (string, error) {
	root, err := parseJSON(src)
	if err != nil {
		return "", err
	}
	cur := root.get("statusLine")
	switch t := cur.get("type"); {
	case t == nil:
		return appendTo(src, cur, "type", "command"), nil
	case t.kind != '"' || t.str != "command":
		return replaceValue(src, t, "command"), nil
	}
	return src, nil
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
		// The person's command comes back in place, as written in the
		// first original when it is the same command (so a file nobody
		// touched since is the same byte for byte); the fields around it
		// stay as they are now.
		if orig, err := parseJSON(original); err == nil {
			if oc := orig.get("statusLine").get("command"); oc != nil && oc.kind == '"' && oc.str == then {
				return src[:c.start] + original[oc.start:oc.end] + src[c.end:], nil
			}
		}
		return replaceValue(src, c, then), nil
	}
	// No command of the person's: a statusLine they had (padding alone)
	// loses only what tuios added; one they did not have goes.
	if orig, err := parseJSON(original); err == nil {
		if o := orig.get("statusLine"); o != nil && o.kind == '{' {
			if o.get("type") == nil {
				if i := memberIndex(cur, "type"); i >= 0 {
					src = removeAt(src, cur, i)
					if root, err = parseJSON(src); err != nil {
						return "", err
					}
					cur = root.get("statusLine")
				}
			}
			return removeAt(src, cur, memberIndex(cur, "command")), nil
		}
	}
	return removeAt(src, root, memberIndex(root, "statusLine")), nil
}
