package integration

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A small JSON (and JSONC: comments and trailing commas) reader that
// records where each value sits in the text, so that an edit replaces or
// inserts only the bytes it must and everything else in a settings file
// stays as the person wrote it: order, spacing, comments.

type jnode struct {
	kind       byte // '{', '[', '"', or 'v' for numbers and literals
	start, end int  // the value's span
	members    []jmember
	elems      []*jnode
	str        string // a string's decoded value
}

type jmember struct {
	key      string
	keyStart int
	val      *jnode
}

type jparser struct {
	src   string
	i     int
	depth int
}

func parseJSON(src string) (*jnode, error) {
	p := &jparser{src: src}
	p.space()
	if p.i == len(src) {
		return nil, fmt.Errorf("the file is empty")
	}
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(src) {
		return nil, p.errf("text after the end of the value")
	}
	return n, nil
}

func (p *jparser) errf(format string, a ...any) error {
	line := 1 + strings.Count(p.src[:min(p.i, len(p.src))], "\n")
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
}

// space skips whitespace and comments.
func (p *jparser) space() {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case strings.HasPrefix(p.src[p.i:], "//"):
			if k := strings.IndexByte(p.src[p.i:], '\n'); k >= 0 {
				p.i += k + 1
			} else {
				p.i = len(p.src)
			}
		case strings.HasPrefix(p.src[p.i:], "/*"):
			if k := strings.Index(p.src[p.i+2:], "*/"); k >= 0 {
				p.i += k + 4
			} else {
				p.i = len(p.src)
			}
		default:
			return
		}
	}
}

func (p *jparser) value() (*jnode, error) {
	if p.depth > 200 {
		return nil, p.errf("nested too deep")
	}
	if p.i >= len(p.src) {
		return nil, p.errf("unexpected end")
	}
	switch p.src[p.i] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.i
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return &jnode{kind: '"', start: start, end: p.i, str: s}, nil
	}
	start := p.i
	for p.i < len(p.src) && strings.IndexByte(",]} \t\r\n/", p.src[p.i]) < 0 {
		p.i++
	}
	lit := p.src[start:p.i]
	var v any
	if lit == "" || json.Unmarshal([]byte(lit), &v) != nil {
		p.i = start
		return nil, p.errf("not a JSON value")
	}
	return &jnode{kind: 'v', start: start, end: p.i}, nil
}

func (p *jparser) string() (string, error) {
	start := p.i
	p.i++
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\\':
			p.i += 2
			continue
		case '"':
			p.i++
			var s string
			if err := json.Unmarshal([]byte(p.src[start:p.i]), &s); err != nil {
				p.i = start
				return "", p.errf("a bad string")
			}
			return s, nil
		case '\n':
			p.i = start
			return "", p.errf("a string runs past the end of its line")
		}
		p.i++
	}
	p.i = start
	return "", p.errf("a string is not closed")
}

func (p *jparser) object() (*jnode, error) {
	n := &jnode{kind: '{', start: p.i}
	p.i++
	p.depth++
	defer func() { p.depth-- }()
	for {
		p.space()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			n.end = p.i
			return n, nil
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return nil, p.errf("expected a key")
		}
		ks := p.i
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, p.errf("expected ':'")
		}
		p.i++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.members = append(n.members, jmember{key: k, keyStart: ks, val: v})
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			continue
		}
		return nil, p.errf("expected ',' or '}'")
	}
}

func (p *jparser) array() (*jnode, error) {
	n := &jnode{kind: '[', start: p.i}
	p.i++
	p.depth++
	defer func() { p.depth-- }()
	for {
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			n.end = p.i
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			continue
		}
		return nil, p.errf("expected ',' or ']'")
	}
}

func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- { // the last duplicate wins, as in JSON.parse
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// Text edits. Each returns the new text; callers parse again before the
// next edit, since every span after the edit moves.

// lineIndent is the whitespace that starts the line holding offset i.
func lineIndent(src string, i int) string {
	ls := strings.LastIndexByte(src[:i], '\n') + 1
	j := ls
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return src[ls:j]
}

// indentUnit guesses the file's indent step from its first indented line.
func indentUnit(src string) string {
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimLeft(line, " \t")
		if t != "" && len(t) < len(line) {
			return line[:len(line)-len(t)]
		}
	}
	return "  "
}

