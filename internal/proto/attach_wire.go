package proto

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Screen lines are most of what the attach stream carries (a key's echo
// is one), so they are written and read without reflection: the daemon
// appends the exact bytes encoding/json would (SetEscapeHTML(false)), and
// the attach client reads the shape the daemon writes directly, falling
// back to encoding/json for anything else. The wire is the same JSON
// line either way, so every other reader of the stream is unaffected.

// AppendAttachScreen appends s as one JSON line, byte for byte what
// encoding/json's Encoder with SetEscapeHTML(false) writes.
func AppendAttachScreen(b []byte, s *AttachScreen) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, s.Type)
	b = append(b, `,"window_id":`...)
	b = appendJSONString(b, s.Window)
	b = append(b, `,"cols":`...)
	b = strconv.AppendInt(b, int64(s.Cols), 10)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(s.Rows), 10)
	if s.Full {
		b = append(b, `,"full":true`...)
	}
	b = append(b, `,"lines":`...)
	if s.Lines == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, l := range s.Lines {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"y":`...)
			b = strconv.AppendInt(b, int64(l.Y), 10)
			b = append(b, `,"text":`...)
			b = appendJSONString(b, l.Text)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"cursor":{"x":`...)
	b = strconv.AppendInt(b, int64(s.Cursor.X), 10)
	b = append(b, `,"y":`...)
	b = strconv.AppendInt(b, int64(s.Cursor.Y), 10)
	b = append(b, `,"visible":`...)
	b = strconv.AppendBool(b, s.Cursor.Visible)
	b = append(b, `},"modes":{`...)
	first := true
	flag := func(name string, on bool) {
		if !on {
			return
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":true`...)
	}
	m := s.Modes
	flag("app_cursor", m.AppCursor)
	flag("app_keypad", m.AppKeypad)
	flag("bracketed_paste", m.BracketedPaste)
	flag("alt_screen", m.AltScreen)
	if m.Mouse != "" {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, `"mouse":`...)
		b = appendJSONString(b, m.Mouse)
	}
	flag("mouse_sgr", m.MouseSGR)
	flag("focus_events", m.FocusEvents)
	b = append(b, '}')
	if s.Title != "" {
		b = append(b, `,"title":`...)
		b = appendJSONString(b, s.Title)
	}
	return append(b, "}\n"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json does without HTML
// escaping: control characters escaped, invalid UTF-8 as U+FFFD, and
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// errNotFast sends a line to encoding/json.
var errNotFast = errors.New("not the screen line the daemon writes")

// ParseAttachScreen reads a screen line as the daemon writes it into s.
// It reads the daemon's shape only: anything else (an
// unknown or repeated key, a null but for the lines, a number that is not a plain int,
// invalid UTF-8, trailing bytes) is an error, and the caller reads the
// line with encoding/json instead. What it accepts, it reads exactly as
// encoding/json would.
func ParseAttachScreen(line []byte, s *AttachScreen) error {
	p := wireParser{b: line}
	*s = AttachScreen{}
	var seen uint32
	once := func(bit uint32) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return once(1) && p.str(&s.Type)
		case "window_id":
			return once(2) && p.str(&s.Window)
		case "cols":
			return once(4) && p.int(&s.Cols)
		case "rows":
			return once(8) && p.int(&s.Rows)
		case "full":
			return once(16) && p.bool(&s.Full)
		case "title":
			return once(32) && p.str(&s.Title)
		case "lines":
			if !once(64) {
				return false
			}
			if p.null() {
				return true
			}
			lines := make([]AttachLine, 0, 4)
			ok := p.array(func() bool {
				var l AttachLine
				var got uint32
				ok := p.object(func(key []byte) bool {
					switch string(key) {
					case "y":
						if got&1 != 0 {
							return false
						}
						got |= 1
						return p.int(&l.Y)
					case "text":
						if got&2 != 0 {
							return false
						}
						got |= 2
						return p.str(&l.Text)
					}
					return false
				})
				lines = append(lines, l)
				return ok
			})
			s.Lines = lines
			return ok
		case "cursor":
			if !once(128) {
				return false
			}
			var got uint32
			return p.object(func(key []byte) bool {
				switch string(key) {
				case "x":
					return got&1 == 0 && p.int(&s.Cursor.X) && p.mark(&got, 1)
				case "y":
					return got&2 == 0 && p.int(&s.Cursor.Y) && p.mark(&got, 2)
				case "visible":
					return got&4 == 0 && p.bool(&s.Cursor.Visible) && p.mark(&got, 4)
				}
				return false
			})
		case "modes":
			if !once(256) {
				return false
			}
			var got uint32
			m := &s.Modes
			return p.object(func(key []byte) bool {
				var bit uint32
				var v *bool
				switch string(key) {
				case "app_cursor":
					bit, v = 1, &m.AppCursor
				case "app_keypad":
					bit, v = 2, &m.AppKeypad
				case "bracketed_paste":
					bit, v = 4, &m.BracketedPaste
				case "alt_screen":
					bit, v = 8, &m.AltScreen
				case "mouse_sgr":
					bit, v = 16, &m.MouseSGR
				case "focus_events":
					bit, v = 32, &m.FocusEvents
				case "mouse":
					return got&64 == 0 && p.str(&m.Mouse) && p.mark(&got, 64)
				default:
					return false
				}
				return got&bit == 0 && p.bool(v) && p.mark(&got, bit)
			})
		}
		return false
	})
	if !ok || !p.end() {
		*s = AttachScreen{}
		return errNotFast
	}
	return nil
}