// render formats v for a place at the given indentation.
func render(v any, indent, unit string) string {
	b, _ := json.MarshalIndent(v, indent, unit)
	return string(b)
}

// appendTo adds a value at the end of an object (with its key) or array.
func appendTo(src string, c *jnode, key string, v any) string {
	unit := indentUnit(src)
	in := lineIndent(src, c.start)
	item := render(v, in+unit, unit)
	if key != "" {
		k, _ := json.Marshal(key)
		item = string(k) + ": " + item
	}
	var last *jnode
	if c.kind == '{' && len(c.members) > 0 {
		last = c.members[len(c.members)-1].val
	} else if c.kind == '[' && len(c.elems) > 0 {
		last = c.elems[len(c.elems)-1]
	}
	if last == nil {
		closeAt := c.end - 1
		if inner := src[c.start+1 : closeAt]; hasComment(inner) {
			// the person's comments stay; the value goes on a line after them
			return src[:c.start+1] + strings.TrimRight(inner, " \t\r\n") + "\n" + in + unit + item + "\n" + in + src[closeAt:]
		}
		return src[:c.start+1] + "\n" + in + unit + item + "\n" + in + src[closeAt:]
	}
	return src[:last.end] + ",\n" + in + unit + item + src[last.end:]
}

// replaceValue swaps one value's text for v, keeping its indentation.
func replaceValue(src string, n *jnode, v any) string {
	return src[:n.start] + render(v, lineIndent(src, n.start), indentUnit(src)) + src[n.end:]
}

// removeAt removes element i of an array, or member i of an object, with
// the comma that joined it and the line it stood on.
func removeAt(src string, c *jnode, i int) string {
	var starts, ends []int
	if c.kind == '{' {
		for _, m := range c.members {
			starts, ends = append(starts, m.keyStart), append(ends, m.val.end)
		}
	} else {
		for _, e := range c.elems {
			starts, ends = append(starts, e.start), append(ends, e.end)
		}
	}
	if len(starts) == 1 {
		if commentedAround(src, c) {
			return removeKeepingComments(src, starts[0], ends[0])
		}
		return src[:c.start+1] + src[c.end-1:]
	}
	if i > 0 {
		// from the end of the one before (the comma after it goes) to ours
		return src[:ends[i-1]] + src[ends[i]:]
	}
	// the first: up to the next one, keeping the next one's indentation
	return src[:lineStartOrSelf(src, starts[0])] + src[lineStartOrSelf(src, starts[1]):]
}

// lineStartOrSelf is the start of i's line when only whitespace precedes
// i on it, else i.
func lineStartOrSelf(src string, i int) int {
	ls := strings.LastIndexByte(src[:i], '\n') + 1
	if strings.TrimLeft(src[ls:i], " \t") == "" {
		return ls
	}
	return i
}

// hasComment reports whether text that holds no value (the inside of a
// container around its values) holds a comment.
func hasComment(text string) bool {
	return strings.Trim(text, " \t\r\n,") != ""
}

// commentedAround reports whether a container of one element or member
// holds a comment beside it. Such a container is the person's: an edit
// that takes its last value out keeps it and its comments.
func commentedAround(src string, c *jnode) bool {
	var s, e int
	switch {
	case c.kind == '{' && len(c.members) == 1:
		s, e = c.members[0].keyStart, c.members[0].val.end
	case c.kind == '[' && len(c.elems) == 1:
		s, e = c.elems[0].start, c.elems[0].end
	default:
		return false
	}
	return hasComment(src[c.start+1:s] + src[e:c.end-1])
}

// removeKeepingComments removes the only value of a container, from s to
// e, with the comma after it: its whole line when it stands alone on it,
// else the value alone, so that every comment stays.
func removeKeepingComments(src string, s, e int) string {
	ls := strings.LastIndexByte(src[:s], '\n') + 1
	k := e
	for k < len(src) && strings.IndexByte(" \t\r,", src[k]) >= 0 {
		k++
	}
	if strings.TrimLeft(src[ls:s], " \t") == "" && k < len(src) && src[k] == '\n' {
		return src[:ls] + src[k+1:]
	}
	p := &jparser{src: src, i: e}
	p.space()
	if p.i < len(src) && src[p.i] == ',' {
		return src[:s] + src[e:p.i] + src[p.i+1:]
	}
	return src[:s] + src[e:]
}