// wireParser reads the subset of JSON the daemon writes.
type wireParser struct {
	b []byte
	i int
}

func (p *wireParser) mark(got *uint32, bit uint32) bool { *got |= bit; return true }

func (p *wireParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *wireParser) byte(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end accepts only whitespace after the value.
func (p *wireParser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// object reads {"key": value, …}, calling field for each key with the
// parser at its value.
func (p *wireParser) object(field func(key []byte) bool) bool {
	if !p.byte('{') {
		return false
	}
	if p.byte('}') {
		return true
	}
	for {
		p.ws()
		key, ok := p.plainString()
		if !ok || !p.byte(':') {
			return false
		}
		p.ws()
		if !field(key) {
			return false
		}
		if p.byte(',') {
			continue
		}
		return p.byte('}')
	}
}

func (p *wireParser) array(elem func() bool) bool {
	if !p.byte('[') {
		return false
	}
	if p.byte(']') {
		return true
	}
	for {
		p.ws()
		if !elem() {
			return false
		}
		if p.byte(',') {
			continue
		}
		return p.byte(']')
	}
}

// plainString reads a string without escapes (a key), in place.
func (p *wireParser) plainString() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i + 1
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			p.i = j + 1
			return p.b[start:j], true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// null reads a null (the nil slice's encoding).
func (p *wireParser) null() bool {
	p.ws()
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

func (p *wireParser) bool(v *bool) bool {
	p.ws()
	switch {
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		*v = true
		p.i += 4
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		*v = false
		p.i += 5
	default:
		return false
	}
	return true
}

// int reads -?(0|[1-9][0-9]*) that fits an int.
func (p *wireParser) int(v *int) bool {
	p.ws()
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	if p.i == digits || (p.b[digits] == '0' && p.i > digits+1) {
		return false
	}
	if p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return false
	}
	n, err := strconv.ParseInt(string(p.b[start:p.i]), 10, strconv.IntSize)
	if err != nil {
		return false
	}
	*v = int(n)
	return true
}

// str reads a string with JSON's escapes; the bytes between the quotes
// must be valid UTF-8 (encoding/json would replace what is not).
func (p *wireParser) str(v *string) bool {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return false
	}
	start := p.i + 1
	j := start
	for j < len(p.b) && p.b[j] != '"' && p.b[j] != '\\' && p.b[j] >= 0x20 {
		j++
	}
	if j < len(p.b) && p.b[j] == '"' {
		if !utf8.Valid(p.b[start:j]) {
			return false
		}
		*v = string(p.b[start:j])
		p.i = j + 1
		return true
	}
	out := make([]byte, 0, j-start+16)
	out = append(out, p.b[start:j]...)
	for j < len(p.b) {
		c := p.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return false
			}
			*v = string(out)
			p.i = j + 1
			return true
		case c < 0x20:
			return false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(p.b) {
			return false
		}
		switch e := p.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := hex4(p.b[j+2:])
			if n < 0 {
				return false
			}
			j += 6
			if utf16.IsSurrogate(r) {
				r2, n2 := rune(-1), -1
				if j+1 < len(p.b) && p.b[j] == '\\' && p.b[j+1] == 'u' {
					r2, n2 = hex4(p.b[j+2:])
				}
				if d := utf16.DecodeRune(r, r2); n2 >= 0 && d != utf8.RuneError {
					j += 6
					r = d
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return false
		}
		j += 2
	}
	return false
}

// hex4 reads four hex digits; n is -1 when they are not.
func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, -1
		}
		r = r<<4 | rune(c)
	}
	return r, 4
}
